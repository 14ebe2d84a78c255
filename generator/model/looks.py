"""How new players and unit types look in the map folder and what the client's text files say:
read from a spec's `assets:` and `texts:` sections (generator.speclang.assets), written into the map
folder (generator.write.modfolder)."""
from __future__ import annotations

from dataclasses import dataclass, field

from generator.core.diagnostics import Position

# The texts the politics and user-action panels read for a key (KEY.BUTTON, ...), both engines.
ACTION_TEXT_SUFFIXES = ("BUTTON", "DESCRIPTION", "NOTIFICATION_SUCCESS", "NOTIFICATION_FAILURE",
                        "OTHER_NOTIFICATION_SUCCESS", "OTHER_NOTIFICATION_FAILURE", "ACCEPT_QUESTION")


@dataclass
class Picture:
    """Where an image comes from: drawn, or derived from `source` (a player or unit) with a mark."""

    source: str | None = None
    mark: str | None = None
    drawn: bool = False
    pos: Position | None = None


@dataclass
class PlayerLook:
    color: str | None = None
    flag: Picture | None = None
    units: Picture | None = None
    pos: Position | None = None


@dataclass
class UnitLook:
    image: Picture | None = None
    pos: Position | None = None


@dataclass
class AssetSpec:
    players: dict[str, PlayerLook] = field(default_factory=dict)
    units: dict[str, UnitLook] = field(default_factory=dict)
    # kind (notifications/politics/actions/objectives) -> key -> {suffix or "": text}
    texts: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)
    text_positions: dict[tuple[str, str], Position] = field(default_factory=dict)
