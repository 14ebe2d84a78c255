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
