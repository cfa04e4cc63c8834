#pragma once

#include <QString>

struct ClickHouseSource;
struct CliContext;

// The class commands on a clickhouse:// URL instead of a FILE: the same
// output, figures computed by the server (model/clickhouse).
bool isClickHouseArgument(const QString &argument);
// A URL whose table is the OpenTelemetry Collector's otel_traces: read as
// spans into memory (model/remote) like a file, by every command. False for
// anything else, and when the server cannot be asked (the command's own
// path then says why).
bool isSpanTableArgument(const QString &argument);
// analyse, slice, exceed and goodput compute on the server: a URL, but not a
// span table.
bool computesOnServer(const QString &argument);
// Parses the command's one URL into *source; a URL that cannot be read, or a
// where= filter (it filters span tables only), is printed with the command's
// name and its exit code returned; -1 to go on.
int openServerSource(const CliContext &context, const QString &command, ClickHouseSource *source);
int runSliceOnClickHouse(const CliContext &context);
int runExceedOnClickHouse(const CliContext &context);
int runAnalyseOnClickHouse(const CliContext &context);
