#include "ServerExceedance.h"

#include "ServerOrderStatistics.h"
#include "ServerRequests.h"
#include "ServerStampSums.h"
#include "TracelaneSchema.h"
#include "analysis/stats/Percentile.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <set>

namespace {

// ` FROM table [WHERE range]` with `condition` added to its WHERE.
QString whereAlso(const QString &fromWhere, const QString &condition)
{
    return fromWhere
        + (fromWhere.contains(QStringLiteral(" WHERE ")) ? QStringLiteral(" AND (") : QStringLiteral(" WHERE ("))
        + condition + QLatin1Char(')');
}

// A value's coarse bucket: 1 + ⌊16 · (max(v, 0) · 2^20)^¼⌋ of the value v
// in ms, at most 65535 (a UInt16 key, aggregated in a plain array).
// Monotone in v (a power-of-two scale, correctly rounded square roots,
// truncation), so every value of a bucket lies below the next bucket's. A
// bucket spans about 1/(4 · (v · 2^20)^¼) of v: 0.8% at 1 ms, 0.14% at 1 s;
// everything above 2^28 ms (75 hours) shares the last. Only the server
// evaluates it, the same expression in both reads, so no floating-point
// result has to agree with the client's. A row without the value may hold
// any finite number (its stamps' sentinel differences; current servers
// refuse to convert NaN or infinity to an integer, so an ITL of one token,
// which divides by zero, is replaced by 0 first).
QString bucketSql(Metric metric, const QString &defined, const QString &value)
{
    return QStringLiteral("toUInt16(1 + least(toUInt64(16 * sqrt(sqrt(greatest(%1, 0) * 1048576))), 65534))")
        .arg(metric == Metric::Itl ? QStringLiteral("if(%1, %2, 0)").arg(defined, value) : value);
}

// The rows of the threshold's buckets grouped by value (and mask).
struct ValueGroup
{
    double value = 0.0;
    qint64 rows = 0;
    size_t answerRow = 0;
};

// A member from the answer's columns: row, request_id, the value's bits,
// source, client send.
ServerExceedance::Member memberOf(const QStringList &columns)
{
    return {columns[1], columns[3], columns[0].toLongLong(), ServerRequests::float64FromBits(columns[2]),
            columns[4].toLongLong()};
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

    // 1. The rows in each bucket (0: the value is not defined).
    const QString bucket = bucketSql(spec.metric, defined, value);
    std::vector<QStringList> rows;
    if (!client.select(QStringLiteral("SELECT tl_bucket, count() %1 GROUP BY if(%2, %3, toUInt16(0)) AS tl_bucket")
                           .arg(rowsFrom, defined, bucket),
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

    // In the metric's order the listed members are the first of the rows in
    // the top buckets that hold `listed` (monotone buckets: no value outside
    // them ranks higher). When those are few, read 2 also groups them by
    // client send time (a column it reads anyway), so read 3 finds them by
    // it (a PREWHERE on that column alone) instead of computing every row's
    // value again.
    quint64 top = 0;
    qint64 topRows = 0;
    if (listed > 0 && spec.order != ExceedanceOrder::Arrival) {
        for (auto it = buckets.rbegin(); it != buckets.rend() && topRows < listed; ++it) {
            top = it->first;
            topRows += it->second;
        }
    }
    const bool sendsOfTop = top != 0 && topRows <= kTopRowsGrouped;
    const QString sendKey = sendsOfTop
        ? QStringLiteral("if(%1 >= %2, client_send_ns, %3)").arg(bucket).arg(top).arg(TracelaneSchema::absentSql())
        : QStringLiteral("toInt64(0)");
    std::set<qint64> topSends;

    // 2. Set and rest: sizes and the integer sums of the attribution, by
    // side of the threshold and mask of absent stamps (ServerStampSums).
    const Boundary where = total == Metric::E2e ? Boundary::Client : spec.boundary;
    const ServerStampSums stamps(total, where);
    std::array<GroupPhaseSums, 2> sums; // the set's, the rest's
    std::vector<ValueGroup> tied;       // the rows of side 1, by value
    // `side` 0 (rest), 2 (set) or 1 (the threshold's buckets, grouped by
    // integer ns and output tokens: `ns`, `tokens`).
    const auto readSides = [&](const QString &side, const QString &ns, const QString &tokens) {
        sums = {};
        tied.clear();
        result.setSize = 0;
        result.restSize = 0;
        topSends.clear();
        if (!client.select(QStringLiteral("SELECT tl_side, tl_mask, tl_ns, tl_tokens, tl_send, %1 %2 GROUP BY %3 AS "
                                          "tl_side, %4 AS tl_mask, %5 AS tl_ns, %6 AS tl_tokens, %7 AS tl_send")
                               .arg(stamps.sumsSql().join(QStringLiteral(", ")), whereAlso(rowsFrom, defined), side,
                                    stamps.maskSql(), ns, tokens, sendKey),
                           &rows, error, 5 + stamps.width()))
            return false;
        for (size_t i = 0; i < rows.size(); ++i) {
            const auto &row = rows[i];
            const int group = row[0].toInt();
            bool ok = group == 0 || group == 1 || group == 2;
            topSends.insert(row[4].toLongLong());
            if (ok && group == 1) {
                tied.push_back({ServerRequests::valueMs(spec.metric, row[2].toLongLong(), row[3].toInt()), 0, i});
                ok = stamps.add(row[1].toULongLong(), row, 5, nullptr, &tied.back().rows);
            } else if (ok) {
                ok = stamps.add(row[1].toULongLong(), row, 5, &sums[group == 2 ? 0 : 1],
                                group == 2 ? &result.setSize : &result.restSize);
            }
            if (!ok) {
                *error = QStringLiteral("ClickHouse answered a malformed set-and-rest row");
                return false;
            }
        }
        return true;
    };
    // Split by the threshold itself once it is known.
    const auto splitSql
        = [&] { return QStringLiteral("if(%1 > %2, 2, 0)").arg(value, ServerRequests::float64Sql(result.threshold)); };
    const QString noNs = QStringLiteral("toInt64(0)");
    const QString noTokens = QStringLiteral("toInt32(0)");
    if (inside > groupedUpTo) {
        // A narrow peak: the threshold exactly first, then the sides of it.
        ServerOrderStatistics statistics;
        const double qs[] = {spec.q};
        const int index = statistics.add(value, defined, n, ServerOrderStatistics::percentileRanks(n, qs));
        if (!statistics.run(client, {}, rowsFrom, error))
            return result;
        result.threshold = statistics.percentile(index, spec.q);
        if (!readSides(splitSql(), noNs, noTokens))
            return result;
    } else {
        // Below, in and above the threshold's buckets (every row read has
        // the value, and the bucket of read 1); the rows in them by their
        // integer ns (and output tokens for ITL), whose values are computed
        // here as on the file: no value's bits are formed for every row
        // (18.16 evaluates both branches of every if()).
        if (!readSides(QStringLiteral("(%1 >= %2) + (%1 > %3)").arg(bucket).arg(low).arg(high),
                       QStringLiteral("if(tl_side = 1, %1, 0)").arg(ServerRequests::nsSql(spec.metric, spec.boundary)),
                       spec.metric == Metric::Itl ? QStringLiteral("if(tl_side = 1, output_tokens, 0)") : noTokens))
            return result;
        qint64 tiedRows = 0;
        for (const auto &group : tied)
            tiedRows += group.rows;
        if (tiedRows != inside) {
            *error = ServerRequests::rowsChanged(tiedRows, inside);
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
        const double highValue = at(neighbours.hi);
        result.threshold = neighbours.lo == neighbours.hi
            ? lowValue
            : Percentile::interpolate(lowValue, highValue, neighbours.fraction);
        if (lowValue <= result.threshold && result.threshold <= highValue) {
            for (const auto &group : tied) {
                const bool inSet = group.value > result.threshold;
                const auto &row = rows[group.answerRow];
                stamps.add(row[1].toULongLong(), row, 5, &sums[inSet ? 0 : 1],
                           inSet ? &result.setSize : &result.restSize);
            }
        } else {
            // Rounding put the threshold outside its neighbours, so the
            // buckets beside them do not say their rows' side: read by it.
            if (!readSides(splitSql(), noNs, noTokens))
                return result;
        }
    }
    if (result.setSize + result.restSize != n) {
        *error = ServerRequests::rowsChanged(result.setSize + result.restSize, n);
        return result;
    }
    result.attribution = PhaseAttribution::fromSums(sums[0], sums[1], total, spec.boundary);

    // 3. The listed members, in the set's order.
    if (listed > 0) {
        QString prewhere
            = QStringLiteral("%1 AND %2 > %3").arg(defined, value, ServerRequests::float64Sql(result.threshold));
        QString after; // the conditions after the PREWHERE
        const QString order = orderSql(top != 0 ? spec.order : ExceedanceOrder::Arrival, value);
        if (top != 0) {
            prewhere = QStringLiteral("%1 >= %2 AND ").arg(bucket).arg(top) + prewhere;
            if (sendsOfTop && !topSends.empty()) {
                // Only their send times in the PREWHERE (the absent one as
                // well: a top row may lack it), so the other columns are
                // read for the granules holding those rows alone; rows that
                // merely share a send time fail the conditions after it.
                QStringList sends;
                for (const qint64 send : topSends) {
                    if (send != kNoTime)
                        sends << QString::number(send);
                }
                after = prewhere;
                prewhere = QStringLiteral("client_send_ns = %1").arg(TracelaneSchema::absentSql());
                if (!sends.isEmpty())
                    prewhere
                        = QStringLiteral("client_send_ns IN (%1) OR ").arg(sends.join(QLatin1Char(','))) + prewhere;
            }
        }
        if (!client.select(QStringLiteral("SELECT row, request_id, %1, source, client_send_ns %2 ORDER BY %3 LIMIT %4")
                               .arg(ServerRequests::float64BitsSql(value),
                                    ServerRequests::withPrewhere(rowsFrom, prewhere, after), order,
                                    QString::number(listed)),
                           &rows, error, 5))
            return result;
        for (const auto &member : rows)
            result.members.push_back(memberOf(member));
    }
    return result;
}

bool ServerExceedance::memberAt(const ServerRequests &requests, qint64 position, Member *member, QString *error) const
{
    const QString value = ServerRequests::valueSql(spec.metric, spec.boundary);
    const QString inSet = QStringLiteral("%1 AND %2")
                              .arg(ServerRequests::definedSql(spec.metric, spec.boundary),
                                   ServerRequests::aboveSql(spec.metric, spec.boundary, threshold));
    std::vector<QStringList> rows;
    if (!requests.client().select(
            QStringLiteral("SELECT row, request_id, %1, source, client_send_ns %2 ORDER BY %3 LIMIT %4, 1")
                .arg(ServerRequests::float64BitsSql(value), ServerRequests::withPrewhere(requests.fromWhere(), inSet),
                     orderSql(spec.order, value), QString::number(position)),
            &rows, error, 5))
        return false;
    if (rows.size() != 1) {
        *error = QStringLiteral("the set no longer has a member %1: the rows changed while they were read")
                     .arg(position + 1);
        return false;
    }
    *member = memberOf(rows.front());
    return true;
}

QString ServerExceedance::orderSql(ExceedanceOrder order, const QString &value)
{
    const QString arrival = QStringLiteral("client_send_ns, row, source");
    return order == ExceedanceOrder::Arrival ? arrival : QStringLiteral("%1 DESC, %2").arg(value, arrival);
}
