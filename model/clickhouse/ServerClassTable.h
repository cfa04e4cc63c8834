#pragma once

#include "analysis/classes/ClassTable.h"

#include <QStringList>

class ServerRequests;

// computeClassTable() answered by ClickHouse: requests and defined values per
// class (count, countIf), each class's values sorted on the server
// (arraySort(groupArray()), what quantileExact keeps internally too) and only
// the order statistics the table shows fetched — the two neighbours of each
// percentile (interpolated here with Percentile::interpolate, the seed's
// definition) and the interval's ranks — the mean as the ascending sum the
// file's table takes, the exceedance counts with countIf. Doubles travel as
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

ClassTable compute(const ServerRequests &requests, const QStringList &by, const ClassBands &bands,
                   const ClassTableSpec &spec, QString *error);

} // namespace ServerClassTable
