#pragma once

struct CliContext;

// `stream FILE [--stall-ms X] [--stall-factor F] [--worst N] [--json]`: pooled
// inter-token gaps per side, per-request ITL and TPOT, stalls, chunking,
// server-vs-client coalescing with its mechanism, the worst requests.
int runStream(const CliContext &context);

// `load FILE [--window S] [--json]`: arrivals, completions, failures, goodput,
// requests in flight and queue depth over time; burst envelope; Little's law.
int runLoad(const CliContext &context);
