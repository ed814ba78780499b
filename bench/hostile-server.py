#!/usr/bin/env python3
"""The server under attack, on loopback only: `arbiter serve` against 200 slow clients and 20,000
garbage requests at once, while an ordinary client measures its latency; then 64 concurrent
requests of 100,000 Duck commands, with the server's peak and resting memory; then the live
games' WebSockets: one sending pings without reading, 2,000 idle ones from 125 addresses, and one
address churning sockets against a game 480 others watch, each attack held while an ordinary
client is timed.

    python3 bench/hostile-server.py [path/to/arbiter]    # default target/release/arbiter
    SOCKETS_ONLY=1 python3 bench/hostile-server.py ...   # the WebSocket attacks alone

Every loop is bounded in count and time (the whole run stops by itself within about two
minutes). The attackers connect from loopback addresses of their own (127.0.0.2 and up), as
separate clients would; the ordinary client from 127.0.0.1. Linux only (/proc, 127.0.0.0/8)."""

import asyncio
import base64
import collections
import json
import os
import random
import subprocess
import sys
import time

SLOW_CLIENTS = 200
GARBAGE_REQUESTS = 20_000
GARBAGE_AT_ONCE = 64
ORDINARY_REQUESTS = 400
HEAVY_REQUESTS = 64
HEAVY_COMMANDS = 100_000
PHASE_SECONDS = 60
SOCKET_PHASE_SECONDS = 10
IDLE_SOCKETS = 2_000
IDLE_ADDRESSES = 125
WATCHERS = 480


def rss_kb(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


async def exchange(addr, request, source, timeout=10.0):
    """Sends `request` from `source` and returns the status code (or an error's name)."""
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(*addr, local_addr=(source, 0)), timeout)
    except (OSError, asyncio.TimeoutError) as error:
        return type(error).__name__
    try:
        writer.write(request)
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), timeout)
        parts = line.split()
        status = parts[1].decode() if len(parts) > 1 else "closed"
        # Read the rest so that the server is not left writing.
        await asyncio.wait_for(reader.read(), timeout)
        return status
    except (OSError, asyncio.TimeoutError) as error:
        return type(error).__name__
    finally:
        writer.close()


def post(addr, path, body):
    host = f"{addr[0]}:{addr[1]}"
    return (f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Connection: close\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body


async def slow_client(addr, source, statuses, deadline):
    """Headers, then one body byte a second, until cut off or the deadline."""
    try:
        reader, writer = await asyncio.open_connection(*addr, local_addr=(source, 0))
    except OSError as error:
        statuses[type(error).__name__] += 1
        return
    host = f"{addr[0]}:{addr[1]}"
    writer.write(f"POST /api/duck/move HTTP/1.1\r\nHost: {host}\r\nContent-Type: "
                 "application/json\r\nContent-Length: 1000\r\n\r\n".encode())
    outcome = "deadline"
    try:
        while time.monotonic() < deadline:
            writer.write(b" ")
            await writer.drain()
            try:
                line = await asyncio.wait_for(reader.readline(), 1.0)
            except asyncio.TimeoutError:
                continue
            outcome = line.split()[1].decode() if len(line.split()) > 1 else "closed"
            break
    except OSError:
        outcome = "closed"
    statuses[outcome] += 1
    writer.close()


async def garbage(addr, statuses, deadline):
    rng = random.Random(1)
    queue = list(range(GARBAGE_REQUESTS))

    async def worker(n):
        source = f"127.0.1.{1 + n % 16}"
        while queue and time.monotonic() < deadline:
            queue.pop()
            kind = rng.randrange(3)
            if kind == 0:
                request = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
            elif kind == 1:
                request = post(addr, "/api/duck/game", bytes(rng.randrange(32, 127)
                                                             for _ in range(rng.randrange(200))))
            else:
                request = (f"GET /{'x' * rng.randrange(100)} HTTP/1.1\r\nHost: evil.example\r\n"
                           "Connection: close\r\n\r\n").encode()
            statuses[await exchange(addr, request, source, timeout=5.0)] += 1

    await asyncio.gather(*(worker(n) for n in range(GARBAGE_AT_ONCE)))


async def ordinary(addr, latencies, statuses, deadline):
    body = b'{"commands": ["0 3 1 4"], "at": 1}'
    for _ in range(ORDINARY_REQUESTS):
        if time.monotonic() > deadline:
            break
        started = time.monotonic()
        statuses[await exchange(addr, post(addr, "/api/duck/game", body), "127.0.0.1")] += 1
        latencies.append(time.monotonic() - started)
        await asyncio.sleep(0.02)


async def attack(addr, pid):
    deadline = time.monotonic() + PHASE_SECONDS
    slow, junk, calm = (collections.Counter() for _ in range(3))
    latencies = []
    peak = [0]

    async def watch():
        while time.monotonic() < deadline:
            peak[0] = max(peak[0], rss_kb(pid, "VmRSS"))
            await asyncio.sleep(0.1)

    watcher = asyncio.ensure_future(watch())
    slow_tasks = [asyncio.ensure_future(slow_client(addr, f"127.0.0.{2 + n // 25}", slow, deadline))
                  for n in range(SLOW_CLIENTS)]
    await asyncio.sleep(0.5)
    await asyncio.gather(garbage(addr, junk, deadline), ordinary(addr, latencies, calm, deadline))
    await asyncio.gather(*slow_tasks)
    watcher.cancel()
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
    print(f"attack: {SLOW_CLIENTS} slow clients, {sum(junk.values())} garbage requests, "
          f"{len(latencies)} ordinary requests")
    print(f"  ordinary latency: p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, max {p(1.0):.1f} ms;"
          f" statuses {dict(calm)}")
    print(f"  slow clients' ends: {dict(slow)}")
    print(f"  garbage statuses: {dict(junk)}")
    print(f"  server RSS: peak {peak[0] / 1024:.0f} MiB, now {rss_kb(pid, 'VmRSS') / 1024:.0f} MiB")


async def heavy(addr, pid):
    commands = json.dumps({"commands": ["0 3 1 4"] * HEAVY_COMMANDS}, separators=(",", ":")).encode()
    peak = [0]
    done = asyncio.Event()

    async def watch():
        while not done.is_set():
            peak[0] = max(peak[0], rss_kb(pid, "VmRSS"))
            await asyncio.sleep(0.05)

    watcher = asyncio.ensure_future(watch())
    started = time.monotonic()
    statuses = collections.Counter(await asyncio.gather(*(
        exchange(addr, post(addr, "/api/duck/game", commands), f"127.0.2.{1 + n % 8}", 60.0)
        for n in range(HEAVY_REQUESTS))))
    done.set()
    await watcher
    took = time.monotonic() - started
    await asyncio.sleep(3)
    print(f"heavy: {HEAVY_REQUESTS} requests of {HEAVY_COMMANDS} Duck commands at once in "
          f"{took:.1f} s, statuses {dict(statuses)}")
    print(f"  server RSS: peak {peak[0] / 1024:.0f} MiB, 3 s after {rss_kb(pid, 'VmRSS') / 1024:.0f}"
          f" MiB")


async def ws_open(addr, path, source, hello=True, timeout=10.0):
    """Opens a WebSocket on `path` from `source`: (reader, writer), or the refusal's status."""
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(*addr, local_addr=(source, 0)), timeout)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET {path} HTTP/1.1\r\nHost: {addr[0]}:{addr[1]}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
    status = head.split()[1].decode() if len(head.split()) > 1 else "closed"
    if status != "101":
        writer.close()
        return status
    if hello:
        writer.write(ws_frame(0x1, b'{"hello": null}'))
    return reader, writer


def ws_frame(opcode, payload):
    """A masked client frame (payloads under 126 bytes)."""
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked


async def create_game(addr):
    request = post(addr, "/api/live/games", b"{}")
    reader, writer = await asyncio.open_connection(*addr)
    writer.write(request)
    answer = await reader.read()
    writer.close()
    return json.loads(answer.split(b"\r\n\r\n", 1)[1])["id"]


async def timed_ordinary(addr, deadline, latencies, statuses):
    body = b'{"commands": ["0 3 1 4"], "at": 1}'
    while time.monotonic() < deadline:
        started = time.monotonic()
        statuses[await exchange(addr, post(addr, "/api/duck/game", body), "127.0.0.1")] += 1
        latencies.append(time.monotonic() - started)
        await asyncio.sleep(0.1)


async def held(addr, pid, name, attack, prepare=None):
    """Runs `attack(deadline)` (after `prepare()`, untimed) for SOCKET_PHASE_SECONDS while an
    ordinary client is timed and the server's memory sampled; prints one line."""
    if prepare is not None:
        await prepare()
    deadline = time.monotonic() + SOCKET_PHASE_SECONDS
    latencies, statuses, peak = [], collections.Counter(), [0]

    async def watch():
        while time.monotonic() < deadline + 1:
            peak[0] = max(peak[0], rss_kb(pid, "VmRSS"))
            await asyncio.sleep(0.1)

    rest = rss_kb(pid, "VmRSS")
    started = time.monotonic()
    watcher = asyncio.ensure_future(watch())
    outcome, _ = await asyncio.gather(attack(deadline),
                                      timed_ordinary(addr, deadline, latencies, statuses))
    await watcher
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 if latencies else 0
    print(f"| {name} | {outcome} | {rest / 1024:.0f} → {peak[0] / 1024:.0f} MiB | "
          f"{time.monotonic() - started:.1f} s | p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms; "
          f"{dict(statuses)} |")


async def sockets(addr, pid):
    game = await create_game(addr)
    path = f"/api/live/games/{game}/socket"
    print()
    print("| socket attack | what the server did | server RSS (before → peak) | held | "
          "ordinary requests meanwhile |")
    print("| --- | --- | --- | --- | --- |")

    async def ping_flood(deadline):
        opened = await ws_open(addr, path, "127.0.3.1")
        if isinstance(opened, str):
            return f"refused {opened}"
        _, writer = opened
        sent, ping = 0, ws_frame(0x9, b"p" * 125)
        try:
            while time.monotonic() < deadline:
                writer.write(ping * 64)
                await asyncio.wait_for(writer.drain(), 2.0)
                sent += 64
        except (OSError, asyncio.TimeoutError) as error:
            return f"cut off after {sent} pings ({type(error).__name__})"
        finally:
            writer.close()
        return f"{sent} pings taken, never cut off"

    await held(addr, pid, "pings without reading", ping_flood)

    async def idle(deadline):
        statuses, opened = collections.Counter(), []

        async def one(n):
            try:
                result = await ws_open(addr, path, f"127.0.4.{1 + n % IDLE_ADDRESSES}", False)
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError) as error:
                statuses[type(error).__name__] += 1
                return
            if isinstance(result, str):
                statuses[result] += 1
            else:
                statuses["open"] += 1
                opened.append(result[1])

        await asyncio.gather(*(one(n) for n in range(IDLE_SOCKETS)))
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        for writer in opened:
            writer.close()
        return f"{IDLE_SOCKETS} asked from {IDLE_ADDRESSES} addresses: {dict(statuses)}"

    await held(addr, pid, f"{IDLE_SOCKETS} idle sockets", idle)
    # The idle sockets' connections are let go before the next attack.
    await asyncio.sleep(2)

    watchers = []

    async def watch():
        for n in range(WATCHERS):
            result = await ws_open(addr, path, f"127.0.5.{1 + n // 15}")
            if not isinstance(result, str):
                watchers.append(result[1])

    async def churn(deadline):
        statuses = collections.Counter()
        while time.monotonic() < deadline:
            try:
                result = await ws_open(addr, path, "127.0.6.1")
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError) as error:
                statuses[type(error).__name__] += 1
                continue
            if isinstance(result, str):
                statuses[result] += 1
                await asyncio.sleep(0.01)
            else:
                statuses["opened"] += 1
                result[1].close()
        for writer in watchers:
            writer.close()
        return f"{len(watchers)} watching; the churner's sockets: {dict(statuses)}"

    await held(addr, pid, f"socket churn against {WATCHERS} watchers", churn, watch)


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/arbiter"
    server = subprocess.Popen([binary, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        host, port = line.split("http://")[1].split("/")[0].rsplit(":", 1)
        addr = (host, int(port))
        print(f"arbiter serve at {host}:{port}, {os.cpu_count()} cores, load average before "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"  server RSS at rest: {rss_kb(server.pid, 'VmRSS') / 1024:.0f} MiB")
        if not os.environ.get("SOCKETS_ONLY"):
            asyncio.run(attack(addr, server.pid))
            asyncio.run(heavy(addr, server.pid))
        asyncio.run(sockets(addr, server.pid))
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
