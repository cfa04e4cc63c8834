#!/usr/bin/env python3
"""Writes the constructed class/exceedance fixtures in this folder (seed JSONL).

Written for Tracelane's tests; released with the project (no third-party data).

mixture.jsonl      180 chat requests (TTFT 100.0..189.5 ms) and 20 document
                   requests (TTFT 1000..1950 ms): the overall p95 TTFT is
                   carried by documents, which are 10% of requests.
region-queue.jsonl 100 requests; the five slowest differ from the rest only
                   in region (all ap-south vs 20% of the rest) and in queue
                   time (500..540 ms vs 10..104 ms).
region-tail.jsonl  250 requests, 84 (33.6%) in ap-south; the 13 above the
                   overall p95 TTFT are all ap-south, 7 interactive and 6
                   batch, half of each region being interactive: split by
                   region x priority no cell holds the set, the region does.
numeric-bands.jsonl 240 requests with two many-valued numeric attributes,
                   classed in quartile bands: budget_ms (61 values, ties,
                   absent from every 11th request; TTFT grows with it) and
                   retries (0 for 90% of requests, 20 other values: every
                   quartile is the lowest value, so a single band).
"""
import json

T0 = 1_700_000_000_000.0


def record(i, send, phases, prompt, output, **attrs):
    names = ["client_send_ms", "gateway_arrival_ms", "queue_enter_ms", "prefill_start_ms",
             "prefill_end_ms", "first_token_server_ms", "first_token_client_ms", "last_token_client_ms"]
    stamps = [send]
    for p in phases:
        stamps.append(stamps[-1] + p)
    row = {"request_id": "r-%03d" % i, "prompt_tokens": prompt, "output_tokens": output}
    row.update({name: round(T0 + value, 3) for name, value in zip(names, stamps)})
    row.update(attrs)
    return json.dumps(row)


def mixture():
    out = []
    chat = 0
    for i in range(200):
        if i % 10 == 9:   # every tenth request is a document
            ttft = 1000.0 + 50.0 * (i // 10)
            prompt, output, workload = 6000, 300, "document"
        else:
            ttft = 100.0 + 0.5 * chat
            chat += 1
            prompt, output, workload = 400, 120, "chat"
        phases = [10.0, 2.0, ttft - 10.0 - 2.0 - 40.0 - 8.0 - 10.0, 40.0, 8.0, 10.0, (output - 1) * 20.0]
        out.append(record(i + 1, 100.0 * i, phases, prompt, output, workload=workload,
                          region="eu" if i % 2 else "us"))
    return out


def region_queue():
    slow = {10: 520.0, 30: 540.0, 50: 500.0, 70: 530.0, 90: 510.0}
    out = []
    rest = slow_i = 0
    for i in range(100):
        if i in slow:
            slot = slow_i
            slow_i += 1
            queue, region = slow[i], "ap-south"
        else:
            slot = rest
            rest += 1
            queue, region = 10.0 + slot, "ap-south" if slot % 5 == 0 else "eu-west"
        phases = [1.0, 1.0, queue, 1.0, 1.0, 1.0, 99 * 20.0]
        out.append(record(i + 1, 100.0 * i, phases, 512, 100, region=region,
                          priority="interactive" if slot % 5 < 3 else "batch",
                          cached_prefix=slot % 5 < 2,
                          tenant_tier=1 if slot % 5 < 2 else (2 if slot % 5 < 4 else 3)))
    return out


def region_tail():
    out = []
    slow = fast = 0
    for i in range(250):
        region = "ap-south" if i % 125 < 42 else ("eu-west" if i % 2 else "us-east")
        if region == "ap-south" and i % 6 == 0 and slow < 13:
            ttft = 900.0 + 10.0 * slow
            slow += 1
        else:
            ttft = 100.0 + 1.5 * fast
            fast += 1
        phases = [10.0, 2.0, ttft - 10.0 - 2.0 - 40.0 - 8.0 - 10.0, 40.0, 8.0, 10.0, 99 * 20.0]
        out.append(record(i + 1, 100.0 * i, phases, 512, 100, region=region,
                          priority="interactive" if (i // 6) % 2 == 0 else "batch"))
    return out


def numeric_bands():
    out = []
    for i in range(240):
        budget = 50.0 * ((i * 37) % 61) + 0.25
        ttft = 80.0 + budget / 20.0 + (i % 7) * 3.0
        phases = [5.0, 1.0, ttft - 5.0 - 1.0 - 30.0 - 6.0 - 4.0, 30.0, 6.0, 4.0, 49 * 15.0]
        attrs = {"region": ("us-east", "eu-west", "ap-south")[i % 3]}
        if i % 11 != 5:
            attrs["budget_ms"] = budget
        attrs["retries"] = 0 if i % 10 else 1 + (i // 10) % 20
        out.append(record(i + 1, 50.0 * i, phases, 256 + (i % 5) * 100, 50, **attrs))
    return out


for name, rows in (("mixture.jsonl", mixture()), ("region-queue.jsonl", region_queue()),
                   ("region-tail.jsonl", region_tail()), ("numeric-bands.jsonl", numeric_bands())):
    with open(name, "w") as handle:
        handle.write("\n".join(rows) + "\n")
