"""A mod answers for what it changes and adds, not for its base game's own warnings.

An untouched Global 1940 has 18 warnings of its own (unused conditions, properties no engine
reads); every mod of it would print them and fail `validate --strict`. A warning of a mod's game
is the base's own when validating the base game alone, for the same engine, gives it too: same
code, at the same place of the base file, same message (line numbers in the message aside: they
count lines of the game as built). A warning the mod causes at a base element (a condition it
left unused) is the mod's. The base is validated once per process and engine (watch and the
build server rebuild often), and an XML base's warnings are kept between runs too (a new process
would otherwise validate all of Global 1940 to build a mod of it): in the private cache folder,
keyed by the XML's bytes, the name it is shown by, the engine and the package's code."""
from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.diagnostics import Diagnostic, display_path

if TYPE_CHECKING:
    from generator.builder.pipeline import CompiledGame

_LINE = re.compile(r"\bline [0-9]+")


def split_base_findings(compiled: CompiledGame, diagnostics: list[Diagnostic],
                        engine: str) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """(the mod's own diagnostics, the base game's own warnings) of a built spec."""
    base = compiled.spec.base_path
    if base is None:
        return diagnostics, []
    known = _base_warnings(str(base), *_stamp(base), engine)
    own: list[Diagnostic] = []
    inherited: list[Diagnostic] = []
    for diagnostic in diagnostics:
        (inherited if _key(diagnostic) in known else own).append(diagnostic)
    return own, inherited


def base_note(compiled: CompiledGame, inherited: list[Diagnostic]) -> str:
    """The one line that stands for the base game's own warnings."""
    if compiled.spec.base_path is None:
        raise ValueError("a spec without a base game has no base warnings to note")
    base = display_path(compiled.spec.base_path)
    return (f"note: {len(inherited)} warning(s) come from the base game {base} itself and are not counted "
            f"against the mod; 'triplea-gen validate {base}' lists them")


def _key(diagnostic: Diagnostic) -> tuple:
    where = diagnostic.position
    return diagnostic.code, diagnostic.severity, where.file, where.line, _LINE.sub("line N", diagnostic.message)


def _stamp(path: Path) -> tuple[int, int]:
    info = os.stat(path)
    return info.st_mtime_ns, info.st_size


@lru_cache(maxsize=16)
def _base_warnings(path: str, _mtime: int, _size: int, engine: str) -> frozenset:
    """The keys of the base game's own warnings (validated alone: its errors would stop the mod anyway)."""
    from generator.check.validate import validate_tree

    if path.endswith((".yaml", ".yml")):  # a base that is a spec itself: built as `validate` builds it
        from generator.builder.compiler import compile_spec

        base = compile_spec(path)
        found = base.warnings + validate_tree(base.tree, engine=engine, source=base.spec_path,
                                              position_of=base.position_of)
        return frozenset(_key(d) for d in found if d.severity == "warning")
    return _xml_base_warnings(path, engine)


KEPT_ON_DISK = 16
_VALUE_TYPES = (str, int, type(None))


def _xml_base_warnings(path: str, engine: str) -> frozenset:
    import hashlib
    import marshal

    from generator.check.validate import validate_tree
    from generator.core.datacache import package_stamp, read_cached, store_cached
    from generator.read.safexml import parse_xml_bytes, read_input

    data = read_input(path)
    shown = display_path(path)
    from lxml import etree

    libraries = f"lxml {etree.LXML_VERSION} libxml2 {etree.LIBXML_VERSION}"  # the parse and the schema check
    key = hashlib.sha256(b"\0".join([package_stamp().encode("utf-8"), libraries.encode("utf-8"),
                                     shown.encode("utf-8"), engine.encode("utf-8"), data])).hexdigest()[:40]
    kept = _readable_keys(read_cached("findings", key, ".marshal"), key)
    if kept is not None:
        return kept
    found = validate_tree(parse_xml_bytes(data, shown), engine=engine, source=shown, game_file=Path(path).name)
    keys = frozenset(_key(d) for d in found if d.severity == "warning")
    store_cached("findings", key, ".marshal", marshal.dumps((key, sorted(keys, key=repr))), KEPT_ON_DISK)
    return keys


def _readable_keys(blob: bytes | None, key: str) -> frozenset | None:
    """The warning keys a cache file holds; None unless it names the key it is found under and
    holds exactly a list of such keys (a damaged or foreign file is worked out again, never trusted)."""
    import marshal

    if blob is None:
        return None
    try:
        kept = marshal.loads(blob)
    except (EOFError, ValueError, TypeError):
        return None
    if not isinstance(kept, tuple) or len(kept) != 2 or kept[0] != key:
        return None
    keys = kept[1]
    if not isinstance(keys, list) or not all(
            isinstance(k, tuple) and len(k) == 5 and all(isinstance(v, _VALUE_TYPES) for v in k) for k in keys):
        return None
    return frozenset(keys)
