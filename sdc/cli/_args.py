"""Argument types and the parser class shared by every subcommand of the command line."""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sdc._formats import Markers, Sheet, data_help, option_formats, takes
from sdc._schema import Choice, Each, Either, Flag, Maybe, Names, Option, Real, Subset, Table, Whole

__all__ = ["Parser", "bins", "csv_list", "one_line", "flag_names", "DATA_HELP", "read_args", "read_options",
           "read_files", "read_with_notes", "CONFIG_OPTIONS", "config_overrides", "add_option_flags", "option_help"]

#: The help of a command's data-file argument: the formats :func:`sdc.io.read_data` reads.
DATA_HELP = data_help()


def _config_options() -> tuple[tuple[str, str, str], ...]:
    from sdc.workflow.options import ASSESS_OPTIONS

    return tuple((o.name, o.section, o.config_key) for o in ASSESS_OPTIONS if o.flag_name)


#: Options that set a key of the assessment configuration: (option's dest, section, key), one
#: per declared option with a flag (:data:`sdc.workflow.options.ASSESS_OPTIONS`). A command
#: has those it declares; a value given on the command line replaces the config's, and an
#: error about that key names the option (:func:`flag_names`).
CONFIG_OPTIONS: tuple[tuple[str, str, str], ...] = _config_options()


def _sheet(text: str) -> str | int:
    """A sheet by name, or by its 0-based number (digits)."""
    return int(text) if text.isdigit() else text


def _number_or_named(kind: type) -> Any:
    """``0.2`` (every sensitive variable) or ``NAME=0.2`` (one of them)."""
    def parse(text: str) -> tuple[str | None, Any]:
        name, sep, value = text.rpartition("=")
        try:
            v = kind(value.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a {'whole ' if kind is int else ''}number or NAME=NUMBER, "
                                             f"got {text!r}") from None
        if sep and not name.strip():
            raise argparse.ArgumentTypeError(f"expected NAME=NUMBER, got {text!r}")
        return (name.strip() if sep else None), v
    return parse


def _named_choice(choices: tuple[str, ...]) -> Any:
    def parse(text: str) -> tuple[str | None, str]:
        name, sep, value = text.rpartition("=")
        if value not in choices:
            raise argparse.ArgumentTypeError(f"expected one of {', '.join(choices)} (or NAME=one of them), got {text!r}")
        return (name.strip() if sep else None), value
    return parse


def _named_values(rule: Any) -> Any:
    """``NAME=VALUE,NAME=VALUE`` as a table (a Table option's flag), numbers for a rule of numbers."""
    kind = int if isinstance(rule, Whole) else float if isinstance(rule, Real) else str

    def parse(text: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for part in (p for p in text.split(",") if p.strip()):
            name, sep, value = part.rpartition("=")
            try:
                if not sep or not name.strip():
                    raise ValueError
                out[name.strip()] = kind(value.strip())
            except ValueError:
                raise argparse.ArgumentTypeError(f"expected NAME={'VALUE' if kind is str else 'NUMBER'}[,NAME=...], "
                                                 f"got {text!r}") from None
        return out
    return parse


def option_help(opt: Option, *, per_variable: bool = False) -> str:
    """An option's help on the command line: its declared help and default."""
    from sdc.workflow.options import shown_default

    default = shown_default(opt)
    text = opt.help + (f" (default {default})" if default and "default" not in opt.help else "")
    if per_variable:
        var = opt.metavar.split("]", 1)[-1] or opt.name.upper()
        text += f"; VAR={var} for one sensitive variable (repeatable)"
    return text


def _argparse(opt: Option, per_variable: bool) -> dict[str, Any]:
    """argparse's keywords for an option's flag, from its rule."""
    rule = opt.rule.rule if isinstance(opt.rule, Maybe) else opt.rule
    rule = rule.rule if isinstance(rule, Each) else rule  # one value for every variable, on the command line
    kw: dict[str, Any] = {"dest": opt.name, "help": option_help(opt, per_variable=per_variable)}
    if isinstance(rule, Flag):
        return {**kw, "action": "store_const", "const": True}
    if opt.metavar:
        kw["metavar"] = opt.metavar
    if per_variable:
        kind = _named_choice(rule.values) if isinstance(rule, Choice) else _number_or_named(
            int if isinstance(rule, Whole) else float)
        return {**kw, "type": kind, "action": "append"}
    if isinstance(rule, Whole):
        kw["type"] = int
    elif isinstance(rule, Real):
        kw["type"] = float
    elif isinstance(rule, Choice):
        kw["choices"] = rule.values
    elif isinstance(rule, Sheet):
        kw["type"] = _sheet
    elif isinstance(rule, Markers):
        kw["type"] = markers  # '' (the empty field) is a marker, not a missing column name
    elif isinstance(rule, (Names, Subset, Either)):
        kw["type"] = csv_list
    elif isinstance(rule, Table):
        kw["type"] = _named_values(rule.rule)
    return kw


def add_option_flags(group: Any, names: Sequence[str], options: Any = None) -> None:
    """The flags of the named options (default: of the assessment run), each made from its
    declaration: the flag, the type its rule takes, the help with the default; an option a
    sensitive variable may have of its own takes ``[VAR=]VALUE`` (repeatable)."""
    from sdc.workflow.options import ASSESS_OPTIONS, PER_SENSITIVE

    options = ASSESS_OPTIONS if options is None else options
    for name in names:
        opt = options[name]
        group.add_argument(opt.flag_name, **_argparse(opt, options is ASSESS_OPTIONS and name in PER_SENSITIVE))


def config_overrides(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """The configuration sections the command line sets (:data:`CONFIG_OPTIONS` given), every
    section of keys present (empty when nothing sets it); a value given for one sensitive
    variable (``--t chol=0.3``) goes to ``[sensitive_thresholds]``."""
    o: dict[str, dict[str, Any]] = {"data": {}, "variables": {}, "thresholds": {}, "options": {}, "output": {}}
    per: dict[str, dict[str, Any]] = {}
    flags: dict[str, str] = {}
    sent = []
    for dest, sec, key in CONFIG_OPTIONS:
        v = getattr(args, dest, None)
        if v is None:
            continue
        if isinstance(v, list) and v and all(isinstance(x, tuple) and len(x) == 2 for x in v):
            for var, value in v:  # [VAR=]VALUE, repeatable: the last bare value is every variable's
                if var is None:
                    o[sec][key] = value
                else:
                    per.setdefault(var, {})[key] = value
                    # An error about this value names the flag as given (flag_names).
                    flags[f"[sensitive_thresholds].{var}.{key}"] = f"--{dest.replace('_', '-')} {var}={value}"
            if key not in o[sec]:
                continue
        else:
            o[sec][key] = v
        sent.append(f"[{sec}].{key}")
    if per:
        o["sensitive_thresholds"] = per  # type: ignore[assignment]
    # What the command line set, for flag_names: only these keys' errors are the options'.
    args.config_sent = frozenset(sent)
    args.config_flags = flags
    return o


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (no usage dump), and options are
    spelled out: a prefix (``--k`` for ``--keys``) is refused, so that a script's meaning does
    not change when an option with the same prefix is added."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse takes a value such as -1,1 for an option; the = form passes it.
        option = re.match(r"argument (--[\w-]+).*: expected one argument$", message)
        if option:
            message += f" (for a value that starts with '-', write {option.group(1)}=VALUE)"
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def csv_list(text: str) -> list[str]:
    items = [t.strip() for t in text.split(",")]
    if not all(items):
        raise argparse.ArgumentTypeError(f"expected comma-separated column names, got {text!r}")
    return items


def markers(text: str) -> list[str]:
    """Missing-value markers, comma-separated, as written (``NA,.,-99``). An empty marker is
    the empty field, which is always missing: ``--na-values ''`` is the default, and an empty
    item among others adds nothing."""
    return [t for t in text.split(",") if t.strip()]


def read_args(p: Any) -> None:
    """The options of reading a data file (:data:`sdc._formats.READ_OPTIONS`), shared by every
    command that reads one (`p`: a parser or an argument group)."""
    from sdc._formats import READ_OPTIONS

    add_option_flags(p, READ_OPTIONS.names, READ_OPTIONS)


def read_options(args: argparse.Namespace, settings: Any = None) -> dict[str, Any]:
    """read_data's keyword arguments from the options of :func:`read_args`: each option given
    on the command line, else the config's setting. `settings`: a config's ``[data]``
    reading settings, as a mapping (:func:`sdc.workflow.config.read_settings`) or an object
    with those attributes (a RunConfig)."""
    from sdc.workflow.config import READ_KEYS

    if isinstance(settings, Mapping):
        out = {k: settings.get(k) for k in READ_KEYS}
    else:
        out = {k: getattr(settings, k, None) for k in READ_KEYS}
    sheet = getattr(args, "sheet", None)
    given = {"sep": getattr(args, "sep", None), "na_values": getattr(args, "na_values", None),
             "text_columns": getattr(args, "text_columns", None),
             "sheet": int(sheet) if isinstance(sheet, str) and sheet.isdigit() else sheet}
    out.update({k: v for k, v in given.items() if v is not None})
    return out


def read_with_notes(path: str, options: Mapping[str, Any]) -> tuple[Any, list[str]]:
    """The data of `path` and what reading them had to say: the reader's notes (a missing-value
    marker read as a value, codes read as text) and its warnings, which still print on the
    console; the notes travel into the command's pages, as assess's do."""
    import warnings

    from sdc.io import read_data_details

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        data, details = read_data_details(path, **options)
    said = []
    told = [repr(c) for c in details.marker_values]  # a column the notes already name is not said twice
    for w in caught:  # shown as the command line shows warnings (sdc's own only), and kept
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        text = " ".join(str(w.message).split())
        if isinstance(w.message, Warning) and type(w.message).__module__.startswith("sdc") \
                and not any(c in text for c in told):
            said.append(text)
    return data, list(dict.fromkeys([*details.notes(), *said]))


def read_files(paths: Mapping[str, str | None], options: Mapping[str, Any],
               notes: list[str] | None = None) -> dict[str, Any]:
    """Several data files of one command (its names -> paths; None: not given), each read by
    :func:`sdc.io.read_data` with the same `options`, except that a sheet is for the Excel
    files among them and named text columns for the files that have them (the released file
    may lack a column the original has): a sheet with no Excel file, or a text column in none
    of the files, is refused in one line. `notes`: a list that gets what reading each file had
    to say (:func:`read_with_notes`), each note naming its file."""
    from sdc.io import read_data, read_header

    given = {name: path for name, path in paths.items() if path is not None}
    excel = {name for name, path in given.items() if takes(path, "sheet")}
    sheet, text = options.get("sheet"), options.get("text_columns")
    if sheet is not None and not excel:
        files = ", ".join(f"{name} '{path}'" for name, path in given.items())
        raise ValueError(f"`sheet` is for {option_formats('sheet')}; none of {files} is one.")
    named = list(text) if isinstance(text, (list, tuple)) else None
    headers = {name: read_header(path, sep=options.get("sep"), sheet=sheet if name in excel else None)
               for name, path in given.items()} if named else {}

    def check(columns: list[list[str]]) -> None:
        unknown = [c for c in named or () if not any(c in cols for cols in columns)]
        if unknown:
            raise ValueError(f"`text_columns` names columns in none of {', '.join(given)}: "
                             f"{', '.join(map(repr, unknown))}.")

    if named and all(h is not None for h in headers.values()):
        check(list(headers.values()))  # before reading anything: text files' headers say it
    out: dict[str, Any] = {}
    for name, path in paths.items():
        if path is None:
            out[name] = None
            continue
        opts = {**options, "sheet": sheet if name in excel else None}
        if named and headers[name] is not None:
            opts["text_columns"] = [c for c in named if c in headers[name]]
        if notes is None:
            out[name] = read_data(path, **opts)
        else:
            out[name], said = read_with_notes(path, opts)
            notes.extend(f"{name} ({Path(path).name}): {n}" for n in said)
    check([[str(c) for c in df.columns] for df in out.values() if df is not None])
    return out


def bins(text: str) -> tuple[str, object]:
    """``col=0,18,65,inf`` (edges), ``col=quantiles:4`` or ``col=width:10`` (``width:10@5``: from 5);
    each may end with ``,closed=right`` and ``,outside=missing|extend`` (:mod:`sdc.core.binning`)."""
    name, sep, spec = text.partition("=")
    if not sep or not name.strip() or not spec.strip():
        raise argparse.ArgumentTypeError(f"expected COLUMN=EDGES, COLUMN=quantiles:Q or COLUMN=width:W, got {text!r}")
    parts = [p.strip() for p in spec.split(",")]
    mods = dict(p.partition("=")[::2] for p in parts if "=" in p)
    spec = ",".join(p for p in parts if "=" not in p)
    if not mods:
        return _bin_spec(name, spec)
    from sdc.workflow.options import BIN_MODIFIERS

    for k, v in mods.items():
        if k not in BIN_MODIFIERS or BIN_MODIFIERS[k].rule.problem(v) is not None:
            allowed = " or ".join(f"{o.name}={'|'.join(o.rule.values)}" for o in BIN_MODIFIERS)
            raise argparse.ArgumentTypeError(f"expected {allowed} after the bins, got {k}={v!r}")
    col, base = _bin_spec(name, spec)
    return col, {**(base if isinstance(base, dict) else {"edges": base}),
                 **{k: mods[k] for k in BIN_MODIFIERS.names if k in mods}}


def _bin_spec(name: str, spec: str) -> tuple[str, object]:
    spec = spec.strip()
    if spec.startswith("width:"):
        width, _, origin = spec.split(":", 1)[1].partition("@")
        try:
            out: dict[str, float] = {"width": float(width)}
            if origin:
                out["origin"] = float(origin)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected width:<number> (or width:<number>@<origin>), got {spec!r}") from None
        if not out["width"] > 0 or out["width"] == float("inf"):
            raise argparse.ArgumentTypeError(f"a bin width must be a positive number, got {spec!r}")
        return name.strip(), out
    if spec.startswith("quantiles:"):
        try:
            return name.strip(), {"quantiles": int(spec.split(":", 1)[1])}
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected quantiles:<integer>, got {spec!r}") from None
    try:
        return name.strip(), [float(x) for x in spec.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"bin edges must be numbers (inf allowed), got {spec!r}") from None


_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def one_line(exc: BaseException) -> str:
    """A message on one line, its control characters shown escaped (a column name holding a
    terminal escape code is printed, never run)."""
    text = str(getattr(exc, "command_line", None) or exc).strip() or type(exc).__name__  # an engine's refusal: CLI words
    text = " ".join(text.split())
    return _CONTROLS.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


def _given(value: object) -> bool:
    """Whether an option holds a value (given, or a default): None, an unset flag (False) and
    an empty repeatable option ([]) hold none."""
    return value is not None and value is not False and not (isinstance(value, list) and not value)


def flag_names(parser: argparse.ArgumentParser, args: argparse.Namespace, text: str) -> str:
    """A library message in the command line's words: each backticked argument name that the
    command has as an option holding a value becomes that option (`cross_check` -> --cross-check).

    The command is found through nested subcommands (``sdc attack linkage``). In a command
    that reads a config file, an option left unset (None) is not named: the value the message
    is about came from the config, and the library's name is the right one there. A library argument fed by an option
    of another name is declared on the parser with ``set_defaults(flag_aliases={"k":
    "threshold"})`` (library name -> the option's dest).
    """
    command: argparse.ArgumentParser = parser
    while True:
        sub = next((a for a in command._actions if isinstance(a, argparse._SubParsersAction)), None)
        chosen = sub.choices.get(getattr(args, sub.dest, None) or "") if sub is not None else None
        if chosen is None:
            break
        command = chosen
    # Without a config file every value comes from the command line: a message may also
    # suggest an option left unset (give `max_size` -> give --max-size).
    has_config = any("--config" in a.option_strings for a in command._actions)
    options = {}
    for action in command._actions:
        longs = [o for o in action.option_strings if o.startswith("--")]
        if longs and (not has_config or _given(getattr(args, action.dest, None))):
            options[action.dest] = longs[0]
    for name, dest in (getattr(args, "flag_aliases", None) or {}).items():
        if dest in options:
            options[name] = options[dest]
    # A configuration key the command line set ("config [thresholds].k" from --k 0) is the
    # option; one the config file set keeps its place in the file. Only keys that
    # config_overrides sent count: an option of the same name with a default (identify's
    # --alpha) or one merged after the file was checked did not set the key.
    sent = getattr(args, "config_sent", frozenset())
    given = {f"[{sec}].{key}": dest for dest, sec, key in CONFIG_OPTIONS
             if f"[{sec}].{key}" in sent and dest in options}
    text = re.sub(r"config (\[\w+\]\.\w+)", lambda m: options[given[m.group(1)]] if m.group(1) in given
                  else m.group(0), text)
    # Keys set by repeatable options (--t, --l, --distance; NAME= for one sensitive variable).
    for key, flag in sorted((getattr(args, "config_flags", None) or {}).items(), key=lambda kv: -len(kv[0])):
        text = re.sub(rf"config {re.escape(key)}(?=[: ])", lambda _m, f=flag: f, text)
    return re.sub(r"`([^`\s]+)`", lambda m: options.get(m.group(1), m.group(0)), text)
