#pragma once

#include "LoadResult.h"

class LoadControl;

// Loads Jaeger JSON: the query API's {data: [trace, ...]} and a bare trace
// {traceID, spans, processes} as Jaeger UI keeps it. Times are µs;
// CHILD_OF / FOLLOWS_FROM references give the parent (FOLLOWS_FROM marks the
// child as non-blocking); processes give the service; ids with dropped
// leading zeros are padded so they match OTLP's.
namespace JaegerJsonLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control);

} // namespace JaegerJsonLoader
