"""Java .properties files as the TripleA clients read them (java.util.Properties: ISO-8859-1,
backslash escapes, continuation lines), merged by appending: an existing file keeps every byte,
only keys it lacks are added at its end."""
from __future__ import annotations

import re

_KEY_END = re.compile(r"(?<!\\)(?:\\\\)*[=:\s]")


def _logical_lines(text: str):
    """The file's logical lines: comments and blanks dropped, continuation lines joined."""
    pending = ""
    for raw in text.splitlines():
        line = raw.lstrip(" \t\f")
        if not pending and (not line or line[0] in "#!"):
            continue
        backslashes = len(line) - len(line.rstrip("\\"))
        if backslashes % 2 == 1:
            pending += line[:-1]
            continue
        yield pending + line
        pending = ""
    if pending:
        yield pending


def _unescape(text: str) -> str:
    """Java's escapes. Java strings are UTF-16, so a character beyond U+FFFF written as two \\u
    escapes (a surrogate pair, as Java itself writes it) is one character; a lone surrogate stays
    one, as in Java. Raw bytes are ISO-8859-1 characters: Java's Properties.load(InputStream), which
    both clients use, reads a raw UTF-8 emoji as four characters, and so does this."""
    if "\\" not in text:
        return text  # no escape: raw characters are ISO-8859-1, so no surrogate either (most values)
    unicode_escapes = "\\u" in text  # only a \\u escape can make a surrogate
    text = re.sub(r"\\u([0-9a-fA-F]{4})|\\(.)", lambda m: chr(int(m.group(1), 16)) if m.group(1) else
                  {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}.get(m.group(2), m.group(2)), text)
    if unicode_escapes and any("\ud800" <= ch <= "\udfff" for ch in text):
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return text


_READ: dict[bytes, dict[str, str]] = {}  # the files a warm process reads on every build (a base map's)
_READ_KEPT = 32


def read_properties(data: bytes) -> dict[str, str]:
    """Key -> value of a properties file (the last definition wins, as in Java). A file read before
    (the same bytes) is not parsed again; each caller gets its own copy."""
    known = _READ.get(data)
    if known is None:
        known = _parse_properties(data)
        if len(_READ) >= _READ_KEPT:
            _READ.pop(next(iter(_READ)))
        _READ[data] = known
    return dict(known)


def _parse_properties(data: bytes) -> dict[str, str]:
    values = {}
    for line in _logical_lines(data.decode("latin-1")):
        end = _KEY_END.search(line)
        if end is None:
            key, rest = line, ""
        else:
            key, rest = line[:end.end() - 1], line[end.end() - 1:]
        rest = rest.lstrip(" \t\f")
        if rest[:1] in ("=", ":"):
            rest = rest[1:].lstrip(" \t\f")
        values[_unescape(key)] = _unescape(rest)
    return values


# Text the loop below would give back unchanged, checked first (a merge escapes thousands): a key of
# printable ASCII without \\ = : # ! or a space; a value of printable ASCII without \\ whose first
# character is none of = : # ! or a space.
_PLAIN_KEY = re.compile(r"[\x22\x24-\x39\x3b\x3c\x3e-\x5b\x5d-\x7e]*\Z")
_PLAIN_VALUE = re.compile(r"[\x20-\x5b\x5d-\x7e]*\Z")


def _escape(text: str, is_key: bool) -> str:
    if _PLAIN_KEY.match(text) if is_key else (_PLAIN_VALUE.match(text) and (not text or text[0] not in "=:#! ")):
        return text
    out = []
    for index, ch in enumerate(text):
        if ch == "\\":
            out.append("\\\\")
        elif ch in "\t\n\r\f":
            out.append({"\t": "\\t", "\n": "\\n", "\r": "\\r", "\f": "\\f"}[ch])
        elif ch in "=:#!" and (is_key or index == 0):
            out.append("\\" + ch)
        elif ch == " " and (is_key or index == 0):
            out.append("\\ ")
        elif ord(ch) < 32 or ord(ch) > 126:
            units = ch.encode("utf-16-be")  # beyond U+FFFF: the surrogate pair, as Java escapes it
            out.append("".join(f"\\u{int.from_bytes(units[i:i + 2], 'big'):04x}" for i in range(0, len(units), 2)))
        else:
            out.append(ch)
    return "".join(out)


def property_line(key: str, value: str) -> str:
    return f"{_escape(key, True)}={_escape(value, False)}\n"


BLOCK_HEADING = "Added by triplea-gen for "


def _without_block(text: str, heading: str) -> str:
    """The file without the block a previous build of the same game appended (so a rebuild
    replaces its own entries and nothing else)."""
    marker = f"# {heading}\n"
    if text.startswith(marker):
        start = 0
    else:
        start = text.find("\n" + marker)
        if start < 0:
            return text
    following = text.find("\n# " + BLOCK_HEADING, start + 1)
    return text[:start] + (text[following:] if following >= 0 else "")


def _heading(owner: str) -> str:
    return BLOCK_HEADING + "".join(ch if 32 <= ord(ch) < 127 else "?" for ch in owner)


def properties_before(existing: bytes | None, owner: str) -> dict[str, str]:
    """The keys a file holds apart from those an earlier build of the owner added."""
    return read_properties(_without_block(existing.decode("latin-1"), _heading(owner)).encode("latin-1")) \
        if existing else {}


def merge_properties(existing: bytes | None, entries: list[tuple[str, str]], owner: str) -> bytes | None:
    """existing with the entries whose keys it lacks appended in a block headed by the owner
    (a game file name); a previous block of the same owner is replaced. None: nothing to write."""
    heading = _heading(owner)
    kept = _without_block(existing.decode("latin-1"), heading) if existing else ""
    known = read_properties(kept.encode("latin-1"))
    added = []
    for key, value in entries:
        if key not in known:
            known[key] = value
            added.append(property_line(key, value))
    if kept and not kept.endswith("\n"):
        kept += "\n"
    if added:
        kept += ("\n" if kept else "") + f"# {heading}\n" + "".join(added)
    result = kept.encode("latin-1")
    return None if existing is not None and result == existing else result
