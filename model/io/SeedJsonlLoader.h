#pragma once

#include "LoadResult.h"

class LoadControl;

// Loads the seed profiler's JSONL request format (one TraceRecord object per
// line). Workers parse line-aligned ranges of the file in parallel; a bad
// record is rejected with its line and reason while the rest loads.
namespace SeedJsonlLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control);

// The same records written as one JSON array (on one line or pretty-printed):
// each element is judged exactly like a line, and named by the line it starts on.
LoadResult loadArray(const QString &path, const LoadOptions &options, LoadControl *control);

} // namespace SeedJsonlLoader
