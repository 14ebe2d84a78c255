"""Small mods of the Frontier 1939 example with a rule of the attacker's choosing, and the good build
they must leave alone."""
from __future__ import annotations

from pathlib import Path

from conftest import PLAIN_GAME

BASE = PLAIN_GAME  # Frontier 1939 without its generated map: builds stay small
RULE_LINE = 6  # the line of `- id: R1` in every spec written here

MACRO_HEADER = "{#---\ndescription: a macro from somewhere\nparams: {}\n---#}\n"


def write_mod(folder: Path, rule: str, macros: dict[str, str | bytes] | None = None) -> Path:
    """folder/spec.yaml, a mod with the one rule (YAML text from `- id: R1` on), and its macro folder."""
    folder.mkdir(parents=True, exist_ok=True)
    spec = folder / "spec.yaml"
    spec.write_text(f'mod:\n  name: Hostile\n  version: "1.0"\n  base: {BASE.as_posix()}\nrules:\n{rule}',
                    encoding="utf-8")
    assert spec.read_text(encoding="utf-8").splitlines()[RULE_LINE - 1].startswith("  - id: R1")
    if macros:
        (folder / "macros").mkdir(exist_ok=True)
        for name, body in macros.items():
            path = folder / "macros" / name
            path.write_bytes(body) if isinstance(body, bytes) else path.write_text(body, encoding="utf-8")
    return spec


def payment_rule(amount: str, loop: str = "{round: 1..2}") -> str:
    """A round_payment rule whose amount is the given `{{ }}` text."""
    return ("  - id: R1\n    text: a payment\n"
            f"    for: {loop}\n    use: round_payment\n"
            f"    with: {{payer: Germans, payee: Italians, amount: \"{amount}\", rounds: \"{{{{ round }}}}\"}}\n")


def macro_rule(name: str) -> str:
    return f"  - id: R1\n    text: a rule of a downloaded mod\n    use: {name}\n"
