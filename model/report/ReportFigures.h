#pragma once

#include "analysis/requests/Boundary.h"
#include "analysis/requests/Metric.h"

#include <QString>

#include <limits>
#include <span>
#include <utility>
#include <vector>

class RequestTable;
class WorkflowSchedule;
struct ClassTable;
struct ConcurrencyTimeline;
struct PathSection;
struct PhaseAttribution;
struct TraceComparison;

// The one-page report's figures as self-contained SVG (SvgCanvas): drawn
// from analyses the model already computed, axes titled with their units,
// every label escaped. Each returns an empty string when there is nothing
// to draw.
namespace ReportFigures {

inline constexpr double kWidth = 680.0;
inline constexpr double kNoThreshold = std::numeric_limits<double>::quiet_NaN();

// CDFs of the largest classes (at most `maxClasses`) and the overall one
// (dashed), the overall p50/p90/p95/p99 marked, and the objective's threshold.
QString classCdfs(const ClassTable &table, double thresholdMs = kNoThreshold, int maxClasses = 6);

// The exceedance set's mean excess over the rest, phase by phase (plus the
// residual), as signed bars.
QString phaseAttribution(const PhaseAttribution &attribution);

// Each request (at most 12) as its timeline of phases from client send, on
// one time scale, with its TTFT at `boundary` marked. With `windowMs` the
// axis ends there (a TTFT set is read before its long streams) and each
// row says where its request ends.
QString memberTimelines(const RequestTable &table, std::span<const qint32> rows, Boundary boundary,
                        double windowMs = kNoThreshold);

// A workflow's spans (at most `maxRows`, preferring those on the path and
// their ancestors) as a Gantt: bars by span kind, critical sections in
// vermillion beneath them, slack as a whisker.
QString criticalPath(const WorkflowSchedule &schedule, const std::vector<PathSection> &path,
                     const std::vector<qint64> &slack, int maxRows = 28);

// What each change would save on the workflow's E2E (negative: cost).
QString whatIfSavings(const std::vector<std::pair<QString, double>> &savingsMs);

// Arrivals per second and mean requests in flight over the trace.
QString arrivals(const ConcurrencyTimeline &timeline);

// The joint distribution of prompt and output tokens (log2 bins): a long
// prompt and a long answer stress different phases, so the shape is a
// joint, never two averages.
QString tokenShape(const RequestTable &table, std::span<const qint32> rows);

// Baseline and candidate percentile per row (overall first) with their
// intervals.
QString comparison(const TraceComparison &comparison, int maxRows = 10);

} // namespace ReportFigures
