"""YAML 1.1 reads different key texts as one key (yes/on/true, 1/0x1, 10/1_0, keys merged in by
'<<:'): a spec with two of them in one mapping is refused as a duplicate (TG021), never silently
cut to one. The size bound counts every line break YAML knows, not only LF."""
from __future__ import annotations

import time

import pytest

from generator.core.diagnostics import DiagnosticError
from generator.read.yamlio import MAX_SPEC_ITEMS, load_yaml_text


def _refusal(text: str):
    with pytest.raises(DiagnosticError) as err:
        load_yaml_text(text, "spec.yaml")
    (diagnostic,) = err.value.diagnostics
    return diagnostic


@pytest.mark.parametrize("first, second", [("yes", "on"), ("yes", "true"), ("off", "no"), ("1", "0x1"),
                                           ("10", "1_0"), ("8", "010"), ("1", "1.0"), ("true", "1"),
                                           ("~", "null"), ("1", "+1")])
def test_keys_yaml_reads_as_equal_are_duplicates(first, second):
    diagnostic = _refusal(f"players:\n  {first}: {{optional: true}}\n  {second}: {{optional: false}}\n")
    assert diagnostic.code == "TG021"
    assert (diagnostic.position.line, diagnostic.position.col) == (3, 3)
    assert f"'{second}'" in diagnostic.message and f"'{first}'" in diagnostic.message
    assert "line 2" in diagnostic.message


def test_a_key_two_merged_mappings_bring_is_a_duplicate():
    diagnostic = _refusal("a: &a {attack: 1}\nb: &b {attack: 2}\nunit: {<<: [*a, *b], cost: 3}\n")
    assert diagnostic.code == "TG021" and "'attack'" in diagnostic.message
    assert (diagnostic.position.line, diagnostic.position.col) == (3, 8)


def test_merged_keys_that_yaml_reads_as_equal_are_duplicates():
    diagnostic = _refusal("a: &a {yes: 1}\nb: &b {on: 2}\nunit: {<<: [*a, *b]}\n")
    assert diagnostic.code == "TG021"


def test_a_key_written_next_to_a_merge_overrides_it():
    """YAML's purpose of '<<:' (the repository's own specs use it)."""
    data = load_yaml_text("a: &a {attack: 1, cost: 2}\nunit: {<<: *a, attack: 3}\n", "spec.yaml")
    assert data["unit"] == {"attack": 3, "cost": 2}
    assert data["unit"].position_of("attack").line == 2


def test_quoted_keys_stay_distinct():
    data = load_yaml_text("'yes': 1\n'on': 2\n'0x1': 3\n'1': 4\n", "spec.yaml")
    assert data == {"yes": 1, "on": 2, "0x1": 3, "1": 4}


@pytest.mark.parametrize("line_break", ["\r", "\x85", "\u2028", "\u2029"])
def test_every_yaml_line_break_counts_against_the_size_bound(line_break):
    text = line_break.join(f"k{i}: 1" for i in range(MAX_SPEC_ITEMS + 10))
    started = time.perf_counter()
    diagnostic = _refusal(text)
    assert diagnostic.code == "TG002"
    assert time.perf_counter() - started < 5


def test_windows_line_breaks_count_once():
    text = "# a comment\r\n" * (MAX_SPEC_ITEMS * 2 // 3) + "a: 1\r\n"  # counted twice, over the bound
    assert load_yaml_text(text, "spec.yaml") == {"a": 1}
