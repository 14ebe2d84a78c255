"""Fuzzing: random, mutated and hostile specs, mods and game XMLs, and odd output folders. The tool
either succeeds or fails with located diagnostics (exit 1: validation errors, exit 2: unusable
input); it never crashes (exit 3), writes nothing when it fails, and leaves the previous output
as it was. A few thousand examples run in CI, through the command line's entry in this process.

The examples are random in every run: Hypothesis starts from the run's fuzz seed (tests/fuzzseed.py:
new each run, shown in the pytest header; TRIPLEA_GEN_FUZZ_SEED=N replays a run). A failure also
prints the falsifying example and the blob to replay it with @reproduce_failure; Hypothesis keeps
it in its example database and tries it first in the next run."""
from __future__ import annotations

import contextlib
import io
import os
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from canonical import canonical_bytes
from conftest import PLAIN_GAME, REPO
from folders import snapshot
from fuzzseed import FUZZ_SEED
from textedit import replaced
from generator.cli.main import main

EXAMPLE = REPO / "rules_yaml" / "frontier_1939.yaml"
EXAMPLE_TEXT = EXAMPLE.read_text(encoding="utf-8")
SETTINGS = settings(deadline=None, suppress_health_check=list(HealthCheck), print_blob=True)

ERROR_LINE = re.compile(r"^(?P<where>\S.*?): error\[TG\d{3}\]: ", re.M)
LOCATED = re.compile(r"^\S.*?:\d+:\d+: error\[TG\d{3}\]: ", re.M)
PREVIOUS = {"keep.txt": b"previous output", "frontier_1939/map/games/fuzzed.xml": b"<game>previous build</game>",
            "frontier_1939/map.yml": b"previous listing"}

_YAML_PIECES = st.sampled_from([":", "- ", "{", "}", "[", "]", "'", '"', " ", "\t", "\n", "&a ", "*a", "!!", "#",
                                "%", "@", "<<: ", "? ", "|", ">", "~", "null", "true", "0x", "1e9", "\\", "\x00",
                                "é", "&", "<", "Germans", "infantry", "options", "attachments", "-1", "..", "/",
                                "\r", "\x85", "\u2028", "\x1b[31m", "!!omap ", "yes: ", "on: ", "0x1: "])
_XML_PIECES = st.sampled_from(["<", ">", "/>", "</", '"', "'", "=", "&", "&amp;", "&#0;", "<!--", "-->",
                               "<![CDATA[", "]]>", "<!DOCTYPE game [<!ENTITY x 'y'>]>", " ", "\n", "\x00", "é",
                               "<attachment>", "<option/>", "name", "value", "count", "territory", "game"])


def _mutations(pieces):
    operation = st.tuples(st.sampled_from(["insert", "delete", "replace", "duplicate"]),
                          st.floats(0, 1), st.integers(1, 40), st.lists(pieces, max_size=4).map("".join))
    return st.lists(operation, min_size=1, max_size=6)


def _mutate(text: str, operations) -> str:
    for kind, where, length, piece in operations:
        at = int(where * len(text))
        if kind == "insert":
            text = text[:at] + piece + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + length:]
        elif kind == "replace":
            text = text[:at] + piece + text[at + len(piece):]
        else:
            text = text[:at] + text[at:at + length] + text[at:]
    return text


def _run(argv: list[str]) -> tuple[int, str]:
    """The command line in this process: exit status and what it printed on standard error."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(argv)
    return status, err.getvalue()


def _check_failure(status: int, err: str, shown: str, located: bool = True) -> None:
    assert status in (1, 2), f"exit {status}:\n{err[-3000:]}\nfor:\n{shown}"
    assert ERROR_LINE.search(err), f"no TG error in:\n{err[-3000:]}\nfor:\n{shown}"
    if located:
        assert LOCATED.search(err), f"no file:line:col error in:\n{err[-3000:]}\nfor:\n{shown}"


def _fill(folder: Path, files: dict[str, bytes]) -> None:
    for name, content in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(content)


def _check_build(spec_bytes: bytes, beside: dict[str, bytes] | None = None, name: str = "fuzzed.yaml") -> None:
    """Build the bytes as a spec (with `beside` written next to it: a mod's bases), into a folder
    holding a previous build and a file of someone else's."""
    with tempfile.TemporaryDirectory() as temp:
        temp = Path(temp)
        _fill(temp, beside or {})
        spec, out = temp / name, temp / "out"
        _fill(out, PREVIOUS)
        spec.write_bytes(spec_bytes)
        status, err = _run(["build", str(spec), "-o", str(out)])
        shown = repr(spec_bytes[:2000])
        files = snapshot(out)
        if status == 0:
            assert files.pop("keep.txt") == PREVIOUS["keep.txt"]
            xmls = [content for path, content in files.items() if path.endswith(".xml")
                    and content != PREVIOUS["frontier_1939/map/games/fuzzed.xml"]]
            assert len(xmls) == 1 and any(path.endswith("/map.yml") for path in files), shown
            canonical_bytes(xmls[0])  # the built XML is well-formed
        else:
            _check_failure(status, err, shown)
            assert files == PREVIOUS, f"output changed by a failed build of:\n{shown}"
        assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []


@seed(FUZZ_SEED)
@settings(SETTINGS, max_examples=800)
@given(_mutations(_YAML_PIECES))
def test_mutated_specs_never_crash(operations):
    _check_build(_mutate(EXAMPLE_TEXT, operations).encode("utf-8", "surrogatepass"))


# --- hostile YAML shapes: tags, anchors and merges, huge numbers, control characters, other line
# breaks, keys YAML reads as equal; each edit aimed at a real place in a working spec ---------------

_TAGS = ["!!omap ", "!!set ", "!!pairs ", "!!binary ", "!!timestamp ", "!!python/object/apply:os.system ",
         "!foo ", "!<tag:yaml.org,2002:omap> ", "!!str ", "!!int ", "!!float ", "!!bool ", "!!null ", "!!map ",
         "!!seq "]
_NUMBERS = st.one_of(st.integers(1, 6000).map(lambda n: "9" * n), st.integers(1, 300).map(lambda n: "0x" + "f" * n),
                     st.integers(2, 400).map(lambda n: ":".join(["59"] * n)),
                     st.sampled_from(["1e99999", "-1e400", ".inf", "-.inf", ".nan", "0o777", "0777", "0b101",
                                      "1_000", "-0", "+12", "1.5", "2020-01-01", "2001-12-14t21:59:43.10-05:00"]))
_CONTROL = st.sampled_from(["\x1b", "\x07", "\x85", "\u2028", "\u2029", "\r", "\x00", "\ufeff", "\u202e",
                            "\x9b", "\x7f", "\t", '"\\e[2J"', '"\\x9b31m"', '"\\u202e"', '"\\N"'])
_BREAKS = st.sampled_from(["\r", "\r\n", "\x85", "\u2028", "\u2029"])
_EQUAL_KEYS = st.sampled_from([("yes", "on"), ("true", "True"), ("no", "off"), ("1", "0x1"), ("10", "1_0"),
                               ("8", "010"), ("1", "1.0"), ("true", "1"), ("~", "null"), ("Germans", "Germans")])
_EDIT = st.one_of(
    st.tuples(st.just("tag"), st.sampled_from(_TAGS), st.floats(0, 1)),
    st.tuples(st.just("number"), _NUMBERS, st.floats(0, 1)),
    st.tuples(st.just("control"), _CONTROL, st.floats(0, 1)),
    st.tuples(st.just("breaks"), _BREAKS, st.just(0.0)),
    st.tuples(st.just("equal keys"), _EQUAL_KEYS, st.floats(0, 1)),
    st.tuples(st.just("merge"), st.sampled_from(["once", "twice", "override", "alias bomb", "recursive"]),
              st.floats(0, 1)),
)


def _nth(matches: list, where: float):
    return matches[min(int(where * len(matches)), len(matches) - 1)] if matches else None


def _edit(text: str, edit) -> str:
    kind, what, where = edit
    if kind == "tag":  # before a value
        spot = _nth(list(re.finditer(r": (?=\S)", text)), where)
        return text if spot is None else text[:spot.end()] + what + text[spot.end():]
    if kind == "number":
        spot = _nth(list(re.finditer(r"\b\d+\b", text)), where)
        return text if spot is None else text[:spot.start()] + what + text[spot.end():]
    if kind == "control":
        at = int(where * len(text))
        return text[:at] + what + text[at:]
    if kind == "breaks":
        return text.replace("\n", what)
    if kind == "equal keys":  # two keys at the indentation of a real key
        spot = _nth(list(re.finditer(r"^( *)[A-Za-z][\w ]*:", text, re.M)), where)
        if spot is None:
            return text
        indent = spot.group(1)
        return text[:spot.start()] + f"{indent}{what[0]}: 1\n{indent}{what[1]}: 2\n" + text[spot.start():]
    spot = _nth(list(re.finditer(r"^  (\w[\w ]*): \{", text, re.M)), where)  # a flow mapping entry
    if spot is None:
        return text
    anchors = "x-a: &a {optional: true, attack: 1}\nx-b: &b {optional: false, attack: 2}\n"
    merged = {"once": "<<: *a, ", "twice": "<<: [*a, *b], ", "override": "<<: *a, optional: false, ",
              "alias bomb": "", "recursive": ""}[what]
    if what == "alias bomb":
        anchors += "x-0: &c0 [q, q, q, q, q, q, q, q, q, q]\n" + "".join(
            f"x-{i}: &c{i} [*c{i - 1}, *c{i - 1}, *c{i - 1}, *c{i - 1}, *c{i - 1}, *c{i - 1}, *c{i - 1}, "
            f"*c{i - 1}, *c{i - 1}, *c{i - 1}]\n" for i in range(1, 8))
    if what == "recursive":
        anchors += "x-r: &r {self: *r}\n"
    return anchors + text[:spot.end()] + merged + text[spot.end():]


@seed(FUZZ_SEED)
@settings(SETTINGS, max_examples=700)
@given(st.lists(_EDIT, min_size=1, max_size=4))
def test_hostile_yaml_shapes_never_crash(edits):
    text = EXAMPLE_TEXT
    for edit in edits:
        text = _edit(text, edit)
    _check_build(text.encode("utf-8", "surrogatepass"))


# --- mods: every macro, mutated; and bases naming each other ---------------------------------------

GOLDEN_RULES = REPO / "tests" / "golden" / "rules"
RULE_SPECS = sorted(p for p in GOLDEN_RULES.glob("*.yaml") if p.name != "base.yaml")
_RULE_PIECES = st.sampled_from(["-1", "0", "999999999999", "[]", "{}", "~", "Germans", "Russians", "infantry",
                                "Warsaw", "before:", "after:nope", "3..1", "1..40000", "{{ x }}", "{{ 1/0 }}",
                                "rounds", "owner", "count", "each", "use", "with", "for", ": ", "- ", "'"])


def _golden_base() -> dict[str, bytes]:
    """The golden mods' base game and the example it is a mod of, as files next to a fuzzed mod."""
    base = (GOLDEN_RULES / "base.yaml").read_text(encoding="utf-8")
    assert "base: ../../fixtures/plain_game/frontier_1939.yaml" in base
    return {"base.yaml": base.replace("base: ../../fixtures/plain_game/frontier_1939.yaml",
                                      "base: frontier_1939.yaml").encode("utf-8"),
            "frontier_1939.yaml": PLAIN_GAME.read_bytes()}


@seed(FUZZ_SEED)
@settings(SETTINGS, max_examples=600)
@given(st.sampled_from(RULE_SPECS), _mutations(st.one_of(_RULE_PIECES, _YAML_PIECES)))
def test_mutated_mods_with_rules_never_crash(spec: Path, operations):
    """Mods using every macro (the golden cases, on their small base game), mutated."""
    _check_build(_mutate(spec.read_text(encoding="utf-8"), operations).encode("utf-8", "surrogatepass"),
                 beside=_golden_base())


_MOD_NAMES = ["a.yaml", "b.yaml", "c.yaml", "d.yaml"]
_BASES = st.sampled_from(_MOD_NAMES + ["frontier_1939.yaml", "missing.yaml", "./a.yaml", "sub/../b.yaml"])
_MOD_BODIES = st.sampled_from(["", "change:\n  units:\n    armour: {cost: 5}\n", "change:\n  units:\n    tank: {cost: 5}\n",
                               "remove:\n  territories: [Warsaw]\n", "add:\n  units: [marine]\n"])


@seed(FUZZ_SEED)
@settings(SETTINGS, max_examples=300)
@given(st.lists(st.tuples(_BASES, _MOD_BODIES), min_size=1, max_size=4))
def test_mods_of_mods_never_crash(mods):
    """Bases naming each other: chains, cycles, a mod its own base; a cycle is a TG055 at a base: line."""
    files = {name: f"mod:\n  name: M{i}\n  base: {base}\n{body}".encode() for i, (name, (base, body))
             in enumerate(zip(_MOD_NAMES, mods))}
    files["frontier_1939.yaml"] = EXAMPLE.read_bytes()
    files["sub/.keep"] = b""
    first = files.pop("a.yaml")
    _check_build(first, beside=files, name="a.yaml")


# --- odd output folders -------------------------------------------------------------------------------

def _odd_output(temp: Path, kind: str) -> tuple[Path, bool]:
    """An output folder of the given kind; and whether the build may succeed into it."""
    out = temp / "out"
    if kind == "file":
        out.write_bytes(b"a file")
        return out, False
    if kind == "below a file":
        out.write_bytes(b"a file")
        return out / "sub", False
    if kind == "fifo":
        os.mkfifo(out)
        return out, False
    if kind == "dangling link":
        out.symlink_to(temp / "nowhere")
        return out, False
    if kind == "link to a folder":  # the folder the user names may be a link: theirs to choose
        (temp / "real").mkdir()
        out.symlink_to(temp / "real", target_is_directory=True)
        return out, True
    _fill(out, PREVIOUS)
    game_folder = out / "frontier_1939" / "map" / "games"
    if kind == "link inside":
        (temp / "outside").mkdir()
        (out / "frontier_1939" / "map").rename(temp / "outside" / "map")
        (out / "frontier_1939" / "map").symlink_to(temp / "outside" / "map", target_is_directory=True)
        return out, False
    if kind == "link as the game":
        (temp / "secret").write_bytes(b"secret")
        (game_folder / "frontier_1939.xml").symlink_to(temp / "secret")
        return out, False
    if kind == "folder as the listing":
        (out / "frontier_1939" / "map.yml").unlink()
        (out / "frontier_1939" / "map.yml").mkdir()
        return out, False
    if kind == "fifo as the game":
        os.mkfifo(game_folder / "frontier_1939.xml")
        return out, False
    if kind == "stale staging":
        (out / ".triplea-gen-staging-1-dead" / "x").mkdir(parents=True)
        return out, True
    return out, True  # a previous build


_OUTPUT_KINDS = ["file", "below a file", "fifo", "dangling link", "link to a folder", "link inside",
                 "link as the game", "folder as the listing", "fifo as the game", "stale staging", "previous"]


def _listing(folder: Path) -> dict[str, tuple[str, bytes | None]]:
    """Every entry under folder, links and special files included, without following links."""
    entries = {}
    for root, dirs, names in os.walk(folder):
        for name in dirs + names:
            path = Path(root) / name
            kind = ("link" if path.is_symlink() else "dir" if path.is_dir() else "file" if path.is_file()
                    else "special")
            entries[path.relative_to(folder).as_posix()] = (kind, path.read_bytes() if kind == "file" else None)
    return entries


@seed(FUZZ_SEED)
@settings(SETTINGS, max_examples=250)
@given(st.sampled_from(_OUTPUT_KINDS), st.sampled_from([EXAMPLE_TEXT, replaced(EXAMPLE_TEXT, "diceSides: 6",
                                                                                        "diceSides: [6]")]))
def test_odd_output_folders_never_crash(kind, spec_text):
    with tempfile.TemporaryDirectory() as temp:
        temp = Path(temp)
        out, may_succeed = _odd_output(temp, kind)
        spec = temp / "frontier_1939.yaml"
        spec.write_text(spec_text, encoding="utf-8")
        before = _listing(temp)
        status, err = _run(["build", str(spec), "-o", str(out)])
        if status == 0:
            assert may_succeed, f"{kind}: built"
            listing = _listing(temp)
            assert all(listing.get(path) == entry for path, entry in before.items()
                       if not path.endswith(("fuzzed.xml", "map.yml", "frontier_1939.xml"))
                       and ".triplea-gen-staging-" not in path), kind
        else:
            _check_failure(status, err, kind, located=spec_text != EXAMPLE_TEXT)
            assert _listing(temp) == before, f"{kind}: a failed build changed files"


@seed(FUZZ_SEED)
@settings(SETTINGS, max_examples=400)
@given(st.one_of(st.binary(max_size=400), st.text(max_size=400).map(lambda t: t.encode("utf-8", "surrogatepass"))))
def test_random_specs_never_crash(data: bytes):
    _check_build(data)


# --- game XMLs --------------------------------------------------------------------------------------

_EXAMPLE_XML: list[bytes] = []


def _example_xml() -> bytes:
    if not _EXAMPLE_XML:
        with tempfile.TemporaryDirectory() as temp:
            assert _run(["build", str(EXAMPLE), "-o", temp])[0] == 0
            _EXAMPLE_XML.append(next(Path(temp).rglob("*.xml")).read_bytes())
    return _EXAMPLE_XML[0]


def _check_import(xml_bytes: bytes) -> None:
    with tempfile.TemporaryDirectory() as temp:
        temp = Path(temp)
        xml, spec = temp / "fuzzed.xml", temp / "spec.yaml"
        xml.write_bytes(xml_bytes)
        spec.write_text("previous")
        status, err = _run(["import", str(xml), "-o", str(spec)])
        if status == 0:  # whatever imports must build again
            _check_build(spec.read_bytes())
        else:
            _check_failure(status, err, repr(xml_bytes[:2000]), located=False)  # an empty file has no line
            assert spec.read_text() == "previous"
        assert sorted(p.name for p in temp.iterdir()) == ["fuzzed.xml", "spec.yaml"]


@seed(FUZZ_SEED)
@settings(SETTINGS, max_examples=700)
@given(_mutations(_XML_PIECES))
def test_mutated_xmls_never_crash(operations):
    _check_import(_mutate(_example_xml().decode("utf-8"), operations).encode("utf-8", "surrogatepass"))


@seed(FUZZ_SEED)
@settings(SETTINGS, max_examples=200)
@given(st.binary(max_size=300))
def test_random_xml_bytes_never_crash(data: bytes):
    _check_import(data)
