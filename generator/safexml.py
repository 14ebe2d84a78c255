"""The one way triplea-gen reads XML: no external entities, no DTD or network
fetches, no entity expansion, bounded size. Game XMLs come from forums."""
from __future__ import annotations

import os
import re

from lxml import etree

from .diagnostics import Diagnostic, DiagnosticError, Position, display_path

MAX_INPUT_BYTES = 64 * 1024 * 1024  # Total World War is 2.6 MB; 64 MiB is far past any real game
# Elements cost memory twice (the parsed tree, then the model); Global 1940 balanced has 16,000.
MAX_ELEMENTS = 300_000

_PARSER_OPTIONS = dict(
    resolve_entities=False,
    no_network=True,
    load_dtd=False,
    dtd_validation=False,
    huge_tree=False,
    remove_comments=False,
    remove_pis=True,
    collect_ids=False,
)
# A DOCTYPE with an internal subset is the only way to declare entities; real
# games only ever use the bare `<!DOCTYPE game SYSTEM "game.dtd">`.
_INTERNAL_SUBSET = re.compile(rb"<!DOCTYPE[^>\[]*\[", re.IGNORECASE)
_ENTITY_DECL = re.compile(rb"<!ENTITY", re.IGNORECASE)


def read_input(path: str | os.PathLike, limit: int = MAX_INPUT_BYTES) -> bytes:
    """Read a whole input file, refusing missing, unreadable and oversized files."""
    shown = display_path(path)
    try:
        size = os.stat(path).st_size
        if size > limit:
            raise _fail("TG002", f"input is {size} bytes, more than the {limit} allowed", shown,
                        "this is not a TripleA game file, or it is damaged")
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise _fail("TG001", "file not found", shown, "check the path") from None
    except IsADirectoryError:
        raise _fail("TG001", "is a folder, not a file", shown, "name the file inside it") from None
    except OSError as err:
        raise _fail("TG001", f"cannot read file: {err.strerror}", shown, "check permissions") from None
    if len(data) > limit:
        raise _fail("TG002", f"input is more than the {limit} bytes allowed", shown,
                    "this is not a TripleA game file, or it is damaged")
    return data


def _fail(code: str, message: str, shown: str, hint: str, line: int = 0, col: int = 0) -> DiagnosticError:
    return DiagnosticError([Diagnostic(code, message, Position(shown, line, col), hint)])


def _line_col(data: bytes, offset: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, offset) + 1
    col = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return line, col


def parse_xml_bytes(data: bytes, shown: str, root_tag: str | None = "game") -> etree._ElementTree:
    """Parse untrusted XML bytes; every refusal is a located diagnostic."""
    if not data.strip():
        raise _fail("TG010", "file is empty", shown, "a game XML starts with <?xml ...?> and a <game> element")
    elements = data.count(b"<")
    if elements > MAX_ELEMENTS:
        raise _fail("TG002", f"input has about {elements} elements, more than the {MAX_ELEMENTS} allowed; refused",
                    shown, "a real game has tens of thousands; is this file generated or damaged?")
    match = _INTERNAL_SUBSET.search(data) or _ENTITY_DECL.search(data)
    if match:
        line, col = _line_col(data, match.start())
        raise _fail("TG011", "DOCTYPE declares entities or an internal DTD subset; refused", shown,
                    'game XMLs only need <!DOCTYPE game SYSTEM "game.dtd">; entities can read local '
                    "files or expand without bound", line, col)
    parser = etree.XMLParser(**_PARSER_OPTIONS)
    try:
        tree = etree.ElementTree(etree.fromstring(data, parser))
    except etree.XMLSyntaxError as err:
        line, col = (err.position if err.position else (0, 0))
        message = err.msg or "not well-formed XML"
        # libxml2 appends its own ", line N, column M"; we print positions ourselves.
        message = re.sub(r", line \d+, column \d+$", "", message)
        raise _fail("TG010", f"XML syntax error: {message}", shown,
                    "fix the XML at this position (is the file truncated or not XML?)", line, col) from None
    root = tree.getroot()
    for node in root.iter(etree.Entity):
        raise _fail("TG011", f"entity reference &{node.name}; refused", shown,
                    "replace the entity with its text", node.sourceline or 0, 1)
    if root_tag is not None and root.tag != root_tag:
        raise _fail("TG012", f"root element is <{root.tag}>, expected <{root_tag}>", shown,
                    "this is not a TripleA game XML", root.sourceline or 0, 1)
    return tree


def parse_xml_file(path: str | os.PathLike, root_tag: str | None = "game") -> etree._ElementTree:
    return parse_xml_bytes(read_input(path), display_path(path), root_tag)
