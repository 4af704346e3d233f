"""``sdc assess --engine dask``: the measures that run on a Dask DataFrame, per key scenario.

The configuration is the in-memory one (:mod:`sdc.workflow.config`). Per scenario the
k-anonymity profile, the individual and global risk, the snapshots over key subsets,
l-diversity and t-closeness run on Dask, each from one pass over the data to a small pandas
table (the key patterns, or the (class, sensitive value) cells), so their numbers are the
in-memory ones; the verdicts are made by the in-memory rules (:func:`sdc.workflow.assess._verdicts`).

The measures that cannot run on Dask exactly are never replaced by another number: each is
listed in ``not_run`` with the reason, and the report shows one line per measure (SUDA2,
modRisk and household risk always; any other configured measure not distributed too).

Bins of continuous keys (and of sensitive variables) must be explicit edges: they are
applied per partition, row by row. Quantile and width bins depend on the whole file and are
refused with one line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pandas as pd

from sdc._provenance import platform_text, provenance, versions
from sdc._validation import check_columns
from sdc.workflow.config import RunConfig

__all__ = ["DaskAssessment", "assess_dask", "NOT_ON_DASK", "DASK_MEASURES"]

#: The measures ``sdc assess --engine dask`` runs (k-anonymity and risk in every scenario).
DASK_MEASURES = ("k_anonymity", "risk", "snapshots", "ldiversity", "tcloseness")

#: The measures that cannot run on a Dask DataFrame exactly: why, in one phrase.
NOT_ON_DASK: dict[str, tuple[str, str]] = {
    "suda": ("SUDA2", "it searches the minimal sample uniques of every record over all key combinations at once"),
    "modrisk": ("log-linear model risk (modRisk)", "its log-linear model is fitted over all cells of the key "
                "table together"),
    "household": ("household risk", "it needs each household's records together"),
}

#: Configured measures the Dask engine does not compute (not distributed yet): why.
_NOT_DISTRIBUTED = {
    "inference": ("inference of sensitive values", "not distributed; run sdc assess in memory (--engine pandas)"),
    "uniqueness": ("population uniqueness and attacker risks",
                   "not distributed; run sdc assess in memory (--engine pandas)"),
}


@dataclass(frozen=True)
class DaskAssessment:
    """What ``sdc assess --engine dask`` computed: per scenario the results (``ScenarioResult``
    with per-record fields as Dask objects), the verdicts, and the measures not run."""

    config: RunConfig
    scenarios: tuple[Any, ...]
    verdicts: tuple[Any, ...]
    not_run: dict[str, str]
    provenance: dict[str, Any]
    n_records: int
    partitions: int
    notes: tuple[str, ...] = ()
    skipped: tuple[tuple[str, str], ...] = field(default=())

    def to_frame(self) -> pd.DataFrame:
        """The verdicts, as :meth:`sdc.workflow.assess.Assessment.to_frame`."""
        return pd.DataFrame([v.__dict__ for v in self.verdicts],
                            columns=["scenario", "measure", "statistic", "value", "threshold", "verdict", "share"])


def not_run_on_dask(cfg: RunConfig) -> dict[str, str]:
    """The measures not run on Dask, by label: SUDA2, modRisk and household risk always, and
    every other configured measure the engine does not compute."""
    out = {label: f"not run on Dask: {why}" for label, why in NOT_ON_DASK.values()}
    for m in cfg.measures:
        if m in _NOT_DISTRIBUTED:
            label, why = _NOT_DISTRIBUTED[m]
            out[label] = f"not run on Dask: {why}"
        elif m not in DASK_MEASURES and m not in NOT_ON_DASK:
            out[m] = "not run on Dask: not distributed; run sdc assess in memory (--engine pandas)"
    return out


def _edges_only(bins: Any, role: str) -> dict[str, Any]:
    out = {}
    for col, spec in (bins or {}).items():
        if isinstance(spec, dict) or not isinstance(spec, (list, tuple)):
            raise ValueError(f"--engine dask: the bins of {col!r} ({role}) must be explicit edges, e.g. {col}=0,18,65,inf "
                             "(quantile and width bins depend on the whole file).")
        out[col] = list(spec)
    return out


def _binned(ddf: Any, bins: dict[str, Any]) -> Any:
    """The columns binned per partition (explicit edges: row by row, the in-memory labels)."""
    from sdc.core.binning import apply_binning

    if not bins:
        return ddf
    check_columns(ddf._meta, list(bins), role="bins")
    meta = apply_binning(ddf._meta, bins)[0]
    return ddf.map_partitions(lambda part: apply_binning(part, bins)[0], meta=meta)


def _check_roles(cfg: RunConfig, meta: pd.DataFrame) -> None:
    roles = [("categorical_keys", cfg.categorical_keys), ("continuous_keys", cfg.continuous_keys),
             ("sensitive", cfg.sensitive)] + [(f"scenario {s.name!r}", s.keys) for s in cfg.scenarios]
    for role, cols in roles:
        if cols:
            check_columns(meta, list(cols), role=role)
    for role, col in (("id", cfg.id), ("weights", cfg.weights), ("household", cfg.household)):
        if col:
            check_columns(meta, [col], role=role)
    overlap = set(cfg.sensitive) & set(cfg.keys)
    if overlap:
        raise ValueError(f"`sensitive` variables may not also be keys: {', '.join(map(repr, sorted(overlap)))}.")


def _tcloseness(work: Any, keys: list[str], cfg: RunConfig) -> dict[str, Any]:
    from sdc.attribute.closeness import t_closeness
    from sdc.workflow.config import t_never_fails
    from sdc.workflow.registry import effective_distance

    out = {}
    for s in cfg.sensitive:
        dist, t = effective_distance(work._meta[s], cfg.distance_for(s)), cfg.t_for(s)
        why = t_never_fails(s, t, dist)  # e.g. a Wasserstein t for a variable measured with the equal distance
        if why is not None:
            raise ValueError(why)
        out[s] = t_closeness(work, keys, s, distance=dist, t=t)
    return out


def assess_dask(ddf: Any, cfg: RunConfig, *, files: list[str] | None = None, command: str = "",
                now: datetime | None = None) -> DaskAssessment:
    """Run the Dask-capable measures of `cfg` on the Dask DataFrame `ddf` (see the module notes).

    Parameters
    ----------
    ddf : dask.dataframe.DataFrame
        The data (e.g. :func:`sdc.workflow.protect.read_dask_partitions` of a glob of CSV files).
    cfg : RunConfig
        The run configuration, as for :func:`sdc.assess`.
    files : list of str, optional
        The input files (for the provenance record).
    command : str
        The command line, for the provenance record.
    now : datetime, optional
        The generation time recorded (default: now).
    """
    import warnings

    from sdc.attribute.ldiversity import l_diversity
    from sdc.exceptions import SdcWarning
    from sdc.risk.individual import individual_risk
    from sdc.risk.kanonymity import k_anonymity
    from sdc.risk.snapshots import key_subset_snapshots, standard_subsets
    from sdc.workflow.assess import ScenarioResult, _skipped, _verdicts

    _check_roles(cfg, ddf._meta)
    key_bins = _edges_only(cfg.bins, "continuous key")
    sens_bins = _edges_only(cfg.sensitive_bins, "sensitive variable")
    work = _binned(ddf, key_bins)
    sens_work = _binned(work, sens_bins)
    thr = cfg.thresholds
    measures = set(cfg.measures)
    opts = {"weights": cfg.weights, "missing": cfg.missing, "alpha": cfg.alpha}
    notes: list[str] = []
    unbinned = [k for k in cfg.continuous_keys if k not in cfg.bins]
    if unbinned:
        notes.append(f"continuous key(s) {', '.join(unbinned)} assessed on their raw values (no bins configured).")
    results = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SdcWarning)
        for sc in cfg.all_scenarios:
            keys = list(sc.keys)
            kw: dict[str, Any] = {}
            prof = k_anonymity(work, keys, k=thr.k, top=10, **opts)
            risk = individual_risk(work, keys, max_global_risk=thr.max_global_risk, **opts)
            if "snapshots" in measures:
                kw["snapshots"] = key_subset_snapshots(work, keys, subsets=standard_subsets(tuple(keys))[0],
                                                       threshold=thr.k, **opts)
            if "ldiversity" in measures and cfg.sensitive:
                kw["ldiversity"] = l_diversity(sens_work, keys, list(cfg.sensitive),
                                               l={s: cfg.l_for(s) for s in cfg.sensitive}, c=thr.c,
                                               mode=cfg.ldiversity_mode)
            if "tcloseness" in measures and cfg.sensitive:
                kw["tcloseness"] = _tcloseness(work, keys, cfg)
            results.append(ScenarioResult(scenario=sc, key_classes=None, profile=prof, risk=risk,  # type: ignore[arg-type]
                                          **kw))
    for w in caught:
        msg = " ".join(str(w.message).split())
        if msg not in notes:
            notes.append(msg)
    verdicts = _verdicts(cfg, results, {})
    every = versions()
    prov = provenance(now, input_files=list(files or []), command=command, config_source=cfg.source,
                      engine="dask", partitions=ddf.npartitions,
                      versions={k: every[k] for k in ("sdc", "python", "pandas")}, platform=platform_text())
    skipped = tuple((m, why) for m, why in _skipped(cfg) if m not in ("household risk",))
    return DaskAssessment(config=cfg, scenarios=tuple(results), verdicts=tuple(verdicts),
                          not_run=not_run_on_dask(cfg), provenance=prov,
                          n_records=int(results[0].profile.n_records) if results else 0,
                          partitions=ddf.npartitions, notes=tuple(notes), skipped=skipped)


def dask_session(scheduler: str | None = None) -> Any:
    """The cluster of the run (a context giving a Client): `scheduler` (an address or a
    scheduler file), else a local cluster sized to the machine."""
    from sdc.core._dask_protect import session

    return session(scheduler)


def read_input(cfg: RunConfig) -> tuple[Any, list[str]]:
    """The configuration's data path (a CSV file or a glob) as a Dask DataFrame of one
    partition per file, each read as in memory (delimiter, missing-value markers, text
    columns); and the files."""
    from sdc.core._dask_protect import read_partitions

    if cfg.domains:
        raise ValueError("--engine dask reads one data file or a glob of files; joined domains are assessed in "
                         "memory (--engine pandas).")
    if cfg.data_path is None:
        raise ValueError("--engine dask needs DATA: a CSV file or a glob of them ('data/part-*.csv').")
    if cfg.sheet is not None:
        raise ValueError("--engine dask reads CSV files (a path or a glob); --sheet is for Excel input.")
    options: dict[str, Any] = {}
    if cfg.sep:
        options["sep"] = cfg.sep
    if cfg.na_values:
        options["na_values"] = cfg.na_values
    if cfg.text_columns:
        options["text_columns"] = cfg.text_columns
    return read_partitions(str(cfg.data_path), **options)
