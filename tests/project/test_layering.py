"""The import rules of the package, checked on the source (docs/design.md, "Layers").

Every module of ``sdc`` and ``r_bridge`` is parsed; each import (at module level or inside a
function) is checked against the rules below, and a failure names the file, the line and the
import. The rules keep the data's way one-directional: base -> core -> wings (measures and
methods) -> workflow -> report -> cli.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Modules at the top of ``sdc`` that every layer may import.
BASE = {"sdc._validation", "sdc._stats", "sdc.exceptions", "sdc._version", "sdc.io", "sdc._structure", "sdc.datasets",
        "sdc._files", "sdc._process", "sdc._schema", "sdc._provenance", "sdc._formats",
        "sdc._readers", "sdc._stages", "sdc._rbridge", "sdc._labelled", "sdc._formats_r", "sdc._json", "sdc._excel",
        "sdc._dates", "sdc._overview", "sdc._interrupt"}

#: The wings (measures and methods) and the wings each may import, besides core and base.
#: Kept acyclic: a wing only imports wings listed before it.
WINGS: dict[str, set[str]] = {
    "risk": set(),
    "attribute": set(),
    "protect": {"risk", "attribute"},
    "utility": {"risk", "attribute", "protect"},
    "identify": {"risk", "attribute", "protect", "utility"},
    "attacks": {"risk", "attribute", "protect", "utility"},
}

#: Third-party libraries with one home each (prefixes of the importing module).
OPTIONAL_HOMES: dict[str, tuple[str, ...]] = {
    "dask": ("sdc.core._dask",),
    "distributed": ("sdc.core._dask",),
    "statsmodels": ("sdc.risk.model", "sdc.utility"),
    "matplotlib": ("sdc.report.",),
    "openpyxl": ("sdc.report.xlsx", "sdc.io", "sdc._readers", "sdc._excel"),
    "rpy2": ("r_bridge",),
    "pyreadstat": ("sdc._labelled",),
    "pyarrow": ("sdc._labelled",),
}

#: Calls that factorise or group key columns: only ``sdc.core`` may make them. Each other use
#: is listed with the reason it is not about key columns.
GROUPING = re.compile(r"\bpd\.factorize\(|\.groupby\(|\bfactorize\(")
GROUPING_ALLOWED: dict[str, str] = {
    "sdc.report.safety": "factorises cell strings of a table to neutralise each distinct one once",
    "sdc.workflow.crosscheck": "groups the comparison rows by measure for the summary table",
    "sdc.workflow.combine": "checks one subject-id column of a domain file for duplicates",
    "sdc._files": "formats each distinct value of a table's column once when writing it as CSV",
}


@dataclass(frozen=True)
class Import:
    module: str      # the importing module, dotted
    path: Path
    line: int
    target: str      # the imported module, dotted (for "from x import y": x, and x.y)
    names: tuple[str, ...]
    in_function: bool
    type_only: bool = False  # under ``if TYPE_CHECKING:``: no import at run time

    def where(self) -> str:
        names = f" ({', '.join(self.names)})" if self.names else ""
        return f"{self.path.relative_to(ROOT)}:{self.line}: imports {self.target}{names}"


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    mod = _module_name(path)
    out: list[Import] = []

    def visit(node: ast.AST, in_function: bool, type_only: bool = False) -> None:
        for child in ast.iter_child_nodes(node):
            fn = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            typed = type_only or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
            if isinstance(child, ast.Import):
                for a in child.names:
                    out.append(Import(mod, path, child.lineno, a.name, (), in_function, type_only))
            elif isinstance(child, ast.ImportFrom):
                if child.level:  # relative: resolve against the package
                    base = mod.split(".")[: -child.level + (1 if path.name == "__init__.py" else 0) or None]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                out.append(Import(mod, path, child.lineno, target, tuple(a.name for a in child.names), in_function,
                                  type_only))
            visit(child, fn, typed)

    visit(tree, False)
    return out


def _sources(package: str) -> list[Path]:
    return sorted(p for p in (ROOT / package).rglob("*.py") if "__pycache__" not in p.parts)


SDC = _sources("sdc")
R_BRIDGE = _sources("r_bridge")


def _layer(module: str) -> str:
    """``base``, ``face``, ``core``, a wing's name, ``workflow``, ``report``, ``app`` or ``cli``."""
    if module == "sdc":
        return "face"
    if module in BASE or module == "sdc.__main__":
        return "base"
    return module.split(".")[1]


def _targets(imp: Import) -> list[str]:
    """The sdc modules an import reaches (``from sdc.report import serialize`` reaches both)."""
    if not imp.target.startswith("sdc"):
        return [imp.target]
    return [imp.target] + [f"{imp.target}.{n}" for n in imp.names if n != "*"]


def _violations(paths: list[Path], rule) -> list[str]:  # noqa: ANN001
    bad = []
    for p in paths:
        for imp in _imports(p):
            msg = rule(imp)
            if msg:
                bad.append(f"{imp.where()}: {msg}")
    return bad


def _check(paths: list[Path], rule) -> None:  # noqa: ANN001
    bad = _violations(paths, rule)
    assert not bad, "\n".join(bad)


def _is_module(dotted: str) -> bool:
    rel = Path(*dotted.split("."))
    return (ROOT / rel).with_suffix(".py").exists() or (ROOT / rel / "__init__.py").exists()


def _reached(imp: Import) -> list[str]:
    """The sdc modules (files or packages) the import reaches."""
    return [t for t in _targets(imp) if t.startswith("sdc") and _is_module(t)]


# --- rule 1: the harness and R stay outside the library ------------------------------------

def rule_no_validation(imp: Import) -> str | None:
    if imp.target == "validation" or imp.target.startswith("validation."):
        return "sdc never imports the validation harness"
    return None


#: The modules that reach R, through sdc._rbridge.bridge() (lazily: R is optional).
R_USERS = ("sdc.workflow.crosscheck",)


def rule_r_bridge(imp: Import) -> str | None:
    top = imp.target.split(".")[0]
    if top == "r_bridge" and not imp.module.startswith("r_bridge"):
        # PyPI's r-bridge installs a top-level r_bridge: sdc must never import that name.
        return "sdc never imports r_bridge by name: sdc._rbridge.bridge() finds sdc's own bridge"
    if top == "sdc_r_bridge" and imp.module != "sdc._rbridge":
        return "only sdc._rbridge imports the installed bridge (sdc_r_bridge)"
    if imp.target == "sdc._rbridge" and imp.module not in R_USERS and not imp.module.startswith("sdc._formats_r"):
        return f"only {', '.join(R_USERS)} and the formats read through R reach the bridge"
    if imp.target == "sdc._rbridge" and not imp.in_function:
        return "the bridge is reached lazily, inside a function (R is optional)"
    return None


def rule_r_bridge_standalone(imp: Import) -> str | None:
    if imp.target == "sdc" or imp.target.startswith("sdc."):
        return "r_bridge never imports sdc"
    return None


# --- rule 2: no inner module imports the package face ---------------------------------------

def rule_no_face(imp: Import) -> str | None:
    if imp.module == "sdc":
        return None
    if imp.target == "sdc":
        # "from sdc import x" is fine only when x is a subpackage or module, not the face's API
        if not imp.names or any(not _is_module(f"sdc.{n}") for n in imp.names):
            return "inner modules import from the module that defines a name, never the package face"
    return None


# --- rules 3 to 8: layers --------------------------------------------------------------------

def rule_layers(imp: Import) -> str | None:
    src = _layer(imp.module)
    if src in ("face", "base") and imp.module != "sdc.__main__":
        if src == "base":
            for t in _reached(imp):
                if _layer(t) not in ("base",):
                    return "base modules import only other base modules"
        return None
    for t in _reached(imp):
        dst = _layer(t)
        if dst in ("base", "face") and t != "sdc":
            continue
        if src == "core" and dst != "core":
            return "core imports only base modules and core"
        if src in WINGS and dst != src and dst not in {"core"} | WINGS[src]:
            return f"the {src} wing imports only base, core and the wings {sorted(WINGS[src]) or 'none'}"
        if src == "report" and dst == "core":
            return "report never computes: it reads results, never core"
        if src == "report" and dst in WINGS:
            bad = [n for n in imp.names if not (n.endswith("Result") or n.isupper() or n == "Interval")]
            if bad or not imp.names:
                return f"report imports only result types from the measures (not {', '.join(bad) or 'a module'})"
        if src == "workflow" and dst in ("report", "cli", "app"):
            return "workflow never imports report, app or cli"
        if src == "report" and dst == "app":
            return "report never imports app (the app shows the report's pages)"
        if src == "app" and dst in ("core", "cli"):
            return "app calls the workflow and the report: it never imports core or cli"
        if src == "cli" and dst == "core" and not (imp.names and all(n.isupper() for n in imp.names)):
            return "cli computes nothing: it imports only constants (the allowed options) from core"
    return None


def rule_optional_homes(imp: Import) -> str | None:
    top = imp.target.split(".")[0]
    homes = OPTIONAL_HOMES.get(top)
    if homes is None or any(imp.module == h.rstrip(".") or imp.module.startswith(h) for h in homes):
        return None
    return f"{top} has one home: {', '.join(homes)}"


@pytest.mark.parametrize("rule", [rule_no_validation, rule_r_bridge, rule_no_face, rule_layers, rule_optional_homes],
                         ids=lambda r: r.__name__)
def test_sdc_imports_follow_the_rules(rule) -> None:  # noqa: ANN001
    _check(SDC, rule)


def test_r_bridge_never_imports_sdc() -> None:
    _check(R_BRIDGE, rule_r_bridge_standalone)


def test_only_core_groups_key_columns() -> None:
    bad = []
    for p in SDC:
        mod = _module_name(p)
        if mod.startswith("sdc.core") or mod in GROUPING_ALLOWED:
            continue
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if GROUPING.search(code) and not code.lstrip().startswith((">>>", "...")):
                bad.append(f"{p.relative_to(ROOT)}:{i}: {line.strip()}")
    assert not bad, "only sdc.core factorises or groups key columns:\n" + "\n".join(bad)


def _import_cycle(with_function_imports: bool) -> list[str] | None:
    """The first import cycle among sdc's modules (None: none); imports inside functions count
    when `with_function_imports`."""
    graph: dict[str, set[str]] = {}
    for p in SDC:
        mod = _module_name(p)
        graph.setdefault(mod, set())
        for imp in _imports(p):
            if imp.in_function and not with_function_imports:
                continue
            for t in _reached(imp):
                if t != mod and not mod.startswith(t + "."):  # a package's own __init__ is not a cycle
                    graph[mod].add(t)
    seen: dict[str, int] = {}
    stack: list[str] = []

    def dfs(m: str) -> list[str] | None:
        seen[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if seen.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in seen:
                cyc = dfs(n)
                if cyc:
                    return cyc
        stack.pop()
        seen[m] = 2
        return None

    for m in sorted(graph):
        if m not in seen:
            cyc = dfs(m)
            if cyc:
                return cyc
    return None


def test_no_import_cycles() -> None:
    # Imports for type hints only (under TYPE_CHECKING) count too: a module that needs another's
    # types reads them by shape (a Protocol) when the other imports it back.
    cyc = _import_cycle(with_function_imports=False)
    assert cyc is None, "import cycle: " + " -> ".join(cyc)


def test_no_import_cycles_through_imports_inside_functions() -> None:
    # A lazy import (inside a function: dask only when used) is still a dependency: two modules
    # that import each other that way are one module in two files (farm-studio look: 0 circles).
    cyc = _import_cycle(with_function_imports=True)
    assert cyc is None, "import cycle (imports inside functions included): " + " -> ".join(cyc)


def test_the_rules_catch_a_violation(tmp_path: Path) -> None:
    # negative controls: each rule fires on a made-up import
    def imp(module: str, target: str, names: tuple[str, ...] = (), in_function: bool = False) -> Import:
        return Import(module, ROOT / "sdc" / "x.py", 1, target, names, in_function)

    assert rule_no_validation(imp("sdc.workflow.assess", "validation.compare"))
    assert rule_r_bridge(imp("sdc.workflow.assess", "r_bridge", in_function=True))
    assert rule_r_bridge(imp("sdc.workflow.crosscheck", "r_bridge", in_function=True))
    assert rule_r_bridge(imp("sdc.workflow.assess", "sdc._rbridge", in_function=True))
    assert rule_r_bridge(imp("sdc.workflow.crosscheck", "sdc._rbridge"))
    assert rule_r_bridge(imp("sdc.workflow.crosscheck", "sdc._rbridge", in_function=True)) is None
    assert rule_no_face(imp("sdc.risk.suda", "sdc"))
    assert rule_no_face(imp("sdc.risk.suda", "sdc", ("__version__",)))
    assert rule_no_face(imp("sdc.cli.main", "sdc", ("report",))) is None
    assert rule_layers(imp("sdc.core.keys", "sdc.risk.individual", ("individual_risk",)))
    assert rule_layers(imp("sdc.risk.suda", "sdc.workflow.assess", ("assess",)))
    assert rule_layers(imp("sdc.risk.suda", "sdc.attribute.ldiversity", ("l_diversity",)))
    assert rule_layers(imp("sdc.protect.pram", "sdc.risk.individual", ("individual_risk",))) is None
    assert rule_layers(imp("sdc.report.records", "sdc.core.classes", ("equivalence_classes",)))
    assert rule_layers(imp("sdc.report.formatting", "sdc.risk.suda", ("SudaResult",))) is None
    assert rule_layers(imp("sdc.report.formatting", "sdc.risk.suda", ("suda",)))
    assert rule_layers(imp("sdc.cli.main", "sdc.core.frequencies", ("frequencies",)))
    assert rule_layers(imp("sdc.cli.main", "sdc.core.frequencies", ("MISSING_RULES",))) is None
    assert rule_layers(imp("sdc.workflow.assess", "sdc.report.content", ("build_report",)))
    assert rule_layers(imp("sdc.workflow.assess", "sdc.app.session", ("AppSession",)))
    assert rule_layers(imp("sdc.report.html", "sdc.app.server", ("App",)))
    assert rule_layers(imp("sdc.app.session", "sdc.core.keys", ("encode_keys",)))
    assert rule_layers(imp("sdc.app.server", "sdc.cli.main", ("main",)))
    assert rule_layers(imp("sdc.app.session", "sdc.workflow.assess", ("assess",))) is None
    assert rule_layers(imp("sdc.cli.app", "sdc.app.server", ("serve",))) is None
    assert rule_optional_homes(imp("sdc.risk.suda", "matplotlib.pyplot"))
    assert rule_optional_homes(imp("sdc.report.plots", "matplotlib.figure")) is None


# --- the report computes nothing --------------------------------------------------------------
# The report presents results: from the workflow it takes result types (CamelCase names),
# constants (UPPER names), the measures' declarations and their JSON views, and the helpers
# below that turn a result into text or name files; it makes no call that counts, groups, bins
# or sorts data, and never computes a Dask collection. A figure draws what it bins or counts.

#: Functions of the workflow the report may call, and what each is.
REPORT_FROM_WORKFLOW: dict[str, str] = {
    "to_toml": "writes a configuration as TOML text",
    "sweep_plan_toml": "writes the resolved sweep plan as TOML text",
    "compared_as": "says in words how the cross-check compared",
    "hierarchy_files": "names the hierarchy files a search folder copies",
    "figure_named": "reads a figure's declaration (its label and unit)",
    "utility_figure": "reads a utility figure's declaration (its label and unit)",
    "option_values": "reads each option's value of a configuration by its declaration",
}
#: Workflow modules whose every name is presentation: the measures' JSON views.
REPORT_VIEWS = ("sdc.workflow.documents",)
#: Calls that do numerical work on data.
COMPUTING = re.compile(
    r"\.(?:groupby|value_counts|crosstab|pivot_table|factorize|quantile|cumsum|compute|persist)\("
    r"|\bnp\.(?:bincount|searchsorted|histogram|digitize|unique|add\.at|sort|argsort|lexsort|cumsum|quantile|"
    r"percentile|median|mean)\(|\bpd\.(?:crosstab|cut|qcut|factorize|unique)\(")
#: Report modules that count what they draw or show, with the reason.
COMPUTING_ALLOWED: dict[str, str] = {
    "sdc.report.plots": "a figure bins and sorts the values it draws (histograms, cumulative risk)",
    "sdc.report.compare_plots": "a figure bins and counts the values it draws (distributions before and after)",
    "sdc.report.search_plots": "a figure orders the lattice nodes it draws",
    "sdc.report.safety": "factorises the text cells of a table to neutralise each distinct one once",
}


def rule_report_presents(imp: Import) -> str | None:
    if _layer(imp.module) != "report":
        return None
    if not imp.target.startswith("sdc.workflow") or imp.target in REPORT_VIEWS:
        return None
    if not imp.names:
        return "the report imports names from the workflow, not its modules"
    bad = [n for n in imp.names if not (n[:1].isupper() or n in REPORT_FROM_WORKFLOW or _is_module(f"{imp.target}.{n}")
                                        and f"{imp.target}.{n}" in REPORT_VIEWS)]
    return f"the report computes nothing: it takes no {', '.join(bad)} from the workflow" if bad else None


def test_the_report_computes_nothing() -> None:
    _check(SDC, rule_report_presents)
    bad = []
    for p in SDC:
        mod = _module_name(p)
        if _layer(mod) != "report" or mod in COMPUTING_ALLOWED:
            continue
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if COMPUTING.search(code) and not code.lstrip().startswith((">>>", "...")):
                bad.append(f"{p.relative_to(ROOT)}:{i}: {line.strip()}")
    assert not bad, "the report computes nothing (counting, grouping, binning data is the workflow's):\n" + \
        "\n".join(bad)


# --- only the dispatch point names Dask -------------------------------------------------------
# A public function declares its engines beside itself (sdc.core.engine.dispatch); the test of
# a Dask collection (is_dask) and the imports of Dask live in sdc/core/engine.py and Dask's home,
# sdc/core/_dask*.py, only.

DASK_HOMES = ("sdc.core.engine", "sdc.core._dask")
#: The back ends, reached only through the declarations and the dispatch point: the workflow's
#: (sdc.workflow.engine: reading partitions, sessions, computing a lazy run) and the protection
#: methods' Dask variants (sdc.protect.on_dask, named by @dispatch(dask="...")). They may import
#: Dask and its home; they never test for a Dask collection (the dispatch point has chosen).
BACK_ENDS = ("sdc.workflow.engine", "sdc.protect.on_dask")


def _names_dask(path: Path) -> list[tuple[int, str]]:
    """The lines of a module that test for a Dask collection or import Dask."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.Name, ast.Attribute)) and (getattr(node, "id", None) or getattr(node, "attr", None)) \
                == "is_dask":
            out.append((node.lineno, "is_dask"))
        elif isinstance(node, ast.Import):
            out += [(node.lineno, f"import {a.name}") for a in node.names
                    if a.name.split(".")[0] in ("dask", "distributed") or a.name.startswith("sdc.core._dask")]
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if mod.split(".")[0] in ("dask", "distributed") or mod.startswith("sdc.core._dask") or (
                    mod == "sdc.core" and any(a.name.startswith("_dask") for a in node.names)):
                out.append((node.lineno, f"from {mod} import {', '.join(a.name for a in node.names)}"))
            elif any(a.name == "is_dask" for a in node.names):
                out.append((node.lineno, f"from {mod} import is_dask"))
            elif mod.startswith("sdc.core.engine") and any(a.name.startswith("_") for a in node.names):
                # the dispatch point's private helpers are its own
                out.append((node.lineno, f"from {mod} import {', '.join(a.name for a in node.names)}"))
    return sorted(set(out))


def test_only_the_dispatch_point_names_dask() -> None:
    bad = []
    for p in SDC:
        mod = _module_name(p)
        if mod.startswith(DASK_HOMES):
            continue
        bad += [f"{p.relative_to(ROOT)}:{line}: {what}" for line, what in _names_dask(p)
                if mod not in BACK_ENDS or what == "is_dask" or what.endswith(" import is_dask")]
    assert not bad, "only sdc/core/engine.py and sdc/core/_dask*.py name Dask:\n" + "\n".join(bad)


def test_the_exception_lists_name_real_modules_that_still_break_the_rules() -> None:
    # When a listed module no longer breaks its rule, its line goes (the lists only shrink).
    for mod in BACK_ENDS:
        assert (ROOT / Path(*mod.split(".")).with_suffix(".py")).exists(), mod
    for mod in COMPUTING_ALLOWED:
        assert (ROOT / Path(*mod.split(".")).with_suffix(".py")).exists(), mod


def test_the_new_rules_catch_a_violation(tmp_path: Path) -> None:
    def imp(module: str, target: str, names: tuple[str, ...] = ()) -> Import:
        return Import(module, ROOT / "sdc" / "x.py", 1, target, names, False)

    assert rule_report_presents(imp("sdc.report.content", "sdc.workflow.assess", ("assess",)))
    assert rule_report_presents(imp("sdc.report.content", "sdc.workflow.assess", ("Assessment",))) is None
    assert rule_report_presents(imp("sdc.report.sweep", "sdc.workflow.sweep", ("sweep_plan_toml",))) is None
    assert rule_report_presents(imp("sdc.report.serialize", "sdc.workflow.documents", ("risk_summary",))) is None
    assert COMPUTING.search("x = df.groupby(k).size()") and COMPUTING.search("np.bincount(v)")
    assert COMPUTING.search("ddf.compute()") and not COMPUTING.search("fmt_num(x)")
    src = tmp_path / "m.py"
    src.write_text("from sdc.core.engine import is_dask\nimport dask.dataframe as dd\nif is_dask(x): pass\n")
    assert [w for _, w in _names_dask(src)] == ["from sdc.core.engine import is_dask", "import dask.dataframe",
                                                "is_dask"]
    src.write_text("from sdc.core import _dask\nfrom sdc.core.engine import _run, dispatch\nimport distributed\n"
                   "from sdc.core.engine import dispatch\n")
    assert [w for _, w in _names_dask(src)] == ["from sdc.core import _dask", "from sdc.core.engine import _run, dispatch",
                                                "import distributed"]


# --- sizes: no function over 100 lines, no module over 600 --------------------------------------
# A long function hides several responsibilities and a long module several subjects: split a
# function by its seams (helpers with one responsibility each), a module by subject.

MAX_FUNCTION_LINES = 100
MAX_MODULE_LINES = 600


def _long_functions(path: Path, limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """`name (n lines)` of each function or method of the module longer than `limit` lines, from
    its ``def`` to its last line (decorators not counted)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{node.lineno}: {node.name} ({node.end_lineno - node.lineno + 1} lines)" for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > limit]


def test_no_function_over_100_lines() -> None:
    bad = [f"{p.relative_to(ROOT)}:{f}" for p in SDC for f in _long_functions(p)]
    assert not bad, f"functions over {MAX_FUNCTION_LINES} lines (split them by their seams):\n" + "\n".join(bad)


def test_no_module_over_600_lines() -> None:
    bad = [f"{p.relative_to(ROOT)}: {n} lines" for p in SDC
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES]
    assert not bad, f"modules over {MAX_MODULE_LINES} lines (split them by subject):\n" + "\n".join(bad)


def test_the_size_rules_catch_a_violation(tmp_path: Path) -> None:
    def lines(n: int, indent: str) -> str:
        return "\n".join(f"{indent}x{i} = {i}" for i in range(n))

    src = tmp_path / "m.py"
    src.write_text(f"def short():\n{lines(99, '    ')}\n\n\nclass C:\n    @staticmethod\n    def long():\n"
                   f"{lines(99, '        ')}\n")
    assert _long_functions(src) == []  # 100 lines each, from the def: at the limit
    src.write_text(f"class C:\n    def long(self):\n{lines(100, '        ')}\n")
    assert _long_functions(src) == ["2: long (101 lines)"]
