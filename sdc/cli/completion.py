"""``sdc completion bash|zsh``: a shell completion script made from the command line's own
parser (argparse), so that a new command or option completes without an edit here and
without a dependency (argcomplete would be one).

The script completes the commands (and ``attack``'s attacks), each command's options, the
values of options that take a choice (``--missing wildcard|category``), and file names
everywhere else. docs/cli.md ("Shell completion") says where to install it.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from sdc.cli._teach import command_parsers

__all__ = ["add_parsers", "bash_script", "zsh_script"]

SHELLS = ("bash", "zsh")


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("completion", help="print the shell completion script (bash or zsh)")
    p.add_argument("shell", choices=SHELLS, help="the shell: bash or zsh")
    p.set_defaults(run=_run, whole=True)  # --quiet prints the whole script: it is the result


def _run(args: argparse.Namespace, argv: Any) -> int:
    from sdc.cli.main import _parser

    parser = _parser()
    print(bash_script(parser) if args.shell == "bash" else zsh_script(parser), end="")
    return 0


def _options(p: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in p._actions if a.option_strings and a.help != argparse.SUPPRESS]  # noqa: SLF001


def _takes_value(a: argparse.Action) -> bool:
    return a.nargs != 0


def _word(text: str) -> str:
    """A word safe inside single quotes in either shell."""
    return text.replace("'", "")


def _brief(text: str | None) -> str:
    """An option's help as a zsh description: one short line, no characters zsh's specs read."""
    t = re.sub(r"\s+", " ", text or "").split("; ")[0].split(" (")[0]
    return re.sub(r"[\[\]:'\\`$\"]", "", t)[:70]


def _positional_choices(p: argparse.ArgumentParser) -> list[str]:
    return [str(c) for a in p._actions if not a.option_strings and a.choices  # noqa: SLF001
            and not isinstance(a, argparse._SubParsersAction) for c in a.choices]  # noqa: SLF001


def _helps(parser: argparse.ArgumentParser, prefix: str = "") -> dict[str, str]:
    """Each command's one-line help (what ``sdc --help`` lists), nested ones as ``attack linkage``."""
    out: dict[str, str] = {}
    for action in parser._actions:  # noqa: SLF001
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            for choice in action._choices_actions:  # noqa: SLF001
                out[prefix + choice.dest] = choice.help or ""
            for name, sub in action.choices.items():
                out.update(_helps(sub, prefix + name + " "))
    return out


def _tree(parser: argparse.ArgumentParser) -> tuple[list[str], dict[str, argparse.ArgumentParser]]:
    """The top-level commands and every command's parser (nested ones as ``attack linkage``)."""
    cmds = command_parsers(parser)
    return [c for c in cmds if " " not in c], cmds


def bash_script(parser: argparse.ArgumentParser) -> str:
    """The bash completion script (``complete -F _sdc sdc``)."""
    top, cmds = _tree(parser)
    cases = []
    for name, p in cmds.items():
        opts = " ".join(s for a in _options(p) for s in a.option_strings)
        subs = " ".join(c.split(" ", 1)[1] for c in cmds if c.startswith(name + " ") and c.count(" ") == 1)
        values = "".join(f"            {'|'.join(a.option_strings)}) COMPREPLY=($(compgen -W '{_word(' '.join(map(str, a.choices)))}' "
                         f"-- \"$cur\")); return ;;\n" for a in _options(p) if a.choices and _takes_value(a))
        pos = _word(" ".join(_positional_choices(p)))
        cases.append(f"        '{name}')\n            opts='{_word(opts)}'; subs='{subs}'; pos='{pos}'\n"
                     f"            case \"$prev\" in\n{values}            esac ;;\n")
    global_opts = " ".join(s for a in _options(parser) for s in a.option_strings)
    return f"""# bash completion for sdc, made by `sdc completion bash` from the sdc parser.
# Install: sdc completion bash > ~/.local/share/bash-completion/completions/sdc
_sdc() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    local cmd="" w i opts="" subs="" pos=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        w="${{COMP_WORDS[i]}}"
        [[ "$w" == -* ]] && continue
        if [[ -z "$cmd" ]]; then cmd="$w"
        elif [[ "$cmd" == attack ]]; then cmd="attack $w"; break
        else break
        fi
    done
    if [[ -z "$cmd" ]]; then
        COMPREPLY=($(compgen -W '{' '.join(top)} {global_opts}' -- "$cur"))
        return
    fi
    case "$cmd" in
{''.join(cases)}    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [[ -n "$subs" && "$prev" == "${{cmd##* }}" ]]; then
        COMPREPLY=($(compgen -W "$subs" -- "$cur"))
    elif [[ -n "$pos" ]]; then
        COMPREPLY=($(compgen -W "$pos" -- "$cur"))
    fi
}}
complete -o default -o bashdefault -F _sdc sdc
"""


def _zsh_args(p: argparse.ArgumentParser) -> str:
    specs = []
    for a in _options(p):
        names = a.option_strings
        head = f"({' '.join(names)})'{{{','.join(names)}}}'" if len(names) > 1 else names[0]
        value = ""
        if _takes_value(a):
            value = f":value:({_word(' '.join(map(str, a.choices)))})" if a.choices else ":value:_files"
        specs.append(f"'{head}[{_brief(a.help)}]{value}'")
    choices = _positional_choices(p)
    rest = f"'1:value:({_word(' '.join(choices))})'" if choices else "'*:file:_files'"
    return " \\\n            ".join(specs + [rest])


def zsh_script(parser: argparse.ArgumentParser) -> str:
    """The zsh completion script (a ``#compdef sdc`` function)."""
    top, cmds = _tree(parser)
    helps = _helps(parser)
    described = "\n".join(f"    '{n}:{_brief(helps.get(n))}'" for n in top)
    attacks = "\n".join(f"    '{n.split(' ', 1)[1]}:{_brief(helps.get(n))}'" for n in cmds if " " in n)
    cases = "".join(f"        {n.replace(' ', '-')}) _arguments {_zsh_args(p)} ;;\n" for n, p in cmds.items()
                    if n != "attack")
    return f"""#compdef sdc
# zsh completion for sdc, made by `sdc completion zsh` from the sdc parser.
# Install: sdc completion zsh > "${{fpath[1]}}/_sdc" (or a folder of your own on $fpath), then compinit.
_sdc() {{
  local -a commands attacks
  commands=(
{described}
  )
  attacks=(
{attacks}
  )
  local cmd
  _arguments -C {_zsh_args(parser).replace("'*:file:_files'", "")}'1: :->command' '*:: :->args' && return
  case $state in
    command) _describe -t commands 'sdc command' commands ;;
    args)
      cmd=$words[1]
      if [[ $cmd == attack ]]; then
        if (( CURRENT == 2 )); then _describe -t attacks 'attack' attacks; return; fi
        cmd="attack-$words[2]"; shift words; (( CURRENT-- ))
      fi
      case $cmd in
{cases}      esac ;;
  esac
}}
_sdc "$@"
"""
