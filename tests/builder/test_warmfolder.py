"""The map-folder stage of a warm build (generator.builder.warmfolder) is reused after an edit that
changes nothing it reads, and run again when a file it read changed: the build is a cold one's."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from conftest import SHARED, SHARED_MISSING
from folders import snapshot
from generator.read import mapfiles

MOD = """\
mod:
  name: Warm Folder Mod
  version: "1.0"
  base: {map: world_war_ii_global, game: ww2global40_2nd_edition.xml}
  engine: "1.9"
change:
  units:
    cruiser: {cost: 11}
rules:
  - id: B1
    text: Germany earns 2 PUs while it holds Poland and Denmark.
    use: national_objective
    with: {player: Germans, amount: 2, owns: [Poland, Denmark]}
"""


@pytest.fixture
def warm_mod(tmp_path, monkeypatch):
    if not SHARED.is_dir():
        pytest.skip(SHARED_MISSING)
    from generator.speclang.basecache import keep_in_memory

    monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    monkeypatch.chdir(tmp_path)
    keep_in_memory()
    spec = tmp_path / "mod.yaml"
    spec.write_text(MOD, encoding="utf-8")
    return spec


def _calls_of_price_edits(spec, calls: list) -> list:
    """What `calls` holds after a build and two warm rebuilds, each after a price edit, of which
    only the rebuilds' calls are kept."""
    _build(spec, spec.parent / "out")
    for cost in (12, 13):
        spec.write_text(MOD.replace("cost: 11", f"cost: {cost}"), encoding="utf-8")
        calls.clear()
        _build(spec, spec.parent / "out")
    return calls


def _build(spec, out):
    from generator.builder.outputs import build_spec

    build_spec(str(spec), str(out), only_changed=True)


def _cold(spec, out):
    from generator.render import sections

    kept, sections._warm = sections._warm, None  # a cold build in this process: nothing kept
    try:
        _build(spec, out)
    finally:
        sections._warm = kept


def test_price_edits_do_not_work_out_what_the_game_needs_of_its_map_folder_again(warm_mod, monkeypatch):
    from generator.check import mapfolder

    calls = []
    needs = mapfolder.game_needs
    monkeypatch.setattr(mapfolder, "game_needs", lambda root: calls.append(1) or needs(root))
    _build(warm_mod, warm_mod.parent / "out")
    for cost in (12, 13, 14):
        warm_mod.write_text(MOD.replace("cost: 11", f"cost: {cost}"), encoding="utf-8")
        calls.clear()
        _build(warm_mod, warm_mod.parent / "out")
    assert calls == []  # the last rebuilds reused the additions and the check


def test_files_removed_from_the_output_folder_are_written_again(warm_mod, capsys):
    out, cold = warm_mod.parent / "out", warm_mod.parent / "cold"
    _build(warm_mod, out)
    for cost in (12, 13):  # the stage kept, its reads as they were
        warm_mod.write_text(MOD.replace("cost: 11", f"cost: {cost}"), encoding="utf-8")
        _build(warm_mod, out)
    (out / "world_war_ii_global" / "map.yml").unlink()
    (out / "world_war_ii_global" / "map" / "objectives.properties").unlink()
    warm_mod.write_text(MOD.replace("cost: 11", "cost: 14"), encoding="utf-8")
    capsys.readouterr()
    _build(warm_mod, out)
    warm_said = capsys.readouterr().err
    _cold(warm_mod, cold)
    assert capsys.readouterr().err == warm_said
    assert snapshot(out) == snapshot(cold)


def test_a_trace_holds_while_every_read_answers_the_same(tmp_path):
    (tmp_path / "flags").mkdir()
    (tmp_path / "flags" / "Germans.png").write_bytes(b"png")
    (tmp_path / "map.properties").write_bytes(b"color.Germans=777777\n")
    with mapfiles.tracing() as trace:
        assert mapfiles.FolderListings().exists(tmp_path, "flags/Germans.png")
        assert not mapfiles.FolderListings().exists(tmp_path, "flags/Italians.png")
        assert mapfiles.read_map_file(tmp_path, "map.properties") == b"color.Germans=777777\n"
        assert mapfiles.read_map_file(tmp_path, "polygons.txt") is None
    assert mapfiles.still_answered(trace)
    for change in (lambda: (tmp_path / "flags" / "Italians.png").write_bytes(b"png"),
                   lambda: (tmp_path / "map.properties").write_bytes(b"color.Germans=888888\n"),
                   lambda: (tmp_path / "polygons.txt").write_text("Berlin < (1,1) >\n")):
        before = {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()}
        change()
        assert not mapfiles.still_answered(trace)
        for path in list(tmp_path.rglob("*")):
            if path.is_file() and path not in before:
                path.unlink()
        for path, data in before.items():
            path.write_bytes(data)
        assert mapfiles.still_answered(trace)


def test_a_call_answered_two_ways_within_the_stage_is_never_vouched_for(tmp_path):
    (tmp_path / "map.properties").write_bytes(b"a=1\n")
    with mapfiles.tracing() as trace:
        mapfiles.read_map_file(tmp_path, "map.properties")
        (tmp_path / "map.properties").write_bytes(b"a=2\n")
        mapfiles.read_map_file(tmp_path, "map.properties")
    assert not mapfiles.still_answered(trace)


def test_price_edits_serialise_no_section_and_search_no_route_for_the_validator(warm_mod, monkeypatch):
    """The validator's kept checks (check/warmchecks.py) key each top-level element by the rendered
    section holding it, and keep the map's route bound with the map's section: a price edit leaves
    both, so nothing is serialised to be compared and the routes are not searched again."""
    from generator.check import numbers, warmchecks

    calls = []
    tostring, routes = warmchecks.etree.tostring, numbers.longest_route_bound
    counted = SimpleNamespace(_Element=warmchecks.etree._Element,
                              tostring=lambda *a, **k: calls.append("tostring") or tostring(*a, **k))
    monkeypatch.setattr(warmchecks, "etree", counted)
    monkeypatch.setattr(numbers, "longest_route_bound", lambda m: calls.append("routes") or routes(m))
    assert _calls_of_price_edits(warm_mod, calls) == []


def test_price_edits_keep_the_name_index_of_the_map(warm_mod, monkeypatch):
    """The validator's territory index (validate.index_map) is kept with the map's rendered section
    (check/warmchecks.MapIndexMemo): a price edit does not index the map again."""
    from generator.check.validate import _GameChecker

    calls = []
    index_map = _GameChecker.index_map
    monkeypatch.setattr(_GameChecker, "index_map", lambda self, m: calls.append(1) or index_map(self, m))
    assert _calls_of_price_edits(warm_mod, calls) == []


def test_an_edit_of_the_map_indexes_it_again_and_reports_as_a_cold_build(warm_mod, capsys):
    """A renamed territory re-renders the map's section: the index, the map-folder stage and every
    finding (the base map's files drawing the old name) are a cold build's."""
    from generator.builder import warmfolder

    out, cold = warm_mod.parent / "out", warm_mod.parent / "cold"
    _build(warm_mod, out)
    warm_mod.write_text(MOD.replace("cost: 11", "cost: 12"), encoding="utf-8")
    _build(warm_mod, out)
    renamed = MOD.replace("change:\n", "rename:\n  territories: {Urals: Uralsk}\nchange:\n")
    warm_mod.write_text(renamed, encoding="utf-8")
    capsys.readouterr()
    failed = ""
    try:
        _build(warm_mod, out)
    except Exception as err:  # a refusal must be the cold build's too
        failed = repr(err)
    warm_said = capsys.readouterr().err
    assert warmfolder.last_reused.get("check") is not True
    try:
        _cold(warm_mod, cold)
        cold_failed = ""
    except Exception as err:
        cold_failed = repr(err)
    cold_said = capsys.readouterr().err
    # the same findings; the hints name each build's own output folder
    assert (cold_said.replace("cold/", "out/"), cold_failed.replace("cold/", "out/")) == (warm_said, failed)
    if not failed:
        assert snapshot(out) == snapshot(cold)
