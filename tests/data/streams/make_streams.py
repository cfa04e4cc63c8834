#!/usr/bin/env python3
"""Writes proxy-buffering.jsonl: a seed JSONL trace with per-token times
(contract v2) on both sides, made to show what the Streams and Load docks find.

300 requests, Poisson arrivals at about 4/s with a burst of 40 at 30 s.
The server emits tokens every ~22 ms (gamma jitter); 1 request in 12 has a
server stall of 600-900 ms (decode: e.g. a long prefill joining the batch).
Requests on route "via-proxy" pass a buffering proxy that forwards tokens
four at a time (or after 120 ms), so client events carry several tokens;
route "direct" forwards every token 8 ms after it leaves. Deterministic.
"""
import json
import random

rng = random.Random(20261201)
lines = []
t = 0.0
sends = []
for i in range(300):
    t += rng.expovariate(4.0)
    sends.append(t * 1000.0)
sends += [30_000.0 + rng.uniform(0, 400) for _ in range(40)]
sends.sort()
for i, send in enumerate(sends):
    route = "via-proxy" if rng.random() < 0.5 else "direct"
    region = rng.choice(["eu-west", "us-east"])
    prompt = int(rng.lognormvariate(6.5, 0.8)) + 10
    output = int(rng.lognormvariate(4.6, 0.5)) + 2
    gateway = send + rng.uniform(2, 6)
    queue = gateway + rng.uniform(3, 8)
    backlog = sum(1 for s in sends if send - 800 < s < send)
    prefill_start = queue + rng.uniform(5, 40) + 35.0 * backlog
    prefill_end = prefill_start + prompt * 0.03
    first_server = prefill_end + rng.uniform(15, 30)
    server = [first_server]
    stall_at = rng.randrange(2, output) if output > 3 and rng.random() < 1 / 12 else None
    for k in range(1, output):
        gap = rng.gammavariate(16, 22.0 / 16)
        if k == stall_at:
            gap += rng.uniform(600, 900)
        server.append(server[-1] + gap)
    client, counts = [], []
    if route == "direct":
        client = [s + 8.0 for s in server]
        counts = [1] * len(server)
    else:
        pending = []
        for k, s in enumerate(server):
            pending.append(s)
            last = k + 1 == len(server)
            if len(pending) == 4 or last or (k + 1 < len(server) and server[k + 1] - pending[0] > 120.0):
                client.append(max(s, pending[0] + 0.0) + 8.0)
                counts.append(len(pending))
                pending = []
    first_client = client[0]
    last_client = client[-1]
    record = {
        "request_id": f"req-{i:04d}", "prompt_tokens": prompt, "output_tokens": output,
        "client_send_ms": round(send, 3), "gateway_arrival_ms": round(gateway, 3),
        "queue_enter_ms": round(queue, 3), "prefill_start_ms": round(prefill_start, 3),
        "prefill_end_ms": round(prefill_end, 3), "first_token_server_ms": round(first_server, 3),
        "first_token_client_ms": round(first_client, 3), "last_token_client_ms": round(last_client, 3),
        "region": region, "route": route,
        "server_token_ms": [round(s, 3) for s in server],
        "client_token_ms": [round(c, 3) for c in client],
        "client_token_counts": counts,
    }
    lines.append(json.dumps(record, separators=(",", ":")))
with open("proxy-buffering.jsonl", "w") as out:
    out.write("\n".join(lines) + "\n")
print(len(lines), "requests")
