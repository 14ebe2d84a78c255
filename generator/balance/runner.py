"""Where the games are played: `--jobs J` threads here, each driving a warm JVM of its own (the
JVMs are the separate processes that play), or `--cluster ADDRESS`, a Dask distributed scheduler
whose workers get each task with its game and map texts. Dask moves a task whose worker died to
another worker and gives up after the scheduler's allowed failures (KilledWorker): that game is
recorded as failed, as is a game the engine itself refused or broke on (games.play_task)."""
from __future__ import annotations

import os
import queue
import threading
import uuid
from collections.abc import Callable

from generator.balance.games import GameTask, PlayResult, close_warm, play_task
from generator.core.diagnostics import Diagnostic, DiagnosticError, Position

OnResult = Callable[[int, PlayResult], None]


def play_locally(tasks: list[GameTask], jobs: int, on_result: OnResult) -> None:
    """Plays tasks on `jobs` warm JVMs at once; on_result(index, played) as each finishes."""
    from generator.engine import lifecycle, memory

    if not tasks:
        return
    lifecycle.install_signal_handlers()  # here, in the main thread: the games start in worker threads
    jobs = max(1, min(jobs, len(tasks)))
    todo: queue.Queue = queue.Queue()
    for item in enumerate(tasks):
        todo.put(item)
    report_lock = threading.Lock()
    failures: list[BaseException] = []

    def work() -> None:
        try:
            while not failures:
                try:
                    index, task = todo.get_nowait()
                except queue.Empty:
                    return
                played = play_task(task)
                with report_lock:
                    on_result(index, played)
        except BaseException as err:  # noqa: BLE001 - raised again in the main thread
            failures.append(err)
        finally:
            close_warm()

    heap_before = os.environ.get(memory.HEAP_VARIABLE)  # games.play_task sets the run's heap there
    try:
        threads = [threading.Thread(target=work, name=f"balance-job-{n}", daemon=True) for n in range(jobs)]
        for thread in threads:
            thread.start()
        for thread in threads:
            while thread.is_alive():
                thread.join(0.5)  # short waits: Ctrl-C reaches the main thread
    finally:
        if heap_before is None:
            os.environ.pop(memory.HEAP_VARIABLE, None)
        else:
            os.environ[memory.HEAP_VARIABLE] = heap_before
    if failures:
        raise failures[0]


def play_on_cluster(tasks: list[GameTask], address: str, on_result: OnResult, connect_timeout: float = 30) -> None:
    """Plays tasks on the Dask distributed scheduler at address (tcp://HOST:PORT)."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise DiagnosticError([Diagnostic("TG602", "--cluster needs Dask distributed, which is not installed",
                                          Position("--cluster"), "pip install 'triplea-gen[balance]'")],
                              exit_status=2) from None
    try:
        client = Client(address, timeout=connect_timeout, set_as_default=False)
    except (OSError, TimeoutError) as err:
        raise DiagnosticError([Diagnostic("TG602", f"no Dask scheduler answers at {address}: {err}",
                                          Position("--cluster"), "start one: 'dask scheduler' and 'dask worker "
                                          "ADDRESS' on each machine, then give its tcp://HOST:PORT")],
                              exit_status=2) from None
    try:
        # Dask takes a key it already holds for the same task: a key that names only variant, seed and
        # index gave a second run on the same scheduler (another spec, at the same time) the first's games.
        run = uuid.uuid4().hex[:12]
        futures = {client.submit(play_task, task, pure=False, key=f"balance-{task.variant}-{task.seed}-{index}-{run}"):
                   index for index, task in enumerate(tasks)}
        for future in as_completed(futures, loop=client.loop):
            index = futures[future]
            try:
                played: PlayResult = future.result()
            except Exception as err:  # noqa: BLE001 - KilledWorker and what a worker raised: that game failed
                played = {"worker": None, "report": None, "seconds": None,
                          "error": f"TG603: the game failed on the cluster ({type(err).__name__}: {err})"}
            on_result(index, played)
    finally:
        client.close()
