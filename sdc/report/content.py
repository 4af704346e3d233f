"""The report's content, independent of format: sections of paragraphs, tables and figures.

Every output (HTML, Markdown, plain text, XLSX, JSON) renders the same :class:`Report`, so
they cannot disagree. Numbers stay unrounded here; renderers format them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from sdc.workflow.assess import Assessment, ScenarioResult
from sdc.workflow.registry import SCENARIO_MEASURES
from sdc.report.formatting import fmt_num, fmt_pct

__all__ = ["Table", "Section", "Report", "build_report", "headline", "SAFETY_NOTE", "FIGURES"]

SAFETY_NOTE = ("Spreadsheet safety: in the CSV and XLSX files, a text cell that starts with =, +, -, @, a tab or a "
               "carriage return is prefixed with an apostrophe (') so that spreadsheet programs show it as text "
               "instead of running it as a formula.")

#: Figure files (in plots/) and their captions.
FIGURES = {
    "risk_distribution": "Distribution of individual re-identification risk (histogram and box plot)",
    "class_sizes": "Equivalence-class sizes (sample frequency f_k)",
    "risk_by_key_subset": "Global risk by subset of the key variables",
    "cumulative_risk": "Cumulative share of records by individual risk",
    "ldiversity_distribution": "Distinct l-diversity across equivalence classes",
    "tcloseness_distribution": "t-closeness distance across equivalence classes",
}


@dataclass
class Table:
    key: str            # unique name: sheet name, JSON key
    title: str
    frame: pd.DataFrame
    note: str = ""


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

    def tables(self) -> list[Table]:
        return [t for s in self.sections for t in s.tables]


def _kv(rows: list[tuple[str, object]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["item", "value"])


def _roles(a: Assessment) -> pd.DataFrame:
    cfg = a.config
    role: dict[str, list[str]] = {}
    for k in cfg.categorical_keys:
        role.setdefault(k, []).append("categorical key")
    for k in cfg.continuous_keys:
        role.setdefault(k, []).append("continuous key" + (" (binned)" if k in cfg.bins else ""))
    for sc in cfg.scenarios:
        for k in sc.keys:
            if k not in role:
                role.setdefault(k, []).append("key")
    for col, name in ((cfg.id, "id"), (cfg.weights, "sampling weight"), (cfg.household, "household id")):
        if col:
            role.setdefault(col, []).append(name)
    for s in cfg.sensitive:
        role.setdefault(s, []).append("sensitive" + (" (binned for l-diversity)" if s in cfg.sensitive_bins else ""))
    rows = []
    for col in a.data.columns:
        s = a.data[col]
        rows.append((col, ", ".join(role.get(col, ["other"])), str(s.dtype), int(s.isna().sum()),
                     int(s.nunique(dropna=True))))
    return pd.DataFrame(rows, columns=["variable", "role", "dtype", "missing", "distinct values"])


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
    thr = a.config.thresholds
    out = []
    p = r.profile
    sec = Section(f"{tag}-kanon", f"k-anonymity — scenario '{name}'",
                  [f"Key variables: {keys}. Missing key values: {a.config.missing}"
                   + (f" (alpha = {a.config.alpha:g})" if a.config.missing == "wildcard" else "") + "."])
    sec.tables.append(Table(f"{tag} profile", "k-anonymity profile",
                            p.summary()[["statistic", "value", "description"]]))
    sec.tables.append(Table(f"{tag} class sizes", "Class-size distribution", p.class_sizes))
    sec.tables.append(Table(f"{tag} riskiest", "The riskiest classes (top 10)", p.riskiest_classes))
    if index == 0:
        sec.figures += ["class_sizes"]
    out.append(sec)
    sec = Section(f"{tag}-risk", f"Re-identification risk — scenario '{name}'")
    sec.tables.append(Table(f"{tag} risk", "Individual and global risk", _risk_table(r, a)))
    if r.attacker is not None:
        sec.tables.append(Table(f"{tag} attacker", "Prosecutor, journalist and marketer risk",
                                r.attacker.summary()[["statistic", "value", "description"]],
                                note=f"F_j from the {r.attacker.population_source}."))
    if index == 0:
        sec.figures += ["risk_distribution", "cumulative_risk"]
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
        s.tables.extend(Table(f"{tag} {t.key}", t.title, t.frame(res)) for t in m.tables)
        if index == 0:
            s.figures.extend(m.figures)
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


def build_report(a: Assessment, *, files: Mapping[str, str] | None = None,
                 title: str = "Disclosure risk assessment") -> Report:
    """The report's sections from an assessment.

    `files` lists the report folder's files (name -> what it holds) for the "Files" section.
    """
    cfg = a.config
    thr = cfg.thresholds
    prov = a.provenance
    inputs = prov.get("input_files") or ["(a DataFrame)"]
    sections: list[Section] = []

    s = Section("input", "Input")
    rows = [("file" if len(inputs) == 1 else f"file {i + 1}", f) for i, f in enumerate(inputs)]
    rows += [(f"SHA-256 of {Path(f).name}", h) for f, h in prov.get("input_sha256", {}).items()]
    rows += [("records", len(a.data)), ("variables", a.data.shape[1])]
    if cfg.domains:
        rows.append(("joined domains", f"{', '.join(cfg.domains)} by {cfg.subject_id}"))
    s.tables.append(Table("input", "The data", _kv(rows)))
    s.tables.append(Table("variables", "Variables and their roles", _roles(a)))
    sections.append(s)

    s = Section("setup", "Scenarios and thresholds")
    s.tables.append(Table("scenarios", "Key-variable scenarios",
                          pd.DataFrame([(sc.name, ", ".join(sc.keys)) for sc in cfg.all_scenarios],
                                       columns=["scenario", "key variables"])))
    s.tables.append(Table("thresholds", "Thresholds", _kv([
        ("k (k-anonymity)", thr.k), ("l (l-diversity)", thr.l), ("c (recursive l-diversity)", thr.c),
        (f"t (t-closeness, {cfg.distance})", thr.t), ("individual risk", thr.risk),
        ("maximum global risk", thr.max_global_risk), ("inference posterior", thr.min_posterior),
        ("small-count levels below", thr.small_count or thr.k)])))
    s.tables.append(Table("options", "Options", _kv([
        ("missing key values", cfg.missing), ("alpha", cfg.alpha), ("measures", ", ".join(cfg.measures)),
        ("l-diversity mode", cfg.ldiversity_mode), ("SUDA2 mode", cfg.suda_mode),
        ("weights", cfg.weights or "none (the data are the population)"), ("household id", cfg.household or "none"),
        ("sensitive variables", ", ".join(cfg.sensitive) or "none")])))
    if a.binning or cfg.sensitive_bins:
        rows = [(b.column, "key", b.method, ", ".join(b.labels)) for b in a.binning]
        for sc in a.scenarios[:1]:
            if sc.ldiversity is not None:
                rows += [(b.column, "sensitive (l-diversity)", b.method, ", ".join(b.labels))
                         for b in sc.ldiversity.binning if b.column in cfg.sensitive]
        s.tables.append(Table("binning", "Binning", pd.DataFrame(rows, columns=["variable", "as", "method", "bins"])))
    sections.append(s)

    s = Section("verdicts", "Verdicts", ["Each measure against its threshold: pass, fail, or information only."]
                + [headline(r, a) for r in a.scenarios])
    s.tables.append(Table("verdicts", "Verdict per measure",
                          pd.DataFrame([v.__dict__ for v in a.verdicts])))
    sections.append(s)

    for i, r in enumerate(a.scenarios):
        sections.extend(_scenario_sections(r, a, i))

    if any(r.ldiversity is not None for r in a.scenarios):
        s = Section("ldiv", "l-diversity", [f"Mode {cfg.ldiversity_mode}; l = {thr.l}, c = {thr.c:g}."])
        frames = []
        for r in a.scenarios:
            if r.ldiversity is not None:
                f = r.ldiversity.by_sensitive.copy()
                f.insert(0, "scenario", r.scenario.name)
                frames.append(f)
        s.tables.append(Table("ldiversity", "l-diversity by scenario and sensitive variable", pd.concat(frames)))
        r0 = a.primary
        if r0.ldiversity is not None:
            for sens in r0.ldiversity.sensitive:
                below = r0.ldiversity.classes_below(sens).head(10)
                cols = ["class", *r0.ldiversity.keys, "n_records", f"{sens}_distinct", f"{sens}_entropy",
                        f"{sens}_dominant", f"{sens}_dominant_share"]
                s.tables.append(Table(f"ldiv below {sens}"[:31], f"Classes below l for {sens} (first 10, scenario "
                                      f"'{r0.scenario.name}')", below[cols]))
        s.figures.append("ldiversity_distribution")
        sections.append(s)

    if any(r.tcloseness for r in a.scenarios):
        s = Section("tclose", "t-closeness", [f"Threshold t = {thr.t:g}. Unordered sensitive variables use the "
                                             "equal-distance EMD."])
        rows = []
        for r in a.scenarios:
            for sens, tc in r.tcloseness.items():
                rows.append((r.scenario.name, sens, tc.distance, tc.max_t, tc.n_classes_above_t, tc.n_records_above_t,
                             tc.pct_records_above_t))
        s.tables.append(Table("tcloseness", "t-closeness by scenario and sensitive variable", pd.DataFrame(
            rows, columns=["scenario", "sensitive", "distance", "max_t", "n_classes_above_t", "n_records_above_t",
                           "pct_records_above_t"])))
        for sens, tc in a.primary.tcloseness.items():
            s.tables.append(Table(f"t above {sens}"[:31], f"Classes farthest from the file distribution of {sens} "
                                  f"(first 10, scenario '{a.primary.scenario.name}')",
                                  tc.classes_above().head(10)))
        s.figures.append("tcloseness_distribution")
        sections.append(s)

    if a.inference:
        s = Section("inference", "Inference of sensitive values",
                    [f"Single variables and pairs Z that reveal S; a record is revealed when P(S = its value | Z) >= "
                     f"{thr.min_posterior:g}. Levels of Z seen once are left out (sample uniques)."])
        for sens, inf in a.inference.items():
            f = inf.findings.head(15).copy()
            f["variables"] = [" + ".join(v) for v in f["variables"]]
            s.tables.append(Table(f"inference {sens}"[:31], f"Most revealing for {sens}", f))
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
                        f"{int((~a.cross_check['agree']).sum())} measure(s) DISAGREE.")])
        s.tables.append(Table("cross-check", "Agreement with sdcMicro", a.cross_check))
        sections.append(s)

    if files:
        s = Section("files", "Files in this folder",
                    ["The per-record files list the records at risk under each model (record = row number in the "
                     "input, 1-based); records.csv joins every per-record measure with a flag per model."])
        s.tables.append(Table("files", "Files", pd.DataFrame(list(files.items()), columns=["file", "contents"])))
        sections.append(s)

    notes = list(a.notes) + [SAFETY_NOTE]
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
    return Report(title=title, generated=a.provenance["generated_utc"], sections=sections, assessment=a)

