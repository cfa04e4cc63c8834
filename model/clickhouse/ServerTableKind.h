#pragma once

#include <QString>

class ClickHouseClient;

// What the URL's table holds, from its columns (system.columns, which every
// ClickHouse has): Tracelane's own requests table (the server computes
// analyse, slice and exceed), the OpenTelemetry Collector exporter's spans
// table (otel_traces: read as spans), or neither.
enum class ServerTableKind { Missing, Tracelane, OtelTraces, Unknown };

namespace ServerTable {

// False with `error` when the server cannot be asked.
bool kind(const ClickHouseClient &client, ServerTableKind *kind, QString *error);

} // namespace ServerTable
