"""What every subcommand's ``--help`` teaches: what it does, an example that runs on the
bundled example's files (``sdc example --save .`` writes them), and where its docs page is.

One table for every command, so that the voice and the example files are the same across the
command line; :func:`teach` applies it to the built parser and refuses a command it does not
cover (the test walks every parser for a description, an example and a docs link).
"""

from __future__ import annotations

import argparse
from typing import Any, NamedTuple

__all__ = ["DOCS", "TEACH", "Formatter", "teach", "command_parsers"]

#: Where the docs are published: the project's Documentation URL without its page
#: (pyproject.toml, [project.urls]; a test keeps the two the same).
DOCS = "https://sdc-microdata.invalid/docs/"

#: Said above every example: where its files come from.
_FILES = "in a folder where `sdc example --save .` wrote the example's files"


class Teach(NamedTuple):
    """A command's teaching: its description (None: the one its parser has), an example and
    its docs page (``page.md#anchor``)."""

    description: str | None
    example: str
    docs: str


_DATA = "health_survey.csv"
_KEYS = "--keys age,sex,region"

#: Each command (``attack linkage`` for an attack) and what its --help teaches.
TEACH: dict[str, Teach] = {
    "risk": Teach("The k-anonymity profile (class sizes, sample uniques, records below k), each record's "
                  "re-identification risk (sdcMicro's individual risk with sampling weights) and the global risk.",
                  f"sdc risk {_DATA} {_KEYS} --weights weight", "cli.md#sdc-risk-data---keys-abc-options"),
    "snapshots": Teach("The risk of every subset of the key variables: which keys drive the risk, and what a "
                       "smaller key set would leave.", f"sdc snapshots {_DATA} {_KEYS} --weights weight",
                       "cli.md#sdc-snapshots-data---keys-abc-options"),
    "ldiversity": Teach("Distinct, entropy and recursive (c, l)-diversity of sensitive variables in each class of "
                        "the keys: classes whose sensitive value an intruder could guess.",
                        f"sdc ldiversity {_DATA} {_KEYS} --sensitive diagnosis --l 2",
                        "cli.md#sdc-ldiversity-data---keys-ab---sensitive-s1s2-options"),
    "tcloseness": Teach("The distance of each class's distribution of a sensitive variable to the whole file's "
                        "(earth mover's distance): classes that tell an intruder more than the file does.",
                        f"sdc tcloseness {_DATA} {_KEYS} --sensitive cholesterol --t 0.2",
                        "cli.md#sdc-tcloseness-data---keys-ab---sensitive-s-options"),
    "inference": Teach("The variables, and pairs of variables, whose values reveal a sensitive variable with a "
                       "high posterior.", f"sdc inference {_DATA} --sensitive diagnosis --candidates sex,region,smoking",
                       "cli.md#sdc-inference-data---sensitive-s-options"),
    "suda": Teach("SUDA2: the minimal sample uniques of each record, its SUDA and DIS-SUDA scores, and each key "
                  "variable's contribution.", f"sdc suda {_DATA} {_KEYS}", "cli.md#sdc-suda-data---keys-abc-options"),
    "modrisk": Teach("Re-identification risk from a log-linear model of the keys' table (sdcMicro's modRisk).",
                     f"sdc modrisk {_DATA} --keys sex,region --weights weight",
                     "cli.md#sdc-modrisk-data---keys-ab---weights-w-options"),
    "uniqueness": Teach("Population uniqueness (Zayatz, Pitman, SNB, Dankar's decision rule) and the prosecutor, "
                        "journalist and marketer risks.", f"sdc uniqueness {_DATA} {_KEYS} --sampling-fraction 0.01",
                        "cli.md#sdc-uniqueness-data---keys-ab---population-size-n----sampling-fraction-f-options"),
    "example": Teach("The bundled synthetic health survey: its risk and key-subset snapshots; --save DIR writes its "
                     "data, assessment config, protection plan and sweep plan, the files every other example uses.",
                     "sdc example --save .", "getting-started.md"),
    "assess": Teach(None, "sdc assess --config example.toml --out report/", "cli.md#sdc-assess-data---config-file-flags---out-dir"),
    "combine": Teach(None, "sdc combine dm=dm.csv vs=vs.csv --subject-id USUBJID --out combined.csv",
                     "cli.md#sdc-combine-domainfile----subject-id-col---long-domaintestcol---value-column-col---visit-domainvisit---out-file"),
    "identify": Teach(None, f"sdc identify {_DATA} --out starter.toml", "identification.md"),
    "protect": Teach(None, f"sdc protect {_DATA} --plan example_plan.toml --out protected/", "protect-run.md"),
    "compare": Teach(None, f"sdc compare {_DATA} protected/released.csv --config example.toml --out comparison/",
                     "compare-sweep.md#sdc-compare"),
    "sweep": Teach(None, f"sdc sweep {_DATA} --plan example_sweep.toml --out sweep/", "compare-sweep.md#sdc-sweep"),
    "advise": Teach(None, f"sdc advise {_DATA} --config example.toml --out advice/", "advise.md"),
    "search": Teach(None, "sdc search adult.csv --config search.toml --out release/   (search.toml: docs/search.md)",
                    "search.md"),
    "attack": Teach(None, f"sdc attack linkage protected/released.csv --original {_DATA} --known age,sex,region",
                    "attacks.md#5-command-line"),
    "attack linkage": Teach("Link an outside file (or one drawn from the original) to the release on the keys an "
                            "intruder knows, and count the records re-identified.",
                            f"sdc attack linkage protected/released.csv --original {_DATA} --known age,sex,region",
                            "attacks.md#1-record-linkage"),
    "attack singling-out": Teach("anonymeter's singling-out attack: predicates that isolate one original record, "
                                 "against a baseline and a control set.",
                                 f"sdc attack singling-out protected/released.csv --original {_DATA} --seed 1",
                                 "attacks.md#3-singling-out-linkability-and-inference-anonymeters-design"),
    "attack linkability": Teach("anonymeter's linkability attack: records of two partial views of the original "
                                "linked through the release, against a baseline and a control set.",
                                f"sdc attack linkability protected/released.csv --original {_DATA} "
                                "--aux-a age,sex --aux-b region,marital_status --seed 1",
                                "attacks.md#3-singling-out-linkability-and-inference-anonymeters-design"),
    "attack inference": Teach("anonymeter's inference attack: a secret column guessed from the release's nearest "
                              "record, against a baseline and a control set.",
                              f"sdc attack inference protected/released.csv --original {_DATA} "
                              "--aux age,sex,region --secret diagnosis --seed 1",
                              "attacks.md#3-singling-out-linkability-and-inference-anonymeters-design"),
    "attack skewness": Teach("Skewness (lift) and similarity (category purity) attacks: classes where a sensitive "
                             "value is far more common than in the file.",
                             f"sdc attack skewness protected/released.csv {_KEYS} --sensitive diagnosis",
                             "attacks.md#4-skewness-and-similarity-attacks"),
    "attack distance": Teach("sdcMicro's dRisk (and dRiskRMD): released continuous values that lie close to their "
                             "original.", f"sdc attack distance protected/released.csv --original {_DATA} "
                             "--variables bmi,cholesterol", "attacks.md#2-distance-based-risk-of-continuous-keys-sdcmicro"),
    "attack record-linkage": Teach("sdcMicro's distance-based record linkage: each released record matched to one "
                                   "original record (Hungarian assignment), and the share matched correctly.",
                                   f"sdc attack record-linkage protected/released.csv --original {_DATA} "
                                   "--variables bmi,cholesterol", "attacks.md#1-record-linkage"),
    "app": Teach(None, "sdc app --no-browser      (then open the printed address; Ctrl-C stops it)",
                 "app.md#sdc-app-the-workflow-in-the-browser"),
    "completion": Teach("Print the shell completion script for bash or zsh, made from this command line's parser; "
                        "docs/cli.md says where to install it.", "sdc completion bash > ~/.local/share/"
                        "bash-completion/completions/sdc", "cli.md#shell-completion"),
}


class Formatter(argparse.HelpFormatter):
    """argparse's help, with the description and epilog wrapped paragraph by paragraph and
    their indented lines (examples) and the docs address kept as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out = []
        for para in text.split("\n\n"):
            lines = para.split("\n")
            if para.startswith("docs: "):  # an address is not broken
                out.append(indent + para)
            elif all(line.startswith("  ") for line in lines[1:]) and len(lines) > 1:
                out.append("\n".join([super()._fill_text(lines[0], width, indent)] + [indent + x for x in lines[1:]]))
            else:
                out.append(super()._fill_text(para, width, indent))
        return "\n\n".join(out)


def command_parsers(parser: argparse.ArgumentParser, prefix: str = "") -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser by its name (``attack linkage`` for a nested one)."""
    out: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:  # noqa: SLF001  (argparse keeps its subparsers here)
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            for name, sub in action.choices.items():
                out[prefix + name] = sub
                out.update(command_parsers(sub, prefix + name + " "))
    return out


def _epilog(t: Teach) -> str:
    return f"example ({_FILES}):\n  {t.example}\n\ndocs: {DOCS}{t.docs}"


def teach(parser: Any) -> None:
    """Give every subcommand of `parser` its description, example and docs link."""
    for name, sub in command_parsers(parser).items():
        t = TEACH.get(name)
        if t is None:
            raise AssertionError(f"sdc {name}: no description, example and docs link in sdc.cli._teach.TEACH")
        if t.description:
            sub.description = t.description
        sub.epilog = _epilog(t)
        sub.formatter_class = Formatter
