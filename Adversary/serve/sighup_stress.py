import socket, threading, os, signal, time, sys, json
pid = int(sys.argv[1]); url = sys.argv[2]
codes = {}
def worker():
    for _ in range(60):
        s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[3]); s.settimeout(20)
        body = json.dumps({"app": "com.example.mail", "operation": "refresh", "url": url}).encode()
        s.sendall(b"POST /v1/authorize HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
        out = b""
        try:
            while True:
                b = s.recv(65536)
                if not b: break
                out += b
        except Exception as e: out = b"ERR " + str(e).encode()
        k = out[:12]; codes[k] = codes.get(k, 0) + 1
ts = [threading.Thread(target=worker) for _ in range(4)]
[t.start() for t in ts]
for _ in range(40):
    os.kill(pid, signal.SIGHUP); time.sleep(0.05)
[t.join() for t in ts]
print(codes)
