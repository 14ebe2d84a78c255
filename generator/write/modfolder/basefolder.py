"""The base map folder of a mod, found from its base game's path the way `base:` finds it
(generator.spec.basegame): <root>/map/games/<game>.xml or <root>/games/<game>.xml, where <root>
holds map.yml and the content folder holds map.properties, flags/, units/ and the text files."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from generator.read.propfile import read_properties


@dataclass(frozen=True)
class BaseFolder:
    root: Path
    content: Path

    @classmethod
    def of_game(cls, game_path: Path | None) -> "BaseFolder | None":
        if game_path is None or game_path.parent.name != "games":
            return None
        content = game_path.parent.parent
        root = content.parent if content.name == "map" and not (content / "map.yml").is_file() else content
        return cls(root, content)

    @property
    def has_map_subfolder(self) -> bool:
        return self.content != self.root

    def read(self, relpath: str) -> bytes | None:
        """A file of the content folder, or None; never one reached through a link out of the folder."""
        path = self.content.joinpath(*relpath.split("/"))
        try:
            if not path.resolve().is_relative_to(self.content.resolve()) or not path.is_file():
                return None
            return path.read_bytes()
        except OSError:
            return None

    def listing(self) -> bytes | None:
        path = self.root / "map.yml"
        return path.read_bytes() if path.is_file() else None

    def exists(self, relpath: str) -> bool:
        return self.content.joinpath(*relpath.split("/")).is_file()

    @cached_property
    def properties(self) -> dict[str, str]:
        data = self.read("map.properties")
        return read_properties(data) if data else {}

    def colour(self, player: str) -> str | None:
        value = self.properties.get(f"color.{player}", "").strip().lstrip("#")
        return value.upper() if len(value) == 6 and all(c in "0123456789abcdefABCDEF" for c in value) else None

    @cached_property
    def unit_players(self) -> list[str]:
        folder = self.content / "units"
        return sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []

    @cached_property
    def _unit_images(self) -> dict[str, list[str]]:
        return {player: sorted(p.name for p in (self.content / "units" / player).glob("*.png"))
                for player in self.unit_players}

    def unit_images(self, player: str) -> list[str]:
        """The file names in units/<player>/ (empty for a player the map has no folder for)."""
        return self._unit_images.get(player, [])
