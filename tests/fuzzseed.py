"""The seed of the randomised tests (Hypothesis fuzzing, the red-team XML fuzz, random kill times).

A run takes TRIPLEA_GEN_FUZZ_SEED when it is set (to replay a failure, or to pin CI), else a new
seed from the clock, so every run explores new cases. The seed is in the pytest header of every
run and in the failure messages that use it, so a failure in CI's log can be replayed exactly."""
from __future__ import annotations

import os
import time

SEED_VARIABLE = "TRIPLEA_GEN_FUZZ_SEED"


def _chosen_seed() -> int:
    given = os.environ.get(SEED_VARIABLE, "").strip()
    return int(given) if given else time.time_ns() % 2 ** 32


FUZZ_SEED = _chosen_seed()  # one per test session: every randomised test of a run uses it


def replay_hint() -> str:
    return f"fuzz seed {FUZZ_SEED} (replay: {SEED_VARIABLE}={FUZZ_SEED})"
