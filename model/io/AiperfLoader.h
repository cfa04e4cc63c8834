#pragma once

#include "LoadResult.h"

class LoadControl;

// NVIDIA AIPerf / GenAI-Perf per-request JSONL (profile_export.jsonl), both the
// early schema (timestamp_ns, ttft, min_request_timestamp, max_response_timestamp)
// and the renamed one (request_start_ns, request_end_ns, time_to_first_token).
// Metrics carry explicit units. The client sees every streamed chunk, so the
// chunk arrival times become the request's client token timeline. Failed
// requests carry no latency and are listed as rejected with their error.
namespace AiperfLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control);

} // namespace AiperfLoader
