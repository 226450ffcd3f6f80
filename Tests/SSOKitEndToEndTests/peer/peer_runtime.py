"""Start-up and serving helpers shared by the test peers op.py and saml_idp.py.

Both peers take the same --port / --max-seconds / --verbose / --log-file
options, stay silent unless asked, serve from a background thread, and stop on
SIGTERM/SIGINT/SIGHUP, when --max-seconds has passed, or when the process that
started them has died. What differs between them (which library loggers to
tame, what they print once ready) stays in the peer and is passed in here.

Standard library only. The peers are run as scripts, so this module is found
through the script's own directory on sys.path.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import time

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"


def add_server_arguments(parser: argparse.ArgumentParser) -> None:
    """Add --port and --max-seconds (parse_peer_arguments checks their range)."""
    parser.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (0 = pick a free one; default 0)")
    parser.add_argument("--max-seconds", type=float, default=600.0, help="exit after this many seconds (default 600)")


def parse_peer_arguments(
    parser: argparse.ArgumentParser, argv, *, verbose_help: str, log_file_help: str
) -> argparse.Namespace:
    """Add --verbose and --log-file (last, with the peer's own help texts; see
    setup_logging), parse argv, and exit through parser.error when --port or
    --max-seconds (from add_server_arguments) is out of range."""
    parser.add_argument("--verbose", action="store_true", help=verbose_help)
    parser.add_argument("--log-file", help=log_file_help)
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error("--port must be 0..65535")
    if args.max_seconds <= 0:
        parser.error("--max-seconds must be > 0")
    return args


def setup_logging(
    args: argparse.Namespace,
    *,
    non_propagating_loggers: tuple[str, ...] = (),
    warning_level_loggers: tuple[str, ...] = (),
) -> logging.Handler:
    """Send all logging at INFO and above to one handler and return it.

    The handler appends to args.log_file if given, else writes to stderr with
    args.verbose, else drops everything. Any handler already on the root
    logger is removed first.

    non_propagating_loggers get the handler themselves and stop propagating
    (for a library that installs its own stderr handler when its logger has
    none, such as werkzeug). warning_level_loggers are raised to WARNING (for
    a library that is chatty at INFO, such as saml2).
    """
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    if args.log_file:
        handler: logging.Handler = logging.FileHandler(args.log_file)
    elif args.verbose:
        handler = logging.StreamHandler(sys.stderr)
    else:
        # Quiet by default: a test harness that pipes stderr without reading it
        # must never be able to block the server.
        handler = logging.NullHandler()
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    for name in non_propagating_loggers:
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.propagate = False
    for name in warning_level_loggers:
        logging.getLogger(name).setLevel(logging.WARNING)
    return handler


def install_stop_signals() -> threading.Event:
    """Return an event that SIGTERM, SIGINT and (where it exists) SIGHUP set.

    A parent that spawns us from a worker thread (Foundation's Process does)
    passes on its blocked signals: these are unblocked first, so they reach us.
    Call it from the main thread.
    """
    stop_signals = {signal.SIGTERM, signal.SIGINT} | ({signal.SIGHUP} if hasattr(signal, "SIGHUP") else set())
    signal.pthread_sigmask(signal.SIG_UNBLOCK, stop_signals)
    stop = threading.Event()

    def _on_signal(signum, frame):
        stop.set()

    for signum in stop_signals:
        signal.signal(signum, _on_signal)
    return stop


def start_serving(server) -> threading.Thread:
    """Run server.serve_forever (polling every 0.1 s) on a daemon thread and return it."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    return thread


def wait_for_stop(stop: threading.Event, *, deadline: float, parent: int) -> str:
    """Block until stop is set, time.monotonic() reaches deadline, or our parent
    process is no longer the one whose pid is parent; return why, for the log
    ("signal", "max-seconds reached" or "parent process exited")."""
    while not stop.is_set():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return "max-seconds reached"
        if os.getppid() != parent:
            return "parent process exited"
        stop.wait(min(0.5, remaining))
    return "signal"


def shut_down(server) -> None:
    """Stop server.serve_forever (waiting at most 5 s for it) and close the socket."""
    closer = threading.Thread(target=server.shutdown, daemon=True)
    closer.start()
    closer.join(5)
    server.server_close()


def serve_until_stopped(server, stop: threading.Event, ready_line: str, *, started: float, max_seconds: float,
                        log: logging.Logger) -> int:
    """Serve on a background thread, print ready_line (flushed) once the socket listens, wait as wait_for_stop
    does (our parent is the process running now), log why we stop, shut the server down, and return 0."""
    parent = os.getppid()
    start_serving(server)
    print(ready_line, flush=True)
    reason = wait_for_stop(stop, deadline=started + max_seconds, parent=parent)
    log.info("stopping: %s", reason)
    shut_down(server)
    return 0
