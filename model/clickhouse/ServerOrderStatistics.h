#pragma once

#include <QString>
#include <QtGlobal>

#include <map>
#include <set>
#include <span>
#include <vector>

class ClickHouseClient;

// Order statistics of several columns at once, picked by the server and
// answered in one query: quantilesExactIf with level (r + 0.5) / n returns
// element floor(level · n) = r of the n values in order (nth_element, no
// sort; ClickHouse 18.16 has no quantileExactLow), with half a rank to spare
// for rounding. Only the ranks a figure needs come back, as Float64 bits,
// and a percentile between two of them is interpolated here as
// Percentile::ofSorted does, so every figure equals the file's.
class ServerOrderStatistics
{
public:
    // The two neighbours (0-based ranks) of each percentile in `qs`.
    static std::set<qint64> percentileRanks(qint64 n, std::span<const double> qs);

    // Asks for `ranks` (0-based) of `value` over the rows of the FROM/WHERE
    // where `condition` holds, which must be n rows. Returns its index.
    int add(const QString &value, const QString &condition, qint64 n, const std::set<qint64> &ranks);

    // One query over `rows` (a subquery or FROM ... WHERE ... giving the
    // columns the values and conditions name). False with `error` set when
    // the server fails or its counts are not the n given (rows changed).
    bool run(const ClickHouseClient &client, const QString &rows, QString *error);

    qint64 n(int index) const { return m_columns[size_t(index)].n; }
    // The value at a 0-based rank that was asked for.
    double at(int index, qint64 rank) const { return m_columns[size_t(index)].values.at(rank); }
    // The percentile q of the n values, NaN when n == 0.
    double percentile(int index, double q) const;

private:
    struct Column
    {
        QString value;
        QString condition;
        qint64 n = 0;
        std::set<qint64> ranks;
        std::map<qint64, double> values;
    };
    std::vector<Column> m_columns;
};
