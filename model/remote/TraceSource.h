#pragma once

#include "io/LoadResult.h"

#include <QString>

class LoadControl;

// Where a trace is opened from: a file (any format TraceFileLoader reads,
// standard input as "-") or a clickhouse:// URL whose table the desktop store
// can load: the OpenTelemetry Collector's otel_traces (spans) or Tracelane's
// own requests table (its rows fetched). One entry point for the GUI's open
// and every CLI command that reads a trace.
namespace TraceSource {

bool isUrl(const QString &pathOrUrl);
// How people see it: a file's name, "standard input", or the URL without
// credentials.
QString displayName(const QString &pathOrUrl);
// What identifies it across opens: a file's absolute path, or the URL.
QString canonical(const QString &pathOrUrl);
LoadResult load(const QString &pathOrUrl, const LoadOptions &options, LoadControl *control = nullptr);

} // namespace TraceSource
