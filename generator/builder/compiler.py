"""The one entry to compiling a spec: a warm process (watch, the build server, the language server)
rebuilds only what an edit feeds (`incremental`), any other does the whole build (`pipeline`). Kept apart
from both so that neither imports the other's caller."""
from __future__ import annotations

import os

from generator.builder.pipeline import CompiledGame, compile_cold


def compile_spec(spec_path: str | os.PathLike, text: str | None = None) -> CompiledGame:
    from generator.render import sections

    if sections.is_warm():
        from generator.builder.incremental import compile_warm

        return compile_warm(spec_path, text)
    return compile_cold(spec_path, text)


def forget_warm_state() -> None:
    """Back to a new process's state: nothing kept from earlier builds (the base games in memory, the
    rendered sections, map-folder listings, the incremental builder's specs and findings). For tests
    that stand for a new process after others ran in the same interpreter."""
    from generator.builder import collisions, incremental, warmfolder
    from generator.read import mapfiles
    from generator.render import sections
    from generator.rules import rendermemo
    from generator.speclang import basecache

    basecache._in_memory, basecache._spare = None, None
    rendermemo._kept.clear()
    sections._warm, sections._owner, sections._last = None, None, None
    mapfiles._kept = None
    incremental._kept.clear()
    incremental._findings.clear()
    incremental._memos.clear()
    collisions._written.clear()
    warmfolder._kept.clear()
