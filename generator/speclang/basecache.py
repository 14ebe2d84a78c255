"""Imported base games, kept so that a mod's rebuild does not parse and import its base again.

Two layers: on disk in the user's cache folder, keyed by a hash of the XML's bytes, the path
it is shown as (positions carry it) and the package's code (`core.datacache.package_stamp`);
and in memory, keyed by the file's path and modification stamp, for processes that build many
times (`watch`, the build server). A model is stored pickled and handed out as a fresh copy each time, because a mod's
changes are made to the model it gets. For Global 1940 a copy takes about a third of the time
of parsing and importing the XML; a warm process makes the next copy while it waits for the next
edit (prepare_spare), so a rebuild takes one already made."""
from __future__ import annotations

import hashlib
import os
import pickle
from collections import OrderedDict
from pathlib import Path
from typing import Callable

from generator.core.datacache import cache_folder, package_stamp, write_quietly

KEPT_IN_MEMORY = 4
KEPT_ON_DISK = 16

_in_memory: OrderedDict[tuple, bytes] | None = None
# A copy of a kept base no build has had yet, made by prepare_spare while a warm process waits:
# (the memory key it is a copy of, the model). Handed out once.
_spare: tuple[tuple, object] | None = None


def keep_in_memory() -> None:
    """Called by processes that build many times."""
    global _in_memory
    if _in_memory is None:
        _in_memory = OrderedDict()
    from generator.read.mapfiles import keep_listings
    from generator.render import sections

    sections.keep_warm()  # and the rendered sections of the game XML
    keep_listings()  # and the listings of map folders, while they are unchanged


def load(path: Path, shown: str, read: Callable[[], bytes], import_game: Callable[[bytes], object]):
    """The game model of the base XML at path: from memory, from disk, or by import_game(bytes)."""
    memory_key = None
    memory = _in_memory  # the global read once: the same dict (or None) all through this call
    if memory is not None:
        info = path.stat()
        memory_key = (str(path.resolve()), shown, info.st_mtime_ns, info.st_size)
        spare = _take_spare(memory_key)  # (one of another base or stamp is dropped)
        if memory_key in memory:
            memory.move_to_end(memory_key)
            return spare if spare is not None else pickle.loads(memory[memory_key])
    data = read()
    folder = cache_folder("bases")  # None unless private: a pickle runs code when loaded
    digest = hashlib.sha256(b"\0".join([data, shown.encode("utf-8"), package_stamp().encode("utf-8")])).hexdigest()
    stored = folder / f"{digest[:40]}.pickle" if folder is not None else None
    blob = None
    if stored is not None:
        try:
            blob = stored.read_bytes()
            game = pickle.loads(blob)
            # recently used: kept when the folder is trimmed; safe-write: a time only, in a private folder
            os.utime(stored)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
            blob = None
    if blob is None:
        game = import_game(data)
        blob = pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)
        if stored is not None:
            _store(stored, blob)
    if memory is not None and memory_key is not None:
        memory[memory_key] = blob
        while len(memory) > KEPT_IN_MEMORY:
            memory.popitem(last=False)
    return game


def _take_spare(memory_key: tuple):
    global _spare
    spare, _spare = _spare, None  # taken or dropped: a spare is never handed out twice
    return spare[1] if spare is not None and spare[0] == memory_key else None


def prepare_spare() -> None:
    """Called by a warm process after a build has reported (watch, a build server's worker, the
    language server): the next copy of the base the last build used, unpickled now rather than
    while the modder waits for the next rebuild. One copy: a rebuild of another base unpickles its own."""
    global _spare
    memory = _in_memory
    if memory is None or not memory:
        return
    memory_key = next(reversed(memory))
    if _spare is None or _spare[0] != memory_key:
        _spare = (memory_key, pickle.loads(memory[memory_key]))


def _store(stored: Path, blob: bytes) -> None:
    if not write_quietly(stored, blob):
        return
    try:
        kept = sorted(stored.parent.glob("*.pickle"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in kept[KEPT_ON_DISK:]:
            old.unlink()  # safe-write: removes the name itself (a link is not followed), in a private folder
    except OSError:
        pass  # trimmed by the next build that can
