"""Keyed pseudonyms for identifier columns: HMAC-SHA-256 (RFC 2104, FIPS 180-4).

The pseudonym of a value is ``prefix + hex(HMAC-SHA-256(key, text))[:length]``, where `text`
is the value written canonically (strings as they are; whole numbers without a decimal
point, so ``1042`` and ``1042.0`` agree; an optional `context` and a unit separator in
front). The same key therefore gives the same pseudonym in every file and every run, and
files pseudonymised separately still join (CDISC domains on ``USUBJID``); without the key the
mapping cannot be recomputed or reversed. A random key that is used once and discarded gives
pseudonyms that nobody, including the data holder, can link back.

The key is read from a file or an environment variable and is never stored: not in the
result (parameters, details, repr), not in an error message. The result records where it
came from (the path or the variable's name) and, for a stored key, a fingerprint
(``HMAC(key, "sdc key fingerprint")``, 8 hex digits) so two releases can be checked to
share a key without revealing it.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import re
import secrets
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sdc._schema import Flag, Names, Text, Whole
from sdc._validation import check_columns, check_frame, check_int
from sdc.core.distinct import hashed_codes
from sdc.core.strata import Levels, distinct_values
from sdc.protect._common import output_frame
from sdc.protect._rcode import not_in_sdcmicro
from sdc.protect._declare import ROW_WISE, PathLike, param, protection_method
from sdc.protect._result import ProtectionResult

__all__ = ["pseudonymise", "MIN_KEY_BYTES", "key_source_text"]

#: The shortest key accepted (bytes, after the line ending(s) at its end are removed).
MIN_KEY_BYTES = 16

#: From this many records a text column's distinct values are found by Python's hash
#: (:func:`sdc.core.distinct.hashed_codes`, exact): faster than pandas' string table on large
#: columns, slower on small ones.
_HASHED_FROM = 2_000_000


def key_source_text(value: object, kind: str) -> str:
    """How an error message names a key's source (`kind` ``"env"`` or ``"file"``): quoted, unless
    it could be the key itself, given by mistake for the variable's name or the file's path
    (``--key-env "$SDC_KEY"``): then it is not shown, as the message may end up in a log.

    Shown: anything shorter than a key (:data:`MIN_KEY_BYTES`); a variable's name written as
    names are (capitals, digits, ``_``, not all hex digits); a path with a ``/``, ``\\`` or
    ``.`` and no ``+`` or ``=`` (base64's). Anything else may be a key.
    """
    text = str(value)
    if len(text) < MIN_KEY_BYTES:
        return repr(text)
    if kind == "env":
        shown = re.fullmatch(r"[A-Z_][A-Z0-9_]*", text) is not None and re.fullmatch(r"[0-9A-F]+", text) is None
    else:
        shown = any(c in text for c in "/\\.") and not any(c in text for c in "+=")
    if shown:
        return repr(text)
    what = "an environment variable's name" if kind == "env" else "a path"
    return f"(not shown: {len(text)} characters that do not look like {what} and may be the key itself)"


class _Key:
    """Holds the key bytes; prints as hidden so it cannot leak through a repr or a log."""

    __slots__ = ("_b",)

    def __init__(self, b: bytes) -> None:
        self._b = b

    def __repr__(self) -> str:
        return "<key hidden>"

    __str__ = __repr__


def _check_key_path(path: Path, shown: str) -> None:
    """The key file is a regular file that only its owner may read or write (as ssh asks of
    a private key): a folder, a device (/dev/zero), a pipe, or a key others can read, is refused."""
    try:
        st = path.stat()
    except FileNotFoundError:
        raise ValueError(f"`key_file` {shown} does not exist.") from None
    except OSError as exc:
        raise ValueError(f"`key_file` {shown} cannot be read ({exc.strerror}).") from None
    if stat.S_ISDIR(st.st_mode):
        raise ValueError(f"`key_file` {shown} is a folder, not a key file.")
    if not stat.S_ISREG(st.st_mode):
        what = "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else (
            "a pipe" if stat.S_ISFIFO(st.st_mode) else "not a regular file")
        raise ValueError(f"`key_file` {shown} is {what}, not a key file.")
    if os.name == "posix" and st.st_mode & 0o077:
        raise ValueError(f"`key_file` {shown} can be read or written by other users (mode "
                         f"{stat.S_IMODE(st.st_mode):04o}): a pseudonymisation key must be private; restrict it "
                         f"(chmod 600 {shown}) and replace the key if others may have read it.")


def _read_key(key_file: object, key_env: object, random_key: bool) -> tuple[_Key, str, str | None]:
    """(key, source, where) from exactly one of the three sources."""
    n = sum(x is not None and x is not False for x in (key_file, key_env, random_key or None))
    if n != 1:
        raise ValueError("`pseudonymise` needs exactly one of `key_file`, `key_env` or `random_key=True`.")
    if random_key:
        return _Key(secrets.token_bytes(32)), "random", None
    if key_file is not None:
        if not isinstance(key_file, (str, os.PathLike)):
            raise TypeError(f"`key_file` must be a path; got {type(key_file).__name__}.")
        path = Path(key_file)
        _check_key_path(path, key_source_text(key_file, "file"))
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise ValueError(f"`key_file` {str(path)!r} cannot be read ({exc.strerror}).") from None
        key, source, where = raw.rstrip(b"\r\n"), "file", str(path)
        what = f"`key_file` {str(path)!r}"
    else:
        if not isinstance(key_env, str) or not key_env:
            raise TypeError(f"`key_env` must be the name of an environment variable; got {key_env!r}.")
        if key_env not in os.environ:
            raise ValueError(f"`key_env`: the environment variable {key_source_text(key_env, 'env')} is not set.")
        key, source, where = os.environ[key_env].encode("utf-8").rstrip(b"\r\n"), "env", key_env
        what = f"`key_env` variable {key_env!r}"
    if not key:
        raise ValueError(f"{what} is empty: the key must not be empty.")
    if len(key) < MIN_KEY_BYTES:
        raise ValueError(f"{what} holds a key shorter than {MIN_KEY_BYTES} bytes; use a longer random key "
                         "(e.g. 32 random bytes, hex-encoded).")
    return _Key(key), source, where


def _canonical(values: Sequence[object], numeric: bool) -> list[str]:
    """Text of each distinct value: whole numbers without '.0', floats by repr, the rest by str."""
    out = []
    for v in values:
        if isinstance(v, (bool, np.bool_)):
            out.append(str(bool(v)))
        elif isinstance(v, (int, np.integer)):
            out.append(str(int(v)))
        elif isinstance(v, (float, np.floating)):
            f = float(v)
            out.append(str(int(f)) if math.isfinite(f) and f.is_integer() and abs(f) < 2**63 else repr(f))
        elif isinstance(v, (pd.Timestamp,)):
            out.append(v.isoformat())
        else:
            out.append(str(v))
    return out


def _texts(levels: tuple, s: pd.Series) -> tuple[list[str], np.ndarray | None]:
    """Distinct canonical texts and, where two levels share a text, the level -> text index."""
    arr = np.asarray(levels, dtype=object) if levels else np.empty(0, dtype=object)
    kind = pd.api.types.infer_dtype(arr, skipna=True) if arr.size else "empty"
    if kind == "string":
        return list(levels), None
    if kind == "integer":
        return [str(int(v)) for v in levels], None
    texts = _canonical(levels, bool(pd.api.types.is_numeric_dtype(s.dtype)))
    uniq = list(dict.fromkeys(texts))
    if len(uniq) == len(texts):
        return texts, None
    where = {t: i for i, t in enumerate(uniq)}
    return uniq, np.array([where[t] for t in texts], dtype=np.int64)


def _distinct(s: pd.Series) -> Levels:
    """The column's distinct values (first appearance order) and each record's code."""
    # Python objects only: Arrow-backed text (pandas 3's default) factorises natively.
    python_text = isinstance(s.dtype, pd.StringDtype) and getattr(s.dtype, "storage", "") == "python"
    if len(s) >= _HASHED_FROM and (s.dtype == object or python_text):
        found = hashed_codes(s.to_numpy(dtype=object))
        if found is not None:
            return Levels(tuple(found[1].tolist()), found[0])
    return distinct_values(s)


def _hmac_all(key: _Key, texts: list[str], context: str | None) -> bytearray:
    """HMAC-SHA-256 of every text, the 32-byte digests end to end.

    The key's inner and outer states are computed once and copied for each text: two
    compressions per short text instead of four with ``hmac.digest`` (which re-derives the
    key pads on every call, about three times slower here).
    """
    k = key._b
    if len(k) > 64:
        k = hashlib.sha256(k).digest()
    k = k.ljust(64, b"\0")
    inner0 = hashlib.sha256(bytes(b ^ 0x36 for b in k))
    outer0 = hashlib.sha256(bytes(b ^ 0x5C for b in k))
    pre = b"" if context is None else context.encode("utf-8") + b"\x1f"
    msgs = map(pre.__add__, map(str.encode, texts)) if pre else map(str.encode, texts)
    out = bytearray()  # grown in place: no list of millions of small bytes objects to join
    extend, new_inner, new_outer = out.extend, inner0.copy, outer0.copy
    for m in msgs:  # about 0.5 us per distinct value: the cost of pseudonymisation
        h = new_inner()
        h.update(m)
        o = new_outer()
        o.update(h.digest())
        extend(o.digest())
    return out


def _hex(digests: bytearray, length: int, prefix: str) -> list[str]:
    """``prefix`` + the first `length` hex digits of each 32-byte digest, one str each.

    The hex digits of every digest are made at once (a nibble lookup on the bytes as one
    uint8 array), decoded once, and cut into fixed-width pieces.
    """
    if not digests:
        return []
    nbytes = (length + 1) // 2
    b = np.frombuffer(digests, dtype=np.uint8).reshape(-1, 32)[:, :nbytes]
    hexd = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)
    chars = np.empty((b.shape[0], 2 * nbytes), dtype=np.uint8)
    chars[:, 0::2] = hexd[b >> 4]
    chars[:, 1::2] = hexd[b & 15]
    text = chars[:, :length].tobytes().decode("ascii")
    out = [text[i:i + length] for i in range(0, len(text), length)]
    return list(map(prefix.__add__, out)) if prefix else out


def _collisions(digests: bytearray, length: int) -> int:
    """Distinct texts whose first `length` hex digits coincide with another's."""
    if len(digests) < 64:
        return 0
    b = np.frombuffer(digests, dtype=np.uint8).reshape(-1, 32)
    if length <= 16:
        # The leading `length` nibbles as one integer: a sort of integers, not of strings.
        head = b[:, :8].copy().view(">u8").ravel() >> np.uint64(4 * (16 - length))
        return int(head.size - np.unique(head).size)
    nbytes = (length + 1) // 2
    keys = b[:, :nbytes].copy()
    if length % 2:
        keys[:, -1] &= 0xF0
    return int(len(keys) - np.unique(keys.view(f"S{nbytes}").ravel()).size)


def _parameters(cols: tuple[str, ...], length: int, source: str | None, where: str | None, prefix: str,
                context: str | None, dropped: tuple[str, ...]) -> dict[str, Any]:
    """The log's parameters: where the key came from (never the key)."""
    params: dict[str, Any] = {"variables": list(cols), "length": length}
    if source == "file":
        params["key_file"] = where
    elif source == "env":
        params["key_env"] = where
    elif source == "random":
        params["random_key"] = True
    if prefix:
        params["prefix"] = prefix
    if context is not None:
        params["context"] = context
    if dropped:
        params["drop"] = list(dropped)
    return params


def _pseudonyms(s: pd.Series, key: _Key, length: int, prefix: str, context: str | None
                ) -> tuple[pd.Series, int, dict[str, Any]]:
    """One column's pseudonyms (each distinct value hashed once), cells changed, details."""
    lv = _distinct(s)
    texts, codes_t = _texts(lv.levels, s)
    digests = _hmac_all(key, texts, context)
    n_coll = _collisions(digests, length)
    if n_coll:
        raise ValueError(
            f"pseudonyms of column {str(s.name)!r} collide at `length` {length} ({n_coll} distinct value(s) share a "
            "pseudonym); use a larger `length`."
        )
    table = np.empty(len(texts) + 1, dtype=object)
    table[:-1] = _hex(digests, length, prefix)
    table[-1] = np.nan
    if codes_t is None:  # one text per level: the level codes index the table (-1 -> missing)
        rec = lv.codes
    else:
        rec = np.where(lv.codes >= 0, codes_t[np.maximum(lv.codes, 0)] if codes_t.size else -1, -1)
    new = pd.Series(table[rec], index=s.index, name=s.name, dtype=object)
    return new, int(np.count_nonzero(lv.codes >= 0)), {"distinct_values": len(texts)}


@protection_method(
    "pseudonymise", sdcmicro=not_in_sdcmicro(
    'sdcMicro has no keyed pseudonyms (HMAC-SHA-256 with a secret key, which the script must not hold)'), summary="identifiers replaced by keyed pseudonyms (HMAC-SHA-256); direct identifiers dropped",
    replaces_identifiers=True, needs=("key",), secrets=("key_file", "key_env"), dask=ROW_WISE,
    example={"variables": ["subject_id"], "drop": ["household_id"]},
    options={"key_file": param(PathLike(), "the file holding the key (never written anywhere)"),
             "key_env": param(Text(), "or the environment variable holding it"),
             "random_key": param(Flag(), "or a fresh random key, discarded",
                                 whole_file="every partition would draw its own key; give key_file or key_env instead"),
             "length": param(Whole(8, 64), "hex digits kept"),
             "prefix": param(Text(empty=True), "text before every pseudonym"),
             "context": param(Text(empty=True), "domain separation: another context, unrelated pseudonyms"),
             "drop": param(Names(), "direct identifiers removed from the release")})
def pseudonymise(
    data: pd.DataFrame,
    variables: Sequence[str] | str,
    *,
    key_file: str | os.PathLike | None = None,
    key_env: str | None = None,
    random_key: bool = False,
    length: int = 16,
    prefix: str = "",
    context: str | None = None,
    drop: Sequence[str] | str = (),
) -> ProtectionResult:
    """Replace identifiers by keyed pseudonyms (HMAC-SHA-256) and drop direct identifiers.

    Parameters
    ----------
    data : pandas.DataFrame
    variables : str or list of str
        Identifier columns to pseudonymise (may be empty when only dropping).
    key_file : path, optional
        A file holding the secret key: its bytes, without the line ending(s) at the end (so a
        key written by ``echo`` or an editor works); at least 16 bytes. A hex or base64 text key
        is used as the text it is (not decoded).
    key_env : str, optional
        The name of an environment variable holding the key.
    random_key : bool, default False
        Use a fresh random 32-byte key and discard it: the pseudonyms cannot be linked back
        or reproduced by anyone.
    length : int, default 16
        Hex digits kept (8 to 64; 16 digits = 64 bits). Distinct values whose pseudonyms would
        coincide raise an error (the collision check) asking for a larger `length`.
    prefix : str, default ""
        Text put before every pseudonym (e.g. ``"P-"``).
    context : str, optional
        Domain separation: the same key with another context gives unrelated pseudonyms.
    drop : str or list of str
        Direct identifiers (names, addresses, ...) removed from the released data.

    Returns
    -------
    ProtectionResult
        ``data`` without the dropped columns; ``details``: per variable the number of
        distinct values, and ``key_source`` (``"file"``, ``"env"``, ``"random"``),
        ``key_fingerprint`` (not for a random key) and ``dropped``.

    References
    ----------
    RFC 2104 (HMAC); NIST FIPS 180-4 (SHA-256); EMA Policy 0070 / CDISC guidance on
    consistent pseudonymisation of subject identifiers across domains.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"USUBJID": ["S-001", "S-002", "S-001"], "name": ["Ann", "Bo", "Ann"]})
    >>> r = sdc.pseudonymise(df, "USUBJID", random_key=True, drop="name")
    >>> list(r.data.columns), r.data["USUBJID"].nunique()
    (['USUBJID'], 2)
    """
    frame = check_frame(data)
    cols = check_columns(frame, variables, role="variables", allow_empty=True)
    dropped = check_columns(frame, drop, role="drop", allow_empty=True)
    both = [c for c in cols if c in dropped]
    if both:
        raise ValueError(f"a column cannot be both pseudonymised and dropped: {', '.join(map(repr, both))}.")
    if not cols and not dropped:
        raise ValueError("`pseudonymise` needs `variables` to pseudonymise or columns to `drop`.")
    length = check_int(length, "length", min_value=8, max_value=64)
    # prefix, context, random_key: checked by the declaration
    key, source, where = _read_key(key_file, key_env, random_key) if cols else (None, None, None)

    # output_frame after drop too: without copy-on-write, drop shares extension arrays (a
    # categorical) with the input, and writing to the release would change the input.
    out = output_frame(frame.drop(columns=list(dropped)) if dropped else frame)
    changed: dict[str, int] = {}
    details: dict[str, Any] = {}
    for v in cols:
        out[v], changed[v], details[v] = _pseudonyms(frame[v], key, length, prefix, context)
    if cols:
        details["key_source"] = source
        if source != "random":
            details["key_fingerprint"] = hmac.new(key._b, b"sdc key fingerprint", hashlib.sha256).hexdigest()[:8]
    details["dropped"] = list(dropped)
    params = _parameters(cols, length, source, where, prefix, context, dropped)
    del key
    return ProtectionResult(
        method="pseudonymise", data=out, variables=cols, parameters=params, seed=None,
        changed=pd.Series(changed, dtype=np.int64, name="cells_changed"), details=details,
    )
