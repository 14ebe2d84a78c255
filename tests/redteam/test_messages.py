"""What reaches the terminal: names and values from a spec or game file are shown with control
characters escaped (a key could otherwise recolour, clear or rewrite the terminal, or forge
another diagnostic line), a huge value is shortened, and `diff --format markdown` shows names as
text, never as markup."""
from __future__ import annotations

import re

from hypothesis import given, seed, settings
from hypothesis import strategies as st

from conftest import PLAIN_GAME
from fuzzseed import FUZZ_SEED
from textedit import replaced
from generator.cli.main import main

EXAMPLE = PLAIN_GAME  # line numbers and texts of Frontier 1939 without its map
EXAMPLE_TEXT = EXAMPLE.read_text(encoding="utf-8")
UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _build(tmp_path, capsys, text: str) -> tuple[int, str]:
    spec = tmp_path / "spec.yaml"
    spec.write_text(text, encoding="utf-8")
    status = main(["build", str(spec), "-o", str(tmp_path / "out")])
    return status, capsys.readouterr().err


def test_escape_sequences_in_a_key_are_shown_escaped(tmp_path, capsys):
    hostile = "\\e]0;pwned\\a\\e[2J\\e[31mloader\\u202e"  # YAML escapes: ESC, BEL, RLO
    assert "\nloader:" in EXAMPLE_TEXT
    status, err = _build(tmp_path, capsys, EXAMPLE_TEXT.replace("\nloader:", f'\n"{hostile}":', 1))
    assert status == 2
    assert "error[TG030]" in err
    assert not UNPRINTABLE.search(err), repr(err)
    assert "\\x1b[2J" in err and "\\u202e" in err


def test_a_line_break_in_a_name_cannot_forge_a_diagnostic_line(tmp_path, capsys):
    forged = "spec.yaml:1:1: error[TG000]: all good"
    status, err = _build(tmp_path, capsys, replaced(EXAMPLE_TEXT, "\nloader:", f'\n"x\\n{forged}":', 1))
    assert status == 2
    assert not any(line.startswith(forged) for line in err.splitlines()), err


def test_a_huge_value_is_shortened_in_the_message(tmp_path, capsys):
    value = "x" * 5_000_000
    status, err = _build(tmp_path, capsys, replaced(EXAMPLE_TEXT, "\nloader:", f"\nengine: {value}\nloader:", 1))
    assert status == 2 and "error[TG033]" in err
    assert len(err) < 5000, len(err)
    assert "characters left out" in err


def test_diff_markdown_shows_names_as_text(tmp_path, capsys):
    old = tmp_path / "old.yaml"
    old.write_text(EXAMPLE_TEXT, encoding="utf-8")
    hostile = "[click](http://evil.example) <img src=x onerror=alert(1)> *bold* `code` | x"
    mod = tmp_path / "mod.yaml"
    mod.write_text(f"mod: {{name: M, version: '2', base: {old.name}}}\n"
                   f"add:\n  units: ['{hostile}']\n  attachments:\n"
                   f"    - {{name: unitAttachment, attachTo: '{hostile}', class: UnitAttachment, type: unitType, "
                   "options: {movement: 1, attack: 1, defense: 1}}\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["diff", str(old), str(mod), "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    (line,) = [line for line in out.splitlines() if "new unit type" in line]
    assert "<img" not in line and "](" not in line.replace("\\](", "") and "\\*bold\\*" in line
    assert "\\[click\\]" in line and "\\`code\\`" in line and "\\|" in line


def test_diff_text_escapes_control_characters(tmp_path, capsys):
    old = tmp_path / "old.yaml"
    old.write_text(EXAMPLE_TEXT, encoding="utf-8")
    mod = tmp_path / "mod.yaml"
    mod.write_text(f"mod: {{name: M, version: '2', base: {old.name}}}\n"
                   'add:\n  units: ["\\x9b2J\\u202etank"]\n  attachments:\n'  # 8-bit CSI, RLO: XML holds them
                   '    - {name: unitAttachment, attachTo: "\\x9b2J\\u202etank", class: UnitAttachment, '
                   "type: unitType, options: {movement: 1, attack: 1, defense: 1}}\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["diff", str(old), str(mod)]) == 0
    out = capsys.readouterr().out
    assert "new unit type \\x9b2J\\u202etank" in out
    assert not UNPRINTABLE.search(out), repr(out)


def test_the_forum_post_shows_a_spec_s_texts_and_never_runs_their_markup():
    from types import SimpleNamespace

    from generator.builder.package import forum_post

    long_text = "a rule that explains itself at length " * 40  # over 1,000 characters: never cut in a post
    rules = [SimpleNamespace(id="R1", text="<img src=x onerror=alert(1)> [link](http://x) \x1b[31m", status="enforced"),
             SimpleNamespace(id="R2", text=long_text, status="notes")]
    markdown, bbcode = forum_post("Mod *bold*", "1.0", "summary", rules, ["unit `x` changed"])
    assert "<img" not in markdown and "&lt;img" in markdown
    assert "\\[link\\](http://x)" in markdown and "\x1b" not in markdown and "\\x1b" in markdown
    assert "# Mod \\*bold\\*" in markdown and "unit \\`x\\` changed" in markdown
    assert long_text.strip() in markdown.replace("\\", "") and long_text.strip() in bbcode
    assert "\x1b" not in bbcode


# --- BBCode: a spec's texts never open or close a tag in the forum post ------------------------------------

_HOSTILE_BBCODE = ["[url=http://evil.invalid]click[/url]", "[img]http://evil.invalid/x.png[/img]", "[/list]",
                   "[size=500]BIG", "[/b][/size]", "[*]fake item", "[quote]", "[ url]", "[\u2060b]", "a[", "]"]
# A tag opens with '[' followed by its name, '/' or '*'; '[' before anything else opens nothing.
_TAG_START = re.compile("\\[(?!\u2060)")


def _forum_bbcode(name: str, rule_id: str, text: str, change: str) -> str:
    from types import SimpleNamespace

    from generator.builder.package import forum_post

    rules = [SimpleNamespace(id=rule_id, text=text, status="enforced")]
    return forum_post(name, "1.0", "summary", rules, [change])[1]


def test_no_spec_text_opens_or_closes_a_bbcode_tag():
    plain = _forum_bbcode("Mod", "R1", "text", "change")
    for hostile in _HOSTILE_BBCODE:
        post = _forum_bbcode(f"Mod {hostile}", hostile, f"rule {hostile}", f"unit {hostile} changed")
        assert len(_TAG_START.findall(post)) == len(_TAG_START.findall(plain)), post
        assert "[url=" not in post and "[img]" not in post


@given(st.text(max_size=40), st.text(max_size=40), st.text(max_size=80), st.text(max_size=40))
@settings(max_examples=300, deadline=None)
@seed(FUZZ_SEED)
def test_random_spec_texts_open_no_bbcode_tag_and_read_as_written(name, rule_id, text, change):
    from generator.builder.package import bbcode_text
    from generator.core.diagnostics import escaped

    plain = _forum_bbcode("Mod", "R1", "text", "change")
    post = _forum_bbcode(name, rule_id, text, change)
    assert len(_TAG_START.findall(post)) == len(_TAG_START.findall(plain)), post
    for value in (name, rule_id, text, change):  # shown as written (control characters escaped, one line)
        assert bbcode_text(value).replace("[\u2060", "[") == escaped(" ".join(value.split()))


def test_a_scenario_s_report_shows_hostile_ids_and_evidence_escaped():
    from types import SimpleNamespace

    from generator.cli.test import format_result

    expectation = SimpleNamespace(kind="message", position=SimpleNamespace(line=12))
    outcome = SimpleNamespace(passed=False, expectation=expectation,
                              evidence="no message containing '\u202e%n\x1b[2J'")
    run = SimpleNamespace(passed=False, seconds=1.0, stopped_by="until step", error="\x1b]0;title\x07",
                          script_notes=["Reds could not move \x9b2J"], outcomes=[outcome])
    scenario = SimpleNamespace(id="x\x1b[31m", rules=["R1"], control_also_without=[])
    shown = format_result(SimpleNamespace(scenario=scenario, run=run, control=None, differences=None))
    assert not UNPRINTABLE.search(shown.replace("\n", "")), repr(shown)
    assert "no message containing '\\u202e%n\\x1b[2J'" in shown and "FAIL x\\x1b[31m (R1)" in shown
