"""Output into an existing map folder merges: map.yml keeps every game listed there and in the
base, properties and text files gain entries and never lose one, and a mod's package unzips over
the real base map folder adding files without removing or changing any of the map's own."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from conftest import GLOBAL_MAP_DIR, REPO, SHARED, requires_engine, requires_shared
from generator.cli.main import main
from generator.write.modfolder.listing import merge_listing
from generator.read.propfile import merge_properties, read_properties
from generator.builder.package import safe_extract

S004 = REPO / "rules_yaml" / "s004_corrupting_g40.yaml"
FIXTURE = REPO / "tests" / "fixtures" / "g40_player_ready.yaml"
BASE_LISTING = GLOBAL_MAP_DIR / "map.yml"
MERGED_FILES = {"map.yml", "map/map.properties", "map/notifications.properties", "map/politicstext.properties",
                "map/actionstext.properties", "map/objectives.properties"}
needs_shared = requires_shared


def _listed(folder: Path) -> list[str]:
    return [g["file_name"] for g in yaml.safe_load((folder / "map.yml").read_text())["games"]]


# --- map.yml -------------------------------------------------------------------------------------

LISTING = b"map_name: some_map\ngames:\n  - game_name: First\n    file_name: first.xml\n"


def test_listing_appends_to_the_existing_file_byte_for_byte():
    merged = merge_listing([LISTING], "x", [("Second: the sequel", "second.xml")])
    assert merged.startswith(LISTING)
    data = yaml.safe_load(merged)
    assert data["map_name"] == "some_map"
    assert data["games"] == [{"game_name": "First", "file_name": "first.xml"},
                             {"game_name": "Second: the sequel", "file_name": "second.xml"}]
    assert merge_listing([merged], "x", [("Second: the sequel", "second.xml")]) == merged


def test_listing_keeps_games_of_the_base_and_of_the_output_folder():
    output = merge_listing([None, LISTING], "x", [("Mod A", "a.xml")])
    both = merge_listing([output, LISTING], "x", [("Mod B", "b.xml")])
    assert [g["file_name"] for g in yaml.safe_load(both)["games"]] == ["first.xml", "a.xml", "b.xml"]
    # an output folder whose map.yml lost a base game gets it back
    lost = b"map_name: some_map\ngames:\n- {game_name: Mod A, file_name: a.xml}\n"
    assert [g["file_name"] for g in yaml.safe_load(merge_listing([lost, LISTING], "x", []))["games"]] == \
        ["a.xml", "first.xml"]


def test_listing_of_an_unusual_layout_is_rewritten_with_every_game():
    odd = b"games:\n  - {game_name: First, file_name: first.xml}\nmap_name: some_map\n"
    merged = yaml.safe_load(merge_listing([odd], "x", [("Two", "two.xml")]))
    assert merged == {"map_name": "some_map", "games": [{"game_name": "First", "file_name": "first.xml"},
                                                        {"game_name": "Two", "file_name": "two.xml"}]}


# --- properties ----------------------------------------------------------------------------------

def test_properties_gain_entries_and_a_rebuild_replaces_only_its_own():
    base = b"# the map's\ncolor.Germans=5a5a5a\nkey.without.newline=1"
    first = merge_properties(base, [("color.Vichy", "7B68EE"), ("color.Germans", "000000")], "a.xml")
    assert first.startswith(base + b"\n") and read_properties(first)["color.Germans"] == "5a5a5a"
    second = merge_properties(first, [("color.Soviet_Burden", "483D8B")], "b.xml")
    assert second.startswith(first)
    again = merge_properties(second, [("color.Vichy", "112233")], "a.xml")  # a.xml rebuilt, colour changed
    assert again.startswith(base + b"\n")
    assert read_properties(again) == {"color.Germans": "5a5a5a", "key.without.newline": "1",
                                      "color.Soviet_Burden": "483D8B", "color.Vichy": "112233"}
    assert merge_properties(again, [("color.Vichy", "112233")], "a.xml") is None  # nothing to write


# --- two mods into one folder --------------------------------------------------------------------

@pytest.fixture(scope="module")
def two_orders(tmp_path_factory) -> dict[str, Path]:
    """s004 then the player-ready mod into one folder, and the other order into another."""
    folders = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
        for order, specs in (("s004_first", (S004, FIXTURE)), ("fixture_first", (FIXTURE, S004))):
            out = tmp_path_factory.mktemp(order)
            for spec in specs:
                assert main(["build", str(spec), "-o", str(out)]) == 0
            folders[order] = out / "world_war_ii_global"
    return folders


@needs_shared
@pytest.mark.parametrize("order", ["s004_first", "fixture_first"])
def test_two_mods_in_either_order_keep_both_games_and_every_base_game(two_orders, order):
    folder = two_orders[order]
    listed = _listed(folder)
    base_games = _listed(GLOBAL_MAP_DIR)
    assert set(base_games) | {"s004_corrupting_g40.xml", "g40_player_ready.xml"} == set(listed)
    assert len(listed) == len(set(listed))
    assert (folder / "map.yml").read_bytes().startswith(BASE_LISTING.read_bytes())
    content = folder / "map"
    assert read_properties((content / "map.properties").read_bytes()).get("color.Vichy")
    politics = read_properties((content / "politicstext.properties").read_bytes())
    assert "S004_R28_War.BUTTON" in politics and politics["PR_Mongolia.BUTTON"] == "Invade Mongolia"
    actions = read_properties((content / "actionstext.properties").read_bytes())
    assert "Accept_French_Surrender.BUTTON" in actions and "PR_War_Bonds.BUTTON" in actions
    assert (content / "units" / "Vichy" / "infantry.png").is_file()
    assert (content / "units" / "Germans" / "elite_infantry.png").is_file()


@needs_shared
def test_the_two_orders_hold_the_same_entries(two_orders):
    first, second = two_orders["s004_first"] / "map", two_orders["fixture_first"] / "map"
    for name in ("map.properties", "politicstext.properties", "actionstext.properties",
                 "notifications.properties", "objectives.properties"):
        assert read_properties((first / name).read_bytes()) == read_properties((second / name).read_bytes()), name


@needs_shared
@requires_engine
def test_both_games_of_the_merged_folder_load_in_the_engine(two_orders):
    from generator.engine.harness import check_games

    games = sorted((two_orders["s004_first"] / "map" / "games").glob("*.xml"))
    assert [g.name for g in games] == ["g40_player_ready.xml", "s004_corrupting_g40.xml"]
    verdicts = check_games(games)
    assert all(v.ok for v in verdicts), [v.error for v in verdicts]


# --- the package over the base map folder --------------------------------------------------------

@needs_shared
def test_package_unzipped_over_the_base_folder_only_adds(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    assert main(["package", str(S004), "-o", str(tmp_path / "dist")]) == 0
    (archive,) = (tmp_path / "dist").glob("*.zip")
    maps = tmp_path / "downloadedMaps"
    installed = maps / "world_war_ii_global"
    shutil.copytree(GLOBAL_MAP_DIR, installed)
    before = {p.relative_to(installed).as_posix(): p.read_bytes() for p in installed.rglob("*") if p.is_file()}
    written = safe_extract(archive, maps)
    after = {p.relative_to(installed).as_posix(): p.read_bytes() for p in installed.rglob("*") if p.is_file()}
    assert set(before) <= set(after)  # nothing removed
    changed = {name for name in before if after[name] != before[name]}
    assert changed and changed <= MERGED_FILES
    for name in changed:  # a merged file keeps every line of the map's own, in order, at its start
        assert after[name].startswith(before[name] if before[name].endswith(b"\n") else before[name] + b"\n")
    added = set(after) - set(before)
    assert "map/games/s004_corrupting_g40.xml" in added and "map/flags/Vichy_small.png" in added
    assert {p.relative_to(installed).as_posix() for p in written} == added | changed
    readme = next(p for p in written if p.name.endswith("README.txt")).read_text()
    assert "deletes nothing" in readme and "replace map.yml" not in readme
    assert set(_listed(GLOBAL_MAP_DIR)) | {"s004_corrupting_g40.xml"} == set(_listed(installed))


def test_a_drawn_map_built_beside_another_game_keeps_that_games_texts(tmp_path: Path):
    """Found by the command fuzz (seed 1598100486): a game drawing its own map was written with its text
    files made whole, so another game built into the same map folder lost its objective lines."""
    from conftest import PLAIN_GAME

    other = tmp_path / "other_mod.yaml"
    shutil.copy(PLAIN_GAME, other)  # the same map name (frontier_1939), no map of its own
    out = tmp_path / "out"
    assert main(["build", str(other), "-o", str(out)]) == 0
    objectives = out / "frontier_1939" / "map" / "objectives.properties"
    before = [line for line in objectives.read_text(encoding="latin-1").splitlines() if "other_mod" in line.lower()]
    assert before, "the other game wrote objective lines"
    assert main(["build", str(REPO / "rules_yaml" / "frontier_1939.yaml"), "-o", str(out)]) == 0
    after = objectives.read_text(encoding="latin-1").splitlines()
    assert [line for line in before if line not in after] == []
    assert "other_mod.xml" in _listed(out / "frontier_1939")
