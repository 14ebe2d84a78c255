"""A spec's `{{ }}` expressions and its own macros run in a bounded sandbox: no number, string, list,
loop or output without a bound, no unbounded operation folded at compile time (where no check would
run), and a deadline per build. Each hostile case ends in a located error with exit 1 or 2, quickly,
in bounded memory, and leaves the previous build alone."""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from folders import snapshot
from generator.cli.main import main
from generator.render.templates import text_environment

from .bounded import SECONDS, run_bounded
from .hostile_specs import MACRO_HEADER, RULE_LINE, macro_rule, payment_rule, write_mod

EXPRESSIONS = {
    "power folded at compile time": "{{ 9**999999999 }}",
    "string repetition": "{{ 'x' * 2000000000 }}",
    "list repetition": "{{ ([1] * 1000000) * 1000000 }}",
    "padding": "{{ 'x'.ljust(2000000000) }}",
    "format width": "{{ '%2000000000d' % 1 }}",
}

MACRO_BODIES = {
    "nested loops": "{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}",
    "doubling text": "{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}"
                     "{% endfor %}{{ ns.s }}",
    "filter width": "{{ 'x' | center(2000000000) }}",
    "joined copies": "{{ (['y' * 999999] * 99999) | join }}",
    "width in a mapping": "{{ '{x:{w}}'.format_map({'x': 1, 'w': 2000000000}) }}",
    "growing replacement": "{{ ('x' * 1000000) | replace('', 'y' * 999999) }}",
}


def assert_refused(done, seconds: float, spec: Path, out: Path, before: dict, code: str, line: int) -> None:
    assert done.returncode in (1, 2), done.stderr[-2000:]
    assert re.search(rf"spec\.yaml:{line}:\d+: error\[{code}\]", done.stderr), done.stderr[-2000:]
    assert "hint:" in done.stderr
    assert seconds < SECONDS
    assert snapshot(out) == before


@pytest.fixture
def good_build(tmp_path: Path) -> tuple[Path, dict]:
    spec = write_mod(tmp_path / "good", payment_rule("{{ 3 - round }}"))
    out = tmp_path / "out"
    assert main(["build", str(spec), "-o", str(out)]) == 0
    return out, snapshot(out)


@pytest.mark.parametrize("expression", EXPRESSIONS.values(), ids=EXPRESSIONS.keys())
def test_an_unbounded_expression_in_a_spec_is_refused(expression: str, tmp_path: Path, good_build):
    out, before = good_build
    spec = write_mod(tmp_path / "hostile", payment_rule(expression))
    done, seconds = run_bounded(["build", str(spec), "-o", str(out)])
    assert_refused(done, seconds, spec, out, before, "TG066", RULE_LINE + 4)  # the line of with:


@pytest.mark.parametrize("body", MACRO_BODIES.values(), ids=MACRO_BODIES.keys())
def test_an_unbounded_macro_is_refused(body: str, tmp_path: Path, good_build):
    out, before = good_build
    spec = write_mod(tmp_path / "hostile", macro_rule("bomb"),
                     {"bomb.xml.j2": MACRO_HEADER + f"<fragment>{body}</fragment>"})
    done, seconds = run_bounded(["build", str(spec), "-o", str(out)])
    assert_refused(done, seconds, spec, out, before, "TG066", RULE_LINE)


def test_a_loop_range_is_refused_before_it_is_made(tmp_path: Path, good_build):
    out, before = good_build
    spec = write_mod(tmp_path / "hostile", payment_rule("{{ 1 }}", loop="{round: 1..2000000000}"))
    done, seconds = run_bounded(["build", str(spec), "-o", str(out)])
    assert_refused(done, seconds, spec, out, before, "TG065", RULE_LINE + 2)  # the line of for:
    assert "2000000000 values" in done.stderr


def test_a_build_whose_templates_run_past_the_deadline_stops(tmp_path: Path, good_build, monkeypatch, capsys):
    """Exponential recursion: small values, no loop, only time; with the deadline at 1 s for the test."""
    monkeypatch.setattr("generator.render.sandbox.MAX_SECONDS", 1.0)
    out, before = good_build
    recursion = ("{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}"
                 "<fragment>{{ f(60) }}</fragment>")
    spec = write_mod(tmp_path / "hostile", macro_rule("slow"), {"slow.xml.j2": MACRO_HEADER + recursion})
    started = time.monotonic()
    status = main(["build", str(spec), "-o", str(out)])
    err = capsys.readouterr().err
    assert status in (1, 2)
    assert f"spec.yaml:{RULE_LINE}:5: error[TG066]: rule R1: templates ran for more than 1 seconds" in err
    assert time.monotonic() - started < 10
    assert snapshot(out) == before


def test_bounds_leave_ordinary_template_code_alone():
    """What macros do every day (arithmetic, short repetitions, joins, loops over a game) still works."""
    text = ("{% for i in range(3) %}{{ i * 2 }}{{ '-' * 3 }}{% endfor %}|{{ ['a', 'b'] | join(',') }}|"
            "{{ 2 ** 10 }}|{{ '%05d' % 42 }}|{{ 'ab' ~ 'cd' }}|{{ 'x'.center(5) }}")
    assert text_environment().from_string(text).render() == "0---2---4---|a,b|1024|00042|abcd|  x  "


def test_an_included_template_repeated_in_loops_is_bounded(tmp_path: Path, good_build):
    """The included text is charged on each include, even one rendered once and replayed (without context)."""
    out, before = good_build
    body = ("<fragment>{% for i in range(100000) %}{% for j in range(10) %}{% include '_big.j2' without context %}"
            "{% endfor %}{% endfor %}</fragment>")
    spec = write_mod(tmp_path / "hostile", macro_rule("bomb"),
                     {"bomb.xml.j2": MACRO_HEADER + body, "_big.j2": "y" * 100_000})
    done, seconds = run_bounded(["build", str(spec), "-o", str(out)])
    assert_refused(done, seconds, spec, out, before, "TG066", RULE_LINE)


def test_the_time_bound_counts_processor_time_not_a_busy_machine():
    """A big mod on a loaded machine (CI beside other jobs) must not hit the bound: waiting for a
    core costs no processor time. Templates that really compute for that long still do."""
    import time

    from generator.render import sandbox

    with sandbox.build_budget(0.3):
        time.sleep(0.5)  # the wall clock passes the deadline, the process does nothing
        sandbox._tick()
        started = time.process_time()
        with pytest.raises(sandbox.SandboxLimit, match="more than 0.3 seconds"):
            while time.process_time() - started < 5:
                sandbox._tick()
        assert time.process_time() - started < 1.0
