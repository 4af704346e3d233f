"""What a protection method can do, declared once beside its function (as scikit-learn's
estimator tags).

Each public method of :mod:`sdc.protect` is decorated with :func:`protection_method`, which
attaches a frozen :class:`MethodInfo`: the name a plan gives it, its variables argument, its
keyword parameters as :class:`sdc._schema.Option` values with their value rules (and whether
a value needs the whole file), whether it runs on a Dask DataFrame (through
:func:`sdc.core.engine.dispatch`: row-wise per partition, its own variant, or refused with
why), whether it changes categories, drops records, can be repeated by an attacker, what it
needs (a key), whether it is seeded, and which parameters name where a secret is::

    @protection_method("top_bottom_code", summary="values beyond a bound replaced", numeric=True,
                       repeatable=True, dask=ROW_WISE, options={
                           "top": param(Real(), "values above it are replaced", above="bottom"), ...})
    def top_bottom_code(data, variables, *, top=None, ...): ...

The decorator checks that the declared parameters are the signature's keyword parameters
(name for name, defaults read from the signature: they cannot drift), and the function it
returns checks every given value against its option's rule before the method runs, so the
Python API, a plan step and the command line refuse the same values with the same phrase.
Plan validation, the Dask runner, the comparison, the sweep, the protection log and the docs'
method tables read :func:`info_of` and :func:`sdc.protect.method_infos`; no table of names.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from sdc._schema import REQUIRED, Option, Options, Rule
from sdc.core.engine import dispatch, engines_of

__all__ = ["MethodInfo", "Param", "param", "protection_method", "info_of", "ROW_WISE", "Listed", "Table", "PathLike"]

F = TypeVar("F", bound=Callable[..., Any])

#: A method whose new value of a record depends on that record alone: on a Dask DataFrame it
#: runs on every partition (:func:`sdc.protect.on_dask.protect_partitions`), giving the
#: in-memory records exactly.
ROW_WISE = "row-wise"


@dataclass(frozen=True)
class Param(Option):
    """A protection method's parameter: an :class:`~sdc._schema.Option` (its name and default
    are read from the signature), and what a value of it means for the run.

    Attributes
    ----------
    whole_file : str
        Why a value of it comes from the whole file (``""``: it does not): the method then
        refuses a Dask DataFrame, in one line saying this.
    numbers : bool
        Giving it bands the variables as numbers: they must be numeric (unless a `dates`
        parameter reads them as dates first).
    dates : bool
        Giving it reads the variables as dates (turned into numbers).
    above : str
        The parameter this one may not lie below (``top`` above ``bottom``).
    """

    whole_file: str = ""
    numbers: bool = False
    dates: bool = False
    above: str = ""


def param(rule: Rule, help: str = "", **more: Any) -> Param:
    """A :class:`Param` to declare (its name and default come from the signature)."""
    return Param(name="", rule=rule, help=help, **more)


@dataclass(frozen=True)
class MethodInfo:
    """A protection method's capabilities (see the module docstring).

    Attributes
    ----------
    name : str
        Its name in a plan (``method = "..."``) and in the log: the function's name.
    function : callable
        ``function(data, variables, **parameters) -> ProtectionResult``.
    variables_param : str
        The name of its variables argument (``"variables"`` or ``"keys"``).
    options : Options
        Its keyword parameters (the seed excluded), in signature order.
    summary : str
        What it does, in a phrase (the docs' method table).
    seeded : bool
        It takes a ``seed`` (its random steps are seeded and recorded).
    numeric : bool
        Its variables must be numeric.
    changes_categories : bool
        The released values are new categories (bands, group means), not the original's values:
        the re-assessment reads them as categories.
    drops_records : bool
        It may drop whole records.
    repeatable : bool
        Deterministic from the value alone: an attacker can repeat it on his own file.
    replaces_identifiers : bool
        It replaces identifiers one for one (no analytic information lost).
    needs : tuple of str
        What it needs besides the data (``"key"``: a secret key).
    secrets : tuple of str
        The parameters that name where a secret is (a file, an environment variable); the secret
        itself is never a parameter.
    dask : str or None
        None: it runs on a Dask DataFrame; else why it cannot (one phrase).
    dask_rows : str
        On Dask: ``"as in memory"`` (row-wise: the in-memory records exactly) or ``"own draws"``
        (random draws per partition, reproducible with the same seed and partitioning).
    example : dict
        A small call on the bundled example data (variables and parameters) that works.
    sdcmicro : callable or None
        How a step of it is written in R with sdcMicro (:mod:`sdc.protect._rcode`):
        ``sdcmicro(StepRun) -> RStep``; None: sdcMicro has no counterpart (the R script says so).
    produces : callable or None
        What its variables hold after it, from its parameters: ``produces(parameters)`` ->
        ``"numbers"``, ``"text"``, None (as before) or ``"unknown"`` (not known before it runs; every
        column when it names no variables). The plan check reads it, so a later step is checked against the types the earlier ones leave.
    tables_of : tuple of str
        The parameters naming the variables whose frequency tables it perturbs on purpose (record
        swapping: the geography and the risk variables): a comparison measures the table-based
        information loss over them (sdcMicro's ``infoLoss``, :func:`sdc.info_loss`).
    """

    name: str
    function: Callable[..., Any] = field(repr=False, compare=False)
    variables_param: str
    options: Options = field(repr=False)
    summary: str = ""
    seeded: bool = False
    numeric: bool = False
    changes_categories: bool = False
    drops_records: bool = False
    repeatable: bool = False
    replaces_identifiers: bool = False
    needs: tuple[str, ...] = ()
    secrets: tuple[str, ...] = ()
    dask: str | None = None
    dask_rows: str = ""
    example: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)
    sdcmicro: Callable[..., Any] | None = field(default=None, repr=False, compare=False)
    produces: Callable[[Mapping[str, Any]], str | None] | None = field(default=None, repr=False, compare=False)
    tables_of: tuple[str, ...] = ()

    @property
    def parameters(self) -> tuple[str, ...]:
        """The keyword parameters a plan step may give (the seed excluded)."""
        return self.options.names

    @property
    def allowed(self) -> tuple[str, ...]:
        """Every parameter name a step may use, in signature order (the seed last)."""
        return (self.variables_param, *self.parameters) + (("seed",) if self.seeded else ())

    @property
    def required(self) -> tuple[str, ...]:
        """The parameters without a default (the variables argument first when it has none)."""
        sig = inspect.signature(self.function).parameters[self.variables_param]
        first = (self.variables_param,) if sig.default is sig.empty else ()
        return first + tuple(o.name for o in self.options if o.required)

    @property
    def defaults(self) -> dict[str, Any]:
        return self.options.defaults()

    def whole_file(self, parameters: Mapping[str, Any]) -> tuple[str, str] | None:
        """(parameter, why) of the first given parameter whose value needs the whole file."""
        for o in self.options:
            if getattr(o, "whole_file", "") and parameters.get(o.name) not in (None, False):
                return o.name, o.whole_file
        return None

    def dask_refusal(self, parameters: Mapping[str, Any]) -> str | None:
        """Why this method cannot run on a Dask DataFrame with these parameters (None: it can)."""
        if self.dask is not None:
            return self.dask
        found = self.whole_file(parameters)
        return None if found is None else f"with `{found[0]}`: {found[1]}"

    def needs_numbers(self, given: Sequence[str]) -> bool:
        """Whether its variables must be numeric when these parameters are given."""
        if self.numeric:
            return True
        opts = [self.options[n] for n in given if n in self.options]
        return any(getattr(o, "numbers", False) for o in opts) and not any(getattr(o, "dates", False) for o in opts)

    def check(self, values: Mapping[str, Any], where: Callable[[str], str] | None = None,
              error: type[Exception] | None = None) -> None:
        """Each given value against its option's rule, then the bounds (``top`` not below
        ``bottom``); `where(name)` places the error (default: the name in backticks)."""
        for name, value in values.items():
            if value is not None and name in self.options:
                self.options[name].check(value, where(name) if where else None, error)
        for o in self.options:
            low = getattr(o, "above", "")
            hi, lo = values.get(o.name), values.get(low) if low else None
            if _number(hi) and _number(lo) and float(hi) < float(lo):
                place = where(o.name) if where else f"`{o.name}`"
                raise (error or ValueError)(f"{place} ({hi!r}) must not lie below `{low}` ({lo!r}).")


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def info_of(fn: Callable[..., Any]) -> MethodInfo | None:
    """The declaration of a protection method (None for any other callable)."""
    return getattr(fn, "__sdc_method__", None)


# ---------------------------------------------------------------------------------------------
# Value rules of the methods' own kinds of values

@dataclass(frozen=True)
class Listed(Rule):
    """A list of values (labels, one per band)."""

    what: str = "a list of values"

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        ok = isinstance(value, Sequence) and not isinstance(value, (str, bytes))
        return None if ok else (TypeError, f"must be {self.what}")


@dataclass(frozen=True)
class Table(Rule):
    """A mapping (``{old: new}``, ``{variable: matrix}``)."""

    what: str = "a table of key = value"

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        return None if isinstance(value, Mapping) else (TypeError, f"must be {self.what}")


@dataclass(frozen=True)
class PathLike(Rule):
    """A file's path (text or a path object)."""

    what: str = "a file path"

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        import os

        if not isinstance(value, (str, os.PathLike)):
            return TypeError, f"must be {self.what}"
        return None if str(value) else (ValueError, f"must be {self.what}")


# ---------------------------------------------------------------------------------------------
# The declaration

def _options(name: str, fn: Callable[..., Any], declared: Mapping[str, Param]) -> tuple[str, Options, bool]:
    params = [p for p in inspect.signature(fn).parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    if len(params) < 2 or params[1].kind is params[1].KEYWORD_ONLY:
        raise TypeError(f"protection method {name} must take (data, variables, ...).")
    rest = [p for p in params[2:] if p.name != "seed"]
    have, given = [p.name for p in rest], list(declared)
    if sorted(have) != sorted(given):
        raise TypeError(f"protection method {name}: the declared parameters ({', '.join(given)}) are not the "
                        f"signature's ({', '.join(have)}).")
    opts = [replace(declared[p.name], name=p.name, default=REQUIRED if p.default is p.empty else p.default)
            for p in rest]
    return params[1].name, Options(opts), len(rest) < len(params) - 2


def _checking(public: Callable[..., Any], info: list[MethodInfo]) -> Callable[..., Any]:
    @functools.wraps(public)
    def run(*args: Any, **kwargs: Any) -> Any:
        info[0].check(kwargs)
        return public(*args, **kwargs)

    return run


def _row_wise(fn: Callable[..., Any], info: list[MethodInfo], data: Any, variables: Any, **kwargs: Any) -> Any:
    from sdc.protect.on_dask import protect_partitions

    return protect_partitions(fn, info[0], data, variables, **kwargs)


def protection_method(name: str, *, summary: str, options: Mapping[str, Param], numeric: bool = False,
                      changes_categories: bool = False, drops_records: bool = False, repeatable: bool = False,
                      replaces_identifiers: bool = False, needs: Sequence[str] = (), secrets: Sequence[str] = (),
                      dask: str | None = None, why: str = "", dask_rows: str = "",
                      example: Mapping[str, Any] | None = None,
                      sdcmicro: Callable[..., Any] | None = None,
                      produces: Callable[[Mapping[str, Any]], str | None] | None = None,
                      tables_of: Sequence[str] = ()) -> Callable[[F], F]:
    """Declare a protection method beside its function (see the module docstring).

    `dask` is :data:`ROW_WISE` (the method on every partition), a variant
    (``"module:function"``, called with the same arguments) or None with `why`, the phrase
    saying why it cannot run on a Dask DataFrame.
    """
    def decorate(fn: F) -> F:
        if fn.__name__ != name:
            raise TypeError(f"protection method {name} is declared on the function {fn.__name__}.")
        variables_param, opts, seeded = _options(name, fn, options)
        holder: list[MethodInfo] = []
        variant = functools.partial(_row_wise, fn, holder) if dask == ROW_WISE else dask
        if dask is None and not why:
            raise TypeError(f"protection method {name}: say why it cannot run on a Dask DataFrame (why=...).")
        public = _checking(dispatch(dask=variant, why=why)(fn), holder)
        info = MethodInfo(name=name, function=public, variables_param=variables_param, options=opts, summary=summary,
                          seeded=seeded, numeric=numeric, changes_categories=changes_categories,
                          drops_records=drops_records, repeatable=repeatable,
                          replaces_identifiers=replaces_identifiers, needs=tuple(needs), secrets=tuple(secrets),
                          dask=engines_of(public)["dask"],
                          dask_rows=dask_rows or ("as in memory" if dask == ROW_WISE else ""),
                          example=dict(example or {}), sdcmicro=sdcmicro, produces=produces, tables_of=tuple(tables_of))
        holder.append(info)
        public.__sdc_method__ = info  # type: ignore[attr-defined]
        return public  # type: ignore[return-value]

    return decorate


# ---------------------------------------------------------------------------------------------
# The docs' tables, from the declarations (tests/protect/test_declare.py checks the docs hold them)

def _on_dask(info: MethodInfo) -> str:
    if info.dask is not None:
        return f"no: {info.dask}"
    refused = [f"`{o.name}`" for o in info.options if getattr(o, "whole_file", "")]
    how = "its own draws per partition" if info.dask_rows == "own draws" else "the in-memory records exactly"
    return f"yes, {how}" + (f" (not with {' or '.join(refused)})" if refused else "")


def methods_markdown(infos: Mapping[str, MethodInfo]) -> str:
    """The method table of docs/protect-run.md."""
    rows = ["| method | what it does | its variables argument | random | on Dask |", "|---|---|---|---|---|"]
    for i in infos.values():
        random = "yes (seeded)" if i.seeded else "no"
        if i.needs:
            random += f"; needs a {', '.join(i.needs)} ({' or '.join(f'`{s}`' for s in i.secrets)})"
        rows.append(f"| `{i.name}` | `sdc.{i.name}`: {i.summary} | `{i.variables_param}` | {random} | {_on_dask(i)} |")
    return "\n".join(rows) + "\n"


def dask_markdown(infos: Mapping[str, MethodInfo]) -> str:
    """The table of steps refused on Dask in docs/dask.md."""
    rows = ["| step | why it is not exact per partition |", "|---|---|"]
    rows += [f"| `{i.name}` | {i.dask} |" for i in infos.values() if i.dask is not None]
    rows += [f"| `{i.name}` with `{o.name}` | {o.whole_file} |" for i in infos.values() if i.dask is None
             for o in i.options if getattr(o, "whole_file", "")]
    return "\n".join(rows) + "\n"
