"""The report a modder reads: index.html with the verdict in words first, then the plots (PNG
files beside it, drawn by matplotlib: win rates with intervals, income, territories and unit value
per player and round as median and quartile band, the round of victory). A page of plain HTML with
no script and nothing fetched from elsewhere."""
from __future__ import annotations

import html
import io

from generator.balance.stats import quartiles
from generator.balance.variants import Variant
from generator.core.enginename import EngineName

CURVES = (("income", "Income per round (PUs)"), ("territories", "Territories held"),
          ("unit_value", "Unit value (PUs, from production costs)"))
FALLBACK_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                    "#bcbd22", "#17becf")


def percent(rate: float | None) -> str:
    return "–" if rate is None else f"{rate * 100:.0f} %"


def verdict_lines(data: dict) -> list[str]:
    """The verdict in words: per side, its win rate from base to mod, with the change's interval."""
    variants = data["variants"]
    base, mod = variants.get("base"), variants.get("mod")
    lines = []
    if base and mod:
        for side, change in (data.get("change") or {}).items():
            b, m = base["win_rate"][side], mod["win_rate"][side]
            if change is None:
                lines.append(f"{side}: no game could be counted.")
                continue
            points, low, high = (round(value * 100) for value in (change["delta"], *change["ci95"]))
            lines.append(f"{side} win rate {percent(b['rate'])} → {percent(m['rate'])} ({points:+d} points, "
                         f"95 % interval {low:+d} to {high:+d}), {b['games']} and {m['games']} games")
    for name, summary in variants.items():
        if summary["failed"]:
            lines.append(f"{name}: {summary['failed']} game(s) failed and are not counted (see the table below).")
        decided, counted = summary["decided_by_victory"], summary["counted"]
        rest = "" if decided == counted else (f"; the other {counted - decided} by {data['settings']['measure']} "
                                              "(marked “by production”)")
        lines.append(f"{name}: {decided} of {counted} games won by a victory condition{rest}.")
        if summary["not_repeatable"]:
            why = ("were played in a warm JVM after other games (--warm)" if data["settings"].get("warm")
                   else "were played in TripleA 2.x, whose unit ids the harness does not fix yet"
                   if data["settings"].get("engine") == EngineName.CURRENT else "could not seed the AI's own randomness")
            lines.append(f"{name}: {summary['not_repeatable']} game(s) {why}: the same seed may not give the same "
                         "game again.")
    return lines


def report_files(variants: list[Variant], data: dict, plots: bool = True) -> dict[str, bytes]:
    images = _plots(variants, data) if plots else {}
    return {"index.html": _page(data, images).encode("utf-8"), **images}


def _page(data: dict, images: dict[str, bytes]) -> str:
    settings = data["settings"]
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
           "<title>Balance: mod against base</title>",
           "<style>body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em}"
           "img{max-width:100%;border:1px solid #ccc;margin:.5em 0}table{border-collapse:collapse}"
           "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}.verdict{font-size:1.2em}</style>",
           "<link rel=\"icon\" href=\"data:,\">",  # no favicon request: the page fetches nothing
           "</head><body>", "<h1>Balance: what the mod does</h1>", "<div class=\"verdict\">"]
    out += [f"<p>{html.escape(line)}</p>" for line in verdict_lines(data)]
    out.append("</div>")
    out.append(f"<p>{settings['games']} games per variant, at most {settings['rounds']} rounds, AI "
               f"{html.escape(settings['ai'])}, seeds {settings['seed']} to {settings['seed'] + settings['games'] - 1}, "
               f"engine {html.escape(settings['engine'])}.</p>")
    out.append("<h2>Variants</h2><table><tr><th>variant</th><th>built from</th><th>games</th><th>counted</th>"
               "<th>side</th><th>wins</th><th>rate</th><th>95 % interval</th></tr>")
    for name, summary in data["variants"].items():
        for side, rate in summary["win_rate"].items():
            out.append(f"<tr><td>{html.escape(name)}</td><td>{html.escape(summary['label'])}</td>"
                       f"<td>{summary['games']}</td><td>{summary['counted']}</td><td>{html.escape(side)}</td>"
                       f"<td>{rate['wins']}</td><td>{percent(rate['rate'])}</td>"
                       f"<td>{percent(rate['ci95'][0])} – {percent(rate['ci95'][1])}</td></tr>")
    out.append("</table>")
    if images:
        out.append("<h2>Plots</h2>")
        for name in images:
            out.append(f"<p><img src=\"{name}\" alt=\"{html.escape(name[:-4].replace('_', ' '))}\"></p>")
    failed = [g for g in data["games"] if g["error"]]
    if failed:
        out.append("<h2>Failed games</h2><ul>")
        out += [f"<li>{html.escape(g['variant'])} seed {g['seed']}: {html.escape(g['error'])}</li>" for g in failed]
        out.append("</ul>")
    out.append("<p>Data: <a href=\"balance.json\">balance.json</a>, <a href=\"games.csv\">games.csv</a>, "
               "<a href=\"rounds.csv\">rounds.csv</a>.</p></body></html>")
    return "\n".join(out) + "\n"


def _plots(variants: list[Variant], data: dict) -> dict[str, bytes]:
    try:
        import matplotlib
    except ImportError:
        return {}
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours: dict[str, str] = {}  # player -> colour, the first variant's that names one
    for variant in variants:
        for index, player in enumerate(variant.players):
            colours.setdefault(player, variant.colours.get(player, FALLBACK_COLOURS[index % len(FALLBACK_COLOURS)]))
    images = {"win_rates.png": _win_rates(plt, data)}
    for key, title in CURVES:
        images[f"{key}.png"] = _curves(plt, variants, data, key, title, colours)
    images["victory_round.png"] = _victory_rounds(plt, data)
    return images


def _png(plt, figure) -> bytes:
    buffer = io.BytesIO()
    # No date or version in the file: the same games give the same bytes.
    figure.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    plt.close(figure)
    return buffer.getvalue()


def _win_rates(plt, data: dict) -> bytes:
    variants = data["variants"]
    sides = list(dict.fromkeys(side for summary in variants.values() for side in summary["win_rate"]))
    figure, axes = plt.subplots(figsize=(8, 4.5))
    width = 0.8 / max(1, len(variants))
    for offset, (name, summary) in enumerate(variants.items()):
        xs: list[float] = []
        rates: list[float] = []
        errors: list[list[float]] = [[], []]  # below and above each rate
        for index, side in enumerate(sides):
            rate = summary["win_rate"].get(side)
            if rate is None or rate["rate"] is None:
                continue
            xs.append(index + (offset - (len(variants) - 1) / 2) * width)
            rates.append(rate["rate"] * 100)
            errors[0].append(max(0.0, (rate["rate"] - rate["ci95"][0]) * 100))
            errors[1].append(max(0.0, (rate["ci95"][1] - rate["rate"]) * 100))
        axes.bar(xs, rates, width, yerr=errors, capsize=4, label=f"{name} ({summary['counted']} games)",
                 color="#9e9e9e" if name == "base" else "#3b6fb6")
    axes.set_xticks(range(len(sides)), sides)
    axes.set_ylim(0, 100)
    axes.set_ylabel("win rate (%), with 95 % interval")
    axes.set_title("Win rate per side: base against mod")
    axes.axhline(50, color="#555", linewidth=0.8, linestyle=":")
    axes.legend()
    return _png(plt, figure)


def _curves(plt, variants: list[Variant], data: dict, key: str, title: str, colours: dict) -> bytes:
    from matplotlib.ticker import MaxNLocator

    figure, axes = plt.subplots(figsize=(11, 5.5))
    styles = {"mod": "-", "base": "--"}
    for variant in variants:
        games = [g for g in data["games"] if g["variant"] == variant.name and not g["error"]]
        for player in (p for p in variant.players if p in variant.sides):  # the players of a side
            series = [g[key][player] for g in games if g[key].get(player)]
            if not series:
                continue
            bands = quartiles(series)
            rounds = list(range(1, len(bands) + 1))
            axes.plot(rounds, [b[1] for b in bands], styles.get(variant.name, "-"), color=colours[player],
                      label=f"{player} ({variant.name})", linewidth=2)
            axes.fill_between(rounds, [b[0] for b in bands], [b[2] for b in bands], color=colours[player],
                              alpha=0.15 if variant.name == "mod" else 0.07)
    axes.set_xlabel("round")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylabel(title)
    axes.set_title(f"{title}: median and quartiles (mod solid, base dashed)")
    axes.legend(fontsize="small", ncol=2, loc="upper left", bbox_to_anchor=(1.01, 1.0))  # beside the curves
    axes.grid(alpha=0.3)
    figure.tight_layout()
    return _png(plt, figure)


def _victory_rounds(plt, data: dict) -> bytes:
    from matplotlib.ticker import MaxNLocator

    figure, axes = plt.subplots(figsize=(8, 4))
    rounds = data["settings"]["rounds"]
    drawn = False
    for name in data["variants"]:
        won = [g["victory_round"] for g in data["games"] if g["variant"] == name and g["decided_by"] == "victory"
               and g["victory_round"] is not None]
        if won:
            axes.hist(won, bins=range(1, rounds + 2), alpha=0.6, label=f"{name} ({len(won)} victories)",
                      color="#9e9e9e" if name == "base" else "#3b6fb6")
            drawn = True
    if not drawn:
        axes.text(0.5, 0.5, "no game was won by a victory condition", ha="center", va="center",
                  transform=axes.transAxes)
    axes.set_xlabel("round of victory")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylabel("games")
    axes.set_title("Round in which a victory condition ended the game")
    if drawn:
        axes.legend()
    return _png(plt, figure)
