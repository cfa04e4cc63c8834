#pragma once

#include "LoadResult.h"

class LoadControl;

// Ray LLMPerf per-request results (individual_responses.json): a JSON array of
// records with latencies in seconds and no absolute timestamps. Every request
// is placed at t = 0 (a notice says so) so TTFT and E2E stay exact; arrival
// order and concurrency cannot be recovered from this format. Rows with an
// error_code are listed as rejected, as LLMPerf's own summary leaves them out.
namespace LlmperfLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control);

} // namespace LlmperfLoader
