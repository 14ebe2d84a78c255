"""What each TripleA desktop client reads from a map folder: files, keys, fallbacks and
what a player sees when they are missing, per engine. The facts live in client.yaml
next to this module; this module only loads them."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from generator.catalog.shape import load_checked
from generator.catalog import ENGINES

SEVERITIES = ("error", "warning", "none")
ENGINE_ASSETS = "engine-assets:"  # marks a candidate searched in the engine's own assets folder
_FILE = Path(__file__).with_name("client.yaml")


@dataclass(frozen=True)
class ClientRule:
    """One engine's behaviour for one entry."""
    severity: str
    consequence: str
    source: str
    candidates: tuple[str, ...] = ()
    bundled: frozenset[str] = frozenset()  # engine-assets paths every install has

    def paths(self, **names: str) -> list[tuple[bool, str]]:
        """The candidate paths with the names filled in, each as (in_engine_assets, path)."""
        filled = []
        for candidate in self.candidates:
            in_assets = candidate.startswith(ENGINE_ASSETS)
            path = candidate[len(ENGINE_ASSETS):] if in_assets else candidate
            filled.append((in_assets, path.format(**names)))
        return filled

    def describe(self, **names: str) -> str:
        """The consequence with the names filled in ({player}, {key}, ...)."""
        return _fill(self.consequence, names)


@dataclass(frozen=True)
class ClientEntry:
    id: str
    what: str
    needed_for: str
    key_suffixes: tuple[str, ...]
    rules: dict

    def rule(self, engine: str) -> ClientRule:
        return self.rules[engine]

    def file(self, **names: str) -> str:
        return _fill(self.what, names)


def _fill(text: str, names: dict) -> str:
    # str.format would trip over the other braces of a consequence; replace only known names.
    for name, value in names.items():
        text = text.replace("{" + name + "}", str(value))
    return text


@functools.lru_cache(maxsize=1)
def load_client_catalog() -> dict[str, ClientEntry]:
    data = load_checked(_FILE)
    entries = {}
    for entry_id, raw in data["entries"].items():
        rules = {}
        for engine in ENGINES:
            spec = raw["engines"][engine]
            if spec["severity"] not in SEVERITIES:
                raise ValueError(f"client.yaml: {entry_id}/{engine}: unknown severity {spec['severity']!r}")
            rules[engine] = ClientRule(spec["severity"], " ".join(str(spec["consequence"]).split()),
                                       " ".join(str(spec["source"]).split()), tuple(spec.get("candidates", ())),
                                       frozenset(spec.get("bundled", ())))
        entries[entry_id] = ClientEntry(entry_id, str(raw["what"]), " ".join(str(raw["needed_for"]).split()),
                                        tuple(raw.get("key_suffixes", ())), rules)
    return entries


def client_entry(entry_id: str) -> ClientEntry:
    return load_client_catalog()[entry_id]
