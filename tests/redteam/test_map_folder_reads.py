"""Map folders and output folders are attacker-controlled (players unzip mods into downloadedMaps,
modders build into it): map.yml alias bombs, listings a hostile name would break, links to the
user's files, FIFOs and gigabyte files planted there are refused with located errors, and no
earlier game's entry is ever lost. Each test runs the command in a bounded process
(tests/redteam/bounded.py) where a regression could hang or eat memory."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import PLAIN_GAME
from .bounded import run_bounded

# 800 bytes that expand to 9**11 strings through nested aliases: the games list's file name.
ALIAS_BOMB = "\n".join(
    ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    + [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 12)]
    + ["map_name: frontier_1939", "games:", "- {game_name: Bomb, file_name: *a11}"]) + "\n"


@pytest.fixture(scope="module")
def base_build(tmp_path_factory) -> Path:
    """The plain game built once: a map folder with map.yml, map/games/frontier_1939.xml and texts."""
    out = tmp_path_factory.mktemp("base")
    done, _ = run_bounded(["build", str(PLAIN_GAME), "-o", str(out)])
    assert done.returncode == 0, done.stderr
    return out / "frontier_1939"


@pytest.fixture
def base(base_build, tmp_path) -> Path:
    """A fresh copy of the base map folder, for one test to plant things in."""
    folder = tmp_path / "maps" / "frontier_1939"
    shutil.copytree(base_build, folder)
    return folder


def _mod(tmp_path: Path, base: Path, name: str, file: str) -> Path:
    spec = tmp_path / f"{file}.yaml"
    xml = (base / "map" / "games" / "frontier_1939.xml").as_posix()
    spec.write_text(f"mod: {{name: {yaml.safe_dump(name, allow_unicode=False).splitlines()[0]}, version: '1', "
                    f"base: {xml}}}\n", encoding="utf-8")
    return spec


def _build(spec: Path, out: Path):
    done, _ = run_bounded(["build", str(spec), "-o", str(out)])
    return done


def _listed(listing: Path) -> list[tuple[str, str]]:
    return [(g["game_name"], g["file_name"]) for g in yaml.safe_load(listing.read_bytes().decode("utf-8"))["games"]]


# ---------------------------------------------------------------- item 3: alias bombs in map.yml

def test_an_alias_bomb_in_the_output_folder_map_yml_is_refused_at_its_first_anchor(base, tmp_path):
    out = tmp_path / "out"
    (out / "frontier_1939").mkdir(parents=True)
    (out / "frontier_1939" / "map.yml").write_text(ALIAS_BOMB)
    done = _build(_mod(tmp_path, base, "Mod", "mod"), out)
    assert done.returncode == 2, done.stderr
    assert f"{out / 'frontier_1939' / 'map.yml'}:1:5: error[TG026]: an anchor ('&a0')" in done.stderr
    assert (out / "frontier_1939" / "map.yml").read_text() == ALIAS_BOMB  # left as it was


def test_an_alias_bomb_in_the_base_map_yml_is_refused(base, tmp_path):
    (base / "map.yml").write_text(ALIAS_BOMB)
    done = _build(_mod(tmp_path, base, "Mod", "mod"), tmp_path / "out")
    assert done.returncode == 2, done.stderr
    assert f"{base / 'map.yml'}:1:5: error[TG026]" in done.stderr
    assert not (tmp_path / "out").exists()


def test_an_alias_bomb_in_a_map_dir_map_yml_is_refused_by_validate(base):
    (base / "map.yml").write_text(ALIAS_BOMB)
    done, _ = run_bounded(["validate", str(base / "map" / "games" / "frontier_1939.xml"), "--map-dir", str(base)])
    assert done.returncode == 2, done.stderr
    assert f"{base / 'map.yml'}:1:5: error[TG026]" in done.stderr


def test_a_single_alias_in_map_yml_is_refused_too():
    from generator.core.diagnostics import DiagnosticError
    from generator.read.maplisting import listing_games

    with pytest.raises(DiagnosticError) as err:
        listing_games(b"map_name: m\nname: &n Game\ngames:\n- {game_name: *n, file_name: a.xml}\n", "map.yml")
    assert str(err.value).startswith("map.yml:2:7: error[TG026]: an anchor ('&n')")


# ---------------------------------------------------------------- item 4: hostile names in map.yml

@pytest.mark.parametrize("hostile", ["Evil\x7fMod", "Evil\x85Mod", "Evil\x9bMod", "Evil\u2028Mod", "Evil\ufeffMod",
                                     'Quote"Back\\slash', "Tab\tNew\nLine"])
def test_a_hostile_mod_name_keeps_every_game_in_map_yml(base, tmp_path, hostile):
    out = tmp_path / "out"
    first = _build(_mod(tmp_path, base, hostile, "evil"), out)
    assert first.returncode == 0, first.stderr
    second = _build(_mod(tmp_path, base, "Good", "good"), out)
    assert second.returncode == 0, second.stderr
    assert _listed(out / "frontier_1939" / "map.yml") == [("Frontier 1939", "frontier_1939.xml"),
                                                         (hostile, "evil.xml"), ("Good", "good.xml")]


def test_an_existing_listing_that_does_not_parse_is_an_error_and_left_as_it_is(base, tmp_path):
    out = tmp_path / "out"
    broken = b'map_name: "frontier_1939"\ngames:\n- {game_name: "Evil\x7fMod", file_name: "evil.xml"}\n'
    (out / "frontier_1939").mkdir(parents=True)
    (out / "frontier_1939" / "map.yml").write_bytes(broken)  # what the old writer made of a DEL
    done = _build(_mod(tmp_path, base, "Good", "good"), out)
    assert done.returncode == 2, done.stderr
    assert f"{out / 'frontier_1939' / 'map.yml'}:3:20: error[TG027]: map.yml does not parse" in done.stderr
    assert (out / "frontier_1939" / "map.yml").read_bytes() == broken
    assert not (out / "frontier_1939" / "map" / "games" / "good.xml").exists()


def test_a_listing_that_would_not_read_back_is_not_written():
    from generator.core.diagnostics import DiagnosticError
    from generator.write.modfolder.listing import merge_listing

    with pytest.raises(DiagnosticError) as err:
        merge_listing([None], "m", [("Lone \ud800 surrogate", "a.xml")])
    assert "error[TG027]: the map.yml to be written does not read back" in str(err.value)


# ---------------------------------------------------------------- item 8: links and huge files

def test_a_base_map_yml_linked_to_an_outside_file_is_refused_not_copied(base, tmp_path):
    secret = tmp_path / "secret.yml"
    secret.write_text("map_name: secret\ngames:\n- {game_name: ssh key here, file_name: id_rsa.xml}\n")
    (base / "map.yml").unlink()
    (base / "map.yml").symlink_to(secret)
    for command in (["build"], ["package"]):
        out = tmp_path / command[0]
        done, _ = run_bounded([*command, str(_mod(tmp_path, base, "Mod", "mod")), "-o", str(out)])
        assert done.returncode == 2, done.stderr
        assert f"{base / 'map.yml'}: error[TG003]: a symbolic link in a map folder" in done.stderr
        assert not out.exists() or not any("ssh key" in p.read_text(errors="replace")
                                           for p in out.rglob("*") if p.is_file())


def test_a_link_among_the_folders_of_the_base_map_is_refused(base, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(base / "map", elsewhere)
    (elsewhere / "objectives.properties").write_text("secret=from outside the map folder\n")
    shutil.rmtree(base / "map")
    (base / "map").symlink_to(elsewhere)  # the zip's map/ leads out of the map folder
    spec = tmp_path / "mod.yaml"
    spec.write_text("mod: {name: Mod, version: '1', base: {map: frontier_1939, game: frontier_1939.xml}}\n")
    done, _ = run_bounded(["build", str(spec), "-o", str(tmp_path / "out")],
                          env=dict(os.environ, TRIPLEA_MAPS=str(base.parent)))
    assert done.returncode == 2, done.stderr
    assert f"{base / 'map'}: error[TG003]: a symbolic link in a map folder" in done.stderr
    assert not (tmp_path / "out").exists()


def test_a_huge_map_properties_is_refused_with_a_located_error_not_a_memory_error(base, tmp_path):
    with open(base / "map" / "map.properties", "wb") as huge:
        huge.truncate(1_600_000_000)  # sparse: no disk used
    done = _build(_mod(tmp_path, base, "Mod", "mod"), tmp_path / "out")
    assert done.returncode == 2, done.stderr
    assert (f"{base / 'map' / 'map.properties'}: error[TG005]: 1600000000 bytes, more than the 16777216 allowed"
            in done.stderr)


def test_a_fifo_in_the_map_dir_is_refused_without_blocking(base, tmp_path):
    (base / "map" / "polygons.txt").unlink(missing_ok=True)
    os.mkfifo(base / "map" / "polygons.txt")
    done, seconds = run_bounded(["validate", str(base / "map" / "games" / "frontier_1939.xml"),
                                 "--map-dir", str(base)])
    assert done.returncode == 2, done.stderr
    assert f"{base / 'map' / 'polygons.txt'}: error[TG004]: not a regular file" in done.stderr


def test_the_map_folder_reader_refuses_links_specials_and_size(tmp_path):
    from generator.core.diagnostics import DiagnosticError
    from generator.read.mapfiles import list_map_folder, map_file_exists, read_map_file

    (tmp_path / "units" / "Germans").mkdir(parents=True)
    (tmp_path / "units" / "Germans" / "infantry.png").write_bytes(b"png")
    (tmp_path / "units" / "Germans" / "tank.png").symlink_to("/etc/passwd")
    (tmp_path / "units" / "Linked").symlink_to(tmp_path / "units" / "Germans")
    assert read_map_file(tmp_path, "units/Germans/infantry.png") == b"png"
    assert read_map_file(tmp_path, "units/Germans/missing.png") is None
    assert read_map_file(tmp_path, "units") is None  # a folder is no file
    assert list_map_folder(tmp_path, "units") == (["Germans"], [])
    assert list_map_folder(tmp_path, "units/Germans") == ([], ["infantry.png"])
    for relpath, code in (("units/Germans/tank.png", "TG003"), ("units/Linked/infantry.png", "TG003")):
        with pytest.raises(DiagnosticError) as err:
            read_map_file(tmp_path, relpath)
        assert err.value.diagnostics[0].code == code, relpath
        with pytest.raises(DiagnosticError):
            map_file_exists(tmp_path, relpath)
    with open(tmp_path / "big.properties", "wb") as big:
        big.truncate(16 * 1024 * 1024 + 1)
    with pytest.raises(DiagnosticError) as err:
        read_map_file(tmp_path, "big.properties")
    assert err.value.diagnostics[0].code == "TG005"


def test_a_linked_map_subfolder_of_the_map_dir_is_refused(base, tmp_path):
    game = tmp_path / "game.xml"
    shutil.copy(base / "map" / "games" / "frontier_1939.xml", game)
    (base / "map").rename(tmp_path / "elsewhere")
    (base / "map").symlink_to(tmp_path / "elsewhere")
    done, _ = run_bounded(["validate", str(game), "--map-dir", str(base)])
    assert done.returncode == 2, done.stderr
    assert f"{base / 'map'}: error[TG003]: a symbolic link in a map folder" in done.stderr


def test_a_listing_that_parses_to_no_mapping_lists_no_games_and_is_written_anew():
    from generator.write.modfolder.listing import merge_listing

    merged = merge_listing([b"previous listing"], "m", [("Mod", "mod.xml")])
    assert yaml.safe_load(merged) == {"map_name": "m", "games": [{"game_name": "Mod", "file_name": "mod.xml"}]}
