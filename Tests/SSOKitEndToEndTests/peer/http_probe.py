#!/usr/bin/env python3
"""One HTTP request to a loopback peer, for the end-to-end tests: what the CLI does not show.

    http_probe.py URL [--form JSON_OBJECT] [--basic ID:SECRET]

GETs URL, or POSTs the form (application/x-www-form-urlencoded) with --form; --basic adds
client_secret_basic (RFC 6749 §2.3.1). Prints one JSON object {"status": N, "body": <the JSON
body, or its text, or null>}. Standard library only; only 127.0.0.1 / localhost / [::1]; 10 s timeout.
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import urllib.error
import urllib.parse
import urllib.request


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--form")
    parser.add_argument("--basic")
    args = parser.parse_args()
    if urllib.parse.urlsplit(args.url).hostname not in ("127.0.0.1", "localhost", "::1"):
        print(json.dumps({"status": -1, "body": "refusing a non-loopback URL"}))
        return 2
    data = urllib.parse.urlencode(json.loads(args.form)).encode() if args.form else None
    request = urllib.request.Request(args.url, data=data, method="POST" if data is not None else "GET")
    if args.basic:
        client, _, secret = args.basic.partition(":")
        pair = urllib.parse.quote_plus(client) + ":" + urllib.parse.quote_plus(secret)
        request.add_header("Authorization", "Basic " + base64.b64encode(pair.encode()).decode())
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=10) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    try:
        body = json.loads(raw)
    except ValueError:
        body = raw.decode("utf-8", "replace")
    print(json.dumps({"status": status, "body": body}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
