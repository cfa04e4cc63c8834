#pragma once

#include <QtGlobal>

#include <algorithm>
#include <span>
#include <vector>

// A set of request rows (indices into RequestTable), kept sorted and unique so
// membership is a binary search and two sets compare in O(n). It is a plain
// value: cheap to move across threads, and what selections, slices and
// exceedance sets are made of.
class RowSet
{
public:
    RowSet() = default;

    // Takes any rows in any order; sorts them and drops duplicates.
    static RowSet fromRows(std::vector<qint32> rows)
    {
        std::sort(rows.begin(), rows.end());
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
        RowSet set;
        set.m_rows = std::move(rows);
        return set;
    }

    // Rows already sorted ascending and unique (e.g. from a filter pass).
    static RowSet fromSortedUnique(std::vector<qint32> rows)
    {
        Q_ASSERT(std::is_sorted(rows.begin(), rows.end()));
        RowSet set;
        set.m_rows = std::move(rows);
        return set;
    }

    static RowSet single(qint32 row) { return fromSortedUnique({row}); }

    // Every row of a table with `count` rows.
    static RowSet all(qsizetype count)
    {
        std::vector<qint32> rows(static_cast<size_t>(count));
        for (size_t i = 0; i < rows.size(); ++i)
            rows[i] = static_cast<qint32>(i);
        return fromSortedUnique(std::move(rows));
    }

    bool isEmpty() const { return m_rows.empty(); }
    qsizetype size() const { return static_cast<qsizetype>(m_rows.size()); }
    bool contains(qint32 row) const { return std::binary_search(m_rows.begin(), m_rows.end(), row); }
    qint32 first() const { return m_rows.front(); }
    qint32 at(qsizetype index) const { return m_rows[static_cast<size_t>(index)]; }
    std::span<const qint32> rows() const { return m_rows; }
    auto begin() const { return m_rows.cbegin(); }
    auto end() const { return m_rows.cend(); }

    // Rows of this set in [firstRow, lastRow], as an index range into rows().
    std::pair<qsizetype, qsizetype> indexRange(qint32 firstRow, qint32 lastRow) const
    {
        const auto lo = std::lower_bound(m_rows.begin(), m_rows.end(), firstRow);
        const auto hi = std::upper_bound(lo, m_rows.end(), lastRow);
        return {lo - m_rows.begin(), hi - m_rows.begin()};
    }

    friend bool operator==(const RowSet &, const RowSet &) = default;

private:
    std::vector<qint32> m_rows;
};
