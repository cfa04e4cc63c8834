#pragma once

#include "analysis/classes/ClassTable.h"

#include <QStringList>

class ServerRequests;

// computeClassTable() answered by ClickHouse: requests, defined values and
// the exact sum of the values per class (count, countIf, and ExactSum's limb
// sums: the mean is the file's to the last bit, in any order of the rows),
// then in one query the order statistics every class and the overall row
// show (ServerOrderStatistics: quantilesExactIf at the two neighbours of each
// percentile, interpolated here with Percentile::interpolate, and the
// intervals' ranks), then the exceedance counts (countIf). Doubles travel as
// their bits, so every figure equals the file's, not just to print precision.
namespace ServerClassTable {

// One percentile of a metric over the rows in range, as Percentile::ofSorted
// takes it, with the number of rows and of defined values.
struct Percentile
{
    qint64 requests = 0;
    qint64 n = 0;
    double value = std::numeric_limits<double>::quiet_NaN();
};
bool percentile(const ServerRequests &requests, Metric metric, Boundary boundary, double q, Percentile *result,
                QString *error);

ClassTable compute(ServerRequests &requests, const QStringList &by, const ClassBands &bands, const ClassTableSpec &spec,
                   QString *error);

} // namespace ServerClassTable
