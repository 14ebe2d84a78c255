"""The base map folder of a mod, found from its base game's path the way `base:` finds it
(generator.speclang.basegame): <root>/map/games/<game>.xml or <root>/games/<game>.xml, where <root>
holds map.yml and the content folder holds map.properties, flags/, units/ and the text files."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from generator.core.diagnostics import display_path
from generator.read.mapfiles import FolderListings, list_map_folder, map_file_exists, read_map_file
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
        root = content.parent if content.name == "map" and not map_file_exists(content, "map.yml") else content
        return cls(root, content)

    @property
    def has_map_subfolder(self) -> bool:
        return self.content != self.root

    @property
    def _below_root(self) -> str:
        """The content folder as a path below the root: every read walks down from the root, so a
        link at map/ is refused like any other link in the folder."""
        return "map/" if self.has_map_subfolder else ""

    def read(self, relpath: str) -> bytes | None:
        """A file of the content folder, or None; through the map folder reader (no link followed,
        regular files only, bounded: a refusal is a located error)."""
        if relpath not in self._read:  # a mod's new flags and images start from the same few files, many times
            self._read[relpath] = read_map_file(self.root, self._below_root + relpath)
        return self._read[relpath]

    @cached_property
    def _read(self) -> dict[str, bytes | None]:
        """What read() found, by path: the base map folder does not change while a build reads it."""
        return {}

    def listing(self) -> bytes | None:
        return read_map_file(self.root, "map.yml")

    def shown_listing(self) -> str:
        return display_path(self.root / "map.yml")

    def exists(self, relpath: str) -> bool:
        return self._files.exists(self.root, self._below_root + relpath)

    @cached_property
    def _files(self) -> FolderListings:
        """A mod's images are looked for in a few folders, a file at a time: each folder listed once."""
        return FolderListings()

    @cached_property
    def properties(self) -> dict[str, str]:
        data = self.read("map.properties")
        return read_properties(data) if data else {}

    def colour(self, player: str) -> str | None:
        value = self.properties.get(f"color.{player}", "").strip().lstrip("#")
        return value.upper() if len(value) == 6 and all(c in "0123456789abcdefABCDEF" for c in value) else None

    @cached_property
    def unit_players(self) -> list[str]:
        return list_map_folder(self.root, self._below_root + "units")[0]

    @cached_property
    def _unit_images(self) -> dict[str, list[str]]:
        return {player: [name for name in list_map_folder(self.root, f"{self._below_root}units/{player}")[1]
                         if name.endswith(".png")] for player in self.unit_players}

    def unit_images(self, player: str) -> list[str]:
        """The file names in units/<player>/ (empty for a player the map has no folder for)."""
        return self._unit_images.get(player, [])
