# Hostile input on the app API socket: each case prints the answer (no 5xx, no hang, no crash expected).
# Usage: python3 hostile_input.py SOCKET [CASE...]
import socket, sys, time
def send(data, path=None, timeout=10, tcp=None):
    s = socket.socket(socket.AF_UNIX) if tcp is None else socket.create_connection(tcp)
    if tcp is None: s.connect(path or sys.argv[1])
    s.settimeout(timeout)
    try:
        s.sendall(data)
    except Exception as e:
        return "send-error %r" % e
    out = b""
    try:
        while True:
            b = s.recv(65536)
            if not b: break
            out += b
            if len(out) > 200000: break
    except Exception as e:
        out += b" <recv %r>" % str(e).encode()
    s.close()
    return out[:300].decode(errors="replace").replace("\r\n", " | ")
def req(method, path, body=b"", headers=None):
    h = headers if headers is not None else {"Content-Length": str(len(body))}
    return ("%s %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" % (method, path)).encode() + b"".join(("%s: %s\r\n" % kv).encode() for kv in h.items()) + b"\r\n" + body
cases = {
 "cl_too_big": req("POST", "/v1/authorize", b"", {"Content-Length": "70000"}),
 "chunked_over_cap": b"POST /v1/authorize HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + b"".join(b"%x\r\n%s\r\n" % (8192, b"a"*8192) for _ in range(9)) + b"0\r\n\r\n",
 "bad_json": req("POST", "/v1/authorize", b"{"),
 "deep": req("POST", "/v1/authorize", b"["*5000 + b"]"*5000),
 "dup": req("POST", "/v1/authorize", b'{"app":"com.example.mail","app":"x"}'),
 "huge_id": req("POST", "/v1/interactions/" + "A"*60000, b'{"username":"a"}'),
 "dotdot": req("POST", "/v1/interactions/../authorize", b'{"app":"com.example.mail"}'),
 "enc_slash": req("POST", "/v1/interactions/abc%2F..%2Fx", b'{"username":"a"}'),
 "get_authorize": req("GET", "/v1/authorize"),
 "cl_nonnumeric": req("POST", "/v1/authorize", b"", {"Content-Length": "abc"}),
 "te_and_cl": b"POST /v1/authorize HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n",
 "header_flood": b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(20000)) + b"Connection: close\r\n\r\n",
 "big_header": b"GET /healthz HTTP/1.1\r\nHost: x\r\nX: " + b"a"*2000000 + b"\r\nConnection: close\r\n\r\n",
 "bad_utf8": req("POST", "/v1/authorize", b'{"app":"\xff"}'),
 "not_object": req("POST", "/v1/authorize", b'[]'),
 "app_unicode_k": req("POST", "/v1/authorize", '{"app":"com.example.mai\u212a"}'.encode()),
 "app_upper": req("POST", "/v1/authorize", b'{"app":"COM.EXAMPLE.MAIL","operation":"refresh"}'),
 "cfgremoved_variant": req("POST", "/v1/authorize", b'{"app":"com.example.mail","operation":"ASAuthorizationProviderAuthorizationOperationConfigurationRemoved"}'),
 "int_cancel": req("POST", "/v1/interactions/AAAAAAAAAAAAAAAAAAAAAA", b'{"cancel":true}'),
 "unknown_route": req("GET", "/v1/nothing"),
 "http10_nohost": b"POST /v1/authorize HTTP/1.0\r\nContent-Length: 2\r\n\r\n{}",
}
only = sys.argv[2:]
for name, data in cases.items():
    if only and name not in only: continue
    t = time.time(); r = send(data); print("%-18s %.2fs %s" % (name, time.time()-t, r[:260]))
