"""The comparison report (``sdc compare``; ``sdc protect`` writes it for its release).

:func:`write_comparison` renders a :class:`~sdc.workflow.compare.Comparison` into a folder of
fixed file names, with the renderers of the assessment report (same look, same safety)::

    report.html       self-contained page, figures embedded
    report.md         the same content in Markdown
    summary.txt       the same content in plain text
    report.json       everything machine-readable (schema_version 1)
    report.xlsx       one sheet per table
    config.toml       the assessment configuration of the original (sdc assess --config reruns it)
    risk.csv          every risk figure before and after
    utility.csv       the utility measures
    changes.csv       cells changed and suppressed per variable
    key_frequencies.csv   the key variables' levels before and after
    plots/*.png       risk before/after, changed distributions, correlations

The folder is written whole or not at all, never over a folder sdc did not write, and no
file is more readable than the two input files.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from sdc._files import csv_text
from sdc._stats import summary_values
from sdc._version import __version__
from sdc.protect._result import CELLS_CHANGED
from sdc.report.compare_plots import COMPARE_FIGURES, comparison_figures
from sdc.report.content import SAFETY_NOTE, Report, Section, Table
from sdc.report.formatting import fmt_num, fmt_pct, passes_if
from sdc.report.safety import safe_frame
from sdc.report.serialize import frame_records, jsonable
from sdc.workflow.compare import Comparison
from sdc.workflow.compare_attacks import ATTACKS
from sdc.workflow.compare_records import KEY_LEVELS_SHOWN
from sdc.workflow.utility_registry import ASSOCIATION_LABELS, COMPARE_COLUMN_LABELS
from sdc.workflow.config import FORMATS, to_toml

__all__ = ["write_comparison", "comparison_files", "build_comparison_report", "comparison_document",
           "ComparisonFolder", "comparison_headline"]

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class ComparisonFolder:
    path: Path
    files: tuple[str, ...]
    report: Report = field(repr=False)  # the whole report: too long to show as the folder's repr


def _kv(rows: list[tuple[str, object]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["item", "value"])


def comparison_headline(c: Comparison) -> str:
    """The risk of every scenario before -> after (a line each), what changed, and the verdicts
    that changed (pass -> fail first): lines for the console, paragraphs in the report."""
    k = c.config.thresholds.k
    after = {r.scenario.name: r for r in c.after.scenarios}
    lines = []
    for b in c.before.scenarios:
        a = after.get(b.scenario.name)
        if a is None or b.profile is None or a.profile is None or b.risk is None or a.risk is None:
            continue
        lines.append(
            f"Scenario '{b.scenario.name}': sample uniques {fmt_pct(b.profile.pct_unique)} -> "
            f"{fmt_pct(a.profile.pct_unique)}; records with fk < {k} {fmt_num(b.profile.n_k_lt_threshold)} -> "
            f"{fmt_num(a.profile.n_k_lt_threshold)}; expected re-identifications "
            f"{fmt_num(b.risk.expected_reidentifications, 2)} -> {fmt_num(a.risk.expected_reidentifications, 2)} "
            f"(global risk {fmt_num(b.risk.global_risk_pct, 3)}% -> {fmt_num(a.risk.global_risk_pct, 3)}%).")
    cells = int(c.changes["cells_changed"].sum())
    cols = int((c.changes["status"] == "dropped").sum())
    lines.append(f"{fmt_num(cells)} cells changed in {len(c.changed_variables)} variable(s); "
                 + (f"{fmt_num(cols)} column(s) dropped; " if cols else "")
                 + f"{fmt_num(c.records_dropped)} record(s) dropped.")
    v = c.verdicts
    if len(v):
        turned = []
        for was, now in (("pass", "fail"), ("fail", "pass")):
            hit = v[(v["verdict before"] == was) & (v["verdict after"] == now)]
            if len(hit):
                named = [f"{m} in '{sc}'" for sc, m in zip(hit["scenario"], hit["measure"])]
                more = f", and {len(named) - 3} more" if len(named) > 3 else ""
                turned.append(f"{len(named)} {was} -> {now}: {'; '.join(named[:3])}{more}")
        if turned:
            lines.append("Verdicts that changed: " + ". ".join(turned) + ".")
    return "\n".join(lines)


def _file_list(formats: tuple[str, ...], figures: Mapping[str, bytes], has_assoc: bool = False,
               has_analyses: bool = False) -> dict[str, str]:
    files = {}
    if "html" in formats:
        files["report.html"] = "the comparison, self-contained (figures embedded)"
    if "md" in formats:
        files["report.md"] = "the comparison in Markdown"
    if "txt" in formats:
        files["summary.txt"] = "the comparison in plain text"
    if "json" in formats:
        files["report.json"] = "everything machine-readable (schema_version 1)"
    if "xlsx" in formats:
        files["report.xlsx"] = "one sheet per table"
    files["config.toml"] = "the assessment configuration of the original file"
    if "csv" in formats:
        files.update({"risk.csv": "every risk figure before and after", "utility.csv": "the utility measures",
                      **({"associations.csv": "every pair of variables whose association changed"}
                         if has_assoc else {}),
                      **({"analyses.csv": "each analysis' coefficients fitted to both files"} if has_analyses else {}),
                      "changes.csv": "cells changed and suppressed per variable",
                      "release_marginals.csv": "every variable of the release: its shift, and what withheld records take away",
                      "key_frequencies.csv": "levels of the key variables before and after"})
    if "png" in formats:
        files.update({f"plots/{n}.png": COMPARE_FIGURES[n] for n in figures})
    return files


def _keys_section(c: Comparison) -> Section:
    """Records by class size and the levels of the key variables (capped, said on the page)."""
    s = Section("keys", "Key frequencies before and after",
                ["Records by class size fk (the number of records sharing the key values), and the levels of each "
                 "key variable as assessed (continuous keys banded; a key the protection recoded is compared band "
                 "to band: the original's values coded as the release codes them)."])
    s.tables.append(Table("class sizes", "Records by class size", c.class_sizes))
    left = c.key_levels_left_out
    s.tables.append(Table(
        "key frequencies", f"Levels of the key variables (at most {KEY_LEVELS_SHOWN} per variable)", c.key_levels_shown,
        note=(f"Per variable at most {KEY_LEVELS_SHOWN} levels are shown: those whose count changed most, then the "
              "most frequent. Left out here: " + "; ".join(f"{var}: {fmt_num(n)} levels" for var, n in left.items())
              + ". Every level is in key_frequencies.csv.") if left else
        f"Every level is shown (at most {KEY_LEVELS_SHOWN} per variable are; all are in key_frequencies.csv)."))
    return s


def _utility_section(c: Comparison) -> Section:
    """The utility measures, the marginals and the associations, over the variables used."""
    over = ", ".join(c.utility_variables) or "none"
    s = Section("utility", "Utility", [
        f"The utility measures (sdc.utility) on the matched records, over the utility variables named "
        f"(utility_variables, --utility-variables): {over}. The eigenvalue similarity reads the numeric ones among "
        "them; a variable released as bands is categorical." if c.utility_named else
        f"The utility measures (sdc.utility) on the matched records, over the variables whose values changed: {over} "
        "(pseudonymised identifiers left out: a pseudonym replaces a value one for one; a variable a step named "
        "but left unchanged is left out too; --utility-variables names others)."])
    if len(c.utility_table):
        s.tables.append(Table("utility", "Utility measures", c.utility_table, show=["label", "unit", "variable", "value"],
                              labels={"label": "measure"}, keep=frozenset({"variable"}),
                              note="Information loss, share of the range: the mean |x' - x| / range per variable "
                                   "(categorical: the share of changed values; a suppressed cell counts as a loss "
                                   "of 1); it is not sdcMicro's IL1, which sdc.il1s(...).il1 gives. Eigenvalue "
                                   "similarity: of the correlation matrices; non-uniform entropy: of the keys. Combined "
                                   "score (ai_score, what sdc advise ranks by): sdcMicro's ai_utility_score of the keys, "
                                   "0 when nothing is lost, lower is better; a key that gains values (the means of a "
                                   "microaggregation) loses nothing and earns no credit (sdcMicro's formula would "
                                   "count it below 0). SSE/SST: ARX's 1 - SSE/SST of the keys read as numbers "
                                   "(text keys without a hierarchy by their rank), 1 when unchanged, higher is "
                                   "better. Discernibility and average class size: ARX's DM and AECS of the keys' "
                                   "classes (a missing key value a value of its own). After record swapping, infoLoss: sdcMicro's table-based measures over "
                                   "the tables of the swap's geography and risk variables (mean over the cells). "
                                   "The code names (il1, il1_overall, eigen_similarity_pct, ...) are the measure column "
                                   "of utility.csv and report.json. Formulas: docs/utility.md."))
    else:
        s.paragraphs.append("No utility figure (see the notes).")
    if len(c.marginals):
        s.tables.append(Table("marginals", "Marginal distributions of the "
                              + ("utility variables" if c.utility_named else "changed variables"), c.marginals,
                              labels=COMPARE_COLUMN_LABELS,
                              note="largest shift (points): the largest change of a category's share, in percentage "
                                   "points."))
    if len(c.associations):
        s.tables.append(Table("associations", "Associations that changed (largest first, first 30)",
                              c.associations.head(30).assign(measure=lambda d: [
                                  ASSOCIATION_LABELS.get(str(m), str(m)) for m in d["measure"]]),
                              labels=COMPARE_COLUMN_LABELS,
                              note="Every pair is in associations.csv."))
    if len(c.analyses):
        s.tables.append(Table("analyses", "Analysis validity: the configured models fitted to both files",
                              c.analyses, show=_ANALYSIS_COLUMNS, labels=_ANALYSIS_LABELS,
                              note="[[analyses]] of the configuration (docs/utility.md). Interval overlap (Karr et "
                                   "al. 2006): 1 the same interval, 0 the intervals only touch, below 0 apart; "
                                   "standardised difference: (after - before) / standard error before. A term fitted "
                                   "in one file only (a category that disappeared) has no overlap. Every column is in "
                                   "analyses.csv."))
    s.figures += ["changed_distributions", "correlations"]
    return s


#: The columns of the analysis-validity table on the page, and their headings.
_ANALYSIS_COLUMNS = ["analysis", "model", "term", "estimate_before", "estimate_after", "ci_overlap", "std_difference",
                     "sign_agrees"]
_ANALYSIS_LABELS = {"estimate_before": "coefficient before", "estimate_after": "coefficient after",
                    "ci_overlap": "interval overlap", "std_difference": "standardised difference",
                    "sign_agrees": "same sign"}


def build_comparison_report(c: Comparison, *, files: Mapping[str, str] | None = None,
                            title: str = "Disclosure risk and utility: original and released file",
                            audience: str = "internal") -> Report:
    """The comparison's sections (tables and figure names), independent of format; the first
    says which audience the report is for (:mod:`sdc.report.audience`; an external report is
    rendered from :func:`for_audience`'s comparison)."""
    from sdc.report.audience import audience_section

    sections: list[Section] = [audience_section(audience), _input_section(c), _summary_section(c),
                               _risk_section(c), _keys_section(c)]
    sections += [s for s in (_release_section(c), _utility_section(c), _attack_section(c)) if s is not None]
    sections += _changes_sections(c) + _closing_sections(c, files)
    return Report(title=title, generated=str(c.provenance.get("generated_utc", "")), sections=sections)


def _input_section(c: Comparison) -> Section:
    """The two files: their names, hashes and the records matched."""
    prov = c.provenance
    s = Section("input", "The two files")
    rows: list[tuple[str, object]] = [("original", prov.get("original", "")), ("released", prov.get("released", ""))]
    rows += [(f"SHA-256 of {Path(f).name}", h) for f, h in (prov.get("sha256") or {}).items()]
    rows += [("records in the original", c.n_original), ("records in the released file", c.n_released),
             ("records matched", len(c.original)), ("original records dropped", c.records_dropped),
             ("records matched by", c.matched_by)]
    s.tables.append(Table("input", "The files", _kv(rows)))
    return s


def _summary_section(c: Comparison) -> Section:
    """The headline and the verdicts before and after."""
    s = Section("summary", "Summary", comparison_headline(c).split("\n"))
    v = c.verdicts.copy()
    v["passes if"] = [passes_if(x) for x in v["threshold"]]
    s.tables.append(Table("verdicts", "Verdicts before and after", v,
                          show=["scenario", "measure", "statistic", "passes if", "before", "verdict before", "after",
                                "verdict after"]))
    return s


def _risk_section(c: Comparison) -> Section:
    """Every risk figure before and after."""
    k = c.config.thresholds.k
    s = Section("risk", "Risk before and after",
                ["Every risk measure of sdc assess, computed with the same configuration on both files "
                 "(the released file's adaptations are in the notes). change = after - before."])
    s.tables.append(Table("risk", "Risk figures", c.risk,
                          note=f"k-anonymity counts the records in classes of fewer than k records, fk < {k} (they "
                               f"violate {k}-anonymity), as the verdicts do; the rows with fk <= {k} are the other "
                               "count, offered beside it. Each row says its unit: a share is from 0 to 1, % from 0 "
                               "to 100."))
    s.figures.append("risk_before_after")
    return s




def _release_section(c: Comparison) -> Section | None:
    """Every variable's distribution before and after (None without release marginals)."""
    if not len(c.release_marginals):
        return None
    s = Section("release", "Every variable of the release",
                ["Each variable's distribution in the original (all its records) against the release (its "
                 "records), sensitive variables first, then the keys. A variable no step changed is untouched; "
                 "when records were withheld (dropped), its distribution still moves, and the last column is "
                 "what the withheld records alone take away."])
    s.tables.append(Table("release marginals", "Every variable of the release", c.release_marginals,
                          note="total variation: half the sum of the absolute differences of the shares (0 = the "
                               "same distribution, 1 = disjoint); largest shift: the largest change of one "
                               "level's share, in percentage points (missing is a level; a numeric variable "
                               "with over 50 values over the original's deciles). Definitions: "
                               "docs/compare-sweep.md."))
    return s


def _changes_sections(c: Comparison) -> list[Section]:
    """The cells changed per variable, then the protection log's sections (if any)."""
    s = Section("changes", "What the protection changed",
                [CELLS_CHANGED[0].upper() + CELLS_CHANGED[1:] + " (on the matched records). Cells suppressed = "
                 "present in the original, missing in the release. A dropped column shows 0 cells changed and the "
                 "status dropped."])
    s.tables.append(Table("changes", "Cells changed per variable", c.changes, labels=COMPARE_COLUMN_LABELS))
    sections = [s]
    if c.protection:
        from sdc.report.protection_log import protection_sections

        for sec in protection_sections(c.protection, prefix="p "):
            sec.title = "Protection log: " + sec.title[0].lower() + sec.title[1:]
            sections.append(sec)
    return sections


def _closing_sections(c: Comparison, files: Mapping[str, str] | None) -> list[Section]:
    """The files of the folder (if given), the notes and how to reproduce the run."""
    prov = c.provenance
    sections: list[Section] = []
    if files:
        s = Section("files", "Files in this folder")
        s.tables.append(Table("files", "Files", pd.DataFrame(list(files.items()), columns=["file", "contents"])))
        sections.append(s)
    shown = set(c.attack_figures.notes) if c.attack_figures is not None else set()  # in the attacks section
    notes = [n for n in c.notes if n not in shown] + [f"original file: {n}" for n in c.before.notes] + \
        [f"released file: {n}" for n in c.after.notes] + [SAFETY_NOTE]
    sections.append(Section("notes", "Notes", list(dict.fromkeys(notes))))
    s = Section("reproduce", "How to reproduce", [
        f"Command: {prov.get('command') or 'sdc compare ...'}",
        "The same files and configuration give the same report, byte for byte, except the line with the generation "
        "time."])
    vrows = [("config", prov.get("config_source", ""))] + [(f"{k} version", v) for k, v in
                                                          (prov.get("versions") or {}).items()]
    vrows.append(("platform", prov.get("platform", "")))
    s.tables.append(Table("provenance", "Provenance", _kv(vrows)))
    sections.append(s)
    return sections


#: The attacks of :mod:`sdc.workflow.compare_attacks` in the report: table key, title, what it shows.
_ATTACK_TABLES = {
    "singling_out": ("singling out attack", "Singling-out attack per scenario (anonymeter design)",
                     "Queries built from a file that select exactly one of its records (univariate: one rare value; "
                     "multivariate: up to three keys of a record); the attack succeeds when the query also selects "
                     "exactly one original record. risk = (attack rate - control rate) / (1 - control rate), with "
                     "its 95 % interval; attacks = queries found."),
    "linkability": ("linkability attack", "Linkability attack per scenario (anonymeter design)",
                    "The attacker holds the keys split in two files (A and B) and links each target to its nearest "
                    "record of the file on A and on B; success when both point to the same record."),
    "inference": ("inference attack", "Inference attack per scenario and sensitive variable (anonymeter design)",
                  "The attacker knows a target's keys and guesses its sensitive value as that of the nearest record "
                  "(numeric: right within 5 %)."),
    "skewness": ("skewness attack", "Skewness attack per scenario and sensitive variable",
                 "lift = (share of a value in the class) / (its share in the file), classes of the keys as assessed, "
                 "numeric sensitive variables in their l-diversity bands; a class is skewed from lift 2."),
}


def _attack_section(c: Comparison) -> Section | None:
    """The attacks before and after: the linkage attack, then singling out, linkability, inference, skewness."""
    more = c.attack_figures
    if not len(c.attacks) and (more is None or not len(more.table)):
        return None
    s = Section("attacks", "Attacks before and after", [
        "Simulated attacks on the original and on the released file, with the same seed (change = after - before). "
        "After a deterministic recoding the attacker codes his records the way the release does. Formulas and "
        "sources: docs/attacks.md; what each figure means: docs/compare-sweep.md."])
    if len(c.attacks):
        s.tables.append(Table("linkage attack", "Linkage attack per scenario", c.attacks,
                              note="The attacker knows his targets: he holds the true key values of a share of the "
                                   "original's records (fixed seed), whatever the release suppressed (recoded the "
                                   "published way), and links them exactly to each file, a missing value matching "
                                   "anything; a record is re-identified when its match is unique and correct."))
    if more is not None and len(more.table):
        st = more.settings
        if "n_control" in st:
            seed = f" (seed {st['seed']})" if "seed" in st else ""  # an external report has none
            s.paragraphs.append(
                f"Singling out, linkability and inference follow anonymeter (Giomi et al. 2023): "
                f"{st['n_control']:,} original records are held out as control records{seed}; before, "
                f"the attacker is given the other {st['n_training']:,} original records themselves, after, their "
                f"released records; both are judged on the same records. Up to {st['n_attacks']:,} attacks each.")
        for name in ATTACKS:
            rows = more.rows(name)
            if len(rows):
                key, title, note = _ATTACK_TABLES[name]
                s.tables.append(Table(key, title, rows, note=note))
    if more is not None and more.notes:
        s.paragraphs += list(more.notes)
    return s


def comparison_document(report: Report, c: Comparison, files: Mapping[str, str]) -> dict[str, Any]:
    """``report.json`` of the comparison."""
    tables = {}
    for s in report.sections:
        for t in s.tables:
            tables[t.key] = {"section": s.title, "title": t.title, "note": t.note,
                             "columns": [str(col) for col in t.frame.columns], "rows": frame_records(t.frame)}
    prov = {k: v for k, v in c.provenance.items() if k != "generated_utc"}
    return jsonable({
        "schema_version": SCHEMA_VERSION,
        "generator": f"sdc {__version__}",
        "title": report.title,
        "audience": next((p for sec in report.sections if sec.key == "audience" for p in sec.paragraphs), ""),
        "generated_utc": report.generated,
        "provenance": prov,
        "config": c.config.to_dict(),
        "config_released": c.after.config.to_dict(),
        "records": {"original": c.n_original, "released": c.n_released, "matched": len(c.original),
                    "dropped": c.records_dropped, "matched_by": c.matched_by},
        "summary": summary_values(c.summary()),
        "risk": frame_records(c.risk),
        "verdicts": frame_records(c.verdicts),
        "utility": frame_records(c.utility_table),
        "changes": frame_records(c.changes),
        "class_sizes": frame_records(c.class_sizes),
        "key_frequencies": frame_records(c.key_levels_shown),
        "key_frequencies_left_out": c.key_levels_left_out,
        "protection": c.protection,
        "attacks": _attacks_document(c),
        "tables": tables,
        "files": dict(files),
        "notes": [p for s in report.sections if s.key == "notes" for p in s.paragraphs],
    })


def _attacks_document(c: Comparison) -> dict[str, Any]:
    """``report.json``'s ``attacks``: the linkage rows, then each attack's rows, its settings and notes."""
    doc: dict[str, Any] = {"linkage": frame_records(c.attacks)}
    more = c.attack_figures
    for name in ATTACKS:
        doc[name] = frame_records(more.rows(name)) if more is not None else []
    doc["settings"] = dict(more.settings) if more is not None else {}
    doc["notes"] = list(more.notes) if more is not None else []
    return doc


def for_audience(c: Comparison, audience: str) -> Comparison:
    """`c` as the `audience` sees it: external, without the protection log's seeds and
    secrets, the attacks' seed and the command line (:func:`sdc.report.audience.external_log`)."""
    from dataclasses import replace

    from sdc.report.audience import check_audience, external_log

    if check_audience(audience) == "internal":
        return c
    more = c.attack_figures
    return replace(c, protection=external_log(c.protection) if c.protection else c.protection,
                   provenance=external_log(dict(c.provenance)),
                   attack_figures=more if more is None else replace(more, settings=external_log(dict(more.settings))))


def comparison_files(c: Comparison, *, formats: Sequence[str] | None = None,
                     released_name: str | None = None, audience: str = "internal") -> dict[str, str | bytes]:
    """Every file of the comparison folder (name -> content), without writing anything.

    `released_name` names the released file in the report when `c` compared DataFrames (as
    ``sdc protect`` does before it writes the file)."""
    if released_name and c.provenance.get("released", "(a DataFrame)") == "(a DataFrame)":
        from dataclasses import replace

        c = replace(c, provenance={**c.provenance, "released": released_name})
    return _render(c, formats, audience)[0]


def _render(c: Comparison, formats: Sequence[str] | None,
            audience: str = "internal") -> tuple[dict[str, str | bytes], Report]:
    from sdc.report.html import render_html
    from sdc.report.text import render_markdown, render_text
    from sdc.report.xlsx import render_xlsx

    formats = tuple(formats or c.config.formats)
    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise ValueError(f"unknown report format {bad[0]!r}; allowed: {', '.join(FORMATS)}.")
    figs = comparison_figures(c) if ("html" in formats or "png" in formats) else {}
    listing = _file_list(formats, figs, has_assoc=bool(len(c.associations)), has_analyses=bool(len(c.analyses)))
    c = for_audience(c, audience)
    report = build_comparison_report(c, files=listing, audience=audience)
    png = "png" in formats
    out: dict[str, str | bytes] = {}
    if "html" in formats:
        out["report.html"] = render_html(report, figs)
    if "md" in formats:
        out["report.md"] = render_markdown(report, figs, png_files=png)
    if "txt" in formats:
        out["summary.txt"] = render_text(report, figs, png_files=png)
    if "json" in formats:
        out["report.json"] = json.dumps(comparison_document(report, c, listing), indent=2, ensure_ascii=False,
                                        allow_nan=False) + "\n"
    if "xlsx" in formats:
        out["report.xlsx"] = render_xlsx(report)
    out["config.toml"] = to_toml(c.config)
    if "csv" in formats:
        out["risk.csv"] = csv_text(safe_frame(c.risk))
        out["utility.csv"] = csv_text(safe_frame(c.utility_table))
        if len(c.associations):
            out["associations.csv"] = csv_text(safe_frame(c.associations))
        if len(c.analyses):
            out["analyses.csv"] = csv_text(safe_frame(c.analyses))
        out["changes.csv"] = csv_text(safe_frame(c.changes))
        out["release_marginals.csv"] = csv_text(safe_frame(c.release_marginals))
        out["key_frequencies.csv"] = csv_text(safe_frame(c.key_frequencies))
    if png:
        out.update({f"plots/{n}.png": b for n, b in figs.items()})
    return out, report


def write_comparison(c: Comparison, out: str | Path, *, formats: Sequence[str] | None = None,
                     inputs: Sequence[str | Path] = (), audience: str = "internal") -> ComparisonFolder:
    """Write the comparison folder `out` (see the module docstring); `audience` ``"external"``
    leaves out seeds, secrets and the command line (:mod:`sdc.report.audience`).

    `inputs` are the two files compared: no output is more readable than they are.
    """
    from sdc.report.folder import source_files, write_folder

    if not isinstance(c, Comparison):
        raise TypeError(f"`c` must be a Comparison (what sdc.compare returns); got {type(c).__name__}.")

    files, report = _render(c, formats, audience)
    write_folder(out, files, marker="This folder was written by sdc compare; sdc replaces it whole on the next run.\n",
                 inputs=inputs, read_from=source_files(c.config.source))
    return ComparisonFolder(path=Path(out), files=tuple(files), report=report)
