"""The report's content, independent of format: sections of paragraphs, tables and figures.

Every output (HTML, Markdown, plain text, XLSX, JSON) renders the same :class:`Report`, so
they cannot disagree. Numbers stay unrounded here; renderers format them. A table keeps its
columns' names (the JSON shows them) and carries the human labels the other outputs show.

The report of ``sdc assess`` opens with an executive summary (what was assessed, the verdict
per scenario, the worst findings), then gives the details: the input, the setup, every
verdict, and for every scenario its k-anonymity, risk and measure sections with their
figures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from sdc._schema import Maybe
from sdc.workflow.assess import Assessment, ScenarioResult
from sdc.workflow.config import ASSESS_OPTIONS, RunConfig, option_values
from sdc.workflow.crosscheck import compared_as
from sdc.workflow.registry import COLUMN_LABELS, SCENARIO_MEASURES
from sdc.report.formatting import fmt_num, fmt_pct, passes_if

__all__ = ["Table", "Section", "Report", "build_report", "headline", "SAFETY_NOTE", "FIGURES", "figure_id",
           "figure_captions", "unique_keys"]

SAFETY_NOTE = ("Spreadsheet safety: in the CSV files, a text cell that starts with =, +, -, @, a tab or a "
               "carriage return is prefixed with an apostrophe (') so that spreadsheet programs show it as text "
               "instead of running it as a formula; in the XLSX files such a cell is stored as text with the "
               "quote prefix (shown as it is, never run).")

#: Figures (plots/<scenario tag>_<name>.png) and their captions.
FIGURES = {
    "risk_distribution": "Distribution of individual re-identification risk (histogram and box plot)",
    "class_sizes": "Equivalence-class sizes (sample frequency f_k)",
    "risk_by_key_subset": "Global risk by subset of the key variables",
    "cumulative_risk": "Cumulative share of records by individual risk",
    "ldiversity_distribution": "Distinct l-diversity across equivalence classes",
    "tcloseness_distribution": "t-closeness distance across equivalence classes",
}


def figure_id(tag: str, name: str) -> str:
    """The id (and file stem) of a scenario's figure: ``s2_risk_distribution``."""
    return f"{tag}_{name}"


@dataclass
class Table:
    key: str            # unique name: JSON key (the XLSX sheet is named after the title)
    title: str
    frame: pd.DataFrame
    note: str = ""
    labels: Mapping[str, str] = field(default_factory=dict)  # column -> label shown (beyond COLUMN_LABELS)
    show: list[str] | None = None                            # the columns shown, in order (default: all)
    keep: frozenset[str] = frozenset()                       # columns shown under their own name (data variables)

    def display(self) -> pd.DataFrame:
        """The table as a reader sees it: the shown columns under their human labels (unique)."""
        cols = self.show if self.show is not None else list(self.frame.columns)
        df = self.frame[cols]
        names = []
        for c in cols:
            name = str(c)
            label = self.labels.get(name) or (None if name in self.keep else COLUMN_LABELS.get(name)) or name
            names.append(label)
        return df.set_axis(unique_keys(names, sep=" "), axis=1)


@dataclass
class Section:
    key: str
    title: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)


@dataclass
class Report:
    title: str
    generated: str
    sections: list[Section]
    assessment: Assessment
    captions: dict[str, str] = field(default_factory=dict)  # figure id -> caption (else FIGURES[id])

    def tables(self) -> list[Table]:
        return [t for s in self.sections for t in s.tables]

    def caption(self, figure: str) -> str:
        return self.captions.get(figure) or FIGURES.get(figure, figure)


def unique_keys(names: list[str], sep: str = " ") -> list[str]:
    """`names` made unique in order: a repeat gets ``(2)``, ``(3)``... (``name (2)``).

    >>> unique_keys(["a", "b", "a", "a (2)"])
    ['a', 'b', 'a (2)', 'a (2) (2)']
    """
    seen: set[str] = set()
    out = []
    for n in names:
        name, i = n, 2
        while name in seen:
            name, i = f"{n}{sep}({i})", i + 1
        seen.add(name)
        out.append(name)
    return out


def _kv(rows: list[tuple[str, object]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["item", "value"])


#: The options shown in the setup's "Options" table (the thresholds have a table of their own).
_SHOWN_OPTIONS = ("missing", "alpha", "measures", "ldiversity_mode", "suda_mode", "weights", "household", "sensitive")


def _option_rows(cfg: RunConfig, names: Sequence[str]) -> pd.DataFrame:
    """A table of options, each by its declared label (:data:`ASSESS_OPTIONS`) and its value:
    a list joined, no value as its rule says (``none``, or the option it stands for)."""
    values = option_values(cfg)
    rows = []
    for name in names:
        opt = ASSESS_OPTIONS[name]
        v = values[name]
        rule = opt.rule
        if v is None and isinstance(rule, Maybe):
            v = values[rule.same_as] if rule.same_as else rule.none
        elif isinstance(v, tuple):
            v = ", ".join(v) or "none"
        rows.append((opt.shown_label.format_map(values), v))
    return _kv(rows)


def _stats() -> dict:
    """A result's summary() shown as a reader reads it: what each figure is, and its value."""
    return {"show": ["description", "value"], "labels": {"description": "figure", "value": "value"}}


def _risk_table(r: ScenarioResult, a: Assessment) -> pd.DataFrame:
    thr = a.config.thresholds
    risk = r.risk
    rows = [
        ("records", risk.n_records),
        ("risk estimator", ("Benedetti-Franconi " + risk.method) if risk.weights else "1 / fk (no weights)"),
        ("expected re-identifications", risk.expected_reidentifications),
        ("global risk", risk.global_risk),
        ("global risk (%)", risk.global_risk_pct),
        ("highest individual risk", risk.max_risk),
        (f"records with risk > {thr.risk:g}", int(risk.records_above(thr.risk).sum())),
        (f"risk threshold for global risk {thr.max_global_risk:g}", risk.global_threshold),
        ("records with risk > median + 3 MAD and > 0.1", risk.n_higher_risk()),
    ]
    for name, iv in r.intervals.items():
        label = "re-identifications an intruder would achieve" if name == "reidentifications" else \
            "expected re-identifications (sampling)"
        rows.append((f"{iv.level:.0%} interval: {label}", f"{iv.lower:,.2f} to {iv.upper:,.2f} ({iv.method})"))
    if r.household is not None:
        h = r.household
        rows += [("households", h.n_households), ("household expected re-identifications", h.expected_reidentifications),
                 ("household global risk", h.global_risk), ("household global risk (%)", h.global_risk_pct)]
    return _kv(rows)


def _scenario_sections(r: ScenarioResult, a: Assessment, index: int) -> list[Section]:
    name = r.scenario.name
    tag = f"s{index + 1}"
    keys = ", ".join(r.scenario.keys)
    out = []
    p = r.profile
    sec = Section(f"{tag}-kanon", f"k-anonymity — scenario '{name}'",
                  [f"Key variables: {keys}. Missing key values: {a.config.missing}"
                   + (f" (alpha = {a.config.alpha:g})" if a.config.missing == "wildcard" else "") + "."])
    sec.tables.append(Table(f"{tag} profile", "k-anonymity profile", p.summary()[["statistic", "value", "description"]],
                            **_stats()))
    sec.tables.append(Table(f"{tag} class sizes", "Class-size distribution", p.class_sizes))
    sec.tables.append(Table(f"{tag} riskiest", "The riskiest classes (top 10)", p.riskiest_classes))
    sec.figures.append(figure_id(tag, "class_sizes"))
    out.append(sec)
    sec = Section(f"{tag}-risk", f"Re-identification risk — scenario '{name}'")
    sec.tables.append(Table(f"{tag} risk", "Individual and global risk", _risk_table(r, a)))
    if r.attacker is not None:
        sec.tables.append(Table(f"{tag} attacker", "Prosecutor, journalist and marketer risk",
                                r.attacker.summary()[["statistic", "value", "description"]],
                                note=f"F_j from the {r.attacker.population_source}.", **_stats()))
    sec.figures += [figure_id(tag, "risk_distribution"), figure_id(tag, "cumulative_risk")]
    out.append(sec)
    for m in SCENARIO_MEASURES:  # every registered measure with a section of its own
        res = m.result(r)
        if res is None or m.title is None:
            continue
        paras = []
        if m.paragraph is not None:
            template, values = m.paragraph
            paras.append(template.format(**values(a.config, res)))
        s = Section(f"{tag}-{m.key}", f"{m.title} — scenario '{name}'", paras)
        for t in m.tables:
            frame = t.frame(res)
            extra = _stats() if list(frame.columns) == ["statistic", "value", "description"] else {}
            s.tables.append(Table(f"{tag} {t.key}", t.title, frame, note=t.note(res) if t.note else "",
                                  labels={**m.labels, **extra.get("labels", {})}, show=extra.get("show")))
        if m.more_tables is not None:
            s.tables.extend(Table(f"{tag} {key}", title, frame, labels=dict(m.labels))
                            for key, title, frame in m.more_tables(a.config, res))
        s.figures.extend(figure_id(tag, f) for f in m.figures)
        out.append(s)
    return out


def headline(r: ScenarioResult, a: Assessment) -> str:
    """One sentence per scenario with the numbers an auditor looks at first."""
    p, risk, k = r.profile, r.risk, a.config.thresholds.k
    verdicts = [v.verdict for v in a.verdicts if v.scenario == r.scenario.name]
    return (f"Scenario '{r.scenario.name}' ({', '.join(r.scenario.keys)}): {fmt_num(p.n_records)} records in "
            f"{fmt_num(p.n_classes)} classes; {fmt_num(p.n_unique)} sample uniques ({fmt_pct(p.pct_unique)}); "
            f"{fmt_num(p.n_k_lt_threshold)} records with fk < {k} ({fmt_pct(p.pct_k_lt_threshold)}); "
            f"expected re-identifications {fmt_num(risk.expected_reidentifications, 2)} "
            f"(global risk {fmt_num(risk.global_risk_pct, 3)}%). "
            f"{verdicts.count('fail')} measure(s) fail, {verdicts.count('pass')} pass.")


def _verdict_frame(a: Assessment) -> pd.DataFrame:
    v = a.to_frame()
    v["passes if"] = [passes_if(t) for t in v["threshold"]]
    return v


def _executive_summary(a: Assessment, inputs: list[str]) -> Section:
    """What was assessed, the verdict per scenario, the worst findings, what was not computed."""
    cfg = a.config
    thr = cfg.thresholds
    n_scen = len(a.scenarios)
    what = (f"{', '.join(Path(f).name for f in inputs)}: {fmt_num(len(a.data))} records, {a.data.shape[1]} variables, "
            f"assessed against {n_scen} intruder scenario{'s' if n_scen != 1 else ''} (the key variables an intruder "
            f"is assumed to know)"
            + (f"; sensitive variables: {', '.join(cfg.sensitive)}" if cfg.sensitive else "; no sensitive variable")
            + f". Thresholds: k = {thr.k}, individual risk {thr.risk:g}, global risk {thr.max_global_risk:g}"
            + (f", l = {', '.join(str(cfg.l_for(s)) + ' (' + s + ')' for s in cfg.sensitive)}, "
               f"t = {', '.join(f'{cfg.t_for(s):g} ({s})' for s in cfg.sensitive)}" if cfg.sensitive else "") + ".")
    v = _verdict_frame(a)
    fails = int((v["verdict"] == "fail").sum())
    overall = (f"Overall: {fails} of {int((v['verdict'] != 'info').sum())} checked measures fail their threshold."
               if fails else f"Overall: every checked measure ({int((v['verdict'] == 'pass').sum())}) passes its "
                             "threshold.")
    s = Section("summary", "Executive summary", [what, overall])
    rows = []
    for r in a.scenarios:
        vs = v[v["scenario"] == r.scenario.name]
        nf = int((vs["verdict"] == "fail").sum())
        rows.append((r.scenario.name, ", ".join(r.scenario.keys), "fail" if nf else "pass", nf,
                     int((vs["verdict"] == "pass").sum()), r.profile.n_k_lt_threshold, r.profile.pct_k_lt_threshold,
                     r.risk.expected_reidentifications, r.risk.global_risk))
    s.tables.append(Table("summary", "Verdict per scenario", pd.DataFrame(rows, columns=[
        "scenario", "keys", "verdict", "failing", "passing", "n_k_lt_threshold", "pct_k_lt_threshold",
        "expected_reidentifications", "global_risk"]), labels={
            "keys": "key variables", "verdict": "verdict", "failing": "measures failing",
            "passing": "measures passing", "n_k_lt_threshold": f"records in classes below k = {thr.k}",
            "pct_k_lt_threshold": f"% records below k = {thr.k}"}))
    worst = v[v["verdict"] == "fail"].copy()
    if len(worst):
        worst["pct"] = [100.0 * x if x is not None and x == x else float("nan") for x in worst["share"]]
        worst = worst.sort_values("pct", ascending=False, kind="stable", na_position="last").head(5)
        s.tables.append(Table("worst findings", "Worst findings (failing measures, by share of records concerned)",
                              worst[["scenario", "measure", "statistic", "value", "passes if", "pct", "verdict"]],
                              labels={"pct": "% of records", "passes if": "passes if"}))
    if a.skipped:
        s.paragraphs.append("Not computed: " + "; ".join(f"{m} ({why})" for m, why in a.skipped) + ".")
    s.paragraphs.append("The details follow: the input and its variables, the setup, every verdict, then each "
                        "scenario's measures with their tables and figures.")
    return s


def build_report(a: Assessment, *, files: Mapping[str, str] | None = None,
                 title: str = "Disclosure risk assessment") -> Report:
    """The report's sections from an assessment.

    `files` lists the report folder's files (name -> what it holds) for the "Files" section.
    """
    cfg = a.config
    thr = cfg.thresholds
    prov = a.provenance
    inputs = prov.get("input_files") or ["(a DataFrame)"]
    sections: list[Section] = [_executive_summary(a, inputs)]

    s = Section("input", "Input")
    rows = [("file" if len(inputs) == 1 else f"file {i + 1}", f) for i, f in enumerate(inputs)]
    rows += [(f"SHA-256 of {Path(f).name}", h) for f, h in prov.get("input_sha256", {}).items()]
    rows += [("records", len(a.data)), ("variables", a.data.shape[1])]
    if a.read is not None and a.read.format in ("text", "excel"):
        markers = [repr(m) for m in a.read.na_values if m != ""]
        rows.append(("read as missing", "empty fields" + (f" and {', '.join(markers)}" if markers else
                                                           " only (the default: markers such as NA are values)")))
    if cfg.domains:
        rows.append(("joined domains", f"{', '.join(cfg.domains)} by {cfg.subject_id}"))
    s.tables.append(Table("input", "The data", _kv(rows)))
    if a.columns is not None:
        s.tables.append(Table("variables", "Variables and their roles", a.columns,
                              note="read as missing: the values the file held as missing (see above); flags: a "
                                   "column with a different value in every record identifies the records; a "
                                   "constant one distinguishes none."))
    sections.append(s)

    s = Section("setup", "Scenarios and thresholds")
    s.tables.append(Table("scenarios", "Key-variable scenarios",
                          pd.DataFrame([(sc.name, ", ".join(sc.keys)) for sc in cfg.all_scenarios],
                                       columns=["scenario", "key variables"])))
    s.tables.append(Table("thresholds", "Thresholds", _option_rows(cfg, [o.name for o in
                                                                         ASSESS_OPTIONS.in_section("thresholds")])))
    if cfg.sensitive:
        s.tables.append(Table("sensitive thresholds", "Thresholds per sensitive variable", pd.DataFrame(
            [(x, cfg.l_for(x), cfg.t_for(x), cfg.distance_for(x)) for x in cfg.sensitive],
            columns=["sensitive", "l", "t", "distance asked for"]), note="A variable without an order is measured "
            "with the equal distance whatever is asked for (see the t-closeness sections)."))
    s.tables.append(Table("options", "Options", _option_rows(cfg, _SHOWN_OPTIONS)))
    if a.binning or cfg.sensitive_bins:
        rows = [(b.column, "key", b.method, ", ".join(b.labels)) for b in a.binning]
        for sc in a.scenarios[:1]:
            if sc.ldiversity is not None:
                rows += [(b.column, "sensitive (l-diversity, inference)", b.method, ", ".join(b.labels))
                         for b in sc.ldiversity.binning if b.column in cfg.sensitive]
        s.tables.append(Table("binning", "Binning", pd.DataFrame(rows, columns=["variable", "as", "method", "bins"])))
    sections.append(s)

    s = Section("verdicts", "Verdicts", ["Each measure against its threshold: pass, fail, or information only."]
                + [headline(r, a) for r in a.scenarios])
    s.tables.append(Table("verdicts", "Verdict per measure", _verdict_frame(a),
                          show=["scenario", "measure", "statistic", "value", "passes if", "verdict"]))
    sections.append(s)

    for i, r in enumerate(a.scenarios):
        sections.extend(_scenario_sections(r, a, i))

    if any(r.ldiversity is not None for r in a.scenarios):
        s = Section("ldiv", "l-diversity across scenarios", [f"Mode {cfg.ldiversity_mode}; c = {thr.c:g}. The classes "
                                                             "below l are listed in each scenario's section."])
        frames = []
        for r in a.scenarios:
            if r.ldiversity is not None:
                f = r.ldiversity.by_sensitive.copy()
                f.insert(0, "scenario", r.scenario.name)
                frames.append(f)
        s.tables.append(Table("ldiversity", "l-diversity by scenario and sensitive variable", pd.concat(frames),
                              show=["scenario", "sensitive", "l", "n_values", "n_records_below_l",
                                    "pct_records_below_l", "n_classes_below_l", "n_records_entropy_below_l",
                                    "n_records_recursive_below_l", "min_distinct", "n_records_unobserved"]))
        sections.append(s)

    if any(r.tcloseness for r in a.scenarios):
        s = Section("tclose", "t-closeness across scenarios", ["The farthest classes are listed in each scenario's "
                                                               "section. Unordered sensitive variables use the "
                                                               "equal-distance EMD."])
        rows = []
        for r in a.scenarios:
            for sens, tc in r.tcloseness.items():
                rows.append((r.scenario.name, sens, tc.distance, tc.t, tc.max_t, tc.n_classes_above_t,
                             tc.n_records_above_t, tc.pct_records_above_t))
        s.tables.append(Table("tcloseness", "t-closeness by scenario and sensitive variable", pd.DataFrame(
            rows, columns=["scenario", "sensitive", "distance", "t", "max_t", "n_classes_above_t", "n_records_above_t",
                           "pct_records_above_t"])))
        sections.append(s)

    if a.inference:
        s = Section("inference", "Inference of sensitive values",
                    [f"Single variables and pairs Z that reveal S; a record is revealed when P(S = its value | Z) >= "
                     f"{thr.min_posterior:g}. Levels of Z seen once are left out (sample uniques)."
                     + (f" Banded sensitive variables ({', '.join(x for x in cfg.sensitive_bins if x in a.inference)}) "
                        "are inferred as bands." if any(x in a.inference for x in cfg.sensitive_bins) else "")])
        for sens, inf in a.inference.items():
            f = inf.findings.head(15).copy()
            f["variables"] = [" + ".join(v) for v in f["variables"]]
            s.tables.append(Table(f"inference {sens}", f"Most revealing for {sens}", f,
                                  show=[c for c in f.columns if c != "sensitive"]))
        sections.append(s)

    s = Section("small", "Small-count levels",
                [f"Levels of the key variables held by fewer than {thr.small_count or thr.k} records."])
    s.tables.append(Table("small counts", "Small-count levels", a.small_counts))
    sections.append(s)

    if a.cross_check is not None:
        rv = prov.get("r_versions", {})
        s = Section("crosscheck", "Cross-check with sdcMicro",
                    [f"Every scenario's measures computed again with R's sdcMicro {rv.get('sdcMicro', '?')} "
                     f"({rv.get('R', '?')}) through r_bridge, on the same binned data; 'agree' means within the "
                     "tolerance shown (exact for counts). "
                     + ("All agree." if bool(a.cross_check["agree"].all()) else
                        f"{int((~a.cross_check['agree']).sum())} measure(s) DISAGREE.")
                     + "".join(f" Note: {n}." for n in compared_as(a.config))])
        s.tables.append(Table("cross-check", "Agreement with sdcMicro", a.cross_check))
        sections.append(s)

    if files:
        s = Section("files", "Files in this folder",
                    ["The per-record files list the records at risk under each model (input_row = the record's row "
                     "in the input, 1-based), with the values that put them at risk; records.csv joins every "
                     "per-record measure with an at_risk_... column per model."])
        s.tables.append(Table("files", "Files", pd.DataFrame(list(files.items()), columns=["file", "contents"])))
        sections.append(s)

    notes = list(a.notes)
    notes += [f"Not computed: {m}, because {why}." for m, why in a.skipped]
    notes.append(SAFETY_NOTE)
    sections.append(Section("notes", "Notes", notes))

    cmd = prov.get("command") or "sdc assess ..."
    repro = [f"Command: {cmd}",
             "The resolved configuration is in report.json (\"config\"); the same input and configuration give the "
             "same report, byte for byte, except the line with the generation time."]
    s = Section("reproduce", "How to reproduce", repro)
    vers = prov.get("versions", {})
    rows = [("config", prov.get("config_source", ""))]
    rows += [(f"{k} version", v) for k, v in vers.items()]
    rows += [(f"{k} version (cross-check)", v) for k, v in prov.get("r_versions", {}).items()]
    rows.append(("platform", prov.get("platform", "")))
    s.tables.append(Table("provenance", "Provenance", _kv(rows)))
    sections.append(s)

    # Data variables keep their names in every table; keys of tables and sections are unique.
    data_cols = frozenset(str(c) for c in a.data.columns)
    for t in (t for sec in sections for t in sec.tables):
        t.keep = data_cols
    for t, key in zip([t for sec in sections for t in sec.tables], unique_keys([t.key for sec in sections
                                                                                 for t in sec.tables])):
        t.key = key
    for sec, key in zip(sections, unique_keys([sec.key for sec in sections], sep="-")):
        sec.key = key
    return Report(title=title, generated=a.provenance["generated_utc"], sections=sections, assessment=a,
                  captions=figure_captions(a))


def figure_captions(a: Assessment) -> dict[str, str]:
    """The caption of each scenario's figures, by figure id."""
    return {figure_id(f"s{i + 1}", name): f"{cap} — scenario '{r.scenario.name}'"
            for i, r in enumerate(a.scenarios) for name, cap in FIGURES.items()}
