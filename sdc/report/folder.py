"""Writing an output folder whole or not at all, never more readable than its input, and never
over anything sdc did not write (``sdc assess``, ``sdc protect``, ``sdc compare``, ``sdc sweep``).

The files are written into a temporary sibling folder, which is renamed into place only when
every file is complete; a previous folder of sdc's (it holds the ``.sdc-report`` marker) is
renamed aside first and deleted only after the new one is in place. Refused, so that sdc
never deletes a file it did not write:

* any other existing, non-empty folder (a mistyped path);
* a folder of sdc's that holds files sdc did not write there: the marker lists the files
  written, and anything else (an input copied in, notes) would be lost;
* a folder that holds one of the run's input files;
* a folder that appeared at the target while the run was computing: the target is checked
  again, on the folder actually moved aside, just before the swap.

A SIGTERM while writing raises instead of ending the process at once
(:func:`sdc._files.terminate_cleanly`), so the temporary folder is removed then too.

An existing target folder's permissions are kept: the new folder gets no permission the old
one lacked (a 0700 or 0555 folder stays so). A target that is a symbolic link is followed,
with a warning saying so: the folder it points to is written, the link is left as it is. A
write that fails (a full disk) names the output and the file it was writing; nothing of the
run is left, and a previous folder is as it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import tempfile
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path

from sdc._stages import stage
from sdc._files import check_parent, make_parents, output_modes, remove_made, terminate_cleanly
from sdc.exceptions import SdcWarning

__all__ = ["write_folder", "output_modes", "check_target", "prepare_target", "source_files", "MARKER"]

#: The marker of a folder written by sdc (the same as ``sdc assess``'s report folders).
MARKER = ".sdc-report"
#: The line of the marker after which the files sdc wrote are listed, one per line.
_MANIFEST = "Files written by sdc (one per line; sdc refuses to replace this folder if it holds others):"


def _manifest(folder: Path) -> set[str] | None:
    """The files the marker lists (None: a marker without a list, from an earlier sdc)."""
    try:
        lines = (folder / MARKER).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    if _MANIFEST not in lines:
        return None
    return {ln for ln in lines[lines.index(_MANIFEST) + 1:] if ln}


def _inside(path: str | Path, folder: Path) -> bool:
    try:
        p, f = Path(path).resolve(), folder.resolve()
    except (OSError, RuntimeError):
        return False
    return f in p.parents


def check_target(out: Path, flag: str = "--out", *, inputs: Iterable[str | Path | None] = ()) -> None:
    """Refuse a file, a non-empty folder that sdc did not write, a folder of sdc's holding other
    files, and a folder holding one of the `inputs`."""
    out = Path(out)
    for p in inputs:
        if p is not None and _inside(p, out):
            raise FileExistsError(f"{flag} '{out}' holds the input '{p}': sdc replaces its output folder whole, which "
                                  "would delete it; choose another output folder (or move the input).")
    if out.exists() and not out.is_dir():
        raise FileExistsError(f"{flag} '{out}' is a file, not a folder.")
    check_parent(out, f"{flag} '{out}'")
    if not out.is_dir() or not any(out.iterdir()):
        return
    if not (out / MARKER).exists():
        raise FileExistsError(
            f"{flag} '{out}' exists and is not a folder written by sdc (no {MARKER} file): choose another folder or "
            "empty it; sdc only replaces folders it wrote.")
    listed = _manifest(out)
    if listed is not None:
        present = {str(p.relative_to(out).as_posix()) for p in out.rglob("*") if not p.is_dir()} - {MARKER}
        foreign = sorted(present - listed)
        if foreign:
            more = f" and {len(foreign) - 1} more" if len(foreign) > 1 else ""
            raise FileExistsError(
                f"{flag} '{out}' holds '{foreign[0]}'{more}, which sdc did not write there: sdc replaces its folders "
                "whole, which would delete them; move them out or choose another folder.")


def source_files(*sources: str | Path | None) -> list[str]:
    """The configuration or plan files among `sources` (a config's or plan's ``source``, which
    may also be ``"flags"``, ``"default"``, ...): the existing files."""
    out = []
    for s in sources:
        if s is None or str(s) in ("flags", "default", "mapping", "plan"):
            continue
        try:
            if Path(s).is_file():
                out.append(str(s))
        except (OSError, ValueError):
            continue
    return out


def write_folder(out: str | Path, files: Mapping[str, str | bytes | Iterable[bytes | memoryview]], *, marker: str,
                 inputs: Iterable[str | Path | None] = (), flag: str = "--out",
                 read_from: Iterable[str | Path | None] = ()) -> Path:
    """Write `files` (relative name -> text, bytes, or pieces of bytes) as the folder `out`, atomically.

    Text is written as UTF-8 with the line ends it holds. `marker` is the text of the
    ``.sdc-report`` file (the list of the files written is added to it). Modes follow
    :func:`output_modes` of `inputs` and `read_from`; the target is checked with
    :func:`check_target` against `inputs`. `read_from` are the other files the outputs are
    made from (a configuration, a plan: copied into the folder, so they restrict its modes too),
    which the folder may replace (``--plan OUT/plan.toml --out OUT`` reruns in place).
    """
    inputs = [p for p in inputs if p is not None]
    out, fmode, dmode = prepare_target(Path(out), flag, inputs, read_from)
    names = sorted(str(Path(n).as_posix()) for n in files)
    marker_text = marker.rstrip("\n") + "\n" + _MANIFEST + "\n" + "".join(f"{n}\n" for n in names)
    with terminate_cleanly():
        made: list[Path] = []
        try:
            made = make_parents(out)
            tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))  # private (0700) while written
        except OSError as exc:  # the message would name the temporary folder, not the target
            remove_made(made)
            raise OSError(f"cannot write {flag} '{out}': {exc.strerror or exc}.") from None
        try:
            _fill(tmp, {**files, MARKER: marker_text}, fmode, dmode | 0o700, flag, out)
            os.chmod(tmp, dmode)
            _move_into_place(tmp, out, flag, inputs)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            remove_made(made)  # a refused run leaves no folder it made
            raise
    return out


def prepare_target(out: Path, flag: str, inputs: list[str | Path], read_from: Iterable[str | Path | None] = ()
                   ) -> tuple[Path, int, int]:
    """(the folder to write, file mode, folder mode): a symbolic link followed, the target
    checked (:func:`check_target`), the modes of :func:`output_modes`, and a folder replaced
    keeping its permissions (the new one is never wider than it was)."""
    out = _followed(out, flag)
    check_target(out, flag, inputs=inputs)
    fmode, dmode = output_modes([*inputs, *(p for p in read_from if p is not None)])
    if out.is_dir():
        dmode &= stat.S_IMODE(out.stat().st_mode)
    return out, fmode, dmode


def _followed(out: Path, flag: str) -> Path:
    """The folder a symbolic link `out` points to (said in a warning); a link to nothing is refused."""
    if not out.is_symlink():
        return out
    target = Path(os.path.realpath(out))
    if not target.is_dir():
        what = "does not exist" if not target.exists() else "is not a folder"
        raise FileExistsError(f"{flag} '{out}' is a symbolic link to '{target}', which {what}: give a folder, or "
                              "point the link at one.")
    warnings.warn(f"{flag} '{out}' is a symbolic link: sdc writes the folder it points to, '{target}' (the link is "
                  "left as it is).", SdcWarning, stacklevel=3)
    return target


def _fill(tmp: Path, files: Mapping[str, str | bytes | Iterable[bytes | memoryview]], fmode: int, dmode: int,
          flag: str = "--out", out: Path | None = None) -> None:
    for name, data in files.items():
        if not name.startswith((".", "plots/")):  # the figures and the marker are not steps of their own
            stage(f"writing {name}")
        try:
            _write_one(tmp, name, data, fmode, dmode)
        except OSError as exc:
            if exc.errno is None:
                raise
            err = OSError(f"cannot write {flag} '{out if out is not None else tmp}': {exc.strerror or exc} (while "
                          f"writing {name}); nothing was written, and a previous folder there is as it was.")
            err.errno = exc.errno
            raise err from None


def _write_one(tmp: Path, name: str, data: str | bytes | Iterable[bytes | memoryview], fmode: int,
               dmode: int) -> None:
    p = tmp / name
    if tmp.resolve() not in p.resolve().parents:
        raise ValueError(f"output file name {name!r} leaves the folder.")
    for parent in reversed(p.relative_to(tmp).parents[:-1]):
        d = tmp / parent
        if not d.exists():
            d.mkdir()
            os.chmod(d, dmode)
    fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, fmode)
    with os.fdopen(fd, "wb") as fh:
        if isinstance(data, (str, bytes, bytearray, memoryview)):
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
        else:  # pieces made as they are written (a large CSV is never whole in memory)
            for piece in data:
                fh.write(piece)
    os.chmod(p, fmode)  # the umask may have taken bits away; never adds any beyond fmode


def _move_into_place(tmp: Path, out: Path, flag: str, inputs: list[str | Path]) -> None:
    """Rename the finished folder in; a previous sdc folder is renamed aside, checked again (it
    may have appeared or changed while the run computed), and deleted only after the swap."""
    if not out.exists():
        try:
            os.rename(tmp, out)  # fails if a non-empty folder appeared there meanwhile
        except OSError as exc:
            if exc.errno in (errno.ENOTEMPTY, errno.EEXIST, errno.ENOTDIR, errno.EISDIR):
                raise FileExistsError(f"{flag} '{out}' appeared while sdc was writing; it was left as it is: "
                                      "run again, or choose another folder.") from None
            raise
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    os.rmdir(old)
    os.rename(out, old)
    try:
        check_target(old, flag, inputs=inputs)  # the folder actually moved aside
    except FileExistsError:
        os.rename(old, out)
        raise FileExistsError(f"{flag} '{out}' appeared or changed while sdc was writing; it was left as it is: "
                              "run again, or choose another folder.") from None
    except BaseException:
        os.rename(old, out)
        raise
    try:
        os.rename(tmp, out)
    except BaseException:
        os.rename(old, out)  # put the previous folder back
        raise
    with contextlib.suppress(OSError):
        os.chmod(old, stat.S_IMODE(old.stat().st_mode) | 0o700)  # a read-only (0555) folder's files can go
    shutil.rmtree(old, ignore_errors=True)
