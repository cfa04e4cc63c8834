#pragma once

#include "LoadResult.h"

class LoadControl;

// Loads any-agent's AgentTrace JSON ({"spans": [...], "final_output": ...}),
// a serialised OpenTelemetry Python ReadableSpan list: 128-bit trace ids and
// 64-bit span ids as decimal JSON integers (parsed losslessly), integer ns
// times, lower-case kind and status, attributes as a plain map, and
// parent {span_id: null} for the root.
namespace AnyAgentLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control);

} // namespace AnyAgentLoader
