"""game_name_in reads the name of the game a build would replace from the first 64 KiB and checks
the rest of the first MiB with a parser that reports no elements; its answers are those of one
event parser fed the whole first MiB (the way it was read before, kept here as the reference)."""
from __future__ import annotations

import pytest
from lxml import etree

from generator.builder import collisions
from generator.builder.collisions import game_name_in


def _reference(head: bytes):
    parser = etree.XMLPullParser(events=("start",), resolve_entities=False, no_network=True, load_dtd=False,
                                 huge_tree=False)
    try:
        parser.feed(head)
        for _, element in parser.read_events():
            if element.tag == "info":
                return True, element.get("name")
            if element.tag not in ("game",):
                break
    except etree.XMLSyntaxError:
        pass
    return False, None


BODY = b"".join(b'<territory name="T%d"/>\n' % n for n in range(8000))  # ~200 KB, past the first 64 KiB
GAME = b'<?xml version="1.0"?>\n<game>\n<info name="Big Game" version="1"/>\n<map>\n' + BODY + b"</map>\n</game>\n"
CASES = {
    "a game": GAME,
    "a small game": b'<game><info name="Small"/></game>',
    "not a game": b"<map><info name='x'/></map>",
    "info after the first child": b'<game><map/><info name="Late"/></game>',
    "broken after the first 64 KiB": GAME.replace(b'<territory name="T7000"/>', b'<territory name="T7000>'),
    "broken past the first MiB": GAME.replace(b"</map>", BODY * 5 + b"<oops</map>"),
    "cut off": GAME[:150_000],
    "info past the first 64 KiB": b"<game>" + b"<!-- " + b"x" * 70_000 + b" -->" + b'<info name="Far"/></game>',
    "broken before info": b"<game><<info name='x'/></game>",
    "no info at all": b"<game>" + BODY + b"</game>",
    "empty": b"",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_answers_as_one_event_parser_over_the_first_mib(case, tmp_path):
    path = tmp_path / "game.xml"
    path.write_bytes(CASES[case])
    assert game_name_in(path) == _reference(CASES[case][:collisions._HEAD_BYTES])


def test_a_big_game_is_not_fed_to_the_event_parser_whole(tmp_path, monkeypatch):
    path = tmp_path / "game.xml"
    path.write_bytes(GAME)
    fed = []
    real = collisions._info_name
    monkeypatch.setattr(collisions, "_info_name", lambda head: fed.append(len(head)) or real(head))
    assert game_name_in(path) == (True, "Big Game")
    assert fed == [64 * 1024]
