"""From raw play reports to the numbers of balance.json: one record per game (who won, how, and
each player's values per round) and per variant the win rate of each side with its Wilson
interval. Plain functions of plain data, so that the tests can check them on games played by hand."""
from __future__ import annotations

import math
import statistics

from generator.balance.games import PER_ROUND, RECORD_VERSION, PlayResult
from generator.balance.variants import Variant
from generator.core.enginename import EngineName

# When no victory condition fired, the game's winner is the side that leads in this at the end.
MEASURE = "production"
Z95 = 1.959963984540054


def wilson(wins: int, games: int) -> list[float]:
    """The 95 % Wilson score interval of a rate of wins in games ([0, 1] for no games)."""
    if games <= 0:
        return [0.0, 1.0]
    rate = wins / games
    centre = rate + Z95 * Z95 / (2 * games)
    spread = Z95 * math.sqrt(rate * (1 - rate) / games + Z95 * Z95 / (4 * games * games))
    denominator = 1 + Z95 * Z95 / games
    return [round(max(0.0, (centre - spread) / denominator), 4), round(min(1.0, (centre + spread) / denominator), 4)]


def game_record(variant: Variant, seed: int, rounds: int, played: PlayResult) -> dict:
    """The record of one game from play_task's result (see games.play_task)."""
    report = played.get("report")
    record: dict[str, object] = {
        "variant": variant.name, "seed": seed, "winner": None, "decided_by": None, "victory_round": None,
        "rounds": 0, "rounds_requested": rounds, "stopped_by": None, "worker": played.get("worker"),
        "seconds": played.get("seconds"), "repeatable": None, "error": played.get("error"),
        "record_version": RECORD_VERSION}
    # key -> player -> the value at the end of each round; in the record after the keys above
    series: dict[str, dict[str, list[float]]] = {}
    for key in PER_ROUND:
        record[key] = series[key] = {player: [] for player in variant.players}
    if report is None:
        return record
    record["stopped_by"] = report.get("stopped_by")
    # 2.x's units hash by random UUIDs, which the harness does not fix yet (1.9's GUIDs it does):
    # its games are not known to repeat.
    record["repeatable"] = bool(report.get("ai_randomness_seeded")) and not played.get("warm") \
        and played.get("engine", EngineName.V1_9) == EngineName.V1_9
    record["rounds"] = report.get("rounds_completed", 0)
    if report.get("exceptions") and record["error"] is None:
        first = report["exceptions"][0]
        record["error"] = f"TG311: {first.get('kind')} exception in round {first.get('round')}, step " \
                          f"{first.get('step')}: {first.get('message')}"
    if report.get("stopped_by") not in ("rounds", "game over") and record["error"] is None:
        record["error"] = f"stopped by {report.get('stopped_by')}"
    for entry in report.get("round_stats") or []:
        for player in variant.players:
            state = entry["players"].get(player, {})
            values = dict(state, unit_value=unit_value(state.get("units", {}), variant.unit_costs))
            for key in PER_ROUND:
                series[key][player].append(values.get(key, 0))
    winners = report.get("winners")
    if winners:
        record["winner"] = side_of(winners, variant.sides)
        record["decided_by"] = "victory"
        stats = report.get("round_stats") or []
        record["victory_round"] = stats[-1]["round"] if stats else None
    elif record["error"] is None:
        record["winner"] = leader(record, variant)
        record["decided_by"] = MEASURE
    return record


def unit_value(units: dict[str, int], costs: dict[str, float]) -> float:
    return round(sum(count * costs.get(unit, 0.0) for unit, count in units.items()), 2)


def side_of(players: list[str], sides: dict[str, str]) -> str:
    """The side the winning players make up (their alliance), else the players themselves."""
    found = {sides.get(player, player) for player in players}
    return found.pop() if len(found) == 1 else " + ".join(sorted(players))


def leader(record: dict, variant: Variant) -> str | None:
    """The side with the most production held at the end; None on a tie or with no rounds."""
    totals: dict[str, int] = {}
    for player in variant.players:
        values = record[MEASURE][player]
        if player not in variant.sides:
            continue  # a player of no side
        if not values:
            return None
        totals[variant.sides[player]] = totals.get(variant.sides[player], 0) + values[-1]
    if not totals:
        return None
    best = max(totals.values())
    leaders = [side for side, total in totals.items() if total == best]
    return leaders[0] if len(leaders) == 1 else None


def variant_summary(variant: Variant, records: list[dict]) -> dict:
    counted = [r for r in records if r["error"] is None]
    win_rate = {}
    for side in variant.side_names():
        wins = sum(1 for r in counted if r["winner"] == side)
        win_rate[side] = {"wins": wins, "games": len(counted), "rate": round(wins / len(counted), 4) if counted else None,
                          "ci95": wilson(wins, len(counted)),
                          "by_victory": sum(1 for r in counted if r["winner"] == side and r["decided_by"] == "victory")}
    return {"label": variant.label, "game_hash": variant.digest, "games": len(records), "counted": len(counted),
            "failed": len(records) - len(counted), "draws": sum(1 for r in counted if r["winner"] is None),
            "decided_by_victory": sum(1 for r in counted if r["decided_by"] == "victory"),
            "not_repeatable": sum(1 for r in records if r["repeatable"] is False),
            "sides": {player: variant.sides.get(player) for player in variant.players},
            "colours": variant.colours, "win_rate": win_rate}


def difference(base: dict, mod: dict, side: str) -> dict | None:
    """The change of a side's win rate from base to mod, with a 95 % interval (Newcombe's method
    from the two Wilson intervals)."""
    b, m = base["win_rate"].get(side), mod["win_rate"].get(side)
    if not b or not m or b["rate"] is None or m["rate"] is None:
        return None
    delta = m["rate"] - b["rate"]
    low = delta - math.sqrt((m["rate"] - m["ci95"][0]) ** 2 + (b["ci95"][1] - b["rate"]) ** 2)
    high = delta + math.sqrt((m["ci95"][1] - m["rate"]) ** 2 + (b["rate"] - b["ci95"][0]) ** 2)
    return {"delta": round(delta, 4), "ci95": [round(low, 4), round(high, 4)]}


def quartiles(series: list[list[float]]) -> list[tuple[float, float, float]]:
    """Per round: (lower quartile, median, upper quartile) over the games that reached it."""
    longest = max((len(s) for s in series), default=0)
    result = []
    for index in range(longest):
        values = sorted(s[index] for s in series if len(s) > index)
        if len(values) == 1:
            result.append((values[0], values[0], values[0]))
        else:
            q = statistics.quantiles(values, n=4, method="inclusive")
            result.append((q[0], statistics.median(values), q[2]))
    return result


CSV_GAME_COLUMNS = ("variant", "seed", "winner", "decided_by", "victory_round", "rounds", "stopped_by", "worker",
                    "seconds", "repeatable", "error")


def games_csv(records: list[dict]) -> str:
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_GAME_COLUMNS)
    for record in records:
        writer.writerow(["" if record[c] is None else record[c] for c in CSV_GAME_COLUMNS])
    return out.getvalue()


def rounds_csv(records: list[dict]) -> str:
    """One row per game, player and round: the per-round values, for spreadsheets."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("variant", "seed", "player", "round", *PER_ROUND))
    for record in records:
        for player in record["income"]:
            for index in range(len(record["income"][player])):
                writer.writerow([record["variant"], record["seed"], player, index + 1,
                                 *(record[key][player][index] for key in PER_ROUND)])
    return out.getvalue()
