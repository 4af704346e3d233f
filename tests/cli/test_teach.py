"""A command line that teaches: every subcommand's description, example and docs link; the
global --quiet/--verbose; the shell completion made from the parser; ``sdc --version`` without
the numerical stack."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import tomllib

import pytest

from sdc.cli._teach import DOCS, TEACH, command_parsers
from sdc.cli.completion import bash_script, zsh_script
from sdc.cli.main import _parser
from sdc.datasets import save_example
from tests.helpers import ROOT, run_cli


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation but - and _ dropped, spaces -> -."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(page: str) -> set[str]:
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, re.M)}


COMMANDS = command_parsers(_parser())


def test_every_subcommand_is_taught() -> None:
    assert len([c for c in COMMANDS if " " not in c]) >= 18  # the 17 of the issue and `completion`
    assert set(COMMANDS) == set(TEACH)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_has_a_description_an_example_and_a_docs_link(name: str) -> None:
    p = COMMANDS[name]
    text = p.format_help()
    assert p.description and len(p.description) > 20, name
    assert "\nexample (" in text and f"\n  sdc {name}" in text, name
    link = re.search(r"docs: (\S+)", text).group(1)
    assert link.startswith(DOCS)
    page, _, anchor = link[len(DOCS):].partition("#")
    assert (ROOT / "docs" / page).is_file(), link
    assert not anchor or anchor in _anchors(page), f"{name}: no heading for #{anchor} in docs/{page}"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_example_parses(name: str) -> None:
    # The example is a command line this parser takes (every required flag given, no misspelt one).
    argv = shlex.split(TEACH[name].example.split("   (")[0].split(" > ")[0])
    assert argv[0] == "sdc"
    _parser().parse_args(argv[1:])


def test_the_docs_address_is_the_projects() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert meta["urls"]["Documentation"].startswith(DOCS)
    assert meta["scripts"]["sdc"] == "sdc.__main__:main"  # the light start (below)


@pytest.mark.parametrize("names", [("risk", "ldiversity", "tcloseness", "inference", "uniqueness", "identify")])
def test_the_examples_run_on_the_example_files(tmp_path, monkeypatch, capsys, names) -> None:
    save_example(tmp_path)
    monkeypatch.chdir(tmp_path)
    for name in names:
        code, out, err = run_cli(capsys, *shlex.split(TEACH[name].example)[1:], "--quiet")
        assert code == 0, (name, err)
        assert len(out.splitlines()) == 1 and err == "", (name, out, err)


# --- --quiet and --verbose ---------------------------------------------------------------------

@pytest.fixture()
def example_dir(tmp_path, monkeypatch):
    save_example(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("where", ["before", "after"])
def test_quiet_prints_only_the_one_line_result(example_dir, capsys, where) -> None:
    cmd = ["risk", "health_survey.csv", "--keys", "age,sex,region", "--weights", "weight"]
    argv = ["--quiet", *cmd] if where == "before" else [*cmd, "-q"]
    code, out, err = run_cli(capsys, *argv)
    assert code == 0 and err == ""
    assert out.splitlines() == [out.strip()]
    assert out.startswith("Re-identification risk: health_survey.csv — records in classes of fewer than 3 records")
    code, full, _ = run_cli(capsys, *cmd)
    assert len(full.splitlines()) > 20  # without --quiet: the tables


def test_quiet_still_prints_errors_and_json(example_dir, capsys) -> None:
    code, out, err = run_cli(capsys, "-q", "risk", "missing.csv", "--keys", "age")
    assert code == 2 and out == "" and err.startswith("sdc: error: cannot read data file 'missing.csv'")
    code, out, err = run_cli(capsys, "-q", "risk", "health_survey.csv", "--keys", "age,sex", "--json")
    assert code == 0 and out.startswith("{") and out.rstrip().endswith("}") and err == ""


def test_quiet_drops_warnings_and_notes(example_dir, capsys) -> None:
    # A note on stderr (the files written) and any warning: gone under --quiet.
    code, out, err = run_cli(capsys, "-q", "example", "--save", "again")
    assert code == 0 and err == "" and len(out.splitlines()) == 1


def test_quiet_assess_says_the_verdicts_and_the_report(example_dir, capsys) -> None:
    code, out, err = run_cli(capsys, "-q", "assess", "--config", "example.toml", "--out", "report")
    assert code == 0 and err == ""
    assert re.fullmatch(r"Assessed 4,125 records: \d+ of \d+ verdicts fail\. Report: report/report\.html\n", out)


def test_verbose_prints_the_stages_with_times(example_dir, capsys) -> None:
    code, out, err = run_cli(capsys, "--verbose", "assess", "--config", "example.toml", "--out", "report")
    assert code == 0
    lines = err.splitlines()
    assert any(re.fullmatch(r"sdc: +\d+\.\d\d s  reading health_survey\.csv \(.*\)", x) for x in lines), err
    assert any(re.fullmatch(r"sdc: +\d+\.\d\d s  k-anonymity", x) for x in lines), err
    assert re.fullmatch(r"sdc: done in \d+\.\d\d s \(CPU \d+\.\d\d s\)", lines[-1])
    assert "Report: report/report.html" in out  # the usual output besides


def test_quiet_and_verbose_exclude_each_other(capsys) -> None:
    code, _, err = run_cli(capsys, "-q", "-v", "risk", "x.csv", "--keys", "a")
    assert code == 2 and "not allowed with" in err


# --- shell completion ------------------------------------------------------------------------

def _bash_complete(script: str, words: list[str]) -> list[str]:
    prog = (f"{script}\nCOMP_WORDS=({' '.join(shlex.quote(w) for w in words)}); COMP_CWORD={len(words) - 1}; "
            'COMPREPLY=(); _sdc; printf "%s\\n" "${COMPREPLY[@]}"')
    return subprocess.run(["bash", "-c", prog], capture_output=True, text=True, check=True).stdout.split()


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_bash_completion_completes_commands_options_and_choices(capsys) -> None:
    code, script, _ = run_cli(capsys, "completion", "bash")
    assert code == 0 and script == bash_script(_parser())
    subprocess.run(["bash", "-n"], input=script, text=True, check=True)
    assert _bash_complete(script, ["sdc", "ri"]) == ["risk"]
    assert {"assess", "protect", "attack", "completion", "--quiet"} <= set(_bash_complete(script, ["sdc", ""]))
    assert _bash_complete(script, ["sdc", "risk", "--mi"]) == ["--missing"]
    assert _bash_complete(script, ["sdc", "risk", "x.csv", "--missing", ""]) == ["wildcard", "category"]
    assert _bash_complete(script, ["sdc", "attack", "li"]) == ["linkage", "linkability"]
    assert _bash_complete(script, ["sdc", "attack", "linkage", "--kn"]) == ["--known"]
    assert _bash_complete(script, ["sdc", "-q", "completion", ""]) == ["bash", "zsh"]
    assert _bash_complete(script, ["sdc", "risk", ""]) == []  # file names: bash's default


def test_zsh_completion_names_every_command_and_option(capsys) -> None:
    code, script, _ = run_cli(capsys, "completion", "zsh")
    assert code == 0 and script == zsh_script(_parser()) and script.startswith("#compdef sdc\n")
    for name, p in COMMANDS.items():
        short = name.split(" ")[-1]
        assert f"'{short}:" in script, name
        for a in p._actions:
            for flag in a.option_strings:
                assert flag in script, (name, flag)
    assert "'--missing[" in script and ":value:(wildcard category)'" in script
    assert script.count("'") % 2 == 0
    if shutil.which("zsh"):
        subprocess.run(["zsh", "-n"], input=script, text=True, check=True)


def test_completion_under_quiet_is_the_whole_script(capsys) -> None:
    code, out, _ = run_cli(capsys, "-q", "completion", "bash")
    assert code == 0 and out == bash_script(_parser())


# --- the light start ---------------------------------------------------------------------------

LIGHT = """
import sys
from sdc.__main__ import main
status = main({argv!r})
heavy = sorted(m for m in ("pandas", "numpy", "scipy", "matplotlib", "sdc.cli.main") if m in sys.modules)
print("HEAVY", heavy, file=sys.stderr)
raise SystemExit(status)
"""


@pytest.mark.parametrize("argv", [["--version"], ["-V"], [], ["--quiet"]])
def test_version_and_overview_start_without_pandas(argv) -> None:
    proc = subprocess.run([sys.executable, "-c", LIGHT.format(argv=argv)], capture_output=True, text=True,
                          cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "HEAVY []" in proc.stderr
    if argv and argv[0] in ("-V", "--version"):
        from sdc._version import __version__

        assert proc.stdout == f"sdc {__version__}\n"
    else:
        assert "  identify  sdc identify DATA" in proc.stdout and "  release " in proc.stdout


def test_import_sdc_alone_loads_nothing_and_a_name_loads_the_face() -> None:
    code = ("import sys, sdc; assert 'pandas' not in sys.modules; sdc.k_anonymity; assert 'pandas' in sys.modules; "
            "assert all(hasattr(sdc, n) for n in sdc.__all__); import sdc.identify.hierarchy; "
            "assert callable(sdc.identify) and not isinstance(sdc.identify, type(sys)); "
            "assert sdc.KAnonymityResult._repr_html_")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


#: Completes a command line in an interactive zsh under zpty and prints the matches offered
#: (the compadd calls' words); $1: the line, $2: the folder holding _sdc. SDC_TEST_ZSH_FPATH and
#: SDC_TEST_ZSH_MODULES: zsh's function and module folders where they are not zsh's defaults.
ZSH_CAPTURE = r"""
[[ -n $SDC_TEST_ZSH_MODULES ]] && module_path=($SDC_TEST_ZSH_MODULES $module_path)
zmodload zsh/zpty || exit 3
zpty z "$ZSH_BIN" -f -i
zpty -w z "PROMPT=''; RPROMPT=''; module_path=($module_path)"
zpty -w z "fpath=($2 ${=SDC_TEST_ZSH_FPATH} \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z 'compadd () { typeset -a h; builtin compadd -A h "$@"; local x; for x in $h; do print -r -- "MATCH:$x"; done; builtin compadd "$@" }'
zpty -w z "bindkey '^I' complete-word; print -r -- BEG''IN"
while zpty -r z line; do [[ $line == BEGIN* ]] && break; done
zpty -w -n z "$1"$'\t'
zpty -w z $'\x15'
zpty -w z "print -r -- EN''D"
typeset -a out
while zpty -r -t z line || { sleep 0.2; zpty -r -t z line; }; do
  [[ $line == *MATCH:* ]] && out+=("${${line##*MATCH:}%$'\r'}")
  [[ $line == END* ]] && break
done
print -l -- ${(u)out}
zpty -d z
"""


@pytest.mark.skipif(shutil.which("zsh") is None, reason="no zsh")
@pytest.mark.parametrize("line, offered", [
    ("sdc ri", ["risk"]), ("sdc risk --mi", ["--missing"]), ("sdc risk x.csv --missing ", ["wildcard", "category"]),
    ("sdc attack li", ["linkability", "linkage"]), ("sdc attack linkage --kn", ["--known"]),
    ("sdc -q assess --ou", ["--out"]), ("sdc completion ", ["bash", "zsh"]),
])
def test_zsh_completion_completes_in_zsh(tmp_path, capsys, line, offered) -> None:
    import os

    (tmp_path / "_sdc").write_text(zsh_script(_parser()), encoding="utf-8")
    (tmp_path / "capture.zsh").write_text(ZSH_CAPTURE, encoding="utf-8")
    zsh = shutil.which("zsh")
    proc = subprocess.run([zsh, "-f", str(tmp_path / "capture.zsh"), line, str(tmp_path)], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "ZSH_BIN": zsh})
    assert sorted(proc.stdout.split()) == sorted(offered), proc.stdout + proc.stderr
