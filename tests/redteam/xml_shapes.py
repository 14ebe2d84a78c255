"""Hostile XML shapes shared by the red-team tests: a small real game to hide them in, and the
re-encodings an attacker uses to slip a declaration past a byte-level check."""
from __future__ import annotations

from pathlib import Path

from textedit import replaced

GAME = Path(__file__).resolve().parent.parent / "fixtures" / "engine" / "two_player_trigger.xml"
GAME_DOCTYPE = '<!DOCTYPE game SYSTEM "game.dtd">'
INFO = '<info name="'


def game_text() -> str:
    text = GAME.read_text(encoding="utf-8")
    assert GAME_DOCTYPE in text and INFO in text and 'encoding="UTF-8"' in text
    return text


def with_doctype(doctype: str, name_prefix: str = "") -> str:
    """The small game with its DOCTYPE replaced and, optionally, text put before its name."""
    return replaced(replaced(game_text(), GAME_DOCTYPE, doctype), INFO, INFO + name_prefix, 1)


def encoded(text: str, encoding: str) -> bytes:
    """text in one of the encodings an XML file may come in, its declaration matching."""
    if encoding == "utf-8":
        return text.encode("utf-8")
    declared = {"utf-16": "UTF-16", "utf-16-le": "UTF-16", "utf-16-be": "UTF-16", "utf-8-sig": "UTF-8"}[encoding]
    return replaced(text, 'encoding="UTF-8"', f'encoding="{declared}"', 1).encode(encoding)
