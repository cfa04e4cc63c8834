#pragma once

#include "clickhouse/ClickHouseSource.h"
#include "io/LoadResult.h"

#include <QString>
#include <QStringList>

#include <atomic>

class LoadControl;

// Tracelane's own requests table (clickhouse/CLICKHOUSE-SCHEMA.md) read back
// into the desktop store, for what needs the rows in memory: the window, and
// the CLI commands that do not compute on the server.
//
// Which rows: those whose client send time is in the URL's [from, to), in the
// order they were pushed (by source file, then row), through the same
// RequestRowsBuilder as a flat file's records, so a request id seen twice
// and a row that is not a request are rejected the same way, each with its
// line in the pushed file (its source_line) and the column. The rows are
// counted first: more than the URL's max_spans is refused with the count
// before anything is fetched. They are then fetched in parts of whole push
// batches (at most ~250,000 rows each, unless one batch is larger), so
// progress shows and cancel stops between parts.
//
// The spans of a span trace (T_spans, schema version 3) come back whole, as
// the file's load left them (TracelaneSpanRows): each source with spans
// gets its workflows, critical paths and request lanes from them, those in
// range being the workflows whose summary row is (whole traces; a sample
// keeps whole workflows, by the hash of the trace id). Spans pushed before
// version 3 stay on the server, and a notice says how many. What the
// requests table does not hold stays out: per-token times of flat requests
// (no stream metrics).
namespace TracelaneTableLoader {

inline constexpr qint64 kRowsPerPart = 250'000;

LoadResult load(const ClickHouseSource &source, const LoadOptions &options, LoadControl *control = nullptr,
                qint64 rowsPerPart = kRowsPerPart);

} // namespace TracelaneTableLoader
