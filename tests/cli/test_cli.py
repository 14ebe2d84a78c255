"""The command line loads only the module of the command it runs; every command must be found
that way, and --help and unknown commands still see them all."""
from __future__ import annotations

import argparse

import pytest

from generator.cli import main as cli


def commands_of(parser: argparse.ArgumentParser) -> set[str]:
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return set(sub.choices)


ALL_COMMANDS = sorted(commands_of(cli.build_parser()))


def test_every_command_is_mapped_to_the_module_that_registers_it():
    mapped = [c for commands in cli._PLUGIN_COMMANDS.values() for c in commands]
    assert sorted(mapped + ["build", "import"]) == ALL_COMMANDS


@pytest.mark.parametrize("command", ALL_COMMANDS)
def test_a_command_line_naming_a_command_finds_it(command: str, capsys):
    parser = cli.build_parser(command)
    assert command in commands_of(parser)
    with pytest.raises(SystemExit) as ended:
        parser.parse_args([command, "--help"])
    assert ended.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: triplea-gen {command}")


def test_an_unknown_command_is_refused_with_the_full_list(capsys):
    with pytest.raises(SystemExit) as ended:
        cli.run_command(["biuld", "x.yaml"])
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'biuld'" in err and "'server'" in err and "'preview'" in err


def test_help_loads_no_diagnostics_machinery():
    """`triplea-gen --help` (goal: 0.05 s) imports the command modules' parsers only: not the
    diagnostics module, whose dataclasses import alone pulls in inspect, ast and dis."""
    import subprocess
    import sys

    probe = ("import sys; from generator.cli.main import main\n"
             "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in ('generator.core.diagnostics', 'dataclasses', 'json') if m in sys.modules),"
             " file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                            cwd=cli.__file__.rsplit("/generator/", 1)[0])
    assert result.stdout.startswith("usage: triplea-gen")
    assert result.stderr.strip() == "[]"
