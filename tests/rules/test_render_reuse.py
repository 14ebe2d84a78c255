"""A warm rebuild reuses the macro renders of the last one (generator.rules.rendermemo) only where
nothing they read changed: it renders just the edited rule, and a spec whose edit changes what a kept
render asked of the game, its template, or only where its rules stand, expands as a cold build does."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import REPO
from generator.builder.compiler import forget_warm_state
from generator.builder.pipeline import load_spec
from generator.render.templates import render_game
from generator.rules import expand
from generator.speclang.basecache import keep_in_memory

RULES_BASE = REPO / "tests" / "golden" / "rules" / "base.yaml"

RULES = """\
rules:
  - id: R1
    text: Romania is worth more from round 3, to whoever holds it then.
    use: territory_value
    with: {territories: [Romania], production: 5, rounds: "3"}
  - id: R2
    text: Germany pays Italy in round 2.
    use: round_payment
    with: {payer: Germans, payee: Italians, amount: 2, rounds: "2"}
  - id: R3
    text: Italy pays Germany in round 4.
    use: round_payment
    with: {payer: Italians, payee: Germans, amount: 3, rounds: "4"}
  - id: R4
    text: The Danube is worth 3 (merged into its territory attachment by the fragment).
    use: territory_value
    with: {territories: [Danube], production: 3}
"""


def _spec(owner: str = "Germans", above: str = "", rules: str = RULES) -> str:
    return (f"mod:\n  name: Test\n  version: \"1.0\"\n  base: {RULES_BASE}\n{above}"
            f"change:\n  territories:\n    Romania: {{owner: {owner}}}\n{rules}")


def _expanded(spec: Path) -> tuple:
    """All a load gives the later stages: the game XML, each rule's fragments, names and notes, the
    warnings, and every attachment's and option's position (positions are not in the XML's bytes)."""
    loaded = load_spec(spec)
    game = loaded.game
    positions = [(a.name, a.attach_to, a.pos, [o.pos for o in a.options]) for a in game.attachments or []]
    rules = [(r.id, r.fragments, r.generated, r.details, r.pos) for r in loaded.rules]
    return render_game(game), rules, [d.format() for d in loaded.warnings], positions


def _cold(spec: Path) -> tuple:
    forget_warm_state()
    return _expanded(spec)


@contextmanager
def _warm():
    keep_in_memory()
    try:
        yield
    finally:
        forget_warm_state()


def _count_renders(monkeypatch) -> list[str]:
    """The macros rendered from now on (their names, one entry a render)."""
    rendered: list[str] = []
    environment = expand.macro_environment

    class Counting:
        def __init__(self, env):
            self.env = env

        def get_template(self, name):
            rendered.append(name)
            return self.env.get_template(name)

    monkeypatch.setattr(expand, "macro_environment", lambda folder: Counting(environment(folder)))
    return rendered


def test_a_warm_rebuild_renders_only_the_rule_whose_number_changed(tmp_path, monkeypatch):
    spec = tmp_path / "mod.yaml"
    spec.write_text(_spec(), encoding="utf-8")
    with _warm():
        _expanded(spec)
        rendered = _count_renders(monkeypatch)
        spec.write_text(_spec().replace("amount: 3", "amount: 4"), encoding="utf-8")
        warm = _expanded(spec)
        spec.write_text(_spec().replace("amount: 2", "amount: 1"), encoding="utf-8")
        again = _expanded(spec)  # R1 reused a second time: a fresh copy of its fragment, not the one taken apart
    assert rendered == ["round_payment.xml.j2"] * 3
    assert again == _cold(spec)
    spec.write_text(_spec().replace("amount: 3", "amount: 4"), encoding="utf-8")
    assert warm == _cold(spec)


def test_a_kept_render_is_not_reused_when_the_game_answers_otherwise(tmp_path):
    """R1's own YAML stays as it was; what its macro asked (game.owner(Romania)) changes with the
    spec's change: above it, so its trigger must move to the new owner."""
    spec = tmp_path / "mod.yaml"
    spec.write_text(_spec("Germans"), encoding="utf-8")
    with _warm():
        _expanded(spec)
        spec.write_text(_spec("Italians"), encoding="utf-8")
        warm = _expanded(spec)
    assert b'attachTo="Italians"' in warm[0]
    assert warm == _cold(spec)


def test_a_moved_rule_reuses_its_render_at_its_new_lines(tmp_path, monkeypatch):
    spec = tmp_path / "mod.yaml"
    spec.write_text(_spec(), encoding="utf-8")
    moved = _spec(above="# two lines\n# added above the rules\n")
    with _warm():
        _expanded(spec)
        rendered = _count_renders(monkeypatch)
        spec.write_text(moved, encoding="utf-8")
        warm = _expanded(spec)
    assert rendered == []
    assert warm == _cold(spec)
    assert warm[1][0][4].line == 11  # R1, two lines lower than before


def test_a_changed_macro_template_is_rendered_again(tmp_path):
    (tmp_path / "macros").mkdir()
    template = tmp_path / "macros" / "own_note.xml.j2"
    header = "{#---\ndescription: a note\nparams: {}\n---#}\n"
    template.write_text(header + "<fragment><note>first</note></fragment>\n", encoding="utf-8")
    rules = "rules:\n  - id: R1\n    text: A note.\n    use: own_note\n    with: {}\n"
    spec = tmp_path / "mod.yaml"
    spec.write_text(_spec(rules=rules), encoding="utf-8")
    with _warm():
        _expanded(spec)
        template.write_text(header + "<fragment><note>the second one</note></fragment>\n", encoding="utf-8")
        warm = _expanded(spec)
    assert warm[1][0][3] == ["the second one"]
    assert warm == _cold(spec)


@pytest.mark.parametrize("edit", [("amount: 3", "amount: 4"), ("Germans}", "Italians}")])
def test_a_reused_render_spends_the_budget_a_cold_render_spends(tmp_path, monkeypatch, edit):
    """A replay is charged what the render spent, so a warm build runs out of the template budget
    where a cold one does."""
    left = []
    budget = expand.build_budget

    @contextmanager
    def recorded():
        with budget() as spent:
            yield spent
            left.append((spent.iterations, spent.output))

    monkeypatch.setattr(expand, "build_budget", recorded)
    spec = tmp_path / "mod.yaml"
    spec.write_text(_spec(), encoding="utf-8")
    with _warm():
        _expanded(spec)
        spec.write_text(_spec().replace(*edit), encoding="utf-8")
        _expanded(spec)
    _cold(spec)
    assert left[1] == left[2]


def test_forget_warm_state_forgets_the_kept_renders(tmp_path):
    from generator.rules import rendermemo

    spec = tmp_path / "mod.yaml"
    spec.write_text(_spec(), encoding="utf-8")
    keep_in_memory()
    _expanded(spec)
    assert len(rendermemo._kept[str(spec)].last) == 4
    forget_warm_state()
    assert rendermemo._kept == {}


def test_the_kept_renders_are_bounded_per_spec_and_in_specs(tmp_path, monkeypatch):
    from generator.rules import rendermemo

    monkeypatch.setattr(rendermemo, "MAX_RENDERS", 2)
    spec = tmp_path / "mod.yaml"
    spec.write_text(_spec(), encoding="utf-8")
    with _warm():
        _expanded(spec)
        assert len(rendermemo._kept[str(spec)].last) == 2
        for number in range(rendermemo.MAX_SPECS):
            rendermemo.finish(rendermemo.begin(f"other{number}.yaml"))
        assert str(spec) not in rendermemo._kept and len(rendermemo._kept) == rendermemo.MAX_SPECS
        spec.write_text(_spec().replace("amount: 3", "amount: 4"), encoding="utf-8")
        warm = _expanded(spec)
    assert warm == _cold(spec)
