"""A warm process reads a base map's .properties files on every build: the same bytes are parsed
once, and every caller still gets a dictionary of its own."""
from __future__ import annotations

from generator.read import propfile


def test_the_same_bytes_are_parsed_once_and_each_caller_gets_a_copy(monkeypatch):
    parsed = []
    real = propfile._parse_properties
    monkeypatch.setattr(propfile, "_parse_properties", lambda data: parsed.append(data) or real(data))
    data = b"color.Germans=333333\nname\\u00e9=caf\\u00e9\n# comment\nplain=no escape\n"
    first = propfile.read_properties(data)
    first["color.Germans"] = "changed by a caller"
    second = propfile.read_properties(bytes(data))
    assert second == {"color.Germans": "333333", "name\u00e9": "caf\u00e9", "plain": "no escape"}
    assert parsed == [data]


def test_values_without_a_backslash_are_kept_as_they_are():
    assert propfile.read_properties("k=\u00ff raw \u00e9".encode("latin-1")) == {"k": "\u00ff raw \u00e9"}
    # a surrogate pair written as two escapes is one character, as in Java
    assert propfile.read_properties(b"k=\\ud83d\\ude00") == {"k": "\U0001F600"}
