"""The report's content, independent of format: sections of paragraphs, tables and figures.

Every output (HTML, Markdown, plain text, XLSX, JSON) renders the same :class:`Report`, so
they cannot disagree. Numbers stay unrounded here; renderers format them. A table keeps its
columns' names (the JSON shows them) and carries the human labels the other outputs show.

The report of ``sdc assess`` opens with an executive summary (what was assessed, the verdict
per scenario, the worst findings), then gives the details: the input, the setup, every
verdict, and for every scenario its k-anonymity, risk and measure sections with their
figures. An assessment whose records stayed where they are (``--engine dask``, ``--chunks``)
gets the same sections from the same builders; those that need the records say so (the
measures not run there, the small-count levels), and it has no figures or per-record files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from sdc._schema import Maybe
from sdc.workflow.assess import Assessment, ScenarioResult
from sdc.workflow.config import ASSESS_OPTIONS, RunConfig, option_values
from sdc.workflow.options import BIN_MODIFIERS
from sdc.workflow.crosscheck import compared_as
from sdc.workflow.measure import COUNT, UNIT_HEADINGS, Measure
from sdc.workflow.registry import ALL_MEASURES, COLUMN_LABELS, FILE_MEASURES
from sdc.workflow.single import MeasureRun
from sdc.report.formatting import fmt_num, fmt_pct, passes_if

__all__ = ["Table", "Section", "Report", "build_report", "headline", "SAFETY_NOTE", "FIGURES", "figure_id",
           "figure_captions", "unique_keys", "measure_section", "scenario_sections", "measure_run_report",
           "finish_sections", "n_records", "ENGINES"]

SAFETY_NOTE = ("Spreadsheet safety: in the CSV files, a text cell that starts with =, +, -, @, a tab or a "
               "carriage return is prefixed with an apostrophe (') so that spreadsheet programs show it as text "
               "instead of running it as a formula; in the XLSX files such a cell is stored as text with the "
               "quote prefix (shown as it is, never run).")

#: Per engine that keeps the records where they are: the title's words, the run's words, and how
#: the measures ran.
ENGINES = {
    "dask": ("Dask engine", "on Dask", "Computed on Dask: each measure is one pass over the data to a small table "
             "(the key patterns, or the (class, sensitive value) cells), on which the in-memory code runs; the numbers "
             "are the in-memory ones."),
    "chunks": ("chunks", "in chunks", "Computed in chunks: the file was read a chunk of records at a time, keeping only "
               "its key patterns, on which the in-memory code runs; the numbers are the in-memory ones."),
}

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
    """A report's content: its title, the generation time and the sections every renderer
    walks; `assessment` is the assessment it presents (None for the reports of the other runs:
    a comparison, a sweep, a protection, a search), `captions` the figures' captions."""

    title: str
    generated: str
    sections: list[Section]
    assessment: Assessment | None = None
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


def n_records(a: Assessment) -> int:
    """The records assessed: the data's rows in memory; out of memory, as the measures counted
    them (the report does not pass over the data)."""
    if a.engine == "pandas":
        return len(a.data)
    return int(a.scenarios[0].profile.n_records) if a.scenarios else 0


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


def _measure_tables(m: Measure, cfg: RunConfig, shown: Any, tag: str) -> list[Table]:
    """A measure's tables in a scenario's section: its declared tables (a ``summary()`` frame
    shown as figure and value), then those whose number depends on the run."""
    out, prefix = [], f"{tag} " if tag else ""
    for t in m.tables:
        frame = t.frame(shown)
        extra = _stats() if list(frame.columns) == ["statistic", "value", "description"] else {}
        out.append(Table(f"{prefix}{t.key}", t.title, frame, note=t.note(shown) if t.note else "",
                         labels={**m.labels, **extra.get("labels", {})}, show=extra.get("show")))
    if m.more_tables is not None:
        out.extend(Table(f"{prefix}{key}", title, frame, labels=dict(m.labels),
                         show=[c for c in frame.columns if c not in m.hide] if m.hide else None)
                   for key, title, frame in m.more_tables(cfg, shown))
    return out


def measure_section(m: Measure, cfg: RunConfig, shown: Any, *, tag: str, where: str,
                    joined: Sequence[tuple[Measure, Any]] = ()) -> Section:
    """The section of one measure, as its entry declares it: title (`where` added), the
    paragraph, the tables (and those of the measures that join its section), the figures."""
    paras = []
    if m.paragraph is not None:
        template, values = m.paragraph
        paras.append(template.format(**values(cfg, shown)))
    s = Section(f"{tag}-{m.key}" if tag else str(m.key), f"{m.title}{where}", paras)
    s.tables.extend(_measure_tables(m, cfg, shown, tag))
    for other, res in joined:
        s.tables.extend(_measure_tables(other, cfg, res, tag))
    s.figures.extend(figure_id(tag, f) for f in m.plots)
    return s


def scenario_sections(r: ScenarioResult, cfg: RunConfig, index: int) -> list[Section]:
    """Every section of one scenario, one per measure that has a section of its own, in the
    registry's order."""
    tag = f"s{index + 1}"
    where = f" — scenario '{r.scenario.name}'"
    out = []
    for m in ALL_MEASURES:
        shown = m.shown(r)
        if shown is None or m.title is None:
            continue
        joined = [(o, o.shown(r)) for o in ALL_MEASURES if o.in_section == m.key and o.shown(r) is not None]
        out.append(measure_section(m, cfg, shown, tag=tag, where=where, joined=joined))
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


#: The columns of the report's "Verdict per measure" table (and of sdc app's verdicts).
VERDICT_COLUMNS = ["scenario", "measure", "statistic", "value", "passes if", "verdict"]


def verdict_frame(a: Assessment) -> pd.DataFrame:
    """The verdicts (:meth:`Assessment.to_frame`) with each threshold as its "passes if" rule."""
    v = a.to_frame()
    v["passes if"] = [passes_if(t) for t in v["threshold"]]
    return v


def _executive_summary(a: Assessment, inputs: list[str]) -> Section:
    """What was assessed, the verdict per scenario, the worst findings, what was not computed."""
    cfg = a.config
    thr = cfg.thresholds
    n_scen = len(a.scenarios)
    what = (f"{', '.join(Path(f).name for f in inputs)}: {fmt_num(n_records(a))} records, {len(a.data.columns)} "
            "variables, "
            f"assessed against {n_scen} intruder scenario{'s' if n_scen != 1 else ''} (the key variables an intruder "
            f"is assumed to know)"
            + (f"; sensitive variables: {', '.join(cfg.sensitive)}" if cfg.sensitive else "; no sensitive variable")
            + f". Thresholds: k = {thr.k}, individual risk {thr.risk:g}, global risk {thr.max_global_risk:g}"
            + (f", l = {', '.join(str(cfg.l_for(s)) + ' (' + s + ')' for s in cfg.sensitive)}, "
               f"t = {', '.join(f'{cfg.t_for(s):g} ({s})' for s in cfg.sensitive)}" if cfg.sensitive else "") + ".")
    v = verdict_frame(a)
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
        # Ranked by the share of records each concerns (inference has none and sorts last, but
        # is listed). A count of records shows its share beside it; a value that is itself a
        # share (the global risk: expected re-identifications / records) says so in its unit
        # and has no second column.
        worst["rank"] = [float("nan") if x is None or x != x else float(x) for x in worst["share"]]
        worst = worst.sort_values("rank", ascending=False, kind="stable", na_position="last")
        worst["concerned"] = pd.Series([r if u == COUNT else "-" for r, u in zip(worst["rank"], worst["unit"])],
                                       index=worst.index, dtype=object)
        worst["unit"] = [UNIT_HEADINGS.get(u, u) for u in worst["unit"]]
        s.tables.append(Table("worst findings", f"Worst findings (all {len(worst)} failing measures, by share of "
                                                "records concerned; a measure without a share last)",
                              worst[["scenario", "measure", "statistic", "value", "unit", "passes if", "concerned",
                                     "verdict"]],
                              labels={"concerned": "share of the records (0 to 1)", "passes if": "passes if"},
                              note="value: in its unit (a count of records, or a share from 0 to 1 for the global "
                                   "risk: expected re-identifications / records); share of the records: the count "
                                   "as a share of the records; - where the value is itself a share."))
    if a.skipped:
        s.paragraphs.append("Not computed: " + "; ".join(f"{m} ({why})" for m, why in a.skipped) + ".")
    s.paragraphs.append("The details follow: the input and its variables, the setup, every verdict, then each "
                        "scenario's measures with their tables and figures." if a.engine == "pandas" else
                        "The details follow: the input, the setup, every verdict, the measures not run "
                        f"{ENGINES[a.engine][1]}, then each scenario's measures with their tables (no figures: the "
                        "records were never in memory).")
    return s


def _input_section(a: Assessment, inputs: list[str]) -> Section:
    """The data: files and their SHA-256, records, variables, what was read as missing, and the
    variables' roles."""
    cfg, prov = a.config, a.provenance
    s = Section("input", "Input")
    rows = [("file" if len(inputs) == 1 else f"file {i + 1}", f) for i, f in enumerate(inputs)]
    rows += [(f"SHA-256 of {Path(f).name}", h) for f, h in prov.get("input_sha256", {}).items()]
    rows += [("records", n_records(a)), ("variables", len(a.data.columns))]
    if a.engine == "dask":
        rows.append(("engine", f"Dask, {prov.get('partitions')} partition(s)"))
    elif a.engine == "chunks":
        rows.append(("engine", f"chunks of at most {fmt_num(prov.get('chunk_rows'))} records"))
    if a.engine != "pandas":
        s.paragraphs.append(ENGINES[a.engine][2])
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
    elif a.engine != "pandas":
        s.paragraphs.append(f"Variables and their roles: not computed {ENGINES[a.engine][1]} (what each column "
                            "holds as missing, and its flags, are counted over every record in memory).")
    return s


def _in_force(cfg: RunConfig, table: pd.DataFrame) -> pd.DataFrame:
    """The thresholds table with the l and t in force per sensitive variable (its own from
    [sensitive_thresholds] or a ``--l VAR=``/``--t VAR=`` flag, else the global one) beside the
    global value, so a table never shows the default alone while other values apply."""
    if not cfg.sensitive:
        return table
    values = option_values(cfg)
    out = table.copy()
    out["value"] = out["value"].astype(object)  # text goes into a column that may hold only numbers
    for name, per in (("l", lambda x: f"{cfg.l_for(x)}"),
                      ("t", lambda x: f"{cfg.t_for(x):g} {cfg.distance_for(x)}")):
        label = ASSESS_OPTIONS[name].shown_label.format_map(values)
        in_force = [f"{per(x)} ({x})" for x in cfg.sensitive]
        rows = out.index[out["item"] == label]
        if len(rows) and any(x in cfg.sensitive_thresholds for x in cfg.sensitive):
            out.loc[rows, "value"] = f"in force: {', '.join(in_force)} (global: {out.loc[rows[0], 'value']})"
    return out


def _setup_section(a: Assessment) -> Section:
    """The scenarios, the thresholds and options, and the binning."""
    cfg = a.config
    s = Section("setup", "Scenarios and thresholds")
    s.tables.append(Table("scenarios", "Key-variable scenarios",
                          pd.DataFrame([(sc.name, ", ".join(sc.keys)) for sc in cfg.all_scenarios],
                                       columns=["scenario", "key variables"])))
    s.tables.append(Table("thresholds", "Thresholds", _in_force(cfg, _option_rows(
        cfg, [o.name for o in ASSESS_OPTIONS.in_section("thresholds")]))))
    if cfg.sensitive:
        s.tables.append(Table("sensitive thresholds", "Thresholds per sensitive variable", pd.DataFrame(
            [(x, cfg.l_for(x), cfg.t_for(x), cfg.distance_for(x)) for x in cfg.sensitive],
            columns=["sensitive", "l", "t", "distance asked for"]), note="A variable without an order is measured "
            "with the equal distance whatever is asked for (see the t-closeness sections)."))
    s.tables.append(Table("options", "Options", _option_rows(cfg, _SHOWN_OPTIONS)))
    if a.binning or cfg.sensitive_bins:
        rows = [(b.column, "key", b.method, ", ".join(b.labels), *_bands(b)) for b in a.binning]
        for sc in a.scenarios[:1]:
            if sc.ldiversity is not None:
                rows += [(b.column, "sensitive (l-diversity, inference)", b.method, ", ".join(b.labels), *_bands(b))
                         for b in sc.ldiversity.binning if b.column in cfg.sensitive]
        s.tables.append(Table("binning", "Binning", pd.DataFrame(
            rows, columns=["variable", "as", "method", "bins", BIN_MODIFIERS["closed"].shown_label,
                           BIN_MODIFIERS["outside"].shown_label])))
    return s


def _bands(b: object) -> tuple[str, str]:
    """How a Binning's bands are closed, and what it did with values outside its edges."""
    bands = "(a, b], the first [a, b]" if getattr(b, "closed", "left") == "right" else "[a, b), the last [a, b]"
    outside = getattr(b, "outside", "error")
    done = {"missing": f"{getattr(b, 'made_missing', 0):,} made missing",
            "extend": f"{getattr(b, 'extended', 0):,} taken by the first/last band"}.get(outside, "none (refused)")
    return bands, done


def _verdicts_section(a: Assessment) -> Section:
    s = Section("verdicts", "Verdicts", ["Each measure against its threshold: pass, fail, or information only."]
                + [headline(r, a) for r in a.scenarios])
    s.tables.append(Table("verdicts", "Verdict per measure", verdict_frame(a),
                          show=VERDICT_COLUMNS))
    return s


def _not_run_section(a: Assessment) -> Section | None:
    """Out of memory: the configured measures that do not run there, each with why (their
    declarations' reasons), and those not computed. None in memory (every measure runs)."""
    if a.engine == "pandas":
        return None
    lines = [f"{label}: {why}" for label, why in a.not_run]
    lines += [f"{label}: not computed ({why})" for label, why in a.skipped]
    return Section("not_run", f"Not run {ENGINES[a.engine][1]}", lines or ["Every configured measure ran."])


def _across_sections(a: Assessment) -> list[Section]:
    """A section per measure that compares the scenarios (l-diversity, t-closeness), when it ran."""
    out = []
    for m in ALL_MEASURES:
        x = m.across
        per = [(r.scenario.name, m.result(r)) for r in a.scenarios]
        per = [(name, res) for name, res in per if res is not None and (res or not isinstance(res, dict))]
        if x is None or not per:
            continue
        frames = []
        for name, res in per:
            f = x.frame(res).copy()
            f.insert(0, "scenario", name)
            frames.append(f)
        s = Section(x.key, x.title, [x.text(a.config)])
        s.tables.append(Table(x.table, x.table_title, pd.concat(frames), show=list(x.show) if x.show else None))
        out.append(s)
    return out


def _file_sections(a: Assessment) -> list[Section]:
    """The sections of the file-wide measures (inference of the sensitive values)."""
    out = []
    for m in FILE_MEASURES:
        res = getattr(a, m.field, None)
        if res and m.title is not None:
            out.append(measure_section(m, a.config, res, tag="", where=""))
    return out


def _small_counts_section(a: Assessment) -> Section:
    thr = a.config.thresholds
    s = Section("small", "Small-count levels",
                [f"Levels of the key variables held by fewer than {thr.small_count or thr.k} records."])
    if a.engine != "pandas":
        s.paragraphs.append(f"Not computed {ENGINES[a.engine][1]}: the levels are counted in memory.")
        return s
    s.tables.append(Table("small counts", "Small-count levels", a.small_counts))
    return s


def _crosscheck_section(a: Assessment) -> Section | None:
    if a.cross_check is None:
        return None
    rv = a.provenance.get("r_versions", {})
    s = Section("crosscheck", "Cross-check with sdcMicro",
                [f"Every scenario's measures computed again with R's sdcMicro {rv.get('sdcMicro', '?')} "
                 f"({rv.get('R', '?')}) through r_bridge, on the same binned data; 'agree' means within the "
                 "tolerance shown (exact for counts). "
                 + ("All agree." if bool(a.cross_check["agree"].all()) else
                    f"{int((~a.cross_check['agree']).sum())} measure(s) DISAGREE.")
                 + "".join(f" Note: {n}." for n in compared_as(a.config))])
    s.tables.append(Table("cross-check", "Agreement with sdcMicro", a.cross_check))
    return s


def _files_section(a: Assessment, files: Mapping[str, str] | None) -> Section | None:
    if not files:
        return None
    s = Section("files", "Files in this folder",
                ["The per-record files list the records at risk under each model (input_row = the record's row "
                 "in the input, 1-based), with the values that put them at risk; records.csv joins every "
                 "per-record measure with an at_risk_... column per model."] if a.engine == "pandas" else
                [f"No per-record files and no figures: the records stayed where they are ({ENGINES[a.engine][1]})."])
    s.tables.append(Table("files", "Files", pd.DataFrame(list(files.items()), columns=["file", "contents"])))
    return s


def _notes_section(a: Assessment) -> Section:
    notes = list(a.notes)
    notes += [f"Not computed: {m}, because {why}." for m, why in a.skipped]
    notes.append(SAFETY_NOTE)
    return Section("notes", "Notes", notes)


def _reproduce_section(a: Assessment) -> Section:
    prov = a.provenance
    cmd = prov.get("command") or "sdc assess ..."
    repro = [f"Command: {cmd}",
             "The resolved configuration is in report.json (\"config\"); the same input and configuration give the "
             "same report, byte for byte, except the line with the generation time." if a.engine == "pandas" else
             "The same input and configuration give the same report, byte for byte, except the line with the "
             "generation time."]
    s = Section("reproduce", "How to reproduce", repro)
    rows = [("config", prov.get("config_source", ""))]
    rows += [(f"{k} version", v) for k, v in prov.get("versions", {}).items()]
    rows += [(f"{k} version (cross-check)", v) for k, v in prov.get("r_versions", {}).items()]
    rows.append(("platform", prov.get("platform", "")))
    s.tables.append(Table("provenance", "Provenance", _kv(rows)))
    return s


def finish_sections(sections: list[Section], data_columns: Sequence[object]) -> list[Section]:
    """Data variables keep their names in every table; the keys of tables and sections are made
    unique (a repeat gets ``(2)``)."""
    keep = frozenset(str(c) for c in data_columns)
    tables = [t for sec in sections for t in sec.tables]
    for t, key in zip(tables, unique_keys([t.key for t in tables])):
        t.keep, t.key = keep, key
    for sec, key in zip(sections, unique_keys([sec.key for sec in sections], sep="-")):
        sec.key = key
    return sections


def build_report(a: Assessment, *, files: Mapping[str, str] | None = None,
                 title: str = "Disclosure risk assessment") -> Report:
    """The report's sections from an assessment: the executive summary, the input, the setup,
    the verdicts, every scenario's measures (as the registry declares them), the comparisons
    across scenarios, the file-wide measures, the small counts, the cross-check, the files,
    the notes and how to reproduce. Out of memory (``a.engine`` not pandas) the same sections,
    with the measures not run there after the verdicts, and no figures.

    `files` lists the report folder's files (name -> what it holds) for the "Files" section.
    """
    inputs = a.provenance.get("input_files") or ["(a DataFrame)"]
    sections: list[Section | None] = [_executive_summary(a, inputs), _input_section(a, inputs), _setup_section(a),
                                      _verdicts_section(a), _not_run_section(a)]
    for i, r in enumerate(a.scenarios):
        sections.extend(scenario_sections(r, a.config, i))
    sections += [*_across_sections(a), *_file_sections(a), _small_counts_section(a), _crosscheck_section(a),
                 _files_section(a, files), _notes_section(a), _reproduce_section(a)]
    done = finish_sections([s for s in sections if s is not None], a.data.columns)
    return Report(title=title, generated=a.provenance["generated_utc"], sections=done, assessment=a,
                  captions=figure_captions(a))


def measure_run_report(run: MeasureRun) -> Report:
    """The report of a one-measure assessment (a single-measure command): its setup, then each
    measure's section as an assessment's report presents it (:func:`measure_section`)."""
    setup = Section("setup", "Setup", tables=[Table("setup", "The data and the options", _kv(list(run.setup)))])
    sections = [setup] + [measure_section(p.measure, run.config, p.shown, tag="", where="", joined=p.joined)
                          for p in run.parts]
    return Report(title=run.title, generated="", sections=finish_sections(sections, ()))


def figure_captions(a: Assessment) -> dict[str, str]:
    """The caption of each scenario's figures, by figure id."""
    return {figure_id(f"s{i + 1}", name): f"{cap} — scenario '{r.scenario.name}'"
            for i, r in enumerate(a.scenarios) for name, cap in FIGURES.items()}


def measure_run_line(run: MeasureRun) -> str:
    """A one-measure assessment in one line (``sdc --quiet``): its title and each section's
    verdict statistics, as the report states them."""
    from sdc.report.formatting import format_cell

    figures = []
    for p in run.parts:
        shown = p.shown
        if isinstance(shown, ScenarioResult):  # a section shown from the scenario reads its own field
            shown = getattr(shown, p.measure.field, None)
        try:
            found = p.measure.findings(run.config, shown) if shown is not None else []
        except (AttributeError, KeyError, TypeError):  # a section without verdict statistics
            found = []
        figures += [f"{f.statistic}: {format_cell(f.value)}" for f in found]
    return run.title + (f" — {'; '.join(figures)}" if figures else "")
