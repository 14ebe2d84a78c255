"""PyYAML's syntax errors, passed through as TG020, read as plain sentences: a tab in the
indentation is named as such, and no message is pasted together from the parser's phrases
("in for the next token", "in expected a single document")."""
from __future__ import annotations

import pytest

from generator.core.diagnostics import DiagnosticError
from generator.read.yamlio import load_yaml_text


def _error(text: str):
    with pytest.raises(DiagnosticError) as caught:
        load_yaml_text(text, "spec.yaml")
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.code == "TG020"
    return diagnostic


@pytest.mark.parametrize("text, line, column", [
    ("mod:\n\tname: X\n", 2, 1),  # a mapping indented by a tab
    ("rules:\n  - id: R1\n\tuse: x\n", 3, 1),  # a tab below spaces
    ("rules:\n-\tid: R1\n", 2, 2),  # a tab after the '-' of an item
    ("\ta: 1\n", 1, 1),
])
def test_a_tab_in_the_indentation_is_named(text, line, column):
    diagnostic = _error(text)
    assert diagnostic.message == f"YAML syntax error: line {line} starts with a tab; YAML indents with spaces only"
    assert (diagnostic.position.line, diagnostic.position.col) == (line, column)
    assert diagnostic.hint == "replace the tab with spaces (set the editor to insert spaces for Tab)"


GARBLED = ("in for the", "in expected", "(in ", "while scanning", "while parsing")


@pytest.mark.parametrize("text, says", [
    ("info: [unclosed\n", "the [...] list that starts at line 1, column 7 is not closed"),
    ("a: {b: 1\nc: 2\n", "the {...} mapping that starts at line 1, column 4 is not closed"),
    ("a: b: c\n", "a ': ' inside a value"),
    ("a:\n  b: 1\n c: 2\n", "a line that does not fit the mapping that starts at line 1, column 1"),
    ("a:\n  - 1\n  b: 2\n", "not a '- ' item at its indentation"),
    ("a: \"abc\nb: 1\n", "the file ends inside the quoted text that starts at line 1, column 4"),
    ("a: *x\n", "an alias (*name) with no anchor (&name) before it"),
    ("a: %x\n", "a value cannot start with '%': YAML reserves it"),
    ("a: `x\n", "a value cannot start with '`': YAML reserves it"),
    ("a: 1\n---\nb: 2\n", "a second YAML document (after '---'); a spec is one document"),
])
def test_pyyaml_messages_are_plain_sentences(text, says):
    message = _error(text).message
    assert says in message
    assert not any(phrase in message for phrase in GARBLED), message
