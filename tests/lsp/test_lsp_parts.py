"""The language server's parts that need no client: the cursor context read from unfinished YAML,
what the editor is told (keys, macros, options, codes), the diagnostics (validate's own) and the
message when the lsp extra is missing."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from generator.lsp import knowledge
from generator.lsp.analysis import analyse, looks_like_spec, rule_ids
from generator.lsp.cursor import context_at, word_at
from tests.conftest import REPO

TYPED = """\
rules:
  - id: X-R01
    use: switch
    with:
      player: Ru
      when: [after:ger
      territories:
        - Ura
    st
"""


@pytest.mark.parametrize("line, column, key, prefix, in_list", [
    (4, 16, "player", "Ru", False),
    (5, 22, "when", "after:ger", True),
    (7, 13, "territories", "Ura", True),
])
def test_the_cursor_context_is_read_from_yaml_being_typed(line, column, key, prefix, in_list):
    context = context_at(TYPED, line, column)
    assert (context.key, context.prefix, context.in_list, context.macro) == (key, prefix, in_list, "switch")
    assert context.path == ["rules", "with"] + (["territories"] if key == "territories" else [])


def test_a_key_position_inside_a_rule_and_a_flow_list():
    context = context_at(TYPED, 8, 6)
    assert context.at_key and context.path == ["rules"] and context.prefix == "st"
    text = "rules:\n  - id: A\n    use: territory_value\n    with: {territories: [Urals, United K"
    context = context_at(text, 3, len(text.split("\n")[3]))
    assert (context.key, context.prefix, context.in_list) == ("territories", "United K", True)
    assert context.macro == "territory_value"


def test_a_name_with_spaces_is_one_word():
    line = "    with: {territories: [110 Sea Zone, Urals]}"
    assert word_at(line, 0, 30) == ("110 Sea Zone", 25, 37)


def test_keys_macros_options_and_codes_have_their_docs():
    assert [key for key, _, _ in knowledge.section_keys(["mod"], True)] == ["name", "version", "base", "engine",
                                                                             "macros"]
    assert "Germans" not in [key for key, _, _ in knowledge.section_keys(["players"], False)]
    assert [key for key, _, _ in knowledge.section_keys(["players", "Germans"], False)][:2] == ["name", "optional"]
    macro = knowledge.macros()["territory_value"]
    assert knowledge.macro_signature(macro).startswith("territory_value(territories: territories, production: int")
    assert "`territories` (territories, required)" in knowledge.macro_hover(macro)
    assert knowledge.option_hover("attack").splitlines()[:3] == ["**option `attack`** of UnitAttachment", "",
                                                                 "value: `int`"]
    assert knowledge.code_hover("TG061").startswith("**TG061** (error): unknown macro")
    assert ("attack", "int") in knowledge.option_names("UnitAttachment", "1.9")


def test_rule_ids_and_what_counts_as_a_spec():
    assert rule_ids(TYPED) == {"X-R01": 1}
    assert looks_like_spec(TYPED) and not looks_like_spec("jobs:\n  build: {}\n")


@pytest.mark.parametrize("example", ["frontier_1939.yaml", "hex_skirmish.yaml"])
def test_the_diagnostics_are_those_validate_prints(example, tmp_path, monkeypatch):
    """The same function as the command: the JSON of `validate` and the analysis of the text agree."""
    spec = REPO / "rules_yaml" / example
    text = spec.read_text(encoding="utf-8").replace("\nrules:\n", "\nrules:\n  - {id: X, text: x, use: nothing}\n", 1)
    copy = tmp_path / example
    copy.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    printed = subprocess.run([sys.executable, "-m", "generator", "validate", example, "--format", "json"],
                             capture_output=True, text=True, env={"PYTHONPATH": str(REPO), "TRIPLEA_GEN_NO_SERVER": "1",
                                                                  "PATH": "/usr/bin:/bin"})
    analysed = analyse(Path(example), text)
    seen = [(d.position.line, d.position.col, d.severity, d.code, d.message) for d in analysed.diagnostics]
    if printed.returncode == 2:  # unusable: the command prints them as text on stderr
        assert printed.stderr.strip() == "\n".join(d.format() for d in analysed.diagnostics)
        assert any(code == "TG061" for _, _, _, code, _ in seen)
    else:
        report = json.loads(printed.stdout)
        assert seen == [(d["line"], d["col"], d["severity"], d["code"], d["message"]) for d in report["diagnostics"]]


def test_without_pygls_the_command_says_what_to_install():
    code = "import sys; sys.modules['pygls'] = None; from generator.cli.main import run_command; " \
           "sys.exit(run_command(['lsp']))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "triplea-gen lsp: error[TG620]: the language server needs pygls, which is not installed",
        "  hint: pip install 'triplea-gen[lsp]'"]
