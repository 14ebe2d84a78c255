"""The one way triplea-gen reads XML. Game XMLs come from forums, so nothing in a file may
make a parser open a file or URL, expand an entity, or take unbounded time or memory:

- the encoding is decided first (byte order mark, then the XML declaration) and every
  check below runs on the decoded text, so a UTF-16 file cannot hide a declaration;
- the only DOCTYPE accepted names a bare file (`<!DOCTYPE game SYSTEM "game.dtd">`, also
  with the empty internal subset `[]` one published map has); entity declarations,
  internal subsets, URLs, paths and PUBLIC ids are refused;
- lxml never sees even that DOCTYPE: it is blanked out (same length, positions hold) and
  put back on the parsed tree, and a resolver answers any load request with nothing;
- input size, element count and nesting depth are bounded.

The engine harness hands Java only files that pass `parse_xml_bytes` completely."""
from __future__ import annotations

import codecs
import os
import re
import stat
from dataclasses import dataclass

from lxml import etree

from generator.core.diagnostics import Diagnostic, DiagnosticError, Position, display_path

MAX_INPUT_BYTES = 64 * 1024 * 1024  # Total World War is 2.6 MB; 64 MiB is far past any real game
# Elements cost memory twice (the parsed tree, then the model); Global 1940 balanced has 16,000.
MAX_ELEMENTS = 300_000
# Real games nest 5 levels deep (game, attachmentList, attachment, option); libxml2 stops at 256.
MAX_DEPTH = 32

_PARSER_OPTIONS = dict(
    resolve_entities=False,
    no_network=True,
    load_dtd=False,
    dtd_validation=False,
    attribute_defaults=False,
    huge_tree=False,
    remove_comments=False,
    remove_pis=True,
    collect_ids=False,
)

# Encodings read, as Python names them (codecs.lookup(...).name); both engines read them too.
_EIGHT_BIT_ENCODINGS = frozenset({"utf-8", "ascii", "iso8859-1", "cp1252"})
_UTF16_ENCODINGS = frozenset({"utf-16", "utf-16-le", "utf-16-be"})
_BYTE_ORDER_MARKS = (  # longest first: the UTF-32 LE mark starts like the UTF-16 LE one
    (b"\xff\xfe\x00\x00", None), (b"\x00\x00\xfe\xff", None),
    (b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"),
    (b"<\x00\x00\x00", None), (b"\x00\x00\x00<", None), (b"\x4c\x6f\xa7\x94", None),  # UTF-32, EBCDIC
    (b"<\x00", "utf-16-le"), (b"\x00<", "utf-16-be"),  # UTF-16 without a mark, as XML 1.0 F.1 detects it
)
_DECLARED_ENCODING = re.compile(r"""<\?xml\s[^>]*?encoding\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_DECLARED_ENCODING_BYTES = re.compile(_DECLARED_ENCODING.pattern.encode("ascii"))

_S = "[ \t\r\n]"  # XML's white space (\\s would also take Unicode spaces no XML parser skips)
_ACCEPTED_DOCTYPE = re.compile(
    rf"<!DOCTYPE{_S}+([^ \t\r\n\[\]>\"'/]+)(?:{_S}+SYSTEM{_S}+(?:\"([^\"]*)\"|'([^']*)'))?{_S}*(\[{_S}*\]{_S}*)?>")
# A DTD the engine reads from its own jar: a bare file name, no scheme, folder or query.
_BARE_FILE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
_DECLARATION = re.compile(r"<!(DOCTYPE|ENTITY)", re.IGNORECASE)
_INTERNAL_SUBSET = re.compile(r"<!DOCTYPE[^>\[]*\[", re.IGNORECASE)
_UNDEFINED_ENTITY = re.compile(r"Entity '([^']*)' not defined")
_ONLY_GAME_DTD = 'game XMLs only need <!DOCTYPE game SYSTEM "game.dtd">'
_SAVE_AS_UTF8 = "save the file as UTF-8, as every TripleA game is (also read: UTF-16, ISO-8859-1, windows-1252)"
_TOO_DEEP = etree.XPath("(" + "/".join(["*"] * MAX_DEPTH) + ")[1]")


@dataclass(frozen=True)
class _Doctype:
    start: int
    end: int
    system_id: str | None


def read_input(path: str | os.PathLike, limit: int = MAX_INPUT_BYTES) -> bytes:
    """Read a whole input file, refusing missing, unreadable, oversized and non-regular files (a
    FIFO named as input would block for ever: it is opened without waiting and refused)."""
    shown = display_path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise _fail("TG001", "file not found", shown, "check the path") from None
    except IsADirectoryError:
        raise _fail("TG001", "is a folder, not a file", shown, "name the file inside it") from None
    except OSError as err:
        raise _fail("TG001", f"cannot read file: {err.strerror}", shown, "check permissions") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise _fail("TG001", "is a folder, not a file", shown, "name the file inside it")
        if not stat.S_ISREG(info.st_mode):
            raise _fail("TG004", "not a regular file (a FIFO, device or socket); refused", shown,
                        "name a file; input is never read from a pipe or device")
        if info.st_size > limit:
            raise _fail("TG002", f"input is {info.st_size} bytes, more than the {limit} allowed", shown,
                        "this is not a TripleA game file, or it is damaged")
        try:
            data = handle.read(limit + 1)
        except OSError as err:
            raise _fail("TG001", f"cannot read file: {err.strerror}", shown, "check permissions") from None
    if len(data) > limit:
        raise _fail("TG002", f"input is more than the {limit} bytes allowed", shown,
                    "this is not a TripleA game file, or it is damaged")
    return data


def _fail(code: str, message: str, shown: str, hint: str, line: int = 0, col: int = 0) -> DiagnosticError:
    return DiagnosticError([Diagnostic(code, message, Position(shown, line, col), hint)])


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def _codec(name: str) -> str | None:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def decode_xml(data: bytes, shown: str) -> str:
    """The document as text, in the encoding its byte order mark or declaration names."""
    marked = next((codec for mark, codec in _BYTE_ORDER_MARKS if data.startswith(mark)), "")
    if marked is None:
        raise _fail("TG017", "the file is UTF-32 or EBCDIC text; refused", shown, _SAVE_AS_UTF8, 1, 1)
    if marked.startswith("utf-16"):
        text = _decode(data, marked, shown)
        name = _declared_name(_DECLARED_ENCODING.match(text.lstrip("\ufeff")))
        if name is not None and _codec(name) not in _UTF16_ENCODINGS:
            raise _fail("TG017", f"the file is UTF-16 text but declares encoding \"{name}\"", shown,
                        _SAVE_AS_UTF8, 1, 1)
        return text
    name = _declared_name(_DECLARED_ENCODING_BYTES.match(data, 3 if marked else 0))
    codec = "utf-8" if name is None else _codec(name)
    if marked == "utf-8" and codec != "utf-8":
        raise _fail("TG017", f"the file starts with a UTF-8 byte order mark but declares encoding \"{name}\"",
                    shown, "remove the mark or the encoding from the <?xml ...?> line", 1, 1)
    if codec not in _EIGHT_BIT_ENCODINGS:
        if codec in _UTF16_ENCODINGS:
            message = f"the file declares encoding \"{name}\" but is not UTF-16 text"
        else:
            message = f"encoding \"{name}\" is not one triplea-gen reads"
        raise _fail("TG017", message, shown, _SAVE_AS_UTF8, 1, 1)
    return _decode(data, codec, shown)


def _declared_name(match) -> str | None:
    if match is None:
        return None
    value = match.group(1) if match.group(1) is not None else match.group(2)
    return value[:100] if isinstance(value, str) else value[:100].decode("ascii", "replace")


def _decode(data: bytes, codec: str, shown: str) -> str:
    try:
        return data.decode(codec)
    except UnicodeDecodeError as err:
        line, col = _line_col(data[:err.start].decode(codec, "replace"), err.start)
        raise _fail("TG010", f"XML syntax error: the bytes here are not {codec} text", shown,
                    "is this file damaged or not XML? Save it as UTF-8", line, col) from None


def _prolog_end(text: str) -> int:
    """Where the document's prolog (declaration, comments, processing instructions) ends."""
    position = 1 if text.startswith("\ufeff") else 0
    while True:
        while position < len(text) and text[position] in " \t\r\n":
            position += 1
        if text.startswith("<?", position):
            closing = text.find("?>", position)
        elif text.startswith("<!--", position):
            closing = text.find("-->", position)
        else:
            return position
        if closing < 0:
            return position  # unterminated: lxml reports it
        position = closing + (2 if text[closing] == "?" else 3)


def _check_declarations(text: str, shown: str) -> _Doctype | None:
    """The document's DOCTYPE if it is the one kind accepted; refuses every other declaration."""
    start = _prolog_end(text)
    doctype = None
    match = _ACCEPTED_DOCTYPE.match(text, start)
    if match:
        system_id = match.group(2) if match.group(2) is not None else match.group(3)
        if system_id is not None and not _BARE_FILE_NAME.fullmatch(system_id):
            line, col = _line_col(text, start)
            raise _fail("TG018", f"DOCTYPE names \"{system_id[:200]}\", not a bare file name like game.dtd; refused",
                        shown, f"{_ONLY_GAME_DTD}; a URL or path would make a parser fetch it", line, col)
        doctype = _Doctype(start, match.end(), system_id)
    for found in _DECLARATION.finditer(text):
        if doctype and found.start() == doctype.start:
            continue
        line, col = _line_col(text, found.start())
        if found.group(1).upper() == "ENTITY" or _INTERNAL_SUBSET.match(text, found.start()):
            raise _fail("TG011", "DOCTYPE declares entities or an internal DTD subset; refused", shown,
                        f"{_ONLY_GAME_DTD}; entities can read local files or expand without bound",
                        line, col)
        if found.start() == start:
            raise _fail("TG018", "DOCTYPE with a PUBLIC id or a malformed external id; refused", shown,
                        f"{_ONLY_GAME_DTD}; a public id or URL would make a parser fetch it", line, col)
        raise _fail("TG018", "a second or misplaced DOCTYPE; refused", shown,
                    f"{_ONLY_GAME_DTD}, once, before the <game> element", line, col)
    return doctype


def is_bare_file_name(system_id: str) -> bool:
    """Whether a DOCTYPE's SYSTEM id is one the engine reads from its own jar (like game.dtd)."""
    return _BARE_FILE_NAME.fullmatch(system_id) is not None


def _blank(text: str, start: int, end: int) -> str:
    """text with [start, end) replaced by spaces, keeping line breaks so that positions hold."""
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


class _RefuseEverything(etree.Resolver):
    """Answers every request to load a DTD or entity with nothing, and remembers it."""

    def __init__(self):
        super().__init__()
        self.asked: list[str] = []

    def resolve(self, url, public_id, context):
        self.asked.append(str(url or public_id))
        return self.resolve_string("", context)


def parse_xml_bytes(data: bytes, shown: str, root_tag: str | None = "game") -> etree._ElementTree:
    """Parse untrusted XML bytes; every refusal is a located diagnostic."""
    if not data.strip():
        raise _fail("TG010", "file is empty", shown, "a game XML starts with <?xml ...?> and a <game> element")
    elements = data.count(b"<")
    if elements > MAX_ELEMENTS:
        raise _fail("TG002", f"input has about {elements} elements, more than the {MAX_ELEMENTS} allowed; refused",
                    shown, "a real game has tens of thousands; is this file generated or damaged?")
    text = decode_xml(data, shown)
    if not text.strip(" \t\r\n\ufeff"):
        raise _fail("TG010", "file is empty", shown, "a game XML starts with <?xml ...?> and a <game> element")
    doctype = _check_declarations(text, shown)
    if doctype is not None:
        text = _blank(text, doctype.start, doctype.end)
    resolver = _RefuseEverything()
    parser = etree.XMLParser(encoding="utf-8", **_PARSER_OPTIONS)
    parser.resolvers.add(resolver)
    try:
        tree = etree.ElementTree(etree.fromstring(text.encode("utf-8"), parser))
    except etree.XMLSyntaxError as err:
        raise _syntax_error(err, shown) from None
    if resolver.asked:  # cannot happen with the DOCTYPE blanked; a guard should libxml2 change
        raise _fail("TG018", f"the document asked to load {resolver.asked[0][:200]}; refused", shown, _ONLY_GAME_DTD)
    root = tree.getroot()
    for node in root.iter(etree.Entity):
        raise _fail("TG011", f"entity reference &{node.name}; refused", shown,
                    "replace the entity with its text", node.sourceline or 0, 1)
    too_deep = _TOO_DEEP(root)
    if too_deep:
        raise _fail("TG019", f"elements nested more than {MAX_DEPTH} deep; refused", shown,
                    "a game XML nests about 5 levels; is this file generated or damaged?",
                    too_deep[0].sourceline or 0, 1)
    if root_tag is not None and root.tag != root_tag:
        raise _fail("TG012", f"root element is <{root.tag}>, expected <{root_tag}>", shown,
                    "this is not a TripleA game XML", root.sourceline or 0, 1)
    if doctype is not None and doctype.system_id is not None:
        tree.docinfo.system_url = doctype.system_id  # the importer keeps it for the games it writes
    return tree


def _syntax_error(err: etree.XMLSyntaxError, shown: str) -> DiagnosticError:
    line, col = (err.position if err.position else (0, 0))
    # libxml2 appends its own ", line N, column M"; we print positions ourselves.
    message = re.sub(r", line \d+, column \d+$", "", err.msg or "not well-formed XML")
    undefined = _UNDEFINED_ENTITY.search(message)
    if undefined:
        return _fail("TG011", f"entity reference &{undefined.group(1)}; refused", shown,
                     "replace the entity with its text (only &amp; &lt; &gt; &quot; &apos; and &#...; are read)",
                     line, col)
    if message.startswith("Excessive depth"):
        return _fail("TG019", f"elements nested more than {MAX_DEPTH} deep; refused", shown,
                     "a game XML nests about 5 levels; is this file generated or damaged?", line, col)
    return _fail("TG010", f"XML syntax error: {message}", shown,
                 "fix the XML at this position (is the file truncated or not XML?)", line, col)


def parse_xml_file(path: str | os.PathLike, root_tag: str | None = "game") -> etree._ElementTree:
    return parse_xml_bytes(read_input(path), display_path(path), root_tag)
