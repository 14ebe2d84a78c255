"""Fuzzing: random and mutated specs and game XMLs. The tool either succeeds or
fails with located diagnostics (exit 1: validation errors, exit 2: unusable
input); it never crashes (exit 3), hangs, or leaves partial output. 3,000+
examples run in CI, mods with rules and macros among them."""
from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canonical import canonical_bytes
from conftest import REPO
from folders import snapshot
from generator.cli import main

EXAMPLE_TEXT = (REPO / "rules_yaml" / "frontier_1939.yaml").read_text(encoding="utf-8")
SETTINGS = settings(deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))

_YAML_PIECES = st.sampled_from([":", "- ", "{", "}", "[", "]", "'", '"', " ", "\t", "\n", "&a ", "*a", "!!", "#",
                                "%", "@", "<<: ", "? ", "|", ">", "~", "null", "true", "0x", "1e9", "\\", "\x00",
                                "é", "&", "<", "Germans", "infantry", "options", "attachments", "-1", "..", "/"])
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


def _check_build(spec_bytes: bytes, beside: Path | None = None) -> None:
    """Build the bytes as a spec (with `beside` copied next to it: a mod's base)."""
    with tempfile.TemporaryDirectory() as temp:
        temp = Path(temp)
        if beside is not None:
            (temp / beside.name).write_bytes(beside.read_bytes())
        spec, out = temp / "fuzzed.yaml", temp / "out"
        out.mkdir()
        (out / "keep.txt").write_text("previous output")
        spec.write_bytes(spec_bytes)
        status = main(["build", str(spec), "-o", str(out)])
        assert status in (0, 1, 2), f"exit {status} for:\n{spec_bytes[:2000]!r}"
        files = snapshot(out)
        assert files.pop("keep.txt") == b"previous output"
        if status == 0:
            xmls = [content for name, content in files.items() if name.endswith(".xml")]
            assert len(xmls) == 1 and any(name.endswith("/map.yml") for name in files)
            canonical_bytes(xmls[0])  # the built XML is well-formed
        else:
            assert files == {}
        assert not list(out.glob(".triplea-gen-staging-*"))


@SETTINGS
@given(_mutations(_YAML_PIECES))
def test_mutated_specs_never_crash(operations):
    _check_build(_mutate(EXAMPLE_TEXT, operations).encode("utf-8", "surrogatepass"))


GOLDEN_RULES = REPO / "tests" / "golden" / "rules"
RULE_SPECS = sorted(p for p in GOLDEN_RULES.glob("*.yaml") if p.name != "base.yaml")
_RULE_PIECES = st.sampled_from(["-1", "0", "999999999999", "[]", "{}", "~", "Germans", "Russians", "infantry",
                                "Warsaw", "before:", "after:nope", "3..1", "1..40000", "{{ x }}", "{{ 1/0 }}",
                                "rounds", "owner", "count", "each", "use", "with", "for", ": ", "- ", "'"])


@settings(SETTINGS, max_examples=600)
@given(st.sampled_from(RULE_SPECS), _mutations(st.one_of(_RULE_PIECES, _YAML_PIECES)))
def test_mutated_mods_with_rules_never_crash(spec: Path, operations):
    """Mods using every macro (the golden cases, on their small base game), mutated."""
    _check_build(_mutate(spec.read_text(encoding="utf-8"), operations).encode("utf-8", "surrogatepass"),
                 beside=GOLDEN_RULES / "base.yaml")


@settings(SETTINGS, max_examples=400)
@given(st.one_of(st.binary(max_size=400), st.text(max_size=400).map(lambda t: t.encode("utf-8", "surrogatepass"))))
def test_random_specs_never_crash(data: bytes):
    _check_build(data)


_EXAMPLE_XML: list[bytes] = []


def _example_xml() -> bytes:
    if not _EXAMPLE_XML:
        with tempfile.TemporaryDirectory() as temp:
            assert main(["build", str(REPO / "rules_yaml" / "frontier_1939.yaml"), "-o", temp]) == 0
            _EXAMPLE_XML.append(next(Path(temp).rglob("*.xml")).read_bytes())
    return _EXAMPLE_XML[0]


def _check_import(xml_bytes: bytes) -> None:
    with tempfile.TemporaryDirectory() as temp:
        temp = Path(temp)
        xml, spec = temp / "fuzzed.xml", temp / "spec.yaml"
        xml.write_bytes(xml_bytes)
        spec.write_text("previous")
        status = main(["import", str(xml), "-o", str(spec)])
        assert status in (0, 2), f"exit {status} for:\n{xml_bytes[:2000]!r}"
        if status == 2:
            assert spec.read_text() == "previous"
        else:  # whatever imports must build again
            _check_build(spec.read_bytes())
        assert sorted(p.name for p in temp.iterdir()) == ["fuzzed.xml", "spec.yaml"]


@SETTINGS
@given(_mutations(_XML_PIECES))
def test_mutated_xmls_never_crash(operations):
    _check_import(_mutate(_example_xml().decode("utf-8"), operations).encode("utf-8", "surrogatepass"))


@settings(SETTINGS, max_examples=200)
@given(st.binary(max_size=300))
def test_random_xml_bytes_never_crash(data: bytes):
    _check_import(data)
