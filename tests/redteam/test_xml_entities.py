"""Red team: no XML triplea-gen reads makes lxml open a file or URL, expand an entity, or run
without bound; every refusal is a located TG code. Each test here failed before safexml
decided the encoding first, blanked the only accepted DOCTYPE and bounded nesting."""
from __future__ import annotations

import contextlib
import io
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import REPO
from generator.cli.main import main
from generator.core.diagnostics import DiagnosticError
from generator.read.safexml import MAX_DEPTH, parse_xml_bytes
from generator.check.validate import validate_file
from redteam.xml_shapes import encoded, game_text, with_doctype

LEAK = "LEAKED-FROM-THE-DTD"


def run_cli(*arguments: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(arguments))
    assert "Traceback" not in err.getvalue()
    return status, out.getvalue(), err.getvalue()


def refusal(data: bytes) -> tuple[str, int, int, str]:
    with pytest.raises(DiagnosticError) as caught:
        parse_xml_bytes(data, "game.xml")
    first = caught.value.diagnostics[0]
    return first.code, first.position.line, first.position.col, first.message


@pytest.mark.parametrize("doctype", ["game.dtd", "ABSOLUTE"])
def test_an_external_dtd_that_exists_is_never_read(doctype: str, tmp_path: Path, monkeypatch):
    # The DTD defines the entity the game uses; lxml used to read it (despite load_dtd=False)
    # and put its text into the imported spec.
    dtd = tmp_path / "game.dtd"
    dtd.write_text(f'<!ENTITY leak "{LEAK}">\n')
    system_id = str(dtd) if doctype == "ABSOLUTE" else doctype
    xml = tmp_path / "game.xml"
    xml.write_text(with_doctype(f'<!DOCTYPE game SYSTEM "{system_id}">', "&leak;"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # a relative DTD would be looked up here
    out = tmp_path / "game.yaml"
    status, stdout, err = run_cli("import", str(xml), "-o", str(out))
    assert status == 2 and not out.exists()
    expected = "game.xml:2:1: error[TG018]" if doctype == "ABSOLUTE" else "game.xml:12:21: error[TG011]: entity reference &leak; refused"
    assert expected in err
    assert LEAK not in stdout + err


def test_a_dtd_the_file_does_not_use_is_not_opened_either(tmp_path: Path):
    # Even when nothing refers to it, the DTD named must stay unopened: here it is a FIFO
    # nobody writes to, so opening it blocks.
    os.mkfifo(tmp_path / "game.dtd")
    (tmp_path / "game.xml").write_text(with_doctype('<!DOCTYPE game SYSTEM "game.dtd">'), encoding="utf-8")
    script = ("from generator.read.safexml import parse_xml_file\n"
              "print(parse_xml_file('game.xml').docinfo.system_url)\n")
    try:
        finished = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, timeout=20,
                                  env={**os.environ, "PYTHONPATH": str(REPO)})
    except subprocess.TimeoutExpired:
        pytest.fail("reading the game opened the DTD its DOCTYPE names")
    assert finished.stdout == b"game.dtd\n", finished.stderr  # kept for the games the importer writes


def test_a_doctype_naming_dev_stdin_is_refused_without_reading_stdin(tmp_path: Path):
    xml = tmp_path / "stdin.xml"
    xml.write_text(with_doctype('<!DOCTYPE game SYSTEM "/dev/stdin">'), encoding="utf-8")
    start = time.perf_counter()
    with subprocess.Popen([sys.executable, "-m", "generator", "import", str(xml), "-o", str(tmp_path / "x.yaml")],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env={**os.environ, "PYTHONPATH": str(REPO)}) as process:
        try:
            _, err = process.communicate(timeout=20)  # stdin stays open: reading it would block
        except subprocess.TimeoutExpired:
            process.kill()
            pytest.fail("import blocked reading /dev/stdin named by the DOCTYPE")
    assert process.returncode == 2 and time.perf_counter() - start < 20
    assert b'stdin.xml:2:1: error[TG018]: DOCTYPE names "/dev/stdin", not a bare file name' in err


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-16-le"])
def test_a_utf16_document_declaring_entities_is_refused(encoding: str, tmp_path: Path):
    # The entity check used to search the bytes, where UTF-16 hides "<!ENTITY".
    text = with_doctype('<!DOCTYPE game [<!ENTITY wide "EXPANDED-FROM-UTF16">]>', "&wide;")
    xml = tmp_path / "wide.xml"
    xml.write_bytes(encoded(text, encoding))
    out = tmp_path / "wide.yaml"
    status, stdout, err = run_cli("import", str(xml), "-o", str(out))
    assert status == 2 and not out.exists()
    assert "wide.xml:2:1: error[TG011]: DOCTYPE declares entities or an internal DTD subset; refused" in err
    assert "EXPANDED" not in stdout + err


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-16-le", "utf-8-sig"])
def test_a_utf16_game_imports_as_its_utf8_original(encoding: str, tmp_path: Path):
    plain, wide = tmp_path / "plain.xml", tmp_path / "wide.xml"
    plain.write_text(game_text(), encoding="utf-8")
    wide.write_bytes(encoded(game_text(), encoding))
    assert run_cli("import", str(plain), "-o", str(tmp_path / "plain.yaml"))[0] == 0
    assert run_cli("import", str(wide), "-o", str(tmp_path / "wide.yaml"))[0] == 0
    assert (tmp_path / "wide.yaml").read_text("utf-8") == (tmp_path / "plain.yaml").read_text("utf-8")


@pytest.mark.parametrize("doctype", ['<!DOCTYPE game SYSTEM "game.dtd">', '<!DOCTYPE game SYSTEM "game.dtd"[]>',
                                     "<!DOCTYPE game SYSTEM 'game.dtd' [ ]>", "<!DOCTYPE game>"])
def test_the_doctypes_real_games_use_are_accepted(doctype: str):
    tree = parse_xml_bytes(with_doctype(doctype).encode("utf-8"), "game.xml")
    assert tree.docinfo.system_url == (None if doctype == "<!DOCTYPE game>" else "game.dtd")


HOSTILE = {
    "http DTD": ('<!DOCTYPE game SYSTEM "http://127.0.0.1:9/x.dtd">', "TG018", 2, 1),
    "file URL DTD": ('<!DOCTYPE game SYSTEM "file:///etc/passwd">', "TG018", 2, 1),
    "relative path DTD": ('<!DOCTYPE game SYSTEM "../secret/game.dtd">', "TG018", 2, 1),
    "PUBLIC id": ('<!DOCTYPE game PUBLIC "-//TripleA//Game//EN" "game.dtd">', "TG018", 2, 1),
    "parameter entity": ('<!DOCTYPE game SYSTEM "game.dtd" [<!ENTITY % p SYSTEM "http://127.0.0.1:9/p"> %p;]>',
                         "TG011", 2, 1),
    "lower-case doctype": ('<!doctype game system "http://127.0.0.1:9/x.dtd">', "TG018", 2, 1),
    "no space before id": ('<!DOCTYPE game SYSTEM"game.dtd">', "TG018", 2, 1),
    "second doctype": ('<!DOCTYPE game SYSTEM "game.dtd">\n<!DOCTYPE game SYSTEM "http://127.0.0.1:9/x">',
                       "TG018", 3, 1),
    "entity after a comment": ('<!-- x -->\n<!DOCTYPE game SYSTEM "game.dtd" [\n<!ENTITY e "x">]>', "TG011", 3, 1),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_every_other_doctype_is_refused_where_it_stands(name: str):
    doctype, code, line, col = HOSTILE[name]
    for encoding in ("utf-8", "utf-16", "utf-16-be"):
        assert refusal(encoded(with_doctype(doctype), encoding))[:3] == (code, line, col), encoding


@pytest.mark.parametrize("data, code, message", [
    ("<game/>".encode("utf-32"), "TG017", "UTF-32"),
    ('<?xml version="1.0" encoding="cp500"?><game/>'.encode("cp500"), "TG017", "EBCDIC"),
    (b'<?xml version="1.0" encoding="UTF-16"?><game/>', "TG017", "is not UTF-16 text"),
    (b'<?xml version="1.0" encoding="UTF-7"?><game/>', "TG017", "not one triplea-gen reads"),
    ('<?xml version="1.0" encoding="ISO-8859-1"?><game/>'.encode("utf-16"), "TG017", "declares encoding"),
    (b'\xef\xbb\xbf<?xml version="1.0" encoding="ISO-8859-1"?><game/>', "TG017", "byte order mark"),
    (b'<?xml version="1.0"?>\n<game>\n  <info name="\xff"/></game>', "TG010", "not utf-8 text"),
    (b'<?xml version="1.0"?>\n<game>\n  <info name="&undeclared;"/></game>', "TG011", "&undeclared;"),
], ids=["utf-32", "ebcdic", "utf-16-declared-8-bit", "utf-7", "utf-16-declaring-latin-1", "bom-declaring-latin-1",
        "invalid-utf-8", "undeclared-entity"])
def test_encodings_are_decided_before_anything_is_read(data: bytes, code: str, message: str):
    found, line, _, text = refusal(data)
    assert found == code and message in text and line >= 1


def test_latin1_and_windows_1252_games_are_read():
    for encoding in ("ISO-8859-1", "windows-1252"):
        data = f'<?xml version="1.0" encoding="{encoding}"?>\n<game><info name="Fran\u00e7ais"/></game>'
        tree = parse_xml_bytes(data.encode("cp1252"), "game.xml")
        assert tree.getroot()[0].get("name") == "Fran\u00e7ais"


def test_nesting_past_the_limit_is_refused_where_it_starts():
    deep = "<game>\n" + "<a>\n" * (MAX_DEPTH + 5) + "</a>" * (MAX_DEPTH + 5) + "</game>"
    assert refusal(deep.encode()) [:3] == ("TG019", MAX_DEPTH + 1, 1)
    fine = "<game>\n" + "<a>\n" * (MAX_DEPTH - 1) + "</a>" * (MAX_DEPTH - 1) + "</game>"
    parse_xml_bytes(fine.encode(), "game.xml")


def test_deep_nesting_is_refused_quickly_in_bounded_memory(tmp_path: Path):
    # 145,000 open elements (with their ends, just under the element cap); the import runs with 1 GiB of address space.
    xml = tmp_path / "deep.xml"
    xml.write_bytes(b'<?xml version="1.0"?>\n<game>' + b"<a>" * 145_000 + b"</a>" * 145_000 + b"</game>")
    limit = 1024 ** 3

    def bounded():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    start = time.perf_counter()
    finished = subprocess.run([sys.executable, "-m", "generator", "import", str(xml), "-o", str(tmp_path / "d.yaml")],
                              capture_output=True, timeout=60, preexec_fn=bounded,
                              env={**os.environ, "PYTHONPATH": str(REPO)})
    assert time.perf_counter() - start < 20
    assert finished.returncode == 2, finished.stderr[-2000:]
    assert b"deep.xml:2:" in finished.stderr and b"error[TG019]: elements nested more than" in finished.stderr


def test_thousands_of_attributes_on_one_element_validate_in_linear_time(tmp_path: Path):
    # xmlschema's error objects copy the element's attributes: 3,000 took 55 s.
    text = game_text()
    assert '<info name="' in text
    flooded = tmp_path / "flooded.xml"
    flooded.write_text(text.replace('<info name="', "<info " + " ".join(f'a{i}="x"' for i in range(3000)) +
                                    ' name="', 1), encoding="utf-8")
    few = tmp_path / "few.xml"
    few.write_text(text.replace('<info name="', '<info a0="x" a1="x" name="', 1), encoding="utf-8")
    # Both engines ignore attributes they do not read: a warning per element (TG183), never an error.
    [two] = [d for d in validate_file(few) if d.code == "TG183"]  # the schema is loaded now
    assert "a0=, a1=" in two.message and two.severity == "warning"
    start = time.perf_counter()
    found = validate_file(flooded)
    assert time.perf_counter() - start < 1.0
    line = 1 + text[:text.index("<info ")].count("\n")
    [flood] = [d for d in found if d.code == "TG183"]
    assert flood.position.line == line and flood.severity == "warning"
    assert "a0=, a1=" in flood.message and "2995 more" in flood.message
    assert not [d for d in found if d.severity == "error"]


@pytest.mark.parametrize("doctype", ["http://127.0.0.1:9/x.dtd", "file:///etc/passwd", "../game.dtd"])
def test_a_spec_cannot_name_a_dtd_a_parser_would_fetch(doctype: str, tmp_path: Path):
    # The build would render it into <!DOCTYPE game SYSTEM "..."> and hand that to every reader after it.
    text = (REPO / "rules_yaml" / "frontier_1939.yaml").read_text(encoding="utf-8")
    assert "\ninfo: {name: Frontier 1939" in text
    spec = tmp_path / "spec.yaml"
    spec.write_text(text.replace("\ninfo: {name: Frontier 1939", f'\ndoctype: "{doctype}"\ninfo: {{name: Frontier 1939', 1),
                    encoding="utf-8")
    line = 1 + text[:text.index("\ninfo: {name: Frontier 1939") + 1].count("\n")
    status, out, err = run_cli("build", str(spec), "-o", str(tmp_path / "out"))
    assert status == 2, err
    assert f"spec.yaml:{line}:1: error[TG018]: doctype '{doctype}' is not a bare file name like game.dtd" in err
    assert not (tmp_path / "out").exists()
