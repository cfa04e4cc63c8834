#pragma once

#include "LoadResult.h"

class LoadControl;

// Loads a Langfuse trace export ({trace, observations}, or a list of them):
// observations are spans (ISO-8601 times, parentObservationId, type
// GENERATION / TOOL / AGENT / ...), and the original OpenTelemetry
// attributes come back out of `metadata`, a JSON *string* whose attribute
// values Langfuse stringified ("77"). usageDetails and completionStartTime
// fill in usage and the first-token time when the attributes lack them.
namespace LangfuseLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control);

} // namespace LangfuseLoader
