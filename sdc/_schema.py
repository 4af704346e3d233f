"""One declaration per option: its name, its value rule, its default, a line of help, and where
it lives (a configuration section, a command-line flag, a report's option table).

Every reader of an option reads the same :class:`Option`: the configuration parser checks a
file's value with :meth:`Option.check`, the TOML writer writes it back with
:func:`toml_value`, the command line makes its flag with :meth:`Option.flag_name` and its
help, the report's option table shows :attr:`Option.label`, and a protection method's
declaration lists the options of its parameters. A value rule (:class:`Rule`) says what a
value must be in one phrase (``"a whole number >= 2"``), so that every caller words its error
alike, only the place differs::

    `k` must be a whole number >= 2; got 1.                               (Python API)
    plan step 3 (local_suppression): parameter `k` must be a whole number >= 2; got 1.
    config [thresholds].k must be a whole number >= 1; got 0.
    --k must be a whole number >= 1; got 0.                               (command line)

:func:`problem` gives the phrase and the error class (``TypeError`` for the wrong kind of
value, ``ValueError`` for a wrong value of the right kind); :meth:`Option.check` raises it
with the caller's place (``where``) and error class (a ``ConfigError``, a ``PlanError``).
"""

from __future__ import annotations

import json
import math
import numbers
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sdc._validation import shown_value

__all__ = ["Rule", "Whole", "Real", "Choice", "Names", "Name", "Flag", "Text", "Edges", "Each", "Either", "Anything",
           "Option", "Options", "REQUIRED", "OptionError", "toml_value", "toml_key", "plain_value", "PROBABILITY",
           "POSITIVE", "GROUP_SIZE", "COUNT", "Maybe", "Table", "Subset"]


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


#: The default of an option that must be given.
REQUIRED: Any = _Required()


class OptionError(ValueError):
    """A wrong value of an option (the error class when the caller names none)."""


def plain_value(value: object) -> object:
    """`value` with a numpy scalar turned into the Python one (for messages and TOML)."""
    item = getattr(value, "item", None)
    if item is not None and type(value).__module__ == "numpy":
        return item()
    return value


def _is_int(v: object) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _is_real(v: object) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _g(x: float) -> str:
    return ("inf" if x > 0 else "-inf") if math.isinf(x) else f"{x:g}"


# ---------------------------------------------------------------------------------------------
# Value rules

class Rule:
    """What a value must be. Subclasses define :attr:`what` (``"a whole number >= 2"``) and
    :meth:`problem`; :meth:`convert` returns the value in its standard form (a tuple for a list
    of names, a float for a number given as an int)."""

    what: str = "a value"

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        """None when `value` is allowed; else the error class and the phrase ("must be ...")."""
        return None

    def convert(self, value: Any) -> Any:
        return value

    def __str__(self) -> str:
        return self.what


@dataclass(frozen=True)
class Whole(Rule):
    """A whole number (``bool`` refused) within optional bounds."""

    min: int | None = None
    max: int | None = None

    @property
    def what(self) -> str:  # type: ignore[override]
        if self.min is not None and self.max is not None:
            return f"a whole number from {self.min} to {self.max}"
        if self.min is not None:
            return f"a whole number >= {self.min}"
        if self.max is not None:
            return f"a whole number <= {self.max}"
        return "a whole number"

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        if not _is_int(value):
            return (TypeError if not _is_real(value) else ValueError), f"must be {self.what}"
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            return ValueError, f"must be {self.what}"
        return None

    def convert(self, value: Any) -> int:
        return int(value)


@dataclass(frozen=True)
class Real(Rule):
    """A real number in an interval (finite unless ``finite=False``); ``bool`` refused."""

    low: float = -math.inf
    high: float = math.inf
    low_open: bool = False
    high_open: bool = False
    finite: bool = True

    @property
    def what(self) -> str:  # type: ignore[override]
        if math.isinf(self.low) and math.isinf(self.high):
            return "a number" if self.finite else "a number (inf allowed)"
        if math.isinf(self.high) and self.low == 0 and self.low_open:
            return "a positive number"
        if math.isinf(self.high):
            return f"a number {'>' if self.low_open else '>='} {_g(self.low)}"
        if math.isinf(self.low):
            return f"a number {'<' if self.high_open else '<='} {_g(self.high)}"
        return ("a number in " + ("(" if self.low_open else "[") + f"{_g(self.low)}, {_g(self.high)}"
                + (")" if self.high_open else "]"))

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        if not _is_real(value):
            return TypeError, f"must be {self.what}"
        v = float(value)
        low_ok = v > self.low if self.low_open else v >= self.low
        high_ok = v < self.high if self.high_open else v <= self.high
        if math.isnan(v) or (self.finite and math.isinf(v)) or not (low_ok and high_ok):
            return ValueError, f"must be {self.what}"
        return None

    def convert(self, value: Any) -> float:
        return float(value)


#: A probability, in [0, 1].
PROBABILITY = Real(0.0, 1.0)
#: A positive finite number.
POSITIVE = Real(0.0, math.inf, low_open=True)
#: A group size, or the k of k-anonymity, in a protection method.
GROUP_SIZE = Whole(min=2)
#: A count of at least one.
COUNT = Whole(min=1)


@dataclass(frozen=True)
class Choice(Rule):
    """One of a fixed set of values (strings, usually)."""

    values: tuple[Any, ...]

    @property
    def what(self) -> str:  # type: ignore[override]
        return "one of " + ", ".join(map(repr, self.values))

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        if isinstance(value, bool) and not any(v is value for v in self.values):
            return ValueError, f"must be {self.what}"  # True == 1: a flag is no choice of 1
        try:
            ok = value in self.values
        except TypeError:  # an unhashable value compared with strings
            ok = False
        return None if ok else (ValueError, f"must be {self.what}")


@dataclass(frozen=True)
class Names(Rule):
    """Column names: one name or a list of names (distinct, non-empty strings); at least
    `min_count` of them."""

    min_count: int = 0

    @property
    def what(self) -> str:  # type: ignore[override]
        return "a list of column names" + (" (at least one)" if self.min_count == 1 else
                                           f" (at least {self.min_count})" if self.min_count > 1 else "")

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        items = [value] if isinstance(value, str) else value
        if isinstance(items, (Mapping, bytes)) or not isinstance(items, Sequence):
            return TypeError, f"must be {self.what}"
        if not all(isinstance(v, str) and v for v in items):
            return TypeError, f"must be {self.what}"
        if len(items) < self.min_count:
            return ValueError, f"must be {self.what}"
        if len(set(items)) < len(items):
            return ValueError, f"must be {self.what}, each once"
        return None

    def convert(self, value: Any) -> tuple[str, ...]:
        return (value,) if isinstance(value, str) else tuple(value)


@dataclass(frozen=True)
class Name(Rule):
    """One column name (a non-empty string)."""

    what: str = "a column name"

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        if not isinstance(value, str):
            return TypeError, f"must be {self.what}"
        return None if value else (ValueError, f"must be {self.what}")


@dataclass(frozen=True)
class Flag(Rule):
    """true or false."""

    what: str = "true or false"

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        return None if isinstance(value, bool) else (TypeError, f"must be {self.what}")


@dataclass(frozen=True)
class Text(Rule):
    """A string (non-empty unless ``empty=True``)."""

    empty: bool = False

    @property
    def what(self) -> str:  # type: ignore[override]
        return "text" if self.empty else "non-empty text"

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        if not isinstance(value, str):
            return TypeError, f"must be {self.what}"
        return None if (value or self.empty) else (ValueError, f"must be {self.what}")


def _edge(v: Any) -> Any:
    if isinstance(v, str) and v.strip().lower() in ("inf", "+inf", "-inf"):
        return float(v)
    return v


@dataclass(frozen=True)
class Edges(Rule):
    """Bin edges: at least two numbers (``inf``, also written ``"inf"``, allowed), strictly
    increasing."""

    what: str = "a list of at least two numbers (inf allowed), strictly increasing"

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        if isinstance(value, (str, Mapping)) or not isinstance(value, Sequence):
            return TypeError, f"must be {self.what}"
        edges = [_edge(x) for x in value]
        if len(edges) < 2:
            return ValueError, f"must be {self.what}"
        if not all(_is_real(x) and not math.isnan(float(x)) for x in edges):
            return TypeError, f"must be {self.what}"
        if any(float(b) <= float(a) for a, b in zip(edges, edges[1:])):
            return ValueError, f"must be {self.what}"
        return None

    def convert(self, value: Any) -> list[float]:
        return [float(_edge(x)) for x in value]


@dataclass(frozen=True)
class Each(Rule):
    """The `rule` for one value, or for each value of a list (``lists``) or of a mapping
    (``mappings``: column -> value)."""

    rule: Rule
    lists: bool = True
    mappings: bool = False

    @property
    def what(self) -> str:  # type: ignore[override]
        forms = [self.rule.what] + (["a list of them"] if self.lists else []) + \
                (["a table of column = value"] if self.mappings else [])
        return ", or ".join(forms) if len(forms) < 3 else f"{forms[0]}, {forms[1]} or {forms[2]}"

    def _values(self, value: Any) -> list[Any] | None:
        if self.mappings and isinstance(value, Mapping):
            return list(value.values())
        if self.lists and isinstance(value, (list, tuple)):
            return list(value)
        return None

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        values = self._values(value)
        if values is None:
            bad = self.rule.problem(value)
            return None if bad is None else (bad[0], f"must be {self.what}")
        if not values:
            return ValueError, f"must be {self.what} (not empty)"
        for v in values:
            bad = self.rule.problem(v)
            if bad is not None:
                return bad[0], f"must be {self.what}"
        return None

    def convert(self, value: Any) -> Any:
        if self.mappings and isinstance(value, Mapping):
            return {k: self.rule.convert(v) for k, v in value.items()}
        if self.lists and isinstance(value, (list, tuple)):
            return [self.rule.convert(v) for v in value]
        return self.rule.convert(value)


@dataclass(frozen=True)
class Either(Rule):
    """Any one of several rules (the first that allows the value converts it)."""

    rules: tuple[Rule, ...]

    @property
    def what(self) -> str:  # type: ignore[override]
        parts = [r.what for r in self.rules]
        return ", ".join(parts[:-1]) + " or " + parts[-1] if len(parts) > 1 else parts[0]

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        found = [r.problem(value) for r in self.rules]
        if any(f is None for f in found):
            return None
        kind = ValueError if any(f[0] is ValueError for f in found if f) else TypeError
        return kind, f"must be {self.what}"

    def convert(self, value: Any) -> Any:
        for r in self.rules:
            if r.problem(value) is None:
                return r.convert(value)
        return value


@dataclass(frozen=True)
class Anything(Rule):
    """No rule (the method checks the value itself)."""

    what: str = "a value"


# ---------------------------------------------------------------------------------------------
# Options

@dataclass(frozen=True)
class Option:
    """One option, declared once.

    Attributes
    ----------
    name : str
        The name in Python (a keyword argument), in a plan step and, unless `key` says
        otherwise, in the configuration section.
    rule : Rule
        What a value must be.
    default : object
        The value when not given (:data:`REQUIRED`: it must be given; None: no value).
    help : str
        One line saying what the option is, in the reader's words (the command line's help,
        the docs' option tables).
    label : str
        The human label in a report's option table (default: `name`).
    unit : str
        The unit of the value, where it has one (``"records"``, ``"share"``, ``"years"``).
    section : str
        The configuration section that holds it (``"thresholds"``), or ``""``.
    key : str
        The key in that section when it differs from `name`.
    flag : str or None
        The command-line flag; None: ``--`` + the name with dashes; ``""``: no flag.
    metavar : str
        The flag's value in the help (``K``).
    """

    name: str
    rule: Rule = field(default_factory=Anything)
    default: Any = None
    help: str = ""
    label: str = ""
    unit: str = ""
    section: str = ""
    key: str = ""
    flag: str | None = None
    metavar: str = ""

    @property
    def config_key(self) -> str:
        """The key in its configuration section."""
        return self.key or self.name

    @property
    def place(self) -> str:
        """``[section].key`` (or the name for an option of no section)."""
        return f"[{self.section}].{self.config_key}" if self.section else self.name

    @property
    def flag_name(self) -> str:
        """The command-line flag (``""`` when it has none)."""
        return ("--" + self.name.replace("_", "-")) if self.flag is None else self.flag

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    @property
    def shown_label(self) -> str:
        return self.label or self.name

    def check(self, value: Any, where: str | None = None, error: type[Exception] | None = None) -> Any:
        """`value` in its standard form, or the error ``"<where> must be ...; got <value>."``.

        `where` is the caller's name for the option (default: the name in backticks);
        `error` the class to raise (default: ``TypeError`` or ``ValueError``, as the rule says).
        """
        bad = self.rule.problem(value)
        if bad is not None:
            kind, phrase = bad
            place = where if where is not None else f"`{self.name}`"
            raise (error or kind)(f"{place} {phrase}; got {shown_value(value)}.")
        return self.rule.convert(value)

    def describe(self) -> str:
        """A line for docs tables: what it must be and its default."""
        d = "required" if self.required else ("none" if self.default is None else toml_value(self.default))
        return f"{self.rule.what}; default {d}"


class Options(tuple):
    """The options of one reader (a configuration section, a method), in declaration order."""

    def __new__(cls, options: Sequence[Option] = ()) -> Options:
        names = [o.name for o in options]
        dup = [n for n in names if names.count(n) > 1]
        if dup:
            raise ValueError(f"option {dup[0]!r} is declared twice.")
        return super().__new__(cls, tuple(options))

    def __getitem__(self, item: Any) -> Any:  # by position or by name
        if isinstance(item, str):
            for o in self:
                if o.name == item:
                    return o
            raise KeyError(item)
        return super().__getitem__(item)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            return any(o.name == item for o in self)
        return super().__contains__(item)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(o.name for o in self)

    def in_section(self, section: str) -> Options:
        return Options([o for o in self if o.section == section])

    def defaults(self) -> dict[str, Any]:
        """name -> default of every option that has one."""
        return {o.name: o.default for o in self if not o.required}

    def check_all(self, values: Mapping[str, Any], where: Callable[[Option], str] | None = None,
                  error: type[Exception] | None = None) -> dict[str, Any]:
        """Each given value checked and standardised (None values are passed through)."""
        out: dict[str, Any] = {}
        for name, value in values.items():
            if name in self and value is not None:
                opt = self[name]
                out[name] = opt.check(value, where(opt) if where else None, error)
            else:
                out[name] = value
        return out


# ---------------------------------------------------------------------------------------------
# TOML

def toml_value(v: Any) -> str:
    """A value as TOML (numbers, strings, booleans, lists and tables; ``inf`` as TOML's inf)."""
    v = plain_value(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Real):
        f = float(v)
        return ("inf" if f > 0 else "-inf") if math.isinf(f) else ("nan" if math.isnan(f) else repr(f))
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a JSON string is a valid TOML basic string
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{toml_key(str(k))} = {toml_value(x)}" for k, x in v.items()) + " }"
    return "[" + ", ".join(toml_value(x) for x in v) + "]"


def toml_key(k: str) -> str:
    """A TOML key, quoted where a bare key cannot hold it."""
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k, ensure_ascii=False)


# ---------------------------------------------------------------------------------------------
# Rules added for the configuration files (an optional value, a table of values, a subset)

@dataclass(frozen=True)
class Maybe(Rule):
    """`rule`, or None (no value). `none` says what no value means where it is shown (a
    report's option table: ``"none (the data are the population)"``); `same_as` names the
    option whose value stands in for it (a small-count bound that is k unless given)."""

    rule: Rule
    none: str = "none"
    same_as: str = ""

    @property
    def what(self) -> str:  # type: ignore[override]
        return self.rule.what

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        return None if value is None else self.rule.problem(value)

    def convert(self, value: Any) -> Any:
        return None if value is None else self.rule.convert(value)


@dataclass(frozen=True)
class Table(Rule):
    """A table (a mapping) of names to values, each value by `rule`; not empty unless
    ``empty=True``. `what` words it for a reader (default: "a table of name = <value>")."""

    rule: Rule
    what_text: str = ""
    empty: bool = False

    @property
    def what(self) -> str:  # type: ignore[override]
        return self.what_text or f"a table of name = {self.rule.what}"

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        if not isinstance(value, Mapping):
            return TypeError, f"must be {self.what}"
        if not value and not self.empty:
            return ValueError, f"must be {self.what} (not empty)"
        if not all(isinstance(k, str) and k for k in value):
            return TypeError, f"must be {self.what}"
        for v in value.values():
            if self.rule.problem(v) is not None:
                return TypeError, f"must be {self.what}"
        return None

    def convert(self, value: Any) -> dict[str, Any]:
        return {k: self.rule.convert(v) for k, v in value.items()}


@dataclass(frozen=True)
class Subset(Rule):
    """Some of a fixed set of values: one value or a list of them, each one of `values` (or an
    alias of one, `aliases`: alias -> value); converted to a tuple, aliases replaced and
    repeats dropped, in the order given."""

    values: tuple[Any, ...]
    aliases: Mapping[str, Any] = field(default_factory=dict)
    noun: str = "values"

    @property
    def what(self) -> str:  # type: ignore[override]
        return f"a list of {self.noun} from " + ", ".join(map(repr, self.values))

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        items = [value] if isinstance(value, str) else value
        if isinstance(items, (Mapping, bytes)) or not isinstance(items, Sequence):
            return TypeError, f"must be {self.what}"
        for v in items:
            if not isinstance(v, str) or (v not in self.values and v not in self.aliases):
                return ValueError, f"must be {self.what}"
        return None

    def convert(self, value: Any) -> tuple[Any, ...]:
        items = [value] if isinstance(value, str) else value
        return tuple(dict.fromkeys(self.aliases.get(v, v) for v in items))
