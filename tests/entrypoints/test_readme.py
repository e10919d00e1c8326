"""The README as a fresh clone reads it: every ``digsite`` command "Using it" lists parses against the real
command line (its commands, options and arguments exist), and every relative link or image in the README and
docs points to a file of the repository."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest

from entrypoints.cli import main

ROOT = Path(__file__).resolve().parents[2]
DIGSITE = ".venv/bin/digsite"


def using_it_commands() -> list[list[str]]:
    text = (ROOT / "README.md").read_text("utf-8")
    section = text.split("## Using it", 1)[1]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    commands = []
    for line in block.strip().splitlines():
        words = shlex.split(line, comments=True)
        if DIGSITE in words:
            commands.append(words[words.index(DIGSITE) + 1 :])
    return commands


def parse(args: list[str]) -> click.Command:
    """Parse ``args`` as ``digsite`` would, down to the command that runs, without running it: a missing
    command, an unknown option or a missing argument raises click's UsageError."""
    command: click.Command = main
    context = command.make_context("digsite", list(args))
    while isinstance(command, click.Group):
        rest = [*getattr(context, "_protected_args", []), *context.args]  # click keeps the subcommand's words here
        if not rest and command.invoke_without_command:  # a group that is also a command (`digsite checkpoint`)
            break
        name, found, rest = command.resolve_command(context, rest)
        assert name is not None and found is not None
        command, context = found, found.make_context(name, rest, parent=context)
    return command


def test_the_readme_lists_the_commands_an_organiser_needs() -> None:
    listed = {tuple(words[:2]) if words[0] in ("db", "projections") else (words[0],) for words in using_it_commands()}
    assert {("db", "upgrade"), ("serve",), ("projections", "run"), ("dashboard",), ("verify",)} <= listed
    readme = (ROOT / "README.md").read_text("utf-8").split("## Using it", 1)[1]
    assert "DIGSITE_API_KEY" in readme.split("```sh", 1)[1].split("```", 1)[0]  # set before serve is started


@pytest.mark.parametrize("words", using_it_commands(), ids=" ".join)
def test_each_readme_command_parses_as_written(
    words: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for word in words:  # the files it names (a key, a checkpoint, an export) exist where it is run
        if re.fullmatch(r"[\w-]+\.[\w.]+", word):
            (tmp_path / word).write_text("")
    parse(words)


def test_a_misspelt_command_does_not_parse() -> None:
    with pytest.raises(click.UsageError):
        parse(["projections", "run", "--batchsize", "5"])
    with pytest.raises(click.UsageError):
        parse(["db", "upgrad"])


DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), ROOT / "docker" / "README.md"]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_image_points_to_a_file_of_the_repository(doc: Path) -> None:
    missing = []
    for target in LINK.findall(doc.read_text("utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a web address, a mail address, a heading of this page
        path = (doc.parent / target.split("#", 1)[0]).resolve()
        if not path.exists() or "artifacts" in path.relative_to(ROOT).parts:
            missing.append(target)
    assert not missing, f"{doc.relative_to(ROOT)} links to what a clone does not hold: {missing}"
