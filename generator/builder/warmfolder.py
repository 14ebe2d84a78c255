"""The map-folder stage of a warm build (issue 30): the additions beside the game XML (colours,
flags, unit images, texts, map.yml) and the check of the folder the client will see, reused while
everything they read is what it was.

What they read, and how each is keyed:

- the game: its model (units, attachments, players, technology, info) and its rendered tree (names,
  the elements findings point at, their YAML positions). Keyed by the warm render's sections
  (generator.render.sections.last_render): a section kept from the last render is the same object,
  so its model fields, positions included, are unchanged; a section rendered again is a change.
  The production section is compared by its text without its costs' quantities, and its positions:
  nothing of the map folder reads a quantity (game_needs and resource_needs read frontiers, the
  rules' results and the resources costs name), so a price edit reuses the stage. Then the frame,
  the game's position, the spec's assets: and texts:, its rules' records, the engine, the paths.
- the folders (the base map, the output folder, the engine's assets): every read goes through
  generator.read.mapfiles, which records the answers (tracing); a kept result is reused only while
  each of those reads, asked again, answers the same (folder listings by their stamps, files by
  their bytes).

A game with extras (its tree is not the render's) or a render that did not complete is never
keyed: the stage runs as in a cold build."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from generator.read.mapfiles import Trace, still_answered, tracing
from generator.render.sections import SameSection

if TYPE_CHECKING:
    from generator.builder.pipeline import CompiledGame

KEPT = 16  # per stage and spec and output folder: a build server serves a few at a time
# a cost's quantity in the production section's text: `quantity="..."` inside a <cost .../> element
# (an attribute value never holds a quote: the renderer escapes it)
_COST_QUANTITY = re.compile(r'(<cost\b[^>\n]*?\squantity=")[^"]*(")')

_T = TypeVar("_T")
_kept: dict[tuple, tuple[tuple, Trace, Any]] = {}  # (stage, spec, outdir) -> (key, trace, result)
last_reused: dict[str, bool] = {}  # stage -> whether the last build reused it (for tests and benchmarks)


def game_key(compiled: CompiledGame) -> tuple | None:
    """What the map-folder stage reads of the compiled game; None: not known well enough."""
    if compiled.rendered is None:
        return None
    frame, sections = compiled.rendered
    parts: list[Any] = [frame]
    for name, section, start in sections:
        if name == "production":
            parts.append((start, _COST_QUANTITY.sub(r"\1\2", section.text), section.positions, section.breaks))
        else:
            parts.append((start, SameSection(section)))
    spec = compiled.spec
    return (tuple(parts), compiled.game.pos, spec.assets, tuple(spec.rules), spec.engine,
            str(spec.base_path), compiled.spec_path, compiled.game_file, os.getcwd())


def reused(stage: str, compiled: CompiledGame, outdir: str | Path | None, inputs: tuple,
           run: Callable[[], _T], copy: Callable[[_T], _T]) -> _T:
    """run()'s result, or the kept one when the game, `inputs` and every folder read are as they were.
    `copy`: a result the caller may change is handed out as a copy."""
    game = game_key(compiled)
    owner = (stage, str(Path(compiled.spec_path).resolve()), str(outdir))
    key = (game, inputs) if game is not None else None
    kept = _kept.get(owner)
    if key is not None and kept is not None and kept[0] == key and still_answered(kept[1]):
        last_reused[stage] = True
        return copy(kept[2])
    last_reused[stage] = False
    _kept.pop(owner, None)
    with tracing() as trace:
        result = run()
    if key is not None:
        _kept[owner] = (key, trace, copy(result))
        while len(_kept) > KEPT:
            _kept.pop(next(iter(_kept)))
    return result
