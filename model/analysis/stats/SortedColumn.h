#pragma once

#include "store/ColumnMemory.h"

#include <QtGlobal>

#include <vector>

// One number per request (a metric in ms, a token count, a numeric
// attribute; NaN where undefined) together with the rows in ascending order
// of value. Sorting once lets every later slice, class split or exceedance
// set read its values already in order, in one pass and without sorting.
struct SortedColumn
{
    ColumnVector<double> values;    // by request row
    ColumnVector<qint32> ascending; // rows with a defined value, ascending; ties by row

    static SortedColumn build(ColumnVector<double> values);

    qsizetype definedCount() const { return qsizetype(ascending.size()); }

    // Values of the rows for which keep(row) holds, ascending.
    template<typename Keep> std::vector<double> sortedWhere(Keep keep) const
    {
        std::vector<double> sorted;
        for (const qint32 row : ascending) {
            if (keep(row))
                sorted.push_back(values[size_t(row)]);
        }
        return sorted;
    }
};
