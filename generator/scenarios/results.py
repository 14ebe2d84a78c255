"""The results file across runs: `test --scenario X` merges its result into the file instead of
replacing it, and every scenario's result says what it ran on, so `report` can tell a result that
still holds from a stale one, scenario by scenario.

Each scenario's entry carries:
  spec_digest      the spec file it ran on (the whole file: any edit, a comment included, changes it)
  game_digest      the game XML it was built into
  scenario_digest  the scenario's own YAML entry
A result is current when the spec is unchanged, or when both the game and the scenario are (an edit
elsewhere in the spec, a comment or another scenario, does not make it stale). Entries written before
these fields carry the file's spec digest only, and are current while the spec is unchanged."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def scenario_digests(spec_path: Path) -> dict[str, str]:
    """Scenario id -> a digest of its YAML entry as read (positions and comments aside)."""
    from generator.read.yamlio import load_yaml_file

    data = load_yaml_file(spec_path)
    found = {}
    for entry in (data or {}).get("scenarios") or [] if isinstance(data, dict) else []:
        if isinstance(entry, dict) and "id" in entry:
            text = json.dumps(entry, sort_keys=True, default=str, ensure_ascii=False)
            found[str(entry["id"])] = digest(text.encode("utf-8"))
    return found


def stamped(entries: list[dict], spec_digest: str, game_digest: str, scenarios: dict[str, str]) -> list[dict]:
    return [dict(entry, spec_digest=spec_digest, game_digest=game_digest,
                 scenario_digest=_scenario_digest(scenarios, entry) or "") for entry in entries]


def _scenario_digest(scenarios: dict[str, str], entry: dict) -> str | None:
    """The digest of the scenario a results entry is of (None: no id, or no such scenario now);
    ids are keyed as text, as scenario_digests keys them."""
    return scenarios.get(str(entry["id"])) if entry.get("id") is not None else None


def merged(earlier: dict, entries: list[dict]) -> list[dict]:
    """The earlier file's results of the scenarios this run did not play, then this run's, each
    keeping what it ran on (an old entry without its own digest gets its file's)."""
    ran = {entry.get("id") for entry in entries}
    kept = [entry if "spec_digest" in entry else dict(entry, spec_digest=earlier.get("spec_digest"))
            for entry in earlier.get("scenarios", []) if isinstance(entry, dict) and entry.get("id") not in ran]
    return kept + entries


def mark_stale(document: dict, spec_path: Path, current_spec_digest: str) -> None:
    """Sets `stale` on every scenario entry (and on the document when any is); the game is built only
    when some entry ran on another version of the spec."""
    game: str | None = None  # worked out once, when first needed (with scenarios)
    scenarios: dict[str, str] = {}
    for entry in document.get("scenarios", []):
        if not isinstance(entry, dict):
            continue
        ran_on = entry.get("spec_digest", document.get("spec_digest"))
        if ran_on == current_spec_digest:
            entry["stale"] = False
            continue
        if not entry.get("game_digest"):
            entry["stale"] = True
            continue
        if game is None:
            game, scenarios = current_game_digest(spec_path), scenario_digests(spec_path)
        entry["stale"] = (entry["game_digest"] != game
                          or entry.get("scenario_digest") != _scenario_digest(scenarios, entry))
    document["stale"] = any(entry.get("stale") for entry in document.get("scenarios", []) if isinstance(entry, dict))


def current_game_digest(spec_path: Path) -> str:
    from generator.builder.compiler import compile_spec
    from generator.core.diagnostics import DiagnosticError

    try:
        return digest(compile_spec(spec_path).xml_bytes)
    except DiagnosticError:
        return ""  # a spec that no longer builds: nothing it ran on still holds
