#pragma once

#include "LoadResult.h"

class LoadControl;

// Public LLM serving workload traces: arrivals and token counts only, no
// latency. They load as requests whose only observed stamp is the client
// send (arrival), so they feed arrival, concurrency and request-shape views;
// every latency figure on them is honestly "not observed".
namespace WorkloadTraceLoaders {

// Azure LLM inference trace CSV: TIMESTAMP (naive datetime with up to 7
// fractional digits, read as UTC), ContextTokens, GeneratedTokens.
LoadResult loadAzureCsv(const QString &path, const LoadOptions &options, LoadControl *control);

// Mooncake JSONL: timestamp (ms relative to the trace start), input_length,
// output_length, hash_ids (512-token prefix blocks). Prefix reuse is derived:
// `reused_prefix_blocks` counts the leading blocks an unbounded cache would
// already hold, `cached_prefix` says whether there was any.
LoadResult loadMooncake(const QString &path, const LoadOptions &options, LoadControl *control);

// "2023-11-16 18:17:03.9799600" (or with 'T') to ns since the Unix epoch.
bool parseNaiveDateTime(std::string_view text, qint64 *ns);

} // namespace WorkloadTraceLoaders
