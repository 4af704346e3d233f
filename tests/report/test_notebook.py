"""The notebook API: sdc.plot draws every report figure on matplotlib axes, every public result
class and report folder has a short HTML view and a short repr, and progress bars in a
Jupyter kernel without ipywidgets give no warning."""

from __future__ import annotations

import dataclasses
import html
import sys
import types
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # before pyplot: the figures sdc.plot makes need no display

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402

import sdc  # noqa: E402
import sdc.plot  # noqa: E402
from sdc.datasets import example_config_path, example_path  # noqa: E402
from sdc.report.plots import FIGURE_NAMES, panels  # noqa: E402

KEYS = ["age", "sex", "region"]


@pytest.fixture(scope="module")
def assessment():
    return sdc.assess(sdc.load_config(example_config_path()))


@pytest.fixture(scope="module")
def df():
    return sdc.load_example()


# --- sdc.plot ----------------------------------------------------------------------------------

def test_every_report_figure_has_a_plot_function() -> None:
    assert set(FIGURE_NAMES) <= set(sdc.plot.__all__)
    for name in FIGURE_NAMES:
        assert callable(getattr(sdc.plot, name)) and getattr(sdc.plot, name).__doc__


@pytest.mark.parametrize("name", FIGURE_NAMES)
def test_plot_returns_the_axes_of_the_report_figure(assessment, name) -> None:
    sc = assessment.scenarios[0]
    assert panels(name, sc) >= 1  # the example computes every figure
    out = getattr(sdc.plot, name)(assessment)
    axes = np.atleast_1d(out)
    assert all(isinstance(a, Axes) for a in axes)
    assert len(axes) == (1 if name == "risk_distribution" else panels(name, sc))
    drawn = axes[0]
    assert drawn.has_data() or drawn.patches or drawn.lines
    sup = drawn.figure._suptitle.get_text() if drawn.figure._suptitle is not None else ""
    assert "demographics" in (drawn.get_title() + sup) or name == "cumulative_risk"
    plt.close("all")


@pytest.mark.parametrize("name", FIGURE_NAMES)
def test_plot_draws_on_the_axes_given_and_for_the_scenario_named(assessment, name) -> None:
    second = assessment.scenarios[1]
    n = 1 if name == "risk_distribution" else panels(name, second)
    fig, axes = plt.subplots(n, 1, squeeze=False)
    given = list(axes[:, 0])
    out = getattr(sdc.plot, name)(assessment, given if n > 1 else given[0], scenario=second.scenario.name)
    assert list(np.atleast_1d(out)) == given
    assert out is given[0] or n > 1
    plt.close(fig)


def test_the_notebook_and_the_report_draw_the_same_picture(assessment) -> None:
    # One drawing function: the titles and the bars of the report's figure are the notebook's.
    from sdc.report.plots import _report_axes, _FIGURES

    sc = assessment.scenarios[0]
    fig, report_axes = _report_axes("class_sizes", sc, 1)
    _FIGURES["class_sizes"][0](list(np.atleast_1d(report_axes)), assessment, sc)
    ax = sdc.plot.class_sizes(assessment)
    mine, theirs = np.atleast_1d(report_axes)[0], ax
    assert mine.get_title() == theirs.get_title()
    assert [p.get_height() for p in mine.patches] == [p.get_height() for p in theirs.patches]
    plt.close("all")


def test_plot_refuses_what_it_cannot_draw(assessment) -> None:
    with pytest.raises(TypeError, match="result: expected the Assessment"):
        sdc.plot.class_sizes(assessment.scenarios[0])
    with pytest.raises(ValueError, match="scenario: no scenario named 'nope'; the assessment has 'demographics'"):
        sdc.plot.class_sizes(assessment, scenario="nope")
    fig, (a, b, c) = plt.subplots(3, 1)
    with pytest.raises(ValueError, match="ax: the figure 'class_sizes' draws on 1 axes here; got 3"):
        sdc.plot.class_sizes(assessment, [a, b, c])
    plt.close("all")
    small = sdc.assess(sdc.load_example(), keys=["sex", "region"])
    with pytest.raises(ValueError, match="needs a measure not computed"):
        sdc.plot.ldiversity_distribution(small)


@pytest.fixture(scope="module")
def protection_run(df):
    return sdc.protect_data(df, Path(example_path()).with_name("example_plan.toml"))


@pytest.fixture(scope="module")
def sweep_result(df):
    return sdc.sweep(df, Path(example_path()).with_name("example_sweep.toml"))


def test_every_comparison_and_sweep_figure_has_a_plot_function() -> None:
    from sdc.report.compare_plots import COMPARE_FIGURES
    from sdc.report.sweep import SWEEP_FIGURES

    for name in [*COMPARE_FIGURES, *SWEEP_FIGURES]:
        assert name in sdc.plot.__all__ and callable(getattr(sdc.plot, name)), name


@pytest.mark.parametrize("name", ["risk_before_after", "changed_distributions", "correlations"])
def test_comparison_plots_return_axes_drawn_as_in_the_report(protection_run, name) -> None:
    from sdc.report.compare_plots import comparison_figure

    for result in (protection_run, protection_run.comparison):
        axes = np.atleast_1d(getattr(sdc.plot, name)(result))
        assert len(axes) >= 1 and all(isinstance(a, Axes) for a in axes)
        assert all(a.figure is axes[0].figure for a in axes) and axes[0].figure.number in plt.get_fignums()
    report = comparison_figure(name, protection_run.comparison)  # the report's Figure, by the same function
    drawn = [a for a in report.axes if a.get_label() != "<colorbar>"]
    assert [a.get_title() for a in drawn] == [a.get_title() for a in axes]
    plt.close("all")


@pytest.mark.parametrize("name", ["risk_by_parameter", "utility_by_parameter", "risk_utility"])
def test_sweep_plots_return_axes(sweep_result, name) -> None:
    axes = np.atleast_1d(getattr(sdc.plot, name)(sweep_result))
    assert len(axes) >= 1 and all(isinstance(a, Axes) for a in axes)
    assert any(a.lines or a.collections for a in axes)
    plt.close("all")


def test_comparison_and_sweep_plots_refuse_another_result(assessment) -> None:
    with pytest.raises(TypeError, match="result: expected the Comparison sdc.compare returns"):
        sdc.plot.correlations(assessment)
    with pytest.raises(TypeError, match="result: expected the SweepResult sdc.sweep returns; got Assessment"):
        sdc.plot.risk_utility(assessment)


# --- HTML views and short reprs -------------------------------------------------------------------

def _public_classes() -> list[type]:
    return [v for n in sdc.__all__ for v in [getattr(sdc, n)]
            if isinstance(v, type) and not issubclass(v, BaseException)]


def test_every_result_class_with_a_summary_has_an_html_view_and_a_short_repr() -> None:
    with_summary = [c for c in _public_classes() if callable(getattr(c, "summary", None))]
    assert len(with_summary) >= 44
    for cls in with_summary:
        assert "_repr_html_" in dir(cls), cls.__name__
        # not the dataclass repr, which prints every field (frames and all)
        assert not hasattr(cls.__repr__, "__wrapped__"), cls.__name__


def _results(df: pd.DataFrame, assessment) -> list[object]:
    """An instance of as many public result classes as the example gives."""
    run = sdc.protect_data(df, Path(example_path()).with_name("example_plan.toml"))
    rel = run.released
    out: list[object] = [assessment, run, run.comparison, *[s.result for s in run.steps]]
    for sc in assessment.scenarios:
        out += [sc.profile, sc.risk, sc.key_classes, sc.household, sc.snapshots, sc.ldiversity, sc.suda,
                sc.uniqueness, sc.attacker, *sc.tcloseness.values(), *sc.intervals.values()]
    out += list(assessment.inference.values())
    out += [sdc.frequencies(df, KEYS), sdc.beta_likeness(df, KEYS, "cholesterol"),
            sdc.delta_disclosure(df, KEYS, "diagnosis"), sdc.homogeneity(df, KEYS, "diagnosis"),
            sdc.risky_cells(df, KEYS, threshold=3, max_dim=2), sdc.model_risk(df, ["sex", "region"], weights="weight"),
            sdc.identify(df), sdc.g_distinct(df), sdc.safe_harbor(df)]
    num = ["bmi", "cholesterol"]
    o, r = df.loc[rel.index], rel
    out += [sdc.utility_summary(o, r), sdc.il1s(o, r, num), sdc.information_loss(o, r, num),
            sdc.eigen_similarity(o, r, num), sdc.non_uniform_entropy(o, r, ["sex", "region"]),
            sdc.discernibility(o, r, ["sex", "region"]), sdc.suppression(o, r), sdc.association_change(o, r, num),
            sdc.marginal_change(o, r, ["sex", "region"]), sdc.analysis_validity(o, r, "cholesterol ~ bmi"),
            sdc.distance_risk(o, r, num), sdc.record_linkage(o.head(300), r.head(300), num),
            sdc.skewness_attack(r, ["sex", "region"], "diagnosis"),
            sdc.linkage_attack(r, o.head(200), ["sex", "region", "marital_status"])]
    return [x for x in out if x is not None]


def test_results_show_short_escaped_reprs_and_html(df, assessment) -> None:
    results = _results(df, assessment)
    seen = {type(x) for x in results}
    assert len(seen) >= 35, sorted(c.__name__ for c in seen)
    for x in results:
        text = repr(x)
        assert len(text) <= 300 and "\n" not in text, (type(x).__name__, len(text), text[:400])
        assert text.startswith(f"<{type(x).__name__}")
        page = x._repr_html_()
        assert page.startswith('<div class="sdc-r">') and len(page) < 20_000, type(x).__name__
    assert len(repr(assessment)) < 100  # was 6,711 characters


def test_reprs_escape_what_comes_from_the_data() -> None:
    evil = pd.DataFrame({"<b>k</b>": ["<script>x</script>", "a"] * 5, "s": ["1", "2"] * 5})
    r = sdc.k_anonymity(evil, ["<b>k</b>"])
    page = r._repr_html_()
    assert "<script>" not in page and "<b>k</b>" not in page
    a = sdc.assess(evil, keys=["<b>k</b>"])
    assert "<script>" not in a._repr_html_() and html.escape("<b>k</b>") in a._repr_html_()


def test_report_folders_have_an_html_view_and_a_one_line_repr(tmp_path, assessment) -> None:
    folder = sdc.write_report(assessment, tmp_path / "rep")
    text = repr(folder)
    assert text == f"<ReportFolder {folder.path}/: {len(folder.files)} files, open report.html>"
    page = folder._repr_html_()
    assert "report.html" in page and page.count("<li>") == len(folder.files)
    from sdc.report.compare import ComparisonFolder
    from sdc.report.protection_log import ProtectionFolder
    from sdc.report.sweep import SweepFolder

    for cls in (ComparisonFolder, ProtectionFolder, SweepFolder):
        assert "_repr_html_" in vars(cls) and not hasattr(cls.__repr__, "__wrapped__")
        fields = {f.name: "x" for f in dataclasses.fields(cls)}
        one = cls(**{**fields, "path": tmp_path, "files": ("a.html", "b<i>.csv")})
        assert len(repr(one)) < 300 and "b&lt;i&gt;.csv" in one._repr_html_()


# --- progress in Jupyter ---------------------------------------------------------------------------

@pytest.fixture()
def fake_jupyter(monkeypatch):
    """A Jupyter kernel as tqdm detects one (IPython's kernel app configured), without ipywidgets."""
    shell = types.SimpleNamespace(config={"IPKernelApp": {}})
    ipython = types.ModuleType("IPython")
    ipython.get_ipython = lambda: shell  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # import ipywidgets fails
    for name in ("tqdm.auto", "tqdm.autonotebook", "tqdm.notebook"):  # tqdm decides when first imported
        monkeypatch.delitem(sys.modules, name, raising=False)


def test_progress_in_a_notebook_without_ipywidgets_gives_no_warning(fake_jupyter, df, capsys) -> None:
    from sdc.core.progress import in_notebook

    assert in_notebook()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sdc.key_subset_snapshots(df, KEYS, progress=True)
    err = capsys.readouterr().err
    assert not [w for w in caught if "IProgress" in str(w.message)], [str(w.message) for w in caught]
    assert "IProgress" not in err
    assert "risk snapshots (key subsets)" in err  # the text bar, on stderr


def test_progress_outside_a_notebook_is_the_text_bar(capsys, df) -> None:
    from sdc.core.progress import in_notebook, progress_bar

    assert not in_notebook()
    bar = progress_bar(range(3), desc="x")
    assert type(bar).__module__ == "tqdm.std"
    list(bar)
