"""One check of a spec as the editor holds it: the diagnostics `validate` prints (the same function,
`generator.cli.validate.spec_findings`, on the unsaved text) and the names the editor offers.

When the spec has errors there is no built game to take names from; the game is then read once more
without its rules (the commonest place of errors while typing), and when even that fails the names
of the last good check are kept by the caller."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from generator.core.diagnostics import Diagnostic, DiagnosticError

_RULE_ID = re.compile(r"^\s*-\s+id:\s*['\"]?([^'\"#\n]+?)['\"]?\s*(?:#.*)?$")
_MACROS = re.compile(r"^\s+macros:\s*['\"]?([^'\"#\n]+?)['\"]?\s*$", re.M)
_SPEC_TOP = re.compile(r"^(mod|info|rules|map|players|units):", re.M)


@dataclass
class Names:
    """The names of the game a spec writes or changes (for a mod: its base with the mod applied)."""

    territories: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    resources: list[str] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    relationship_types: list[str] = field(default_factory=list)
    attachments: list[str] = field(default_factory=list)

    def of_kind(self, kind: str) -> list[str]:
        """Names for a macro parameter kind (generator.rules.params.PARAM_TYPES' first field)."""
        return {"territory": self.territories, "player": self.players, "unit type": self.units,
                "resource": self.resources, "step": self.steps, "relationship type": self.relationship_types,
                "attachment": self.attachments}.get(kind, [])


@dataclass
class Analysis:
    diagnostics: list[Diagnostic]
    note: str | None = None  # the base game's own warnings, as `validate` says it
    names: Names | None = None  # None: no game could be read from this text
    base_path: Path | None = None
    engine: str = "current"


def looks_like_spec(text: str) -> bool:
    """A YAML file the language server checks: a full game or a mod, not any YAML the editor opens."""
    return bool(_SPEC_TOP.search(text))


def analyse(path: Path, text: str) -> Analysis:
    """What `validate PATH` would print if the file held `text`, and the names of its game."""
    from generator.cli.validate import spec_findings

    try:
        engine, diagnostics, _, note, compiled = spec_findings(str(path), text=text)
    except DiagnosticError as err:
        names, base_path = _names_without_rules(path, text)
        return Analysis(err.diagnostics, None, names, base_path)
    return Analysis(diagnostics, note, names_of(compiled.game), compiled.spec.base_path, engine)


def _names_without_rules(path: Path, text: str):
    from generator.builder.pipeline import load_spec

    try:
        loaded = load_spec(path, edit_rules=lambda rules: [], check_assets=False, text=text)
    except DiagnosticError:
        return None, None
    except Exception:  # noqa: BLE001 - names are a convenience; the diagnostics above are what counts
        return None, None
    return names_of(loaded.game), loaded.base_path


def names_of(game) -> Names:
    return Names(
        territories=[t.name for t in game.territories],
        players=[p.name for p in game.players],
        units=[u.name for u in game.units or ()],
        resources=[r.name for r in game.resources or ()],
        steps=[s.name for s in game.steps or ()],
        relationship_types=[r.name for r in game.relationship_types or ()],
        attachments=sorted({a.name for a in game.attachments or ()}),
    )


def rule_ids(text: str) -> dict[str, int]:
    """Each rule's and scenario's id and its 0-based line, as the text has them now."""
    found: dict[str, int] = {}
    for number, line in enumerate(text.split("\n")):
        match = _RULE_ID.match(line)
        if match:
            found.setdefault(match.group(1).strip(), number)
    return found


def macro_dirs(path: Path, text: str) -> list[Path]:
    """A mod's own macro folder (`mod: macros: DIR`), as the build finds it."""
    match = _MACROS.search(text)
    return [path.resolve().parent / match.group(1)] if match else []
