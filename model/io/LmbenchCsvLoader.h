#pragma once

#include "LoadResult.h"

class LoadControl;

// llm-d-benchmark's LMBench per-request CSV (LMBench_*_output_*.csv):
// prompt_tokens, generation_tokens, ttft (s), generation_time (s), launch_time
// and finish_time (epoch s). Columns are found by name in the header, token
// counts may be written as floats ("689.0") but must be whole, and rows may
// come in completion order: each row stands alone. Times are decimal text
// turned into integer ns exactly. A request's client send is its launch
// time, its first token ttft later, its last token its finish time (or the
// first token plus generation_time when there is no finish_time).
namespace LmbenchCsvLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control);

} // namespace LmbenchCsvLoader
