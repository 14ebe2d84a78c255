"""Hostile and broken input: no crash, no partial output, no file or network access."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import PLAIN_GAME, REPO
from folders import snapshot
from textedit import replaced
from generator.cli.main import main

EXAMPLE = PLAIN_GAME


def _peak_memory_kib(*argv: str) -> int:
    """The peak resident memory of one triplea-gen command run in a child process of its own (the
    test process's peak is its lifetime's: whatever ran before in the session would hide a rise)."""
    child = subprocess.Popen([sys.executable, "-m", "generator", *argv], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(REPO)})
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss  # KiB on Linux


def _memory_above_a_plain_run_kib(*argv: str) -> int:
    """How much more memory a command takes than one that fails at once (a missing spec): the
    interpreter and the imports are not the input's doing."""
    return _peak_memory_kib(*argv) - _peak_memory_kib("build", str(REPO / "no-such-spec.yaml"), "-o", os.devnull)


def _run(capsys, *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return status, captured.err


def test_external_entity_is_not_read(tmp_path: Path, capsys):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT")
    xml = tmp_path / "evil.xml"
    xml.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE game [\n  <!ENTITY leak SYSTEM "file://{secret}">\n]>\n'
                   '<game><info name="&leak;" version="1"/></game>\n')
    out = tmp_path / "evil.yaml"
    status, err = _run(capsys, "import", str(xml), "-o", str(out))
    assert status == 2
    assert "evil.xml:2:1: error[TG011]: DOCTYPE declares entities or an internal DTD subset; refused" in err
    assert not out.exists()
    assert "TOP-SECRET" not in err


def test_entity_expansion_bomb_is_refused_quickly(tmp_path: Path, capsys):
    entities = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{i} "{("&lol%d;" % (i - 1)) * 10}">' for i in range(1, 10)]
    xml = tmp_path / "bomb.xml"
    xml.write_text('<?xml version="1.0"?>\n<!DOCTYPE game [\n' + "\n".join(entities) +
                   '\n]>\n<game><info name="&lol9;"/></game>\n')
    start = time.perf_counter()
    status, err = _run(capsys, "import", str(xml), "-o", str(tmp_path / "bomb.yaml"))
    assert time.perf_counter() - start < 1.0
    assert status == 2 and "error[TG011]" in err


def test_yaml_alias_bomb_is_refused_quickly_with_bounded_memory(tmp_path: Path, capsys, previous_build: Path):
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]
    spec = tmp_path / "bomb.yaml"
    spec.write_text("\n".join(lines) + "\n")
    before = snapshot(previous_build)
    start = time.perf_counter()
    status, err = _run(capsys, "build", str(spec), "-o", str(previous_build))
    assert time.perf_counter() - start < 1.0
    assert _memory_above_a_plain_run_kib("build", str(spec), "-o", str(previous_build)) < 100 * 1024
    assert status == 2
    assert "bomb.yaml:1:1: error[TG023]: the document expands to more than 2000000 nodes" in err
    assert snapshot(previous_build) == before


@pytest.mark.parametrize("name, content, code", [
    ("garbage.yaml", bytes(range(256)) * 4, "TG020"),
    ("empty.yaml", b"", "TG032"),
    ("malformed.yaml", b"info: [unclosed\n", "TG020"),
    ("duplicate.yaml", b"info: {name: a, version: '1'}\ninfo: {name: b}\n", "TG021"),
    ("unknown.yaml", b"info: {name: a, version: '1'}\nvictory: {}\n", "TG030"),
    ("list.yaml", b"- just\n- a list\n", "TG031"),
])
def test_bad_specs_leave_previous_output_intact(name, content, code, tmp_path: Path, capsys,
                                                previous_build: Path):
    spec = tmp_path / name
    spec.write_bytes(content)
    before = snapshot(previous_build)
    status, err = _run(capsys, "build", str(spec), "-o", str(previous_build))
    assert status == 2
    assert f"error[{code}]" in err.splitlines()[0]
    assert err.splitlines()[0].startswith(f"{spec}:") or err.splitlines()[0].startswith(name)
    assert "  hint: " in err
    assert snapshot(previous_build) == before


@pytest.mark.parametrize("name, content, code", [
    ("garbage.xml", bytes(range(256)) * 4, "TG010"),
    ("empty.xml", b"", "TG010"),
    ("truncated.xml", b'<?xml version="1.0"?>\n<game>\n  <info name="x" version="1"/>\n  <map>\n    <territory na',
     "TG010"),
    ("notgame.xml", b'<?xml version="1.0"?>\n<html><body/></html>\n', "TG012"),
])
def test_bad_xml_imports_write_nothing(name, content, code, tmp_path: Path, capsys):
    xml = tmp_path / name
    xml.write_bytes(content)
    target = tmp_path / "spec.yaml"
    target.write_text("previous: content\n")
    status, err = _run(capsys, "import", str(xml), "-o", str(target))
    assert status == 2
    assert f"error[{code}]" in err
    assert target.read_text() == "previous: content\n"


@pytest.mark.parametrize("map_name", ["../../escaped", "/tmp/absolute", "..", "a/../../b", "C:\\evil"])
def test_names_cannot_escape_the_output_folder(map_name: str, tmp_path: Path, capsys):
    text = replaced(EXAMPLE.read_text(), "mapName: {value: frontier_1939", f"mapName: {{value: '{map_name}'")
    spec = tmp_path / "spec.yaml"
    spec.write_text(text)
    out = tmp_path / "deep" / "out"
    status, _ = _run(capsys, "build", str(spec), "-o", str(out))
    assert status == 0
    written = [p for p in tmp_path.rglob("*.xml")]
    assert len(written) == 1
    assert out.resolve() in written[0].resolve().parents


def test_failed_build_after_a_good_build_keeps_the_good_output(tmp_path: Path, capsys, previous_build: Path):
    spec = tmp_path / "frontier_1939.yaml"
    spec.write_text(replaced(EXAMPLE.read_text(), "  Germans: {optional: false}\n",
                             "  Germans: {optional: false, colour: red}\n"))
    before = snapshot(previous_build)
    status, err = _run(capsys, "build", str(spec), "-o", str(previous_build))
    assert status == 2
    assert "error[TG030]: unknown key 'colour' in player Germans" in err
    assert snapshot(previous_build) == before
    assert not list(previous_build.glob(".triplea-gen-staging-*"))


def test_templates_are_sandboxed_and_strict(tmp_path: Path):
    import jinja2
    from jinja2.sandbox import SecurityError

    from generator.render.templates import environment

    (tmp_path / "evil.j2").write_text("{{ ''.__class__.__mro__[1].__subclasses__() }}")
    (tmp_path / "reads.j2").write_text("{% include '../secret.txt' %}")
    (tmp_path / "missing.j2").write_text("{{ nothing_here }}")
    env = environment(tmp_path)
    with pytest.raises(SecurityError):
        env.get_template("evil.j2").render()
    with pytest.raises(jinja2.TemplateNotFound):
        env.get_template("reads.j2").render()
    with pytest.raises(jinja2.UndefinedError):
        env.get_template("missing.j2").render()


def test_huge_but_plain_inputs_are_refused_before_parsing(tmp_path: Path, capsys, previous_build: Path):
    """No aliases or entities, just very many tiny nodes: refused at once, memory bounded."""
    spec = tmp_path / "many.yaml"
    spec.write_text("- 1\n" * 1_000_000)
    xml = tmp_path / "many.xml"
    xml.write_text('<?xml version="1.0"?>\n<game>' + "<a/>" * 1_000_000 + "</game>\n")
    before = snapshot(previous_build)
    start = time.perf_counter()
    status, err = _run(capsys, "build", str(spec), "-o", str(previous_build))
    assert status == 2
    assert err.splitlines()[0] == (f"{spec}:1:1: error[TG002]: spec has 1000000 lines and list items, more than "
                                   "the 300000 allowed; refused")
    status, err = _run(capsys, "import", str(xml), "-o", str(tmp_path / "many_out.yaml"))
    assert status == 2 and "error[TG002]: input has about 1000003 elements" in err
    assert time.perf_counter() - start < 1.0
    assert _memory_above_a_plain_run_kib("build", str(spec), "-o", str(previous_build)) < 100 * 1024
    assert _memory_above_a_plain_run_kib("import", str(xml), "-o", str(tmp_path / "many_out.yaml")) < 100 * 1024
    assert snapshot(previous_build) == before and not (tmp_path / "many_out.yaml").exists()
