"""Text rendering of results for the terminal. The only place numbers are rounded for display."""

from __future__ import annotations

import math
import re

import pandas as pd

from sdc.risk.attacker import AttackerRiskResult
from sdc.attribute.closeness import TClosenessResult
from sdc.risk.household import HouseholdRiskResult
from sdc.risk.model import ModelRiskResult
from sdc.risk.suda import SudaResult
from sdc.risk.uniqueness import PopulationUniquenessResult
from sdc.attribute.inference import InferenceResult
from sdc.risk.kanonymity import KAnonymityResult
from sdc.attribute.ldiversity import LDiversityResult
from sdc.risk.individual import IndividualRiskResult
from sdc.risk.snapshots import SnapshotResult

__all__ = [
    "visible", "one_line_text", "md_text", "passes_if",
    "fmt_num", "fmt_pct", "format_cell", "render_table", "risk_text", "snapshots_text", "ldiversity_text",
    "tcloseness_text",
    "inference_text", "household_text", "suda_text", "modrisk_text", "uniqueness_text",
]


# Characters a terminal or a text viewer acts on rather than shows: C0 controls but tab and
# line feed, DEL, C1 controls (0x9b is an 8-bit CSI), and the Unicode bidirectional overrides
# and isolates that reorder what is shown ("Trojan source").
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: The same but the carriage return, which a CSV field may hold (quoted): sdc.report.safety.
CONTROL_BUT_CR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_LINE_BREAKS = re.compile("[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+")


def _escape_char(m: re.Match[str]) -> str:
    c = m.group(0)
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def visible(text: object, *, keep_cr: bool = False) -> str:
    r"""`text` with every control character shown as an escape, never acted on: ``"\x1b[31m"``
    prints as the eight characters ``\x1b[31m``, not as a colour change. Line feeds and tabs
    stay, and carriage returns with `keep_cr`.

    >>> visible("red \x1b[31m!\r")
    'red \\x1b[31m!\\x0d'
    """
    return (CONTROL_BUT_CR if keep_cr else _CONTROL).sub(_escape_char, str(text))


def one_line_text(text: object) -> str:
    """`text` on one line: line breaks of any kind become a space, other controls are shown
    escaped (a name with a line break cannot start a line, a heading, of its own)."""
    return visible(_LINE_BREAKS.sub(" ", str(text)))


_MD_ALWAYS = re.compile(r"([\\`*\[\]|~])")
_MD_TAG = re.compile(r"<(?=[A-Za-z/!?])")
_MD_ENTITY = re.compile(r"&(?=[A-Za-z#])")
# GitHub's Markdown turns a bare URL (http://..., www.x) into a link: "\/" and "\." (CommonMark
# escapes, shown as "/" and ".") break the pattern it looks for.
_MD_AUTOLINK = re.compile(r"(?i)(?<=:)//|(?<![\w.])(www)\.")
# Block openers (CommonMark): an ordered-list marker or a "-"/"+" bullet only opens a block when
# a space or the end follows ("0.3049" and "-2" are plain text, left unescaped); "#", ">", "="
# and a "-" before another "-" (a thematic break) are escaped wherever they start the text.
_MD_BLOCK = re.compile(r"^(\s*|\s*\d{1,9})((?<=\d)[.)](?=\s|$)|(?<!\d)(?:[#>=]|[-+](?=\s|$|-)))")


def md_text(text: object, *, start: bool = True) -> str:
    r"""`text` as inert Markdown on one line: no HTML element (``<script>``, ``<img ...>``), no
    link or image, no emphasis or code span, no entity, no heading, quote or list can come
    from it; what a reader sees is the text. Backslash escapes (CommonMark) keep it readable.
    `start`: the text starts a block (a paragraph, a heading), so a leading ``#``, ``-``,
    ``>`` or ``1.`` is escaped too; in a table cell it need not be.

    >>> md_text("<img src=x onerror=alert(1)> & [x](javascript:y)\n# H")
    '\\<img src=x onerror=alert(1)> & \\[x\\](javascript:y) # H'
    >>> md_text("l < 2 and local_suppression")
    'l < 2 and local_suppression'
    >>> md_text("see http://evil.example or www.evil.example")
    'see http:\\/\\/evil.example or www\\.evil.example'
    """
    t = one_line_text(text)
    t = _MD_ALWAYS.sub(r"\\\1", t)
    t = _MD_TAG.sub(r"\\<", t)
    t = _MD_ENTITY.sub(r"\\&", t)
    t = _MD_AUTOLINK.sub(lambda m: r"\/\/" if m.group(1) is None else m.group(1) + r"\.", t)
    if not start:  # inside a table cell a text cannot open a block
        return t
    return _MD_BLOCK.sub(lambda m: m.group(1) + "\\" + m.group(2), t)


def passes_if(threshold: str) -> str:
    """A verdict's threshold as a condition: a bare number means "must equal it"; information
    rows have none ("-")."""
    t = str(threshold)
    return "-" if t == "info" else (t if t.startswith(("<", ">")) else f"= {t}")


def fmt_num(x: float | int | None, digits: int = 4) -> str:
    """Integers with thousands separators; floats to `digits` decimals (`digits` significant digits below 1)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "NA"
    if isinstance(x, int) or float(x).is_integer() and abs(x) < 1e15:
        return f"{int(x):,}"
    v = float(x)
    if v != 0 and abs(v) < 1e-6:
        return f"{v:.{digits - 1}e}"
    if v != 0 and abs(v) < 1:
        # Below 1 keep `digits` significant digits: 0.009977 must not print as 0.01.
        decimals = digits - 1 - math.floor(math.log10(abs(v)))
        return f"{v:.{decimals}f}".rstrip("0").rstrip(".")
    return f"{v:,.{digits}f}".rstrip("0").rstrip(".")


def fmt_pct(x: float) -> str:
    return "NA" if math.isnan(x) else f"{x:.2f}%"


def render_table(df: pd.DataFrame, *, indent: str = "  ", formats: dict[str, str] | None = None) -> str:
    """A plain aligned table (numbers right-aligned, text left-aligned).

    `formats` maps a column to a format spec (e.g. ``".2f"``) used instead of :func:`fmt_num`.
    """
    fmts = [(formats or {}).get(str(c)) for c in df.columns]
    cols = [one_line_text(c) for c in df.columns]
    cells = [[format_cell(v, f) for v, f in zip(row, fmts)] for row in df.itertuples(index=False, name=None)]
    numeric = [pd.api.types.is_numeric_dtype(df.iloc[:, j]) for j in range(df.shape[1])]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(cols)]

    def line(vals: list[str]) -> str:
        return indent + "  ".join(v.rjust(w) if num else v.ljust(w) for v, w, num in zip(vals, widths, numeric)).rstrip()

    out = [line(cols), indent + "  ".join("-" * w for w in widths)]
    out += [line(r) for r in cells]
    return "\n".join(out)


def format_cell(v: object, spec: str | None = None) -> str:
    if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
        return "NA"
    if spec is not None:
        return format(v, spec)
    if isinstance(v, (tuple, list)):
        return one_line_text(" + ".join(map(str, v)))
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return fmt_num(v)
    return one_line_text(v)


def _rows(pairs: list[tuple[str, str]], indent: str = "  ") -> str:
    width = max(len(k) for k, _ in pairs)
    return "\n".join(f"{indent}{k.ljust(width)}  {v}" for k, v in pairs)


def risk_text(profile: KAnonymityResult, risk: IndividualRiskResult, *, source: str) -> str:
    """The readable ``sdc risk`` report."""
    k = profile.k
    n = profile.n_records
    weighted = risk.weights is not None
    est = ("Benedetti-Franconi, " + risk.method) if weighted else "1 / fk (no weights: data = population)"
    parts = [
        f"Re-identification risk: {source}",
        _rows([
            ("records", fmt_num(n)),
            ("key variables", ", ".join(profile.keys)),
            ("weights", risk.weights or "none"),
            ("missing key values", f"{risk.missing}" + (f" (alpha = {risk.alpha:g})" if risk.missing == "wildcard" else "")),
        ]),
        "",
        f"k-anonymity (threshold k = {k})",
        _rows([
            ("equivalence classes", fmt_num(profile.n_classes)),
            ("sample uniques (fk = 1)", f"{fmt_num(profile.n_unique)} ({fmt_pct(profile.pct_unique)})"),
            (f"records with fk < {k} (violating)", f"{fmt_num(profile.n_k_lt_threshold)} ({fmt_pct(profile.pct_k_lt_threshold)})"),
            (f"records with fk <= {k}", f"{fmt_num(profile.n_k_le_threshold)} ({fmt_pct(profile.pct_k_le_threshold)})"),
            ("smallest fk (k achieved)", fmt_num(profile.min_k)),
            ("median fk", fmt_num(profile.median_k)),
        ]),
        "",
        f"Individual and global risk ({est})",
        _rows([
            ("expected re-identifications", fmt_num(risk.expected_reidentifications)),
            ("global risk", f"{fmt_num(risk.global_risk, 6)} ({fmt_pct(risk.global_risk_pct)})"),
            ("highest individual risk", fmt_num(risk.max_risk)),
            (f"risk threshold for global risk {risk.max_global_risk:g}",
             "NA (already below)" if math.isnan(risk.global_threshold) else fmt_num(risk.global_threshold, 6)),
            ("records with risk > median + 3 MAD and > 0.1", fmt_num(risk.n_higher_risk())),
        ]),
        "",
        f"Riskiest classes (top {len(profile.riskiest_classes)})",
        render_table(profile.riskiest_classes, formats={"risk": ".4f", "Fk": ",.2f"}),
        "",
        "Class-size distribution",
        render_table(profile.class_sizes.head(12)) + (
            f"\n  ... {len(profile.class_sizes) - 12} more sizes" if len(profile.class_sizes) > 12 else ""),
    ]
    return "\n".join(parts)


def snapshots_text(snap: SnapshotResult, *, source: str) -> str:
    """The readable ``sdc snapshots`` table."""
    t = snap.threshold
    df = snap.to_frame()[[
        "keys", "n_classes", "n_unique", "pct_unique", "median_k", "pct_k_le_threshold",
        "expected_reidentifications", "global_risk",
    ]].rename(columns={"pct_unique": "% unique", "pct_k_le_threshold": f"% fk<={t}",
                       "expected_reidentifications": "expected re-id", "global_risk": "global risk"})
    head = (f"Risk by key subset: {source} ({fmt_num(snap.n_records)} records, "
            f"{len(snap.table)} subsets, threshold k = {t}, weights: {snap.weights or 'none'})")
    return head + "\n" + render_table(df, formats={
        "% unique": ".2f", f"% fk<={t}": ".2f", "expected re-id": ",.2f", "global risk": ".6f"})


def _binning_lines(binning) -> list[str]:  # noqa: ANN001
    return [f"  {b.column} binned ({b.method}): {', '.join(b.labels)}" for b in binning]


def ldiversity_text(res: LDiversityResult, *, source: str, top: int = 10) -> str:
    """The readable ``sdc ldiversity`` report."""
    l = res.l
    parts = [
        f"l-diversity: {source}",
        _rows([
            ("records", fmt_num(res.n_records)),
            ("key variables", ", ".join(res.keys)),
            ("equivalence classes", fmt_num(res.n_classes)),
            ("mode", res.mode + ("" if res.mode == "sdcmicro" else " (missing sensitive values left out)")),
            ("threshold l / recursive c", f"{l} / {res.c:g}"),
        ]),
        *_binning_lines(res.binning),
    ]
    for row in res.by_sensitive.itertuples(index=False):
        s = row.sensitive
        parts += [
            "",
            f"Sensitive variable: {s}",
            _rows([
                (f"records in classes with distinct l < {l}",
                 f"{fmt_num(row.n_records_below_l)} ({fmt_pct(row.pct_records_below_l)}) in {fmt_num(row.n_classes_below_l)} classes"),
                (f"records with entropy l < {l}", fmt_num(row.n_records_entropy_below_l)),
                (f"records with recursive ({res.c:g}, l) < {l}", fmt_num(row.n_records_recursive_below_l)),
                ("smallest distinct / entropy / recursive l",
                 f"{fmt_num(row.min_distinct)} / {fmt_num(row.min_entropy)} / {fmt_num(row.min_recursive)}"),
                ("mean distinct l per record", fmt_num(row.mean_distinct_per_record)),
                ("records in classes without an observed value", fmt_num(row.n_records_unobserved)),
            ]),
        ]
        below = res.classes_below(s).head(top)
        if len(below):
            cols = [*res.keys, "n_records", f"{s}_distinct", f"{s}_dominant", f"{s}_dominant_share"]
            parts += [f"  Classes below l (first {len(below)} of {row.n_classes_below_l}, least diverse first)",
                      render_table(below[cols].rename(columns=lambda c: c.replace(f"{s}_", "")),
                                   indent="    ", formats={"dominant_share": ".2f"})]
    return "\n".join(parts)


def tcloseness_text(res: TClosenessResult, *, source: str, top: int = 10) -> str:
    """The readable ``sdc tcloseness`` report."""
    parts = [
        f"t-closeness: {source}",
        _rows([
            ("records / classes", f"{fmt_num(res.n_records)} / {fmt_num(res.n_classes)}"),
            ("key variables", ", ".join(res.keys)),
            ("sensitive variable", res.sensitive),
            ("distance", res.distance),
            ("largest class distance (t achieved)", fmt_num(res.max_t, 6)),
            (f"classes with distance > {res.t:g}", fmt_num(res.n_classes_above_t)),
            (f"records in those classes", f"{fmt_num(res.n_records_above_t)} ({fmt_pct(res.pct_records_above_t)})"),
        ]),
        *_binning_lines(res.binning),
    ]
    above = res.classes_above().head(top)
    if len(above):
        parts += ["", f"Farthest classes (first {len(above)} of {res.n_classes_above_t})",
                  render_table(above.drop(columns=["class"]), formats={"distance": ".4f"})]
    return "\n".join(parts)


def inference_text(res: InferenceResult, *, source: str, top: int = 15) -> str:
    """The readable ``sdc inference`` report."""
    f = res.findings.head(top).copy()
    f["variables"] = [" + ".join(v) for v in f["variables"]]
    f = f[["variables", "deterministic", "max_posterior", "conditional_entropy", "uncertainty_coefficient",
           "pct_records_revealed", "n_levels"]].rename(columns={
               "conditional_entropy": "H(S|Z) bits", "uncertainty_coefficient": "U(S|Z)",
               "pct_records_revealed": f"% revealed (p>={res.min_posterior:g})"})
    det = res.deterministic
    parts = [
        f"Inference of {res.sensitive!r}: {source}",
        _rows([
            ("records with the sensitive value observed", fmt_num(res.n_records)),
            ("entropy H(S)", f"{res.entropy:.4f} bits"),
            ("variables or pairs that determine it exactly", fmt_num(len(det))),
            ("levels ignored", f"those with fewer than {res.min_count} records (sample uniques)"),
        ]),
    ]
    if res.skipped:
        parts.append(f"  skipped (more than the maximum number of levels): {', '.join(res.skipped)}")
    parts += ["", f"Most revealing (first {len(f)} of {len(res.findings)})",
              render_table(f, formats={"max_posterior": ".3f", "H(S|Z) bits": ".4f", "U(S|Z)": ".3f",
                                       f"% revealed (p>={res.min_posterior:g})": ".2f"})]
    return "\n".join(parts)


def household_text(h: HouseholdRiskResult) -> str:
    return "\n".join([
        "",
        f"Household (hierarchical) risk, households from {h.household!r}",
        _rows([
            ("households", fmt_num(h.n_households)),
            ("expected re-identifications", fmt_num(h.expected_reidentifications)),
            ("household global risk", f"{fmt_num(h.global_risk, 6)} ({fmt_pct(h.global_risk_pct)})"),
            ("highest household risk", fmt_num(h.max_risk)),
        ]),
    ])


def suda_text(res: SudaResult, *, source: str) -> str:
    parts = [
        f"SUDA2: {source}",
        _rows([
            ("records", fmt_num(res.n_records)),
            ("key variables", ", ".join(res.keys)),
            ("mode / weights", f"{res.mode} / {'Elliot (M - k)!' if res.original_scores else 'IHSN'}"),
            ("largest MSU size searched", fmt_num(res.max_size)),
            ("records with an MSU (score > 0)", f"{fmt_num(res.n_records_with_msu)} "
             f"({fmt_pct(100 * res.n_records_with_msu / res.n_records)})"),
            ("SUDA score: sum / max", f"{fmt_num(res.score_sum)} / {fmt_num(res.score_max)}"),
            (f"DIS-SUDA (sampling fraction {res.dis_fraction:g}): sum / max",
             f"{fmt_num(res.dis_sum)} / {fmt_num(res.dis_max, 6)}"),
        ]),
        "",
        "Contribution of each key variable (% of the total score)",
        render_table(res.attribute_contributions, formats={"contribution": ".2f"}),
        "",
        "DIS-SUDA scores",
        render_table(res.dis_table()),
    ]
    return "\n".join(parts)


def modrisk_text(res: ModelRiskResult, *, source: str) -> str:
    return "\n".join([
        f"Model-based (log-linear) risk: {source}",
        _rows([
            ("model", f"{res.formula} (method {res.method})"),
            ("cells in the table / kept", f"{fmt_num(len(res.cells))} / {fmt_num(res.n_cells_kept)}"),
            ("converged", "yes" if res.converged else "NO"),
            ("risk 1: sample uniques that are population unique", f"{res.gr1:.6f} ({res.gr1perc:.3f}%)"),
            ("risk 2: expected correct matches of sample uniques", f"{res.gr2:.6f} ({res.gr2perc:.3f}%)"),
        ]),
    ])


def uniqueness_text(res: PopulationUniquenessResult, attacker: AttackerRiskResult | None = None,
                    interval=None, *, source: str) -> str:  # noqa: ANN001
    est = res.to_frame()
    parts = [
        f"Population uniqueness: {source}",
        _rows([
            ("records / population size", f"{fmt_num(res.n_records)} / {fmt_num(res.population_size)} "
             f"(sampling fraction {res.sampling_fraction:.4g})"),
            ("key variables", ", ".join(res.keys)),
            ("equivalence classes / sample uniques", f"{fmt_num(res.n_classes)} / {fmt_num(res.n_sample_uniques)} "
             f"({fmt_pct(100 * res.sample_uniqueness)} of records)"),
            ("estimated population uniques (Dankar et al.)",
             f"{fmt_num(res.chosen, 1)} ({fmt_pct(100 * res.fraction_chosen)} of the population; {res.model})"),
        ]),
    ]
    if interval is not None:
        parts.append(f"  {interval.level:.0%} interval ({interval.method}): {interval.lower:,.1f} to {interval.upper:,.1f}")
    if not est["note"].any():
        est = est.drop(columns="note")
    # fmt_num keeps significant digits below 1 (an SNB estimate of 0.029 is not "0.0"); a
    # missing estimate reads NA, its note saying why
    parts += ["", "Estimators", render_table(est)]
    if attacker is not None:
        t = attacker.threshold
        parts += ["", f"Attacker models (as ARX: a missing key value is a value of its own; F_j from the "
                      f"{attacker.population_source}; risk threshold {t:g})",
                  _rows([
                      ("prosecutor: records at risk / highest / average",
                       f"{fmt_pct(100 * attacker.prosecutor_records_at_risk)} / {fmt_num(attacker.prosecutor_highest_risk)} "
                       f"/ {fmt_num(attacker.prosecutor_average_risk)}"),
                      ("journalist: records at risk / highest / average",
                       f"{fmt_pct(100 * attacker.journalist_records_at_risk)} / {fmt_num(attacker.journalist_highest_risk)} "
                       f"/ {fmt_num(attacker.journalist_average_risk)}"),
                      ("marketer: expected share re-identified", fmt_num(attacker.marketer_risk)),
                  ])]
    return "\n".join(parts)
