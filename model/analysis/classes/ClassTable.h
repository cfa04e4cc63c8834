#pragma once

#include "ClassColumn.h"
#include "MixtureWarning.h"
#include "analysis/requests/Metric.h"
#include "analysis/stats/Distribution.h"
#include "analysis/stats/QuantileInterval.h"

#include <QString>
#include <QStringList>

#include <array>
#include <limits>
#include <optional>
#include <span>
#include <vector>

class RequestSlice;
struct SortedColumn;

// The percentiles every class table shows.
inline constexpr std::array<double, 4> kClassQuantiles = {0.50, 0.90, 0.95, 0.99};
// Index of p95 in kClassQuantiles: the table's headline percentile, which
// decides whether a cell is flagged small.
inline constexpr size_t kHeadlineQuantile = 2;

// One percentile of one class: the seed's interpolated value and the
// distribution-free 95% interval [X(l), X(u)] around it. When the interval
// cannot be formed the cell shows "too few requests", not the value.
struct QuantileEstimate
{
    double q = 0.5;
    double value = std::numeric_limits<double>::quiet_NaN();
    double lower = std::numeric_limits<double>::quiet_NaN();
    double upper = std::numeric_limits<double>::quiet_NaN();
    QuantileInterval interval;

    bool tooFew() const { return !interval.formed; }
};

// One class (one value of each chosen dimension) within the current slice.
struct ClassCell
{
    QStringList classes; // one label per dimension
    std::array<qint32, 2> codes{-1, -1};
    qint64 requests = 0;          // requests of the class in the slice
    qint64 n = 0;                 // of those, with the metric defined
    double requestShare = 0.0;    // requests / slice requests
    qint64 exceedanceCount = 0;   // members of the overall exceedance set
    double exceedanceShare = 0.0; // exceedanceCount / overall set size
    double meanMs = std::numeric_limits<double>::quiet_NaN();
    std::array<QuantileEstimate, kClassQuantiles.size()> quantiles{};
    bool small = false;        // too few requests for the headline p95
    std::vector<CdfPoint> cdf; // for CDF plots: at most kCdfPoints + 1 points
    // The values behind `cdf` when they are not the n above: a sample's
    // curve on a larger population's figures (remote/ServerFigures); -1 when
    // the curve is the cell's own.
    qint64 cdfN = -1;

    static constexpr qsizetype kCdfPoints = 400;

    QString label() const { return classes.join(QStringLiteral(" \u00b7 ")); }
    const QuantileEstimate &headline() const { return quantiles[kHeadlineQuantile]; }
};

// Percentiles of one metric by class for one or two dimensions, an overall
// row, each class's share of requests and of the overall exceedance set, and
// a mixture warning when one class carries the overall tail.
struct ClassTable
{
    Metric metric = Metric::Ttft;
    Boundary boundary = Boundary::Client; // where the metric is observed
    std::vector<ClassDimension> dimensions;
    qint64 sliceRequests = 0;
    std::vector<ClassCell> cells; // non-empty classes, first dimension major
    ClassCell overall;
    double exceedanceQ = 0.95;
    double exceedanceThreshold = std::numeric_limits<double>::quiet_NaN();
    qint64 exceedanceSize = 0; // slice requests strictly above the threshold
    std::optional<MixtureWarning> mixture;
    QString error; // set when the table could not be formed

    // Dense cells beyond this are refused: such a split has no readable table.
    static constexpr qint64 kMaxClasses = 1 << 20;
};

struct ClassTableSpec
{
    Metric metric = Metric::Ttft;
    Boundary boundary = Boundary::Client;
    double exceedanceQ = 0.95;
    bool withCdf = true;
};

// `columns` (one or two) must be built on the same table as `metric`.
// O(rows) per call: the metric's rows are already in order, so each class's
// values come out sorted by a counting pass.
ClassTable computeClassTable(const SortedColumn &metric, std::span<const ClassColumn> columns,
                             const RequestSlice &slice, const ClassTableSpec &spec);
