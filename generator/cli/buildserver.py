"""The build server: one warm process that runs `build` and `validate` for the commands
started while it is up, so that a rebuild after a one-line change skips Python's start-up,
the imports, template loading and the import of the base game.

    triplea-gen server start     # in the background; stops by itself after 30 idle minutes
    triplea-gen server status
    triplea-gen server stop

`build` and `validate` hand their job to a running server of the same installation and
print what it printed, with its exit status; without one they run in their own process,
with the same result. The server listens on a Unix socket in a folder only its user can
enter, serves only processes of that user, runs each job with the caller's working folder,
environment and umask, and declines jobs (which then run in their own process) from another
installation or Python, or once its own code has changed on disk.

The client side and the message format are in generator/cli/serverlink.py."""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from generator.cli.serverlink import (_LENGTH_BYTES, MAX_JOB_SECONDS, MAX_MESSAGE, PACKAGE_DIR, SERVED_COMMANDS,
                                      SOCKET_NAME, _ask, _receive, _send, server_folder)

if TYPE_CHECKING:
    import socket

DEFAULT_IDLE_MINUTES = 30.0
MAX_JOB_MEMORY = 4 << 30  # address space of a job
MAX_JOBS = 4  # at once; more are declined and run in their own process
REQUEST_SECONDS = 10  # to send a whole request after connecting


def code_stamp() -> tuple:
    """Modification stamps of the code and templates the server has loaded."""
    from generator.render.templates import TEMPLATES_DIR  # beside the package in a checkout, inside it in a wheel

    stamps = []
    for root in (PACKAGE_DIR, str(TEMPLATES_DIR)):
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
            for name in sorted(files):
                if name.endswith((".py", ".j2", ".yaml", ".xsd")):
                    info = os.stat(os.path.join(folder, name))
                    stamps.append((folder, name, info.st_mtime_ns, info.st_size))
    return tuple(stamps)


class _Capture:
    """A text stream that records what a job prints, in order, for the client to replay."""

    def __init__(self, number: int, chunks: list):
        self.number, self.chunks = number, chunks

    def write(self, text: str) -> int:
        if text:
            self.chunks.append((self.number, text))
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def request_problem(request: dict) -> str:
    """What is wrong with a run request's fields ('' if nothing): every one present and of its type."""
    argv, env, umask = request.get("argv"), request.get("env"), request.get("umask")
    if not isinstance(argv, list) or not argv or not all(isinstance(a, str) for a in argv):
        return "argv must be a list of strings"
    if not isinstance(request.get("cwd"), str) or not os.path.isabs(request["cwd"]):
        return "cwd must be an absolute folder name"
    if not isinstance(env, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in env.items()):
        return "env must map strings to strings"
    if type(umask) is not int or not 0 <= umask <= 0o777:
        return "umask must be a number from 0 to 0o777"
    if any("\0" in text for text in (*argv, request["cwd"], *env, *env.values())):
        return "no text may hold a NUL character"
    return ""


class _Worker:
    """A child process that runs jobs one after another, keeping what it loaded (base games,
    compiled macros) between them; `job` is what it runs now: (client connection, argv, cwd, deadline)."""

    def __init__(self, pid: int, channel):
        self.pid, self.channel = pid, channel
        self.job: tuple[socket.socket, list[str], str, float] | None = None


class _Reading:
    """A connection whose request is still coming in, with when it must be complete."""

    def __init__(self, deadline: float):
        self.data, self.deadline = bytearray(), deadline


class BuildServer:
    """One process that accepts connections and answers status and stop itself; jobs go to worker
    processes forked from it, each under a time and an address-space limit. A worker whose job runs
    over is killed and the job answered with TG069 while the server goes on serving; a worker that
    finished a job waits, warm, for the next. A client that sends nothing is dropped after
    REQUEST_SECONDS without holding up anybody else."""

    def __init__(self, folder: str, idle_seconds: float, job_seconds: float = MAX_JOB_SECONDS,
                 job_memory: int = MAX_JOB_MEMORY):
        self.folder = folder
        self.socket_path = os.path.join(folder, SOCKET_NAME)
        self.idle_seconds = idle_seconds
        self.job_seconds, self.job_memory = job_seconds, job_memory
        self.code = code_stamp()
        self.served = 0
        self.running = True
        self.workers: dict[int, _Worker] = {}

    def running_jobs(self) -> int:
        return sum(worker.job is not None for worker in self.workers.values())

    def handle(self, request: dict) -> dict | None:
        """The reply to a request, or None for a job to run."""
        kind = request.get("request")
        if kind == "status":
            import resource

            return {"pid": os.getpid(), "served": self.served, "running": self.running_jobs(),
                    "package": PACKAGE_DIR, "python": sys.version, "idle_minutes": self.idle_seconds / 60,
                    "socket": self.socket_path, "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
        if kind == "stop":
            self.running = False
            return {"stopped": os.getpid()}
        if kind != "run":
            return {"declined": f"unknown request {str(kind)[:40]!r}"}
        if request.get("package") != PACKAGE_DIR or request.get("python") != sys.version:
            return {"declined": "another installation of triplea-gen"}
        if code_stamp() != self.code:
            self.running = False  # a server with old code must not build; the next `server start` loads the new
            return {"declined": "triplea-gen's code changed since the server started"}
        problem = request_problem(request)
        if problem:
            return {"error": f"a bad request: {problem}"}
        if request["argv"][0] not in SERVED_COMMANDS:
            return {"declined": "not a command the server runs"}
        if self.running_jobs() >= MAX_JOBS:
            return {"declined": "the server is busy"}
        return None

    def _run(self, argv: list[str], request: dict) -> dict:
        from generator.cli.main import run_command

        chunks: list = []
        saved = os.getcwd(), dict(os.environ), sys.stdout, sys.stderr
        mask = os.umask(request["umask"])
        try:
            os.chdir(request["cwd"])
            os.environ.clear()
            os.environ.update(request["env"])
            sys.stdout, sys.stderr = _Capture(1, chunks), _Capture(2, chunks)
            try:
                status = run_command(argv)
            except SystemExit as ended:  # argparse on a bad command line
                status = ended.code if isinstance(ended.code, int) else (0 if ended.code is None else 2)
        except OSError as err:  # the caller's folder is gone, say
            status, chunks = 2, [(2, f"triplea-gen: cannot run in {request['cwd']}: {err.strerror}\n")]
        finally:
            sys.stdout, sys.stderr = saved[2], saved[3]
            os.environ.clear()
            os.environ.update(saved[1])
            os.chdir(saved[0])
            os.umask(mask)
        if status == 3 and any("internal error: MemoryError" in text for _, text in chunks):
            why = f"it needed more than its {self.job_memory >> 20} MiB of memory"
            return dict(_stopped(argv, request["cwd"], why), restart=True)
        return {"status": status, "output": chunks}

    def serve(self) -> None:
        import selectors
        import socket
        import time

        _warm_up()
        self.selector = selectors.DefaultSelector()
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
            listener.bind(self.socket_path)
            os.chmod(self.socket_path, 0o600)  # safe-write: just bound by us in the private folder
            listener.listen(16)
            listener.setblocking(False)
            self.selector.register(listener, selectors.EVENT_READ, None)
            last_busy = time.monotonic()
            try:
                while self.running:
                    for key, _ in self.selector.select(timeout=0.2):
                        if key.data is None:
                            self._accept(listener)
                        elif isinstance(key.data, _Worker):
                            self._hear_from(key.data)
                        else:
                            self._read(key.fileobj, key.data)
                    now = time.monotonic()
                    self._stop_overdue_jobs(now)
                    self._drop_silent_clients(now)
                    reading = any(isinstance(key.data, _Reading) for key in self.selector.get_map().values())
                    if self.running_jobs() or reading:
                        last_busy = now
                    elif self.idle_seconds and now - last_busy > self.idle_seconds:
                        break
            finally:
                for worker in list(self.workers.values()):
                    self._end_worker(worker, {"declined": "the build server stopped"})
                os.unlink(self.socket_path)  # safe-write: removes the name, follows no link
                self.selector.close()

    def _accept(self, listener) -> None:
        import selectors
        import time

        try:
            conn, _ = listener.accept()
        except OSError:
            return
        if not _same_user(conn):
            conn.close()
            return
        conn.setblocking(False)
        self.selector.register(conn, selectors.EVENT_READ, _Reading(time.monotonic() + REQUEST_SECONDS))

    def _read(self, conn, reading: _Reading) -> None:
        try:
            chunk = conn.recv(1 << 20)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._close(conn)
            return
        reading.data += chunk
        if len(reading.data) < _LENGTH_BYTES:
            return
        length = int.from_bytes(reading.data[:_LENGTH_BYTES], "big")
        if length > MAX_MESSAGE:
            self._reply_and_close(conn, {"error": f"a request of {length} bytes is over the limit of {MAX_MESSAGE}"})
        elif len(reading.data) >= _LENGTH_BYTES + length:
            self.selector.unregister(conn)
            self._answer(conn, bytes(reading.data[_LENGTH_BYTES:_LENGTH_BYTES + length]))

    def _answer(self, conn, body: bytes) -> None:
        request = _parse(body)
        if request is None:
            self._reply_and_close(conn, {"error": "a request is a JSON object"}, registered=False)
            return
        reply = self.handle(request)
        if reply is not None:
            self._reply_and_close(conn, reply, registered=False)
        else:
            self._start_job(conn, request, body)

    def _start_job(self, conn, request: dict, body: bytes) -> None:
        """Acknowledge the job, then hand the connection and the request to an idle worker (a new one
        if none is idle); the worker answers the client itself."""
        import socket
        import time

        conn.setblocking(True)
        conn.settimeout(5)
        try:
            _send(conn, {"accepted": os.getpid()})  # before a worker has it, so that the two never interleave
        except OSError:
            conn.close()
            return
        worker = next((w for w in self.workers.values() if w.job is None), None) or self._new_worker(conn)
        try:
            socket.send_fds(worker.channel, [b"J"], [conn.fileno()])
            worker.channel.sendall(len(body).to_bytes(_LENGTH_BYTES, "big") + body)
        except OSError:
            self._end_worker(worker, None)
            self._reply_and_close(conn, {"declined": "the server could not start the job"}, registered=False)
            return
        worker.job = (conn, request["argv"], request["cwd"], time.monotonic() + self.job_seconds)

    def _new_worker(self, client) -> _Worker:
        """A worker forked now; client is the connection it is about to be handed (its copy from the
        fork is closed: the worker gets it through the channel like every later one)."""
        import selectors
        import socket

        ours, theirs = socket.socketpair()
        pid = os.fork()
        if pid == 0:
            ours.close()
            client.close()
            self._work(theirs)
        theirs.close()
        worker = _Worker(pid, ours)
        self.workers[pid] = worker
        self.selector.register(ours, selectors.EVENT_READ, worker)
        return worker

    def _work(self, channel) -> None:
        """In a worker: jobs from the channel, each answered to its client, until the channel closes
        or a job ends badly (a worker that ran out of memory starts afresh); never returns."""
        import resource
        import signal
        import socket

        try:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            for key in list(self.selector.get_map().values()):
                # the listener, clients, other workers (sockets, all of them): only the server deals with them
                if isinstance(key.fileobj, socket.socket):
                    key.fileobj.close()
            for worker in self.workers.values():
                if worker.job is not None:
                    worker.job[0].close()
            self.selector.close()
            resource.setrlimit(resource.RLIMIT_AS, (self.job_memory, self.job_memory))
            while True:
                _, fds, _, _ = socket.recv_fds(channel, 1, 1)
                if not fds:
                    break
                request = _receive(channel)
                with socket.socket(fileno=fds[0]) as conn:
                    reply = self._run(request["argv"], request)
                    conn.settimeout(60)
                    _send(conn, reply)
                healthy = reply["status"] != 3 and not reply.pop("restart", False) and not self._grown()
                channel.sendall(b"d" if healthy else b"x")
                if not healthy:
                    break  # after an internal error or a job over its memory this worker's state is suspect
                # answered and idle: the next job's copy of the base game is made now (a job that comes
                # meanwhile waits in the channel those few milliseconds)
                from generator.speclang.basecache import prepare_spare

                prepare_spare()
        except BaseException:
            pass  # the server answers for a job that ends without an answer
        finally:
            os._exit(0)

    def _grown(self) -> bool:
        """In a worker: whether it now takes half its address-space limit (after a job that ran out of
        memory, say), so that a fresh one should take its place."""
        try:
            with open("/proc/self/statm") as statm:
                size = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            import resource

            size = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        return size > self.job_memory // 2

    def _hear_from(self, worker: _Worker) -> None:
        try:
            said = worker.channel.recv(1)
        except OSError:
            said = b""
        if said and worker.job is not None:  # done (d), and maybe leaving (x)
            worker.job[0].close()
            worker.job = None
            self.served += 1
        if said == b"x":
            self._end_worker(worker, None)
        elif not said:  # the worker ended: after an answer it sent itself, or without one
            reply = None
            if worker.job is not None:
                reply = _stopped(worker.job[1], worker.job[2], "it ended without an answer (it crashed or was killed)")
            self._end_worker(worker, reply)

    def _stop_overdue_jobs(self, now: float) -> None:
        for worker in list(self.workers.values()):
            if worker.job is not None and now > worker.job[3]:
                self._end_worker(worker, _stopped(worker.job[1], worker.job[2],
                                                  f"it ran longer than {self.job_seconds:g} seconds"))

    def _end_worker(self, worker: _Worker, reply: dict | None) -> None:
        """Kill the worker (if it still runs) and answer its job's client with reply (if any)."""
        import signal

        try:
            os.kill(worker.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(worker.pid, 0)
        except ChildProcessError:
            pass
        self.selector.unregister(worker.channel)
        worker.channel.close()
        del self.workers[worker.pid]
        if worker.job is not None:
            self.served += 1
            conn = worker.job[0]
            if reply is not None:
                self._reply_and_close(conn, reply, registered=False)
            else:
                conn.close()

    def _drop_silent_clients(self, now: float) -> None:
        for key in list(self.selector.get_map().values()):
            if isinstance(key.data, _Reading) and now > key.data.deadline:
                self._reply_and_close(key.fileobj, {"error": f"no request within {REQUEST_SECONDS} seconds"})

    def _reply_and_close(self, conn, reply: dict, registered: bool = True) -> None:
        if registered:
            self.selector.unregister(conn)
        try:
            conn.setblocking(True)
            conn.settimeout(2)  # a small reply: a client that does not read it is not waited for
            _send(conn, reply)
        except OSError:
            pass
        conn.close()

    def _close(self, conn) -> None:
        self.selector.unregister(conn)
        conn.close()


def _parse(body: bytes) -> dict | None:
    """A request: a JSON object, or None (not JSON, nested too deep, numbers too long, not an object)."""
    import json

    try:
        request = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return request if isinstance(request, dict) else None


def _stopped(argv: list[str], cwd: str, why: str) -> dict:
    """The answer for a job the server stopped: a TG069 error at the spec the command names."""
    from generator.core.diagnostics import Diagnostic, Position

    where = next((a for a in argv[1:] if not a.startswith("-") and os.path.isfile(os.path.join(cwd, a))), "triplea-gen")
    diagnostic = Diagnostic("TG069", f"the build server stopped `{' '.join(argv[:1])}`: {why}", Position(where),
                            "run it without the server (TRIPLEA_GEN_NO_SERVER=1) to see where it spends its time; "
                            "check the input for something very large")
    return {"status": 2, "output": [(2, diagnostic.format() + "\n")]}


def _warm_up() -> None:
    """What every job needs, loaded once in the server, so that each forked job starts warm."""
    from generator.speclang.basecache import keep_in_memory
    from generator.cli.main import build_parser
    from generator.render.templates import _game_environment, environment

    keep_in_memory()
    for command in SERVED_COMMANDS:
        build_parser(command)
    _game_environment().get_template("game/game.xml.j2")
    environment().get_template("notes/rules.html.j2")
    import generator.builder.pipeline  # noqa: F401
    import generator.check.validate  # noqa: F401


def _same_user(conn: socket.socket) -> bool:
    import socket
    import struct

    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True  # the private folder is then the only guard
    _pid, uid, _gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i")))
    return uid == os.getuid()


# ---- the `server` command ----

def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "server", help="keep a warm build process for fast rebuilds (start, status, stop)",
        description="A background process that runs `build` and `validate` for you: a rebuild after a small "
                    "change then takes a fraction of the time of a new process. Commands use it when it runs "
                    "and build in their own process otherwise (TRIPLEA_GEN_NO_SERVER=1 always does).")
    parser.add_argument("action", choices=("start", "status", "stop", "run"),
                        help="start in the background, show status, stop; run: serve in the foreground")
    parser.add_argument("--idle", type=float, default=DEFAULT_IDLE_MINUTES, metavar="MINUTES",
                        help=f"stop after this many minutes without a job (default {DEFAULT_IDLE_MINUTES:g}; "
                             "0: never)")
    parser.add_argument("--job-limit", type=float, default=MAX_JOB_SECONDS, metavar="SECONDS",
                        help=f"stop a job that runs longer (default {MAX_JOB_SECONDS:g}); it fails with TG069")
    parser.add_argument("--job-memory", type=int, default=MAX_JOB_MEMORY >> 20, metavar="MIB",
                        help=f"address space of a job (default {MAX_JOB_MEMORY >> 20}); over it, it fails with TG069")
    parser.set_defaults(run=run_server_command)


def run_server_command(args) -> int:
    folder = server_folder()
    if folder is None:
        print("triplea-gen: the build server needs Unix sockets, which this system lacks", file=sys.stderr)
        return 2
    if args.action == "status":
        reply = _ask({"request": "status"}, folder, timeout=5)
        if reply is None:
            print("no build server is running")
            return 1
        print(f"build server running: pid {reply['pid']}, {reply['served']} job(s) served, "
              f"{reply['running']} running, peak memory "
              f"{reply['peak_mib']:.0f} MiB, stops after {reply['idle_minutes']:g} idle minutes; "
              f"code {reply['package']}; socket {reply['socket']}")
        return 0
    if args.action == "stop":
        reply = _ask({"request": "stop"}, folder, timeout=5)
        if reply:
            _wait_until_gone(os.path.join(folder, SOCKET_NAME))
        print("build server stopped" if reply else "no build server is running")
        return 0
    problem = _prepare_folder(folder)
    if problem:
        print(f"triplea-gen: {problem}", file=sys.stderr)
        return 2
    if _ask({"request": "status"}, folder, timeout=5) is not None:
        print("a build server is already running ('triplea-gen server status' shows it)")
        return 0 if args.action == "start" else 1
    stale = os.path.join(folder, SOCKET_NAME)
    if os.path.exists(stale):
        os.unlink(stale)  # left by a server that was killed; safe-write: removes the name, follows no link
    if args.action == "run":
        BuildServer(folder, args.idle * 60, job_seconds=args.job_limit, job_memory=args.job_memory << 20).serve()
        return 0
    return _start_in_background(folder, args.idle, args.job_limit, args.job_memory)


def _wait_until_gone(path: str, seconds: float = 10) -> None:
    """A stopped server removes its socket once its jobs are ended; `stop` returns after that."""
    import time

    deadline = time.monotonic() + seconds
    while os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.05)


def _prepare_folder(folder: str) -> str:
    from generator.core.datacache import is_private_folder

    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)  # safe-write: refused below unless private
    except OSError as err:
        return f"cannot create {folder}: {err.strerror}"
    if not is_private_folder(folder):
        return (f"{folder} is not a folder that only you can enter; remove it or make it private "
                "(chmod 700) to use the build server")
    return ""


def _start_in_background(folder: str, idle_minutes: float, job_seconds: float, job_mib: int) -> int:
    import subprocess
    import time

    from generator.core.writer import new_private_file

    log_path = os.path.join(folder, "server.log")
    with new_private_file(log_path) as log:
        process = subprocess.Popen([sys.executable, "-m", "generator", "server", "run", "--idle", str(idle_minutes),
                                    "--job-limit", str(job_seconds), "--job-memory", str(job_mib)],
                                   stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, cwd=folder,
                                   start_new_session=True)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        reply = _ask({"request": "status"}, folder, timeout=5)
        if reply is not None:
            print(f"build server started: pid {reply['pid']}; stops after {idle_minutes:g} idle minutes "
                  "('triplea-gen server stop' stops it now)")
            return 0
        if process.poll() is not None:
            break
        time.sleep(0.05)
    print(f"triplea-gen: the build server did not start; see {log_path}", file=sys.stderr)
    return 3
