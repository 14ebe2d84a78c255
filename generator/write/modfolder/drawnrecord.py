"""The record of the images a build drew into its output folder: `<map>/.triplea-gen-drawn.sha256`,
one `<sha256>  <path in the map folder>` line each (the format `sha256sum -c` checks), sorted.

Why: a unit's image is derived from the base unit most like it, so a changed value can change what
it should look like. A later build draws an image again while the file still has the bytes recorded
here; one a modder changed or put there by hand differs from its record (or has none) and is kept."""
from __future__ import annotations

import hashlib
import re

DRAWN_RECORD = ".triplea-gen-drawn.sha256"
_LINE = re.compile(r"([0-9a-f]{64})  (\S(?:.*\S)?)")


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def parse_record(data: bytes | None) -> dict[str, str]:
    """path -> digest; a line of any other shape (an edited or foreign file) is skipped."""
    if not data:
        return {}
    found = {}
    for line in data.decode("utf-8", "replace").splitlines():
        match = _LINE.fullmatch(line)
        if match is not None:
            found[match.group(2)] = match.group(1)
    return found


def drawn_unchanged(there: bytes, recorded: str | None) -> bool:
    """Whether the file in the output folder is an image a build drew and nobody changed since."""
    return recorded is not None and digest(there) == recorded


def record_bytes(earlier: dict[str, str], drawn: dict[str, bytes]) -> bytes | None:
    """The record after this build drew `drawn` (path in the map folder -> bytes), from the earlier
    one's entries (parse_record), whose other paths stay (the files stay too: nothing is ever
    removed). None: nothing to record."""
    entries = {**earlier, **{path: digest(data) for path, data in drawn.items()}}
    if not entries:
        return None
    return "".join(f"{entries[path]}  {path}\n" for path in sorted(entries)).encode("utf-8")
