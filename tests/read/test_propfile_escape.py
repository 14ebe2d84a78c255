"""property_line's escape: text that needs none is given back as it is (checked first: a map
folder merge escapes thousands of keys and values), and every text escapes as the loop does."""
from __future__ import annotations

import pytest

from generator.read import propfile


def _escaped_one_at_a_time(text: str, is_key: bool) -> str:
    """The escape character by character, as Java's Properties.store writes it (the reference)."""
    out = []
    for index, ch in enumerate(text):
        if ch == "\\":
            out.append("\\\\")
        elif ch in "\t\n\r\f":
            out.append({"\t": "\\t", "\n": "\\n", "\r": "\\r", "\f": "\\f"}[ch])
        elif ch in "=:#!" and (is_key or index == 0):
            out.append("\\" + ch)
        elif ch == " " and (is_key or index == 0):
            out.append("\\ ")
        elif ord(ch) < 32 or ord(ch) > 126:
            units = ch.encode("utf-16-be")
            out.append("".join(f"\\u{int.from_bytes(units[i:i + 2], 'big'):04x}" for i in range(0, len(units), 2)))
        else:
            out.append(ch)
    return "".join(out)


@pytest.mark.parametrize("is_key", [True, False])
def test_every_character_anywhere_escapes_as_one_at_a_time(is_key):
    for code in [*range(0, 400), 0xE9, 0x2603, 0x1F600]:
        ch = chr(code)
        for text in (ch, "a" + ch, ch + "a", ch + " b" + ch, "a b " + ch + ch, ""):
            assert propfile._escape(text, is_key) == _escaped_one_at_a_time(text, is_key), repr(text)


@pytest.mark.parametrize(("text", "is_key"), [("unit.Germans.infantry", True), ("Germans lost Berlin.", False)])
def test_plain_text_is_given_back_unchanged(text, is_key):
    assert propfile._escape(text, is_key) is text
