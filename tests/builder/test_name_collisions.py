"""Names that collide: two specs whose file names clean up to the same game file, built into one
folder (TG035: refused, the other game kept), and player or unit names that make files Windows
reserves or that are one file on Windows and macOS (TG034: warned, located at the name)."""
from __future__ import annotations

import re
from pathlib import Path


from conftest import GLOBAL_GAMES_DIR, PLAIN_GAME, REPO, SHARED, requires_shared
from textedit import replaced
from generator.cli.main import main
from generator.write.portable import clashes, windows_reserved

PLAIN = PLAIN_GAME.read_text(encoding="utf-8")
INFO = "info: {name: Frontier 1939"


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _build(capsys, spec: Path, out: Path) -> tuple[int, str]:
    status = main(["build", str(spec), "-o", str(out)])
    return status, capsys.readouterr().err


def test_two_specs_whose_names_clean_up_alike_never_replace_each_other(tmp_path, capsys):
    first, second = tmp_path / "my mod.yaml", tmp_path / "my_mod.yaml"
    first.write_text(PLAIN, encoding="utf-8")
    second.write_text(replaced(PLAIN, INFO, "info: {name: Other Game", 1), encoding="utf-8")
    out = tmp_path / "out"
    assert _build(capsys, first, out)[0] == 0
    before = _tree(out)
    status, err = _build(capsys, second, out)
    assert status == 2, err
    assert re.search(r"my_mod\.yaml:\d+:\d+: error\[TG035\]: the game file my_mod\.xml would replace the game "
                     r"'Frontier 1939'", err), err
    assert _tree(out) == before  # the other spec's game and its map.yml entry as they were
    assert _build(capsys, first, out)[0] == 0  # a rebuild of the spec that owns the file goes on


def test_spec_names_equal_but_for_case_are_refused(tmp_path, capsys):
    first, second = tmp_path / "My_Mod.yaml", tmp_path / "my_mod.yaml"
    first.write_text(PLAIN, encoding="utf-8")
    second.write_text(replaced(PLAIN, INFO, "info: {name: Other Game", 1), encoding="utf-8")
    out = tmp_path / "out"
    assert _build(capsys, first, out)[0] == 0
    before = _tree(out)
    status, err = _build(capsys, second, out)
    assert status == 2 and "error[TG035]" in err and "My_Mod.xml, the same file on Windows and macOS" in err, err
    assert _tree(out) == before


def test_a_map_yml_entry_of_another_game_is_not_taken_over(tmp_path, capsys):
    spec, out = tmp_path / "my_mod.yaml", tmp_path / "out"
    spec.write_text(PLAIN, encoding="utf-8")
    listing = out / "frontier_1939" / "map.yml"
    listing.parent.mkdir(parents=True)
    listing.write_text('map_name: "frontier_1939"\ngames:\n  - {game_name: "Their Game", file_name: "my_mod.xml"}\n')
    status, err = _build(capsys, spec, out)
    assert status == 2 and "would replace the game 'Their Game' map.yml lists under that file name" in err, err
    assert _tree(out) == {"frontier_1939/map.yml": listing.read_bytes()}


@requires_shared
def test_a_mod_named_like_a_game_of_its_base_map_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    spec = tmp_path / "ww2global40_2nd_edition.yaml"
    spec.write_text("mod:\n  name: Cheap Cruisers\n  version: '1.1'\n"
                    "  base: {map: world_war_ii_global, game: ww2global40_2nd_edition.xml}\n"
                    "change:\n  units:\n    cruiser: {cost: 11}\n", encoding="utf-8")
    for command in (["build", str(spec), "-o", str(tmp_path / "out")],
                    ["package", str(spec), "-o", str(tmp_path / "dist")]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "error[TG035]: the game file ww2global40_2nd_edition.xml would replace the base map's game " \
               "'World War II Global 1940 2nd Edition'" in err, err
    assert not (tmp_path / "out").exists() and not (tmp_path / "dist").exists()
    assert (GLOBAL_GAMES_DIR / "ww2global40_2nd_edition.xml").is_file()


def test_player_and_unit_names_other_systems_refuse_or_merge_are_warned_at_the_name(tmp_path, capsys):
    text = (REPO / "rules_yaml" / "hex_skirmish.yaml").read_text(encoding="utf-8")
    for old, new in (("Reds", "CON"), ("Blues", "Germans"), ("Greens", "germans"), ("fighter", "aux")):
        text = re.sub(rf"\b{old}\b", new, text)
    spec = tmp_path / "names.yaml"
    spec.write_text(text, encoding="utf-8")
    status, err = _build(capsys, spec, tmp_path / "out")
    assert status == 0, err  # the engine accepts the names: the build goes on, and says so
    lines = text.splitlines()
    found = re.findall(r"names\.yaml:(\d+):\d+: warning\[TG034\]: (player|unit type) '(\w+)' names ", err)
    assert {(kind, name) for _, kind, name in found} == {("player", "CON"), ("player", "germans"),
                                                          ("unit type", "aux")}, err
    for line, _, name in found:
        assert name in lines[int(line) - 1]
    assert "flags/germans.png (and 3 more), one file with hex_skirmish/map/flags/Germans.png" in err


def test_names_windows_reserves_and_names_equal_but_for_case():
    assert all(windows_reserved(n) for n in ("CON", "con.png", "Aux.tar.gz", "nul ", "LPT9", "com1.xml"))
    assert not any(windows_reserved(n) for n in ("CONS", "console.png", "LPT0", "com10", "x.con", "_aux"))
    found = clashes(["m/flags/A.png", "m/flags/a.png", "m/units/CON/x.png", "m/units/CON/y.png",
                     "m/units/B/x.png", "m/units/b/x.png", "m/games/\u00e9.xml", "m/games/e\u0301.xml"])
    assert [(c.path, c.other) for c in found] == [
        ("m/flags/a.png", "m/flags/A.png"), ("m/games/e\u0301.xml", "m/games/\u00e9.xml"),
        ("m/units/CON", None), ("m/units/b", "m/units/B")]


def test_clashes_with_files_already_in_the_output_folder(tmp_path):
    (tmp_path / "m" / "flags").mkdir(parents=True)
    (tmp_path / "m" / "flags" / "germans.png").write_bytes(b"theirs")
    (tmp_path / "m" / "flags" / "Russians.png").write_bytes(b"ours, rebuilt")
    found = clashes(["m/flags/Germans.png", "m/flags/Russians.png"], tmp_path)
    assert [(c.path, c.other, c.written) for c in found] == [("m/flags/Germans.png", "m/flags/germans.png", False)]
