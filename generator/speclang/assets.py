"""The `assets:` and `texts:` sections of a spec: how new players and units look in the map folder
and what the client's text files say.

    assets:
      players:
        Vichy: {color: 4B6A88, flag: {from: French, mark: V}, units: {from: French}}
      units:
        marine: {image: {from: infantry, mark: M}}      # or image: drawn
    texts:
      notifications: {KEY: text}                        # notifications.properties
      politics: {KEY: text, KEY2: {BUTTON: ..., DESCRIPTION: ...}}   # politicstext.properties
      actions: {KEY: {BUTTON: ..., DESCRIPTION: ...}}   # actionstext.properties (user actions)
      objectives: {ATTACHMENT: text}                    # objectives.properties

Everything is optional: without it every new player gets a distinct colour and a drawn flag,
every new unit an image derived from the base map's most similar unit, and every text the text
of the rule that made the thing."""
from __future__ import annotations

import re

from generator.model import game as m
from generator.core.diagnostics import Collector, Position, closest
from generator.model.looks import ACTION_TEXT_SUFFIXES, AssetSpec, Picture, PlayerLook, UnitLook
from generator.speclang.fullgame import SpecReader
from generator.speclang.shapes import Raw

ASSET_KEYS = ("players", "units")
ASSET_PLAYER_KEYS = ("color", "flag", "units")
ASSET_UNIT_KEYS = ("image",)
PICTURE_KEYS = ("from", "mark")  # flag: / image: / a player's units:
DRAWN = "drawn"
TEXT_KEYS = ("notifications", "politics", "actions", "objectives")
_COLOUR = re.compile(r"\A#?[0-9A-Fa-f]{6}\Z")
_MARK = re.compile(r"\A[A-Za-z0-9]{1,3}\Z")

UNKNOWN_PLAYER = "TG450"
UNKNOWN_UNIT = "TG451"
BAD_COLOUR = "TG452"
BAD_PICTURE = "TG455"


def read_assets(data: Raw, source: str, collector: Collector) -> AssetSpec:
    """The two sections of a spec's top level (absent: an empty AssetSpec)."""
    spec = AssetSpec()
    if not isinstance(data, dict):
        return spec
    r = SpecReader(source, collector)
    if "assets" in data:
        section = r.mapping(data["assets"], "assets", data.position_of("assets"), ASSET_KEYS)
        if section is not None:
            _read_players(r, section, spec)
            _read_units(r, section, spec)
    if "texts" in data:
        section = r.mapping(data["texts"], "texts", data.position_of("texts"), TEXT_KEYS)
        if section is not None:
            for kind in TEXT_KEYS:
                if kind in section:
                    _read_texts(r, kind, section[kind], section.position_of(kind), spec)
    return spec


def _read_players(r: SpecReader, section, spec: AssetSpec) -> None:
    for name, body, pos in r.entries(section.get("players"), "assets players", section.position_of("players"),
                                     "name"):
        body = r.mapping(body, f"assets of player {name}", pos, ASSET_PLAYER_KEYS)
        if body is None or name is None:
            continue
        look = PlayerLook(pos=pos)
        if "color" in body:
            colour = r.text(body["color"], f"color of {name}", body.position_of("color"))
            if colour is not None and not _COLOUR.match(colour):
                r.error(BAD_COLOUR, f"color of {name} must be six hex digits RRGGBB, not '{colour}'",
                        body.position_of("color"), "write it as the map's map.properties does, e.g. color: 4B6A88 "
                        "(quote it when it is all digits)")
            elif colour is not None:
                look.color = colour.lstrip("#").upper()
        look.flag = _read_picture(r, body, "flag", f"flag of {name}")
        look.units = _read_picture(r, body, "units", f"unit images of {name}")
        spec.players[name] = look


def _read_units(r: SpecReader, section, spec: AssetSpec) -> None:
    for name, body, pos in r.entries(section.get("units"), "assets units", section.position_of("units"), "name"):
        body = r.mapping(body, f"assets of unit {name}", pos, ASSET_UNIT_KEYS)
        if body is None or name is None:
            continue
        spec.units[name] = UnitLook(_read_picture(r, body, "image", f"image of {name}"), pos)


def _read_picture(r: SpecReader, body, key: str, what: str) -> Picture | None:
    if key not in body:
        return None
    value: Raw = body[key]
    pos = body.position_of(key)
    if value == DRAWN:
        return Picture(drawn=True, pos=pos)
    if not isinstance(value, dict):
        r.error(BAD_PICTURE, f"{what} must be '{DRAWN}' or {{from: ..., mark: ...}}", pos,
                f"write {key}: {{from: NAME}} to derive it from the base map's image, or {key}: {DRAWN}")
        return None
    r.check_keys(value, PICTURE_KEYS, what)
    picture = Picture(r.text(value.get("from"), f"from of {what}", value.position_of("from")),
                      r.text(value.get("mark"), f"mark of {what}", value.position_of("mark")), pos=pos)
    if picture.mark is not None and not _MARK.match(picture.mark):
        r.error(BAD_PICTURE, f"the mark of {what} must be 1 to 3 letters or digits, not '{picture.mark}'",
                value.position_of("mark"), "e.g. mark: M (drawn as a small badge on the image)")
        picture.mark = None
    return picture


def _read_texts(r: SpecReader, kind: str, data, pos: Position, spec: AssetSpec) -> None:
    texts = spec.texts.setdefault(kind, {})
    for key, body, kpos in r.entries(data, f"texts {kind}", pos, "key"):
        if not key:
            continue  # no name: reported by entries
        spec.text_positions[(kind, key)] = kpos
        if isinstance(body, dict) and kind in ("politics", "actions"):
            r.check_keys(body, ACTION_TEXT_SUFFIXES, f"texts of {key}")
            texts[key] = {suffix: r.text(body[suffix], f"{suffix} of {key}", body.position_of(suffix)) or ""
                          for suffix in ACTION_TEXT_SUFFIXES if suffix in body}
        else:
            text = r.text(body, f"text of {key}", kpos)
            if text is not None:
                texts[key] = {"": text}


def check_asset_names(spec: AssetSpec, game: m.Game, source: str, collector: Collector) -> None:
    """Every player and unit the sections name exists in the built game."""
    players = [p.name for p in game.players]
    units = [u.name for u in game.units or []]
    for name, look in spec.players.items():
        if name not in players:
            collector.error(UNKNOWN_PLAYER, f"assets names player '{name}', which the game does not have",
                            look.pos or Position(source), closest(name, players) or "players: " + ", ".join(players))
        if look.units is not None and look.units.source is not None and look.units.source not in players:
            collector.error(UNKNOWN_PLAYER, f"the unit images of {name} come from player '{look.units.source}', "
                            "which the game does not have", look.units.pos or Position(source),
                            closest(look.units.source, players) or "name a player of the base map")
    for name, unit_look in spec.units.items():
        if name not in units:
            collector.error(UNKNOWN_UNIT, f"assets names unit type '{name}', which the game does not have",
                            unit_look.pos or Position(source), closest(name, units) or "unit types: " + ", ".join(units))
        image = unit_look.image
        if image is not None and image.source is not None and image.source not in units:
            collector.error(UNKNOWN_UNIT, f"the image of {name} comes from unit type '{image.source}', which the game "
                            "does not have", image.pos or Position(source),
                            closest(image.source, units) or "name a unit type of the base map")
