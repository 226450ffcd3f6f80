#!/usr/bin/env python3
"""One HTTPS GET through an intercepting proxy on loopback, as a plain TLS client: for the end-to-end tests.

    connect_probe.py PROXY_PORT URL [--cafile PEM] [--timeout S]

Sends CONNECT host:port to the proxy on 127.0.0.1:PROXY_PORT; when the proxy answers 200, speaks TLS to what is
behind it, trusting only the certificates in --cafile (without it: the system's roots) and checking the host name
(RFC 6125, as Python's ssl does), then sends GET with Connection: close and reads the answer. Prints one JSON
object: {"status": N, "body": "<text>", "subject_alt_names": [["DNS", "..."], ...], "issuer": "<common name>"};
{"connect_status": N} when the proxy refused the CONNECT; {"error": "<why>"} when TLS or the network failed.
Standard library only; the proxy must be on loopback; each step times out after --timeout seconds (default 10).
"""

from __future__ import annotations

import argparse
import json
import socket
import ssl
import sys
import urllib.parse


def read_until_close(stream) -> bytes:
    chunks = []
    while True:
        try:
            chunk = stream.recv(65536)
        except ssl.SSLError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def connect_head(sock: socket.socket) -> bytes:
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            break
        head += chunk
        if len(head) > 65536:
            break
    return head


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("proxy_port", type=int)
    parser.add_argument("url")
    parser.add_argument("--cafile")
    parser.add_argument("--timeout", type=float, default=10)
    args = parser.parse_args()
    url = urllib.parse.urlsplit(args.url)
    if url.scheme != "https" or not url.hostname:
        print(json.dumps({"error": "an https URL is needed"}))
        return 2
    host, port = url.hostname, url.port or 443
    authority = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        sock = socket.create_connection(("127.0.0.1", args.proxy_port), timeout=args.timeout)
        sock.sendall(f"CONNECT {authority} HTTP/1.1\r\nHost: {authority}\r\n\r\n".encode())
        head = connect_head(sock)
        status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.") else -1
        if status != 200:
            print(json.dumps({"connect_status": status}))
            return 0
        context = ssl.create_default_context(cafile=args.cafile) if args.cafile else ssl.create_default_context()
        with context.wrap_socket(sock, server_hostname=host) as tls:
            certificate = tls.getpeercert()
            target = (url.path or "/") + (f"?{url.query}" if url.query else "")
            tls.sendall(f"GET {target} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n".encode())
            raw = read_until_close(tls)
    except (OSError, ssl.SSLError, ValueError) as error:
        print(json.dumps({"error": f"{type(error).__name__}: {error}"}))
        return 0
    head, _, body = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.") else -1
    issuer = dict(pair for rdn in certificate.get("issuer", ()) for pair in rdn).get("commonName")
    print(json.dumps({
        "status": status, "body": body.decode("utf-8", "replace"),
        "subject_alt_names": [list(name) for name in certificate.get("subjectAltName", ())], "issuer": issuer,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
