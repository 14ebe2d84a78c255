"""Large specs kept parsed between runs: a full-game spec of Global 1940 takes libyaml and the
located constructor about 0.18 s to read, its kept form about 0.02 s to load.

Kept in the private cache folder `specs` (a pickle runs code when loaded: only from a folder of
ours that nobody else may write to), keyed by the text, the name it is shown by (every position
carries it), whether aliases were allowed and the package's code, once the same text was
parsed twice (a spec being edited is not written out at every version); loaded only through an
unpickler that makes nothing but plain data and the located mappings and lists, and only when
the file names the key it is found under, so a damaged or foreign file is parsed again, never
trusted. Only what parsed without error is kept."""
from __future__ import annotations

import hashlib
import io
import pickle
from typing import Any, Callable

from generator.core.datacache import package_stamp, read_cached, store_cached

# Below this a parse takes a few milliseconds, less than hashing, reading and writing a cache
# file would save; a one-number edit of a small mod would only fill the folder.
MIN_CACHED_CHARS = 64 * 1024
KEPT_ON_DISK = 8
_SUFFIX = ".pickle"
_SEEN = ".seen"  # an empty file: this text was parsed once


class KeptMark:
    """What a position needs of a parser's mark (its line and column), kept in place of libyaml's
    mark objects, which pickle three times slower."""

    __slots__ = ("line", "column")

    def __init__(self, line: int, column: int):
        self.line, self.column = line, column

    def __reduce__(self):
        return KeptMark, (self.line, self.column)


def load_parsed(text: str, shown: str, aliases: bool, parse: Callable[[], Any], made_of: tuple[type, ...],
                reader: str) -> Any:
    """parse(), or what it gave for the same text, name and reader in an earlier run; made_of: the
    classes besides plain data that parse() makes (and so the only ones a kept file may make);
    reader: what else the parse depends on (the YAML library and its version)."""
    if len(text) < MIN_CACHED_CHARS:
        return parse()
    key = hashlib.sha256("\0".join([package_stamp(), reader, shown, str(aliases), text]).encode(
        "utf-8", "surrogatepass")).hexdigest()[:40]
    blob = read_cached("specs", key, _SUFFIX)
    if blob is not None:
        try:
            kept = _Unpickler(io.BytesIO(blob), made_of).load()
        except Exception:  # noqa: BLE001 - whatever a damaged or foreign file raises: parsed again
            kept = None
        # the file names its own key: one copied or renamed from another entry is not this text's
        if isinstance(kept, tuple) and len(kept) == 2 and kept[0] == key:
            return kept[1]
    data = parse()
    # Kept from the second parse of the same text on: writing the kept form costs a third of a
    # parse, which a spec being edited (each version read once) would pay at every build.
    if read_cached("specs", key, _SEEN) is None:
        store_cached("specs", key, _SEEN, b"", KEPT_ON_DISK * 4)
        return data
    buffer = io.BytesIO()
    try:
        _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump((key, data))
    except (pickle.PicklingError, TypeError, RecursionError):
        return data  # not kept: parsed again next time
    store_cached("specs", key, _SUFFIX, buffer.getvalue(), KEPT_ON_DISK)
    return data


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj):
        if type(obj).__name__ == "Mark" and hasattr(obj, "line") and hasattr(obj, "column"):
            return KeptMark, (obj.line, obj.column)
        return NotImplemented


class _Unpickler(pickle.Unpickler):
    """Makes plain data, the given classes and KeptMark, nothing else (no function is called, no
    other class made, whatever the file says)."""

    def __init__(self, file, made_of: tuple[type, ...]):
        super().__init__(file)
        self.allowed = {(cls.__module__, cls.__qualname__): cls for cls in (*made_of, KeptMark)}

    def find_class(self, module: str, name: str):
        if (module, name) in self.allowed:
            return self.allowed[(module, name)]
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a parsed spec")
