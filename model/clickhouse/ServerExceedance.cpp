#include "ServerExceedance.h"

#include "ServerOrderStatistics.h"
#include "ServerRequests.h"
#include "ServerStampSums.h"
#include "analysis/stats/Percentile.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>

namespace {

// ` FROM table [WHERE range]` with `condition` added to its WHERE.
QString whereAlso(const QString &fromWhere, const QString &condition)
{
    return fromWhere
        + (fromWhere.contains(QStringLiteral(" WHERE ")) ? QStringLiteral(" AND (") : QStringLiteral(" WHERE ("))
        + condition + QLatin1Char(')');
}

// A row's coarse bucket: 1 + ⌊16 · (max(v, 0) · 2^20)^¼⌋ of its value v in
// ms, at most 65535 (a UInt16 key, aggregated in a plain array), 0 when v is
// not defined (whose v is replaced by 0 first: an ITL of one token divides
// by zero). Monotone in v (a power-of-two scale, correctly rounded square
// roots, truncation), so every value of a bucket lies below the next
// bucket's. A bucket spans about 1/(4 · (v · 2^20)^¼) of v: 0.8% at 1 ms,
// 0.14% at 1 s; everything above 2^28 ms (75 hours) shares the last. Only
// the server evaluates it, the same expression in both reads, so no
// floating-point result has to agree with the client's.
QString bucketSql(const QString &defined, const QString &value)
{
    return QStringLiteral("toUInt16(if(%1, 1 + least(toUInt64(16 * sqrt(sqrt(greatest(if(%1, %2, 0), 0) * 1048576))), "
                          "65534), 0))")
        .arg(defined, value);
}

// The rows of the threshold's buckets grouped by value (and mask).
struct ValueGroup
{
    double value = 0.0;
    qint64 rows = 0;
    size_t answerRow = 0;
};

QString rowsChanged(qint64 counted, qint64 expected)
{
    return QStringLiteral("the rows changed while they were read (%1 values where %2 were counted)")
        .arg(counted)
        .arg(expected);
}

} // namespace

ServerExceedance ServerExceedance::compute(const ServerRequests &requests, const ExceedanceSpec &spec, int listed,
                                           QString *error, qint64 groupedUpTo)
{
    ServerExceedance result;
    result.spec = spec;
    result.boundary = observedBoundary(spec.metric, spec.boundary);
    const auto &client = requests.client();
    const QString defined = ServerRequests::definedSql(spec.metric, spec.boundary);
    const QString value = ServerRequests::valueSql(spec.metric, spec.boundary);
    const QString rowsFrom = requests.fromWhere();
    const Metric total = PhaseAttribution::totalFor(spec.metric);

    // 1. The rows in each bucket (bucket 0: the value is not defined).
    const QString bucket = bucketSql(defined, value);
    std::vector<QStringList> rows;
    if (!client.select(QStringLiteral("SELECT tl_bucket, count() %1 GROUP BY %2 AS tl_bucket").arg(rowsFrom, bucket),
                       &rows, error, 2))
        return result;
    std::map<quint64, qint64> buckets;
    for (const auto &row : rows) {
        const qint64 count = row[1].toLongLong();
        result.sliceRequests += count;
        if (row[0].toULongLong() != 0) {
            buckets[row[0].toULongLong()] += count;
            result.observedRequests += count;
        }
    }
    const qint64 n = result.observedRequests;
    if (n == 0) {
        // No defined value: an empty set and rest, attributed as the file's are.
        result.attribution = PhaseAttribution::fromSums({}, {}, total, spec.boundary);
        return result;
    }
    // The buckets of the threshold's two neighbouring ranks (low, high: the
    // same or consecutive non-empty ones), the rows below and in them.
    const auto neighbours = Percentile::neighbours(n, spec.q);
    quint64 low = 0;
    quint64 high = 0;
    qint64 below = 0;
    qint64 inside = 0;
    qint64 seen = 0;
    for (const auto &[key, count] : buckets) {
        if (low == 0 && neighbours.lo < seen + count) {
            low = key;
            below = seen;
        }
        if (low != 0)
            inside += count;
        if (neighbours.hi < seen + count) {
            high = key;
            break;
        }
        seen += count;
    }

    // 2. Set and rest: sizes and the integer sums of the attribution, by
    // side of the threshold and mask of absent stamps (ServerStampSums).
    QString side;
    QString byValue = QStringLiteral("toUInt64(0)");
    const bool grouped = inside <= groupedUpTo;
    if (grouped) {
        // Below, in and above the threshold's buckets; the rows in them by
        // value, which settles the threshold and their side of it.
        side = QStringLiteral("if(%1 < %2, 0, if(%1 > %3, 2, 1))").arg(bucket).arg(low).arg(high);
        byValue = QStringLiteral("if(tl_side = 1, %1, 0)").arg(ServerRequests::float64BitsSql(value));
    } else {
        // A narrow peak: the threshold exactly first, then the sides of it.
        ServerOrderStatistics statistics;
        const double qs[] = {spec.q};
        const int index = statistics.add(value, defined, n, ServerOrderStatistics::percentileRanks(n, qs));
        if (!statistics.run(client, {}, rowsFrom, error))
            return result;
        result.threshold = statistics.percentile(index, spec.q);
        side = QStringLiteral("if(%1 > %2, 2, 0)").arg(value, ServerRequests::float64Sql(result.threshold));
    }
    const Boundary where = total == Metric::E2e ? Boundary::Client : spec.boundary;
    const ServerStampSums stamps(total, where);
    if (!client.select(QStringLiteral("SELECT tl_side, tl_mask, tl_value, %1 %2 GROUP BY %3 AS tl_side, %4 AS tl_mask, "
                                      "%5 AS tl_value")
                           .arg(stamps.sumsSql().join(QStringLiteral(", ")), whereAlso(rowsFrom, defined), side,
                                stamps.maskSql(), byValue),
                       &rows, error, 3 + stamps.width()))
        return result;
    std::array<GroupPhaseSums, 2> sums; // the set's, the rest's
    std::vector<ValueGroup> tied;       // side 1
    qint64 tiedRows = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto &row = rows[i];
        const int group = row[0].toInt();
        bool ok = group == 0 || group == 1 || group == 2;
        if (ok && group == 1) {
            tied.push_back({ServerRequests::float64FromBits(row[2]), 0, i});
            ok = stamps.add(row[1].toULongLong(), row, 3, nullptr, &tied.back().rows);
            tiedRows += tied.back().rows;
        } else if (ok) {
            ok = stamps.add(row[1].toULongLong(), row, 3, &sums[group == 2 ? 0 : 1],
                            group == 2 ? &result.setSize : &result.restSize);
        }
        if (!ok) {
            *error = QStringLiteral("ClickHouse answered a malformed set-and-rest row");
            return result;
        }
    }
    if (grouped) {
        if (tiedRows != inside) {
            *error = rowsChanged(tiedRows, inside);
            return result;
        }
        // The threshold from the two ranks among the buckets' values, as
        // Percentile::ofSorted takes it; then each value's side of it.
        std::sort(tied.begin(), tied.end(), [](const ValueGroup &a, const ValueGroup &b) { return a.value < b.value; });
        const auto at = [&](qint64 rank) {
            qint64 counted = below;
            for (const auto &group : tied) {
                if (rank < counted + group.rows)
                    return group.value;
                counted += group.rows;
            }
            return std::numeric_limits<double>::quiet_NaN();
        };
        const double lowValue = at(neighbours.lo);
        result.threshold = neighbours.lo == neighbours.hi
            ? lowValue
            : Percentile::interpolate(lowValue, at(neighbours.hi), neighbours.fraction);
        for (const auto &group : tied) {
            const bool inSet = group.value > result.threshold;
            const auto &row = rows[group.answerRow];
            stamps.add(row[1].toULongLong(), row, 3, &sums[inSet ? 0 : 1], inSet ? &result.setSize : &result.restSize);
        }
    }
    if (result.setSize + result.restSize != n) {
        *error = rowsChanged(result.setSize + result.restSize, n);
        return result;
    }
    result.attribution = PhaseAttribution::fromSums(sums[0], sums[1], total, spec.boundary);

    // 3. The listed members, in the set's order.
    if (listed > 0) {
        const QString order = spec.order == ExceedanceOrder::Arrival
            ? QStringLiteral("client_send_ns, row")
            : QStringLiteral("%1 DESC, client_send_ns, row").arg(value);
        // The filter on the table itself (no subquery), so MergeTree reads
        // request_id only for the rows that pass it (PREWHERE).
        if (!client.select(
                QStringLiteral("SELECT row, request_id, %1 %2 %3 %4 AND %5 > %6 ORDER BY %7 LIMIT %8")
                    .arg(ServerRequests::float64BitsSql(value), rowsFrom,
                         rowsFrom.contains(QStringLiteral(" WHERE ")) ? QStringLiteral("AND") : QStringLiteral("WHERE"),
                         defined, value, ServerRequests::float64Sql(result.threshold), order)
                    .arg(listed),
                &rows, error, 3))
            return result;
        for (const auto &member : rows)
            result.members.push_back({member[1], member[0].toLongLong(), ServerRequests::float64FromBits(member[2])});
    }
    return result;
}
