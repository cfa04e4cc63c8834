#include "SortedColumn.h"

#include <algorithm>
#include <cmath>
#include <utility>

SortedColumn SortedColumn::build(std::vector<double> values)
{
    SortedColumn column;
    // Sorting (value, row) pairs keeps the comparisons on contiguous memory,
    // several times faster than an indirect sort of row numbers.
    std::vector<std::pair<double, qint32>> pairs;
    pairs.reserve(values.size());
    for (size_t row = 0; row < values.size(); ++row) {
        if (!std::isnan(values[row]))
            pairs.emplace_back(values[row], qint32(row));
    }
    std::sort(pairs.begin(), pairs.end());
    column.ascending.resize(pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i)
        column.ascending[i] = pairs[i].second;
    column.values = std::move(values);
    return column;
}
