#!/usr/bin/env python3
"""Slow clients against `errata serve`: N connections that each send a request's headers one
byte-sized line at a time, never finishing, while a health check is timed every 100 ms.

    python3 bench/slowloris.py HOST:PORT [CONNECTIONS] [SECONDS]

Prints how many slow connections were open, how many the server closed, and the health
check's latency (p50, p99, max, failures). The server passes when the health check stays
under 100 ms and never fails.
"""
import http.client
import socket
import sys
import time

addr = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
secs = float(sys.argv[3]) if len(sys.argv) > 3 else 30
host, port = addr.rsplit(":", 1)
port = int(port)

slow = []
for i in range(n):
    try:
        s = socket.create_connection((host, port), timeout=5)
        s.sendall(b"POST /api/v1/match HTTP/1.1\r\nHost: x\r\n")
        slow.append(s)
    except OSError:
        break
print(f"slow connections opened: {len(slow)} of {n}")

latencies, failures = [], 0
closed = 0
start = time.time()
next_drip = start
while time.time() - start < secs:
    if time.time() >= next_drip:
        # One more header line on each slow connection: the request never ends.
        for s in list(slow):
            try:
                s.sendall(b"X-a: b\r\n")
            except OSError:
                slow.remove(s)
                closed += 1
        next_drip = time.time() + 5
    t = time.perf_counter()
    try:
        c = http.client.HTTPConnection(host, port, timeout=2)
        c.request("GET", "/healthz")
        ok = c.getresponse().status == 200
        c.close()
    except OSError:
        ok = False
    took = (time.perf_counter() - t) * 1000
    if ok:
        latencies.append(took)
    else:
        failures += 1
    time.sleep(0.1)

latencies.sort()
pct = lambda p: latencies[min(len(latencies) - 1, int(len(latencies) * p))] if latencies else float("nan")
print(f"slow connections closed by the server meanwhile: {closed}")
print(f"health checks: {len(latencies)} answered, {failures} failed; "
      f"p50 {pct(0.5):.1f} ms, p99 {pct(0.99):.1f} ms, max {latencies[-1] if latencies else float('nan'):.1f} ms")
