#pragma once

#include "Boundary.h"
#include "store/ColumnMemory.h"
#include "store/Phase.h"

#include <QString>

#include <vector>

class RequestTable;

// A per-request latency figure: TTFT, ITL, E2E or one phase's duration.
// Phase metrics follow the three user-facing ones in Phase order; then the
// two stream figures read from per-token times (analysis/streams): the
// request's own p95 gap between stream events, and its longest gap (its
// worst stall). Those follow the boundary's side: client events, or the
// server's token times for the server and engine boundaries.
enum class Metric : int { Ttft, Itl, E2e, FirstPhase, GapP95 = FirstPhase + kPhaseCount, MaxStall };
inline constexpr int kMetricCount = 3 + kPhaseCount + 2;

inline constexpr Metric phaseMetric(Phase phase)
{
    return static_cast<Metric>(static_cast<int>(Metric::FirstPhase) + static_cast<int>(phase));
}
inline constexpr bool isPhaseMetric(Metric metric)
{
    return metric >= Metric::FirstPhase && metric < Metric::GapP95;
}
inline constexpr bool isStreamMetric(Metric metric)
{
    return metric == Metric::GapP95 || metric == Metric::MaxStall;
}
inline constexpr Phase metricPhase(Metric metric)
{
    return static_cast<Phase>(static_cast<int>(metric) - static_cast<int>(Metric::FirstPhase));
}

QString metricKey(Metric metric);   // "ttft", "itl", "e2e", "queue", ...
QString metricLabel(Metric metric); // "TTFT", "ITL", "E2E", "Queue", ...
QString metricUnit(Metric metric);  // "ms" or "ms/token"
bool metricFromKey(const QString &key, Metric *metric);
std::vector<Metric> allMetrics();

// The boundary a metric is actually observed at. TTFT follows the chosen
// boundary; ITL and E2E end at the client's last token, and phases have
// fixed stamps, so those report the client boundary whatever is chosen.
Boundary observedBoundary(Metric metric, Boundary chosen);

// Value in milliseconds, NaN when undefined (a missing stamp, ITL of a
// one-token answer). Differences are taken in integer ns first.
double metricValueMs(const RequestTable &table, qsizetype row, Metric metric, Boundary boundary);

// The whole column at once, for percentiles and plots.
ColumnVector<double> metricColumnMs(const RequestTable &table, Metric metric, Boundary boundary);

// Whether some row of `table` has `metric` defined (stops at the first).
bool anyDefined(const RequestTable &table, Metric metric, Boundary boundary);

// The metric a view opens on: `wanted` when some request has it, else E2E
// when some request has that (a span trace whose model calls record no
// token time has no TTFT and no ITL), else `wanted`.
Metric metricToShow(const RequestTable &table, Metric wanted, Boundary boundary);

// Why a request can lack `metric`, for a chart that has nothing to show:
// which stamps (or tokens) it needs.
QString whatMetricNeeds(Metric metric, Boundary boundary);
