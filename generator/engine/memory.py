"""How much memory an engine JVM may take, and how many may run at once.

Without a limit Java takes a quarter of the machine's memory per JVM: a game with millions of
units grows each JVM to gigabytes, and `test --jobs N` starts N of them. Every JVM of ours
gets an explicit heap bound instead: half of the machine's memory (its cgroup limit when lower)
shared by the engines that run at once, never less than a real Global 1940 game needs (the
floor) and never more than the ceiling. A game that does not fit stops the JVM at once with
the OutOfMemoryError (-XX:+ExitOnOutOfMemoryError) rather than thrashing until the time limit."""
from __future__ import annotations

import os
import re
from contextlib import contextmanager
from functools import lru_cache

# Measured (Global 1940 2nd edition, the easy AI, seed 1): `engine play` of 2 rounds takes 22 s
# at -Xmx256m and still plays at 128m, slowed by collections (33 s; under 20 MiB live after each);
# `engine gui` of a round plays and draws the map at 512m (45 s, 500 MB resident). The floor is
# what the desktop client needs, with room for mods with more units.
HEAP_FLOOR_MIB = 512
HEAP_CEILING_MIB = 2048
# The share of the machine's memory all engine JVMs together may have as heap.
ENGINE_SHARE = 0.5
# Per JVM beyond the heap: class metadata (bounded below), code cache, thread stacks, GC.
METASPACE_MIB = 256
OVERHEAD_MIB = 256
HEAP_VARIABLE = "TRIPLEA_GEN_ENGINE_HEAP"  # MiB: a fixed heap for every engine JVM
_HEAP_RANGE = (128, 65536)

# How many engines run side by side now (engines_at_once); their JVMs share the memory.
_shared_count = [1]


class HeapSettingError(ValueError):
    """TRIPLEA_GEN_ENGINE_HEAP holds something other than a number of MiB in range."""


@lru_cache(maxsize=1)
def physical_memory_mib() -> int:
    """The machine's memory, or the cgroup's limit when a container has a lower one."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        total = _meminfo_total() or 4096 * 2**20
    limit = _cgroup_limit()
    if limit is not None:
        total = min(total, limit)
    return max(1, total // 2**20)


def _meminfo_total() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            found = re.search(r"^MemTotal:\s+(\d+) kB", handle.read(), re.MULTILINE)
    except OSError:
        return None
    return int(found.group(1)) * 1024 if found else None


def _cgroup_limit() -> int | None:
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(path, encoding="ascii") as handle:
                text = handle.read().strip()
        except OSError:
            continue
        if text.isdigit():
            return int(text)
    return None


def fixed_heap_mib() -> int | None:
    """The heap TRIPLEA_GEN_ENGINE_HEAP sets, or None; raises HeapSettingError for a bad value."""
    text = os.environ.get(HEAP_VARIABLE, "").strip()
    if not text:
        return None
    if not text.isdigit() or not _HEAP_RANGE[0] <= int(text) <= _HEAP_RANGE[1]:
        raise HeapSettingError(f"{HEAP_VARIABLE} must be a whole number of MiB from {_HEAP_RANGE[0]} to "
                               f"{_HEAP_RANGE[1]}, not {text!r}")
    return int(text)


def concurrent_engines() -> int:
    return _shared_count[0]


@contextmanager
def engines_at_once(count: int):
    """While inside, every JVM started is sized for `count` engines running side by side (test --jobs)."""
    before = _shared_count[0]
    _shared_count[0] = max(1, count)
    try:
        yield
    finally:
        _shared_count[0] = before


def engine_heap_mib(count: int | None = None) -> int:
    """The heap limit of one engine JVM when `count` (default: the current engines_at_once) run at once."""
    fixed = fixed_heap_mib()
    if fixed is not None:
        return fixed
    count = count or concurrent_engines()
    share = int(physical_memory_mib() * ENGINE_SHARE) // count - OVERHEAD_MIB - METASPACE_MIB
    heap = max(HEAP_FLOOR_MIB, min(HEAP_CEILING_MIB, share))
    # Under an address-space limit (a build server's worker) the JVM must reserve everything
    # inside it: half for the heap, as Java itself would choose.
    limit = _address_space_limit_mib()
    return heap if limit is None else max(64, min(heap, limit // 2))


def _address_space_limit_mib() -> int | None:
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError):
        return None
    return None if soft == resource.RLIM_INFINITY else soft // 2**20


def heap_options(count: int | None = None) -> tuple[str, ...]:
    """The memory options of every engine JVM (java_command puts them after the caller's options)."""
    return (f"-Xmx{engine_heap_mib(count)}m", f"-XX:MaxMetaspaceSize={METASPACE_MIB}m",
            "-XX:+ExitOnOutOfMemoryError")


def jobs_this_machine_runs(cores: int | None = None) -> int:
    """How many engines may run at once here: no more than the cores, and no more than fit in the
    engines' share of memory at the floor heap (or at the fixed heap) each."""
    cores = cores or os.cpu_count() or 1
    heap = fixed_heap_mib() or HEAP_FLOOR_MIB
    by_memory = int(physical_memory_mib() * ENGINE_SHARE) // (heap + OVERHEAD_MIB + METASPACE_MIB)
    return max(1, min(cores, by_memory))
