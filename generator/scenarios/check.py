"""A scenario's expectations compared with the engine's report of the game it played: each
expectation passes or fails with the evidence (the history line of a fired trigger, the value
found)."""
from __future__ import annotations

from dataclasses import dataclass

from generator.scenarios.spec import Expectation


@dataclass
class Outcome:
    expectation: Expectation
    passed: bool
    evidence: str

    def as_json(self) -> dict:
        return {"kind": self.expectation.kind, "passed": self.passed, "evidence": self.evidence,
                "line": self.expectation.position.line, "col": self.expectation.position.col}


def evaluate(expectations: list[Expectation], report: dict, start_resources: dict) -> list[Outcome]:
    return [Outcome(e, *_CHECKS[e.kind](e.value, report, start_resources)) for e in expectations]


def _matching_fired(value: dict, report: dict) -> list[dict]:
    return [f for f in report.get("fired", []) if value["trigger"] in f["trigger"]
            and (value["round"] is None or f["round"] == value["round"])
            and (value["step"] is None or f["step"] == value["step"])]


def _where(value: dict) -> str:
    parts = [f"round {value['round']}" if value["round"] is not None else "",
             f"step {value['step']}" if value["step"] else ""]
    return " in " + ", ".join(p for p in parts if p) if any(parts) else ""


def _fired(value, report, _start):
    found = _matching_fired(value, report)
    if found:
        first = found[0]
        return True, f"fired in round {first['round']}, step {first['step']}: {first['event']}"
    others = sorted({f["trigger"] for f in report.get("fired", []) if value["trigger"] in f["trigger"]})
    seen = f" (it fired elsewhere: {', '.join(others)})" if others else ""
    return False, f"no trigger matching '{value['trigger']}' fired{_where(value)}{seen}"


def _not_fired(value, report, _start):
    found = _matching_fired(value, report)
    if found:
        first = found[0]
        return False, f"{first['trigger']} fired in round {first['round']}, step {first['step']}: {first['event']}"
    return True, f"no trigger matching '{value['trigger']}' fired{_where(value)}"


def _compare(kind: str, wanted: int, found: int, start: int | None = None) -> tuple[bool, str]:
    if kind == "eq":
        return found == wanted, f"{found} (expected {wanted})"
    if kind == "ge":
        return found >= wanted, f"{found} (expected at least {wanted})"
    if kind == "le":
        return found <= wanted, f"{found} (expected at most {wanted})"
    change = found - (start or 0)
    return change == wanted, f"{found}, a change of {change:+d} from {start or 0} (expected {wanted:+d})"


def _resources(value, report, start):
    states = {p["name"]: p for p in report.get("players", [])}
    results = []
    for (player, resource), (kind, wanted) in value.items():
        found = states.get(player, {}).get("resources", {}).get(resource, 0)
        ok, text = _compare(kind, wanted, found, start.get((player, resource), 0))
        results.append((ok, f"{player} {resource}: {text}"))
    return all(ok for ok, _ in results), "; ".join(text for _, text in results)


def _owners(value, report, _start):
    territories = report.get("territories", {})
    results = []
    for territory, owner in value.items():
        found = (territories.get(territory) or {}).get("owner") or "Neutral"
        results.append((found == owner, f"{territory} is {found}'s" + ("" if found == owner else f" (expected {owner})")))
    return all(ok for ok, _ in results), "; ".join(text for _, text in results)


def _units_found(value, report) -> dict[str, int]:
    units = (report.get("territories", {}).get(value["territory"]) or {}).get("units", {})
    counts: dict[str, int] = {}
    for owner, by_type in units.items():
        if value["owner"] is None or owner == value["owner"]:
            for unit, count in by_type.items():
                counts[unit] = counts.get(unit, 0) + count
    return counts


def _units(value, report, _start):
    counts = _units_found(value, report)
    results = [_compare(kind, wanted, counts.get(unit, 0)) for unit, (kind, wanted) in value["units"].items()]
    names = list(value["units"])
    return all(ok for ok, _ in results), f"{value['territory']}: " + "; ".join(
        f"{unit} {text}" for unit, (_, text) in zip(names, results))


def _no_units(value, report, _start):
    counts = _units_found(value, report)
    wanted = list(value["units"]) or list(counts)
    present = {unit: counts[unit] for unit in wanted if counts.get(unit)}
    whose = f" of {value['owner']}" if value["owner"] else ""
    if present:
        return False, f"{value['territory']} has " + ", ".join(f"{n} {u}" for u, n in sorted(present.items())) + whose
    return True, f"{value['territory']} has no {', '.join(wanted) or 'units'}{whose}"


def _relationships(value, report, _start):
    pairs = {frozenset(p[:2]): p[2] for p in report.get("relationships", [])}
    results = []
    for first, second, kind in value:
        found = pairs.get(frozenset((first, second)), "?")
        results.append((found == kind, f"{first}-{second}: {found}" + ("" if found == kind else f" (expected {kind})")))
    return all(ok for ok, _ in results), "; ".join(text for _, text in results)


def _messages_matching(value, report) -> list[dict]:
    matching = []
    for message in report.get("messages", []):
        if value["contains"].lower() not in (message.get("text") or "").lower() + " " + \
                (message.get("title") or "").lower():
            continue
        to = message.get("to")
        if value["to"] is not None and to and value["to"] not in to:  # no list: shown to all
            continue
        if value["to"] is not None and value["to"] in (message.get("not_to") or []):
            continue
        matching.append(message)
    return matching


def _message(value, report, _start):
    found = _messages_matching(value, report)
    if found:
        m = found[0]
        return True, f"round {m.get('round')}, step {m.get('step')}: {m.get('text')}"
    return False, f"no message containing '{value['contains']}'" + (f" shown to {value['to']}" if value["to"] else "")


def _no_message(value, report, _start):
    ok, evidence = _message(value, report, _start)
    return not ok, evidence


def _history_matching(parts: tuple[str, ...], report: dict) -> list[dict]:
    return [e for e in report.get("history", [])
            if all(part.lower() in (e.get("event") or "").lower() for part in parts)]


def _parts(parts: tuple[str, ...]) -> str:
    return " and ".join(f"'{part}'" for part in parts)


def _history(value, report, _start):
    found = _history_matching(value, report)
    if found:
        return True, f"round {found[0]['round']}, step {found[0]['step']}: {found[0]['event']}"
    return False, f"no history line contains {_parts(value)}"


def _no_history(value, report, _start):
    found = _history_matching(value, report)
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        return False, f"round {found[0]['round']}, step {found[0]['step']}: {found[0]['event']}{more}"
    return True, f"no history line contains {_parts(value)}"


def _switches(value, report, _start):
    found_switches = report.get("switches", {})
    results = []
    for name, on in value.items():
        found = found_switches.get(name)
        shown = "missing" if found is None else str(found).lower()
        results.append((found == on, f"{name}: {shown}" + ("" if found == on else f" (expected {str(on).lower()})")))
    return all(ok for ok, _ in results), "; ".join(text for _, text in results)


def _no_exception(_value, report, _start):
    exceptions = report.get("exceptions", [])
    if exceptions:
        e = exceptions[0]
        first = f"first in round {e.get('round')}, step {e.get('step')}: {e.get('message')}"
        return False, f"{len(exceptions)} exception(s); {first}"
    return True, "no exception"


_CHECKS = {"fired": _fired, "not_fired": _not_fired, "resources": _resources, "owners": _owners,
           "units": _units, "no_units": _no_units, "relationships": _relationships, "message": _message,
           "no_message": _no_message, "history": _history, "no_history": _no_history, "switches": _switches,
           "no_exception": _no_exception}
