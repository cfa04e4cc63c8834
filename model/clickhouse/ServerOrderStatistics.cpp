#include "ServerOrderStatistics.h"

#include "ClickHouseClient.h"
#include "ServerRequests.h"
#include "analysis/stats/Percentile.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace {

constexpr quint64 kSign = quint64(1) << 63;

} // namespace

QString ServerOrderStatistics::neededDefinitions(const QStringList &with, const QString &text)
{
    const QString keyword = QStringLiteral(" AS ");
    std::vector<bool> needed(size_t(with.size()), false);
    QString used = text;
    for (bool grew = true; grew;) {
        grew = false;
        for (qsizetype i = 0; i < with.size(); ++i) {
            if (needed[size_t(i)])
                continue;
            const QString name = with[i].mid(with[i].lastIndexOf(keyword) + keyword.size()).trimmed();
            const QRegularExpression word(QStringLiteral("\\b%1\\b").arg(QRegularExpression::escape(name)));
            if (used.contains(word)) {
                needed[size_t(i)] = true;
                used += QLatin1Char(' ') + with[i];
                grew = true;
            }
        }
    }
    QStringList kept;
    for (qsizetype i = 0; i < with.size(); ++i) {
        if (needed[size_t(i)])
            kept << with[i];
    }
    return kept.join(QStringLiteral(", "));
}

QString ServerOrderStatistics::keyDefinitions(const QString &value, const QString &group, const QString &suffix)
{
    QString sql = ServerOrderStatistics::keySql(value)
        + QStringLiteral(" AS tl_key%1, bitShiftRight(tl_key%1, %2) AS tl_bucket%1")
              .arg(suffix)
              .arg(64 - ServerOrderStatistics::kBucketBits);
    if (!group.isEmpty())
        sql += QStringLiteral(", toUInt64(%1) AS tl_group%2").arg(group, suffix);
    return sql;
}

QString ServerOrderStatistics::withSql(const QString &with, const QString &value, const QString &group)
{
    return QStringLiteral("WITH ") + (with.isEmpty() ? QString() : with + QStringLiteral(", "))
        + keyDefinitions(value, group);
}

bool ServerOrderStatistics::selectRow(const ClickHouseClient &client, const QString &sql, int columns,
                                      QStringList *fields, QString *error)
{
    std::vector<QStringList> answer;
    if (!client.select(sql, &answer, error, columns))
        return false;
    if (answer.size() != 1) {
        *error
            = QStringLiteral("ClickHouse answered %1 rows of order statistics where 1 was expected").arg(answer.size());
        return false;
    }
    *fields = std::move(answer.front());
    return true;
}

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

QString ServerOrderStatistics::keySql(const QString &value)
{
    // The Float64 bits of value + 0 (-0 + 0 is 0) as a signed integer s,
    // XORed with the sign bit for a positive number and with all bits for a
    // negative one (s >> 63 is 0 or -1); a NaN's key is 0. Integer
    // arithmetic only: if() over the bits costs 18.16 two more passes over
    // every row (0.83 s where this takes 0.5 s on 20M rows).
    const QString bits
        = QStringLiteral("reinterpretAsInt64(reinterpretAsString(toFloat64(%1) + toFloat64(0)))").arg(value);
    return QStringLiteral("if(isNaN(toFloat64(%1)), toUInt64(0), bitXor(toUInt64(%2), bitOr(toUInt64(bitShiftRight(%2, "
                          "63)), toUInt64(%3))))")
        .arg(value, bits, QString::number(kSign));
}

QString ServerOrderStatistics::bucketSql(const QString &value)
{
    return QStringLiteral("bitShiftRight(%1, %2)").arg(keySql(value)).arg(64 - kBucketBits);
}

void ServerOrderStatistics::setBuckets(int index, std::map<quint64, qint64> buckets)
{
    m_columns[size_t(index)].buckets = std::move(buckets);
    m_columns[size_t(index)].counted = true;
}

quint64 ServerOrderStatistics::orderKey(double value)
{
    if (std::isnan(value))
        return 0;
    value += 0.0;
    quint64 bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return (bits & kSign) != 0 ? ~bits : bits | kSign;
}

double ServerOrderStatistics::valueOfKey(quint64 key)
{
    const quint64 bits = (key & kSign) != 0 ? key & ~kSign : ~key;
    double value = 0;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

int ServerOrderStatistics::add(const QString &value, const QString &condition, qint64 n, const std::set<qint64> &ranks,
                               const QString &group, quint64 member)
{
    m_columns.push_back({value, condition, group, member, n, ranks, {}, {}});
    return int(m_columns.size()) - 1;
}

std::vector<ServerOrderStatistics::Family> ServerOrderStatistics::families() const
{
    std::vector<Family> result;
    std::vector<size_t> whole; // columns without a group, joined to a grouped family if one matches
    for (size_t i = 0; i < m_columns.size(); ++i) {
        const auto &column = m_columns[i];
        if (column.n == 0 || column.ranks.empty())
            continue;
        if (column.group.isEmpty()) {
            whole.push_back(i);
            continue;
        }
        auto found = std::find_if(result.begin(), result.end(), [&](const Family &family) {
            return family.value == column.value && family.condition == column.condition && family.group == column.group;
        });
        if (found == result.end())
            found = result.insert(result.end(), {column.value, column.condition, column.group, {}});
        found->columns.push_back(i);
    }
    for (const size_t i : whole) {
        const auto &column = m_columns[i];
        auto found = std::find_if(result.begin(), result.end(), [&](const Family &family) {
            return family.value == column.value && family.condition == column.condition;
        });
        if (found == result.end())
            found = result.insert(result.end(), {column.value, column.condition, {}, {}});
        found->columns.push_back(i);
    }
    return result;
}

bool ServerOrderStatistics::countBuckets(const ClickHouseClient &client, const Family &family, const QString &with,
                                         const QString &fromWhere, QString *error)
{
    const bool grouped = !family.group.isEmpty();
    std::vector<QStringList> rows;
    if (!client.select(QStringLiteral("%1 SELECT %2tl_bucket, count() %3 GROUP BY %2tl_bucket")
                           .arg(withSql(with, family.value, family.group),
                                grouped ? QStringLiteral("tl_group, ") : QString(),
                                ServerRequests::withPrewhere(fromWhere, family.condition)),
                       &rows, error, grouped ? 3 : 2))
        return false;
    for (const auto &row : rows) {
        const quint64 member = grouped ? row[0].toULongLong() : 0;
        const quint64 bucket = row[grouped ? 1 : 0].toULongLong();
        const qint64 count = row[grouped ? 2 : 1].toLongLong();
        for (const size_t i : family.columns) {
            auto &column = m_columns[i];
            if (!column.counted && (column.group.isEmpty() || column.member == member))
                column.buckets[bucket] += count;
        }
    }
    return checkCounts(family, error);
}

bool ServerOrderStatistics::checkCounts(const Family &family, QString *error) const
{
    for (const size_t i : family.columns) {
        const auto &column = m_columns[i];
        qint64 total = 0;
        for (const auto &[bucket, count] : column.buckets)
            total += count;
        if (total != column.n) {
            *error = ServerRequests::rowsChanged(total, column.n);
            return false;
        }
    }
    return true;
}

bool ServerOrderStatistics::selectDirectly(const ClickHouseClient &client, const std::vector<size_t> &asked,
                                           const QString &with, const QString &fromWhere, QString *error)
{
    // The values and conditions from a subquery, aggregated on the
    // initiator: the shards send the value columns as blocks, which costs
    // less than each shard sending a quantilesExact state of all of them.
    QStringList columns;
    QStringList inner;
    for (size_t k = 0; k < asked.size(); ++k) {
        const auto &column = m_columns[asked[k]];
        inner << QStringLiteral("toFloat64(%1) AS tl_v%2").arg(column.value).arg(k)
              << QStringLiteral("(%1) AS tl_c%2").arg(column.condition).arg(k);
        QStringList levels;
        for (const qint64 rank : column.ranks)
            levels << QString::number((double(rank) + 0.5) / double(column.n), 'g', 17);
        // The NaN count too: with no other value the column's order
        // statistics are NaN (quantilesExactIf of nothing answers 0).
        columns << QStringLiteral("countIf(tl_c%1)").arg(k)
                << QStringLiteral("countIf(tl_c%1 AND isNaN(tl_v%1))").arg(k)
                << QStringLiteral("arrayMap(x -> %1, quantilesExactIf(%2)(tl_v%3, tl_c%3))")
                       .arg(ServerRequests::float64BitsSql(QStringLiteral("x")), levels.join(QLatin1Char(',')))
                       .arg(k);
    }
    // The definitions as the subquery's own columns: 18.16 loses the
    // subquery's aliases of WITH names when it sends it to the shards.
    if (!with.isEmpty())
        inner.prepend(with);
    QStringList fields;
    if (!selectRow(client,
                   QStringLiteral("SELECT %1 FROM (SELECT %2 %3)")
                       .arg(columns.join(QStringLiteral(", ")), inner.join(QStringLiteral(", ")), fromWhere),
                   int(columns.size()), &fields, error))
        return false;
    for (size_t k = 0; k < asked.size(); ++k) {
        auto &column = m_columns[asked[k]];
        if (fields[3 * qsizetype(k)].toLongLong() != column.n) {
            *error = ServerRequests::rowsChanged(fields[3 * qsizetype(k)].toLongLong(), column.n);
            return false;
        }
        const bool onlyNan = fields[3 * qsizetype(k) + 1].toLongLong() == column.n;
        QString text = fields[3 * qsizetype(k) + 2];
        text.remove(QLatin1Char('[')).remove(QLatin1Char(']'));
        const QStringList bits = text.isEmpty() ? QStringList() : text.split(QLatin1Char(','));
        if (bits.size() != qsizetype(column.ranks.size())) {
            *error = QStringLiteral("ClickHouse answered a malformed order-statistics row");
            return false;
        }
        qsizetype b = 0;
        for (const qint64 rank : column.ranks) {
            const double value = ServerRequests::float64FromBits(bits[b++]);
            column.values[rank] = onlyNan ? std::numeric_limits<double>::quiet_NaN() : value;
        }
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

qint64 ServerOrderStatistics::shipAtMostByDefault()
{
    bool set = false;
    const qint64 count = qEnvironmentVariable("TRACELANE_CLICKHOUSE_SHIP_AT_MOST").toLongLong(&set);
    return set ? count : kShipAtMost;
}

qint64 ServerOrderStatistics::shippedKeys() const
{
    qint64 keys = 0;
    for (const Shipped &family : m_shipped) {
        for (const auto &[cell, sorted] : family.keys)
            keys += qint64(sorted.size());
    }
    return keys;
}

bool ServerOrderStatistics::countAbove(int index, double value, qint64 *count) const
{
    if (std::isnan(value))
        return false;
    const Column &column = m_columns[size_t(index)];
    const quint64 key = orderKey(value);
    const quint64 bucket = key >> (64 - kBucketBits);
    if (column.n > 0 && column.buckets.empty())
        return false; // selected directly: no buckets
    qint64 above = 0;
    for (auto it = column.buckets.upper_bound(bucket); it != column.buckets.end(); ++it)
        above += it->second;
    const auto in = column.buckets.find(bucket);
    if (in != column.buckets.end()) {
        // The bucket's keys of the column's member (of every member for a
        // column without a group), all of them, or no answer.
        const auto shipped = std::find_if(m_shipped.begin(), m_shipped.end(), [&](const Shipped &family) {
            return family.value == column.value && family.condition == column.condition
                && (column.group.isEmpty() || column.group == family.group);
        });
        if (shipped == m_shipped.end())
            return false;
        qint64 travelled = 0;
        for (auto it = shipped->keys.lower_bound({bucket, 0}); it != shipped->keys.end() && it->first.first == bucket;
             ++it) {
            if (!column.group.isEmpty() && it->first.second != column.member)
                continue;
            travelled += qint64(it->second.size());
            above += it->second.end() - std::upper_bound(it->second.begin(), it->second.end(), key);
        }
        if (travelled != in->second)
            return false;
    }
    *count = above;
    return true;
}
