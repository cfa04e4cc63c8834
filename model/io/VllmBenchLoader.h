#pragma once

#include "LoadResult.h"

class LoadControl;

// vLLM `benchmark_serving.py --save-result` (and `vllm bench serve`) JSON: one
// object per run whose per-request figures are parallel arrays: input_lens,
// output_lens, ttfts (s), itls (per-token gaps, s), errors and, in newer
// versions, start_times (s on the client's monotonic clock) and e2els.
// Each request becomes a row: client send at its start time, first token
// after ttft, last token after the gaps (or e2el), and the streamed tokens as
// the client token timeline (first token, then each gap). Without
// start_times every request sits at t = 0 and a notice says arrivals are
// unknown. Requests with an error are listed as rejected.
namespace VllmBenchLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control);

} // namespace VllmBenchLoader
