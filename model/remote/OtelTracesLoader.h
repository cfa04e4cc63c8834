#pragma once

#include "clickhouse/ClickHouseSource.h"
#include "io/LoadResult.h"

#include <QString>

class LoadControl;

// The OpenTelemetry Collector ClickHouse exporter's spans table (otel_traces:
// Map attributes with every value a string, DateTime64(9) Timestamp,
// Duration in ns, Events and Links as Nested columns) read as spans, through
// the same SpanTraceBuilder as an OTLP file: one set of rules.
//
// Which spans: with from/to in the URL, every span of each trace that has a
// span starting in [from, to) (and matching the URL's where=), so a trace is
// never cut at the window's edge; without them the whole table. The spans are counted first: more than the
// URL's max_spans is refused with the count before anything is fetched.
// They are then fetched in parts (whole traces by a hash of the trace id, at
// most ~250,000 spans each), so progress shows and cancel stops between parts.
//
// Attribute values come back as the exporter wrote them, as text: a value
// that is exactly a number is read as that number (vLLM's
// gen_ai.latency.* arrive as "0.0427"), as for Langfuse's stringified
// attributes. Each rejected span names its row in the fetch (ordered by
// trace id, start, span id) and the column.
namespace OtelTracesLoader {

inline constexpr qint64 kSpansPerPart = 250'000;

LoadResult load(const ClickHouseSource &source, const LoadOptions &options, LoadControl *control = nullptr,
                qint64 spansPerPart = kSpansPerPart);

// The SELECT of one part (exposed for tests and the log).
QString partSql(const ClickHouseSource &source, int part, int parts);

} // namespace OtelTracesLoader
