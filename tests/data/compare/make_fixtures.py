#!/usr/bin/env python3
"""Writes the before/after fixtures of tests/model/tst_comparecli.cpp.

Seed JSONL, deterministic (random.Random with fixed seeds). Each request has
Poisson arrivals at 10 req/s, a region (eu, us, ap in turn) and phases drawn
from fixed ranges; eu's queue is three times longer in the "old" system.

baseline.jsonl   600 requests, old system
candidate.jsonl  600 requests, new system: eu's queue fixed, nothing else changed
deploy.jsonl     1200 requests: the old system until t = 63000 ms, the new one
                 after (a `variant` attribute says which), for --split-at and
                 --baseline-where/--candidate-where
"""
import json
import math
import random


def requests(seed, count, start_ms, new_system, prefix):
    rng = random.Random(seed)
    clock = start_ms
    out = []
    for i in range(count):
        clock += rng.expovariate(1 / 100.0)
        region = ("eu", "us", "ap")[i % 3]
        queue = math.exp(math.log(80.0) + 0.6 * rng.gauss(0.0, 1.0))
        if region == "eu" and not new_system:
            queue *= 3.0
        phases = [rng.uniform(5, 15), rng.uniform(2, 8), queue, rng.uniform(50, 150),
                  rng.uniform(10, 30), rng.uniform(5, 15), rng.uniform(500, 1500)]
        t = round(clock, 3)
        stamps = [t]
        for phase in phases:
            t = round(t + round(phase, 3), 3)
            stamps.append(t)
        names = ["client_send_ms", "gateway_arrival_ms", "queue_enter_ms", "prefill_start_ms",
                 "prefill_end_ms", "first_token_server_ms", "first_token_client_ms", "last_token_client_ms"]
        record = {"request_id": f"{prefix}-{i + 1}", "prompt_tokens": rng.randint(100, 2000),
                  "output_tokens": rng.randint(50, 500)}
        record.update(dict(zip(names, stamps)))
        record["region"] = region
        record["variant"] = "new" if new_system else "old"
        out.append(record)
    return out, clock


def write(name, records):
    with open(name, "w", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps(record) + "\n")


write("baseline.jsonl", requests(101, 600, 0.0, False, "base")[0])
write("candidate.jsonl", requests(202, 600, 0.0, True, "cand")[0])
old, last_old = requests(303, 600, 0.0, False, "old")
deploy = 1000.0 * math.ceil(last_old / 1000.0)   # the first whole second after the last old request
new, _ = requests(404, 600, deploy, True, "new")
write("deploy.jsonl", old + new)
print(f"deploy at t = {deploy:.0f} ms")
