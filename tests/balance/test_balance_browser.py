"""The balance report in a real browser (Debian's headless Chromium): the page loads with no
console error, the verdict comes first, every plot image loads, and a screenshot is taken
(kept in $TRIPLEA_GEN_SCREENSHOTS when set). The games are made up: the page is what is tested."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from generator.balance.lab import Settings, results, write_results
from generator.balance.stats import game_record
from conftest import missing
from tests.balance.browser import Browser, browser_missing
from tests.balance.test_balance_stats import hex_variant, report


@pytest.fixture(autouse=True)
def browser_installed():
    """Skips without Chromium and ChromeDriver, or fails under the CI switch: the README's test
    command installs them (`engine install --browser`)."""
    problem = browser_missing()
    if problem is not None:
        missing(str(problem))


def made_up_games():
    base, mod = hex_variant("base"), hex_variant("mod")
    base.colours = mod.colours = {"Reds": "#b22222", "Blues": "#1e5aa8", "Greens": "#2e8b57"}
    rounds = [(22, 16, 13), (23, 16, 12), (25, 15, 12)]
    records = [game_record(base, n, 3, report(rounds=[(r + n % 3 - 2, b, g) for r, b, g in rounds])) for n in range(6)]
    records += [game_record(mod, n, 3, report(winners=["Reds"] if n % 2 else None, stopped_by="game over",
                                              rounds=[(r + n, b, g) for r, b, g in rounds][: 2 + n % 2]))
                for n in range(6)]
    return [base, mod], records


def test_the_report_loads_in_chromium_with_its_plots(tmp_path: Path):
    variants, records = made_up_games()
    settings = Settings(games=6, rounds=3, seed=0)
    data = results(variants, settings, records)
    written = write_results(tmp_path / "report", variants, data)
    pngs = sorted(p.name for p in written if p.suffix == ".png")
    assert pngs == ["income.png", "territories.png", "unit_value.png", "victory_round.png", "win_rates.png"]
    with Browser(tmp_path / "profile") as browser:
        browser.open((tmp_path / "report" / "index.html").as_uri())
        images = browser.run("return Array.from(document.images).map("
                             "i => [i.getAttribute('src'), i.complete, i.naturalWidth, i.naturalHeight]);")
        text = browser.run("return document.body.innerText;")
        errors = [entry for entry in browser.console() if entry.get("level") == "SEVERE"]
        shot = browser.screenshot(tmp_path / "balance-report.png")
    assert not errors, errors
    assert sorted(src for src, *_ in images) == pngs
    assert all(complete and width > 300 and height > 200 for _, complete, width, height in images), images
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines[0] == "Balance: what the mod does"
    assert lines[1].startswith("Empire win rate 0 % → 50 % (+50 points, 95 % interval")
    assert shot.stat().st_size > 20_000
    keep = os.environ.get("TRIPLEA_GEN_SCREENSHOTS")
    if keep:
        shutil.copy(shot, Path(keep) / shot.name)
