#include "ServerOrderStatistics.h"

#include "ClickHouseClient.h"
#include "ServerRequests.h"
#include "analysis/stats/Percentile.h"

#include <QStringList>

#include <limits>

std::set<qint64> ServerOrderStatistics::percentileRanks(qint64 n, std::span<const double> qs)
{
    std::set<qint64> ranks;
    if (n == 0)
        return ranks;
    for (const double q : qs) {
        const auto neighbours = Percentile::neighbours(n, q);
        ranks.insert(neighbours.lo);
        ranks.insert(neighbours.hi);
    }
    return ranks;
}

int ServerOrderStatistics::add(const QString &value, const QString &condition, qint64 n, const std::set<qint64> &ranks)
{
    m_columns.push_back({value, condition, n, ranks, {}});
    return int(m_columns.size()) - 1;
}

bool ServerOrderStatistics::run(const ClickHouseClient &client, const QString &rows, QString *error)
{
    QStringList columns;
    std::vector<size_t> asked; // the columns with ranks to fetch, in order
    for (size_t i = 0; i < m_columns.size(); ++i) {
        const auto &column = m_columns[i];
        if (column.n == 0 || column.ranks.empty())
            continue;
        QStringList levels;
        for (const qint64 rank : column.ranks)
            levels << QString::number((double(rank) + 0.5) / double(column.n), 'g', 17);
        columns << QStringLiteral("countIf(%1)").arg(column.condition)
                << QStringLiteral("arrayMap(x -> %1, quantilesExactIf(%2)(%3, %4))")
                       .arg(ServerRequests::float64BitsSql(QStringLiteral("x")), levels.join(QLatin1Char(',')),
                            column.value, column.condition);
        asked.push_back(i);
    }
    if (asked.empty())
        return true;
    std::vector<QStringList> answer;
    if (!client.select(QStringLiteral("SELECT %1 %2").arg(columns.join(QStringLiteral(", ")), rows), &answer, error,
                       int(columns.size())))
        return false;
    if (answer.size() != 1) {
        *error
            = QStringLiteral("ClickHouse answered %1 rows of order statistics where 1 was expected").arg(answer.size());
        return false;
    }
    const QStringList &fields = answer.front();
    for (size_t k = 0; k < asked.size(); ++k) {
        auto &column = m_columns[asked[k]];
        if (fields[2 * qsizetype(k)].toLongLong() != column.n) {
            *error = QStringLiteral("the rows changed while they were read (%1 values where %2 were counted)")
                         .arg(fields[2 * qsizetype(k)])
                         .arg(column.n);
            return false;
        }
        QString text = fields[2 * qsizetype(k) + 1];
        text.remove(QLatin1Char('[')).remove(QLatin1Char(']'));
        const QStringList bits = text.isEmpty() ? QStringList() : text.split(QLatin1Char(','));
        if (bits.size() != qsizetype(column.ranks.size())) {
            *error = QStringLiteral("ClickHouse answered a malformed order-statistics row");
            return false;
        }
        qsizetype i = 0;
        for (const qint64 rank : column.ranks)
            column.values[rank] = ServerRequests::float64FromBits(bits[i++]);
    }
    return true;
}

double ServerOrderStatistics::percentile(int index, double q) const
{
    const qint64 count = n(index);
    if (count == 0)
        return std::numeric_limits<double>::quiet_NaN();
    if (count == 1)
        return at(index, 0);
    const auto neighbours = Percentile::neighbours(count, q);
    if (neighbours.lo == neighbours.hi)
        return at(index, neighbours.lo);
    return Percentile::interpolate(at(index, neighbours.lo), at(index, neighbours.hi), neighbours.fraction);
}
