"""A spec's own macro folder may come from anybody (a forum zip). Its templates are read only from
inside it: no link (the file, or a folder on the way), no absolute name, no `..`; a file that is
not UTF-8 or has no header is a located error (exit 2), not an internal one. Nothing the folder
points at reaches the XML, the notes or the package, and the previous build stays."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from folders import snapshot
from textedit import replaced
from generator.cli.main import main

from .hostile_specs import MACRO_HEADER, RULE_LINE, macro_rule, write_mod

SECRET = "TOPSECRET-7f3a"


def leaking_macro(name: str) -> str:
    """A macro that puts the text of template `name` into a game property's value."""
    return (MACRO_HEADER + "<fragment><propertyList><property name=\"leak\" value=\"{% include '" + name
            + "' %}\" editable=\"false\"><string/></property></propertyList></fragment>\n")


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "elsewhere" / "secret.txt"
    path.parent.mkdir()
    path.write_text(SECRET + "\n", encoding="utf-8")
    return path


@pytest.fixture
def previous(tmp_path: Path) -> tuple[Path, dict]:
    spec = write_mod(tmp_path / "good", macro_rule("fine"), {"fine.xml.j2": MACRO_HEADER + "<fragment/>\n"})
    out = tmp_path / "out"
    assert main(["build", str(spec), "-o", str(out)]) == 0
    return out, snapshot(out)


def build_refused(spec: Path, out: Path, before: dict, capsys, line: int | None = RULE_LINE) -> str:
    status = main(["build", str(spec), "-o", str(out)])
    err = capsys.readouterr().err
    assert status == 2, err
    assert "error[TG067]" in err and "hint:" in err
    if line is not None:
        assert f"spec.yaml:{line}:5: error[TG067]" in err
    assert snapshot(out) == before
    assert SECRET not in err
    return err


def test_a_linked_template_is_not_read(tmp_path: Path, secret: Path, previous, capsys):
    out, before = previous
    spec = write_mod(tmp_path / "zip", macro_rule("leak"), {"leak.xml.j2": leaking_macro("secret.j2")})
    os.symlink(secret, spec.parent / "macros" / "secret.j2")
    err = build_refused(spec, out, before, capsys)
    assert "secret.j2: a macro folder may not hold links" in err


def test_a_template_in_a_linked_folder_is_not_read(tmp_path: Path, secret: Path, previous, capsys):
    out, before = previous
    spec = write_mod(tmp_path / "zip", macro_rule("leak"), {"leak.xml.j2": leaking_macro("parts/secret.txt")})
    os.symlink(secret.parent, spec.parent / "macros" / "parts")
    err = build_refused(spec, out, before, capsys)
    assert "parts: a macro folder may not hold links" in err


def test_a_linked_macro_is_not_read(tmp_path: Path, secret: Path, previous, capsys):
    out, before = previous
    spec = write_mod(tmp_path / "zip", macro_rule("leak"))
    (spec.parent / "macros").mkdir()
    secret.write_text(leaking_macro("nothing.j2"), encoding="utf-8")
    os.symlink(secret, spec.parent / "macros" / "leak.xml.j2")
    err = build_refused(spec, out, before, capsys, line=None)
    assert "leak.xml.j2:1:1: error[TG067]: a macro folder may not hold links" in err


@pytest.mark.parametrize("name", ["/etc/hostname", "../good/spec.yaml", "./../good/spec.yaml"])
def test_names_outside_the_folder_are_refused(name: str, tmp_path: Path, previous, capsys):
    out, before = previous
    spec = write_mod(tmp_path / "zip", macro_rule("leak"), {"leak.xml.j2": leaking_macro(name)})
    err = build_refused(spec, out, before, capsys)
    assert "a macro may only load templates inside its folder" in err


@pytest.mark.parametrize("body, message, line", [
    (b"<fragment/>\n", "a macro template starts with a {#--- ... ---#} header", 1),
    (replaced(MACRO_HEADER, "somewhere", "caf\xe9").encode("latin-1") + b"<fragment/>\n", "must be UTF-8", 2),
    (b"{#---\ndescription: [unclosed\n---#}\n<fragment/>\n", "the header is not valid YAML", 3),
    (b"{#---\n- a list\n---#}\n<fragment/>\n", "the header must be a mapping", 2),
    # an alias could expand without bound in whatever walks the header (a bomb is refused the same way)
    (b"{#---\ndescription: &d a macro\nnote: *d\nparams: {}\n---#}\n<fragment/>\n", "an anchor or alias", 2),
], ids=["no header", "not UTF-8", "bad YAML", "not a mapping", "an alias"])
def test_a_broken_macro_file_is_a_located_error(body: bytes, message: str, line: int, tmp_path: Path, previous,
                                                 capsys):
    out, before = previous
    spec = write_mod(tmp_path / "zip", macro_rule("broken"), {"broken.xml.j2": body})
    err = build_refused(spec, out, before, capsys, line=None)
    assert f"broken.xml.j2:{line}:1: error[TG067]: " in err and message in err


def test_templates_of_the_folder_and_the_shipped_helpers_still_load(tmp_path: Path, capsys):
    """The ordinary case: a helper beside the macro, in a subfolder, and the shipped _common.j2."""
    helper = "{% macro shout(text) %}{{ text | upper }}{% endmacro %}"
    body = MACRO_HEADER + ("{% import 'lib/_mine.j2' as mine %}{% import '_common.j2' as c %}"
                           "<fragment><propertyList>"
                           "<property name=\"{{ mine.shout('loud') }}\" value=\"{{ c.TRIGGER }}\" "
                           "editable=\"false\"><string/></property></propertyList></fragment>\n")
    spec = write_mod(tmp_path / "zip", macro_rule("fine"), {"fine.xml.j2": body})
    (spec.parent / "macros" / "lib").mkdir()
    (spec.parent / "macros" / "lib" / "_mine.j2").write_text(helper, encoding="utf-8")
    assert main(["build", str(spec), "-o", str(tmp_path / "out")]) == 0
    (xml,) = (tmp_path / "out").glob("*/map/games/spec.xml")
    assert 'name="LOUD" value="games.strategy.triplea.attachments.TriggerAttachment"' in xml.read_text(encoding="utf-8")
