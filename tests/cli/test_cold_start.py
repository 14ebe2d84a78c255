"""What a new process of a one-shot command does to start quickly (issue 30, cold start)."""
from __future__ import annotations

import gc
import sys

import pytest

from generator.cli import main as cli


@pytest.fixture
def collector_seen(monkeypatch) -> list[bool]:
    """Whether the cyclic collector was on when the command ran; it is on again afterwards."""
    seen: list[bool] = []
    monkeypatch.setattr(cli, "run_command", lambda argv: seen.append(gc.isenabled()) or 0)
    monkeypatch.setenv("TRIPLEA_GEN_NO_SERVER", "1")
    yield seen
    gc.enable()


@pytest.mark.parametrize("command", sorted(cli.ONE_SHOT_COMMANDS))
def test_a_one_shot_command_runs_without_the_cyclic_collector(command, collector_seen, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["triplea-gen", command, "x"])
    assert cli.main() == 0
    assert collector_seen == [False]


@pytest.mark.parametrize("command", ["watch", "server", "lsp", "balance", "test"])
def test_a_long_lived_command_keeps_collecting(command, collector_seen, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["triplea-gen", command, "x"])
    assert cli.main() == 0
    assert collector_seen == [True]


def test_a_command_run_in_a_process_that_lives_on_leaves_the_collector_on(collector_seen):
    """main(argv) from a test, run_command from the build server: their process goes on after it."""
    assert cli.main(["build", "x.yaml"]) == 0
    assert collector_seen == [True]


def test_validate_of_a_game_xml_alone_loads_no_yaml_reader(tmp_path):
    """A game XML without a map folder beside it has no map.yml to read: PyYAML (a tenth of
    `validate`'s start) stays unloaded."""
    import subprocess

    from conftest import PLAIN_GAME, REPO

    assert cli.main(["build", str(PLAIN_GAME), "-o", str(tmp_path / "built")]) == 0
    game = next((tmp_path / "built").rglob("*.xml"))
    alone = tmp_path / "alone.xml"
    alone.write_bytes(game.read_bytes())
    probe = ("import sys; from generator.cli.main import main\n"
             f"status = main(['validate', {str(alone)!r}])\n"
             "print(status, 'yaml' in sys.modules, file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO,
                            env={**__import__("os").environ, "TRIPLEA_GEN_NO_SERVER": "1"})
    assert result.stderr.strip().splitlines()[-1] == "0 False", result.stderr
