#!/usr/bin/env python3
"""A static file server for the SSOKit end-to-end tests (standard library only), on 127.0.0.1:

    well_known_server.py --serve /.well-known/apple-app-site-association=FILE [--serve PATH=FILE ...]
                         [--redirect PATH=URL ...] [--port 0] [--max-seconds S]

answers GET PATH with the bytes of FILE (Content-Type application/json), GET of a --redirect PATH with a 301 to
URL, and 404 otherwise. It prints `READY http://127.0.0.1:PORT` on the first stdout line (flushed) once it listens,
then serves until SIGTERM/SIGINT/SIGHUP, until --max-seconds has passed, or until the process that started it has
died. Exit 0. Silent on stderr unless --verbose.
"""

from __future__ import annotations

import argparse
import http.server
import logging
import os
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
import peer_runtime  # noqa: E402

HOST = "127.0.0.1"
log = logging.getLogger("well_known_server")


def _pairs(values, what):
    result = {}
    for value in values or []:
        path, sep, target = value.partition("=")
        if not sep or not path.startswith("/"):
            raise SystemExit(f"well_known_server.py: --{what} takes PATH=VALUE with PATH starting with /")
        result[path] = target
    return result


def make_handler(files, redirects):
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's naming)
            path = self.path.split("?", 1)[0]
            if path in redirects:
                self.send_response(301)
                self.send_header("Location", redirects[path])
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif path in files:
                with open(files[path], "rb") as handle:
                    body = handle.read()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            else:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()

        def log_message(self, fmt, *args):
            log.info("%s %s", self.address_string(), fmt % args)

    return Handler


def main(argv=None) -> int:
    stop = peer_runtime.install_stop_signals()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    peer_runtime.add_server_arguments(parser)
    parser.add_argument("--serve", action="append", help="PATH=FILE to answer with FILE's bytes")
    parser.add_argument("--redirect", action="append", help="PATH=URL to answer with a 301 to URL")
    args = peer_runtime.parse_peer_arguments(
        parser, argv, verbose_help="log each request to stderr", log_file_help="append the log to this file")
    peer_runtime.setup_logging(args)
    started = time.monotonic()
    http.server.ThreadingHTTPServer.allow_reuse_address = False
    httpd = http.server.ThreadingHTTPServer(
        (HOST, args.port), make_handler(_pairs(args.serve, "serve"), _pairs(args.redirect, "redirect")))
    httpd.daemon_threads = True
    return peer_runtime.serve_until_stopped(
        httpd, stop, f"READY http://{HOST}:{httpd.server_address[1]}", started=started, max_seconds=args.max_seconds,
        log=log)


if __name__ == "__main__":
    sys.exit(main())
