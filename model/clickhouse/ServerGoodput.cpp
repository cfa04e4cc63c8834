#include "ServerGoodput.h"

#include "ServerRequests.h"
#include "TracelaneSchema.h"

#include <algorithm>
#include <bit>
#include <map>
#include <vector>

namespace {

// SQL over one row.
struct Rows
{
    QString send = TracelaneSchema::stampColumn(Stamp::ClientSend);
    QString end = TracelaneSchema::stampColumn(Stamp::LastTokenClient);
    // Both observed (goodput's window), and a stay: the end not before the send.
    QString both = QStringLiteral("(%1 != %3 AND %2 != %3)").arg(send, end, TracelaneSchema::absentSql());
    QString stay = QStringLiteral("(%1 AND %3 >= %2)").arg(both, send, end);
};

// The events of the stays in buckets of 2^shift ns from `origin`: the sends
// and the ends each bucket holds.
struct Bucket
{
    qint64 sends = 0;
    qint64 ends = 0;
};
using Buckets = std::vector<Bucket>; // by the bucket's number: its first offset from the origin >> shift

// A bucket number the server answered that is not one asked about.
QString unknownBucket(const QString &bucket)
{
    return QStringLiteral("the server answered a time bucket (%1) outside the range it was asked about").arg(bucket);
}

// Counts the sends and the ends of the stays in buckets of `shift` bits
// (offsets from `origin`) into `buckets`, sized to hold every offset.
bool countEvents(const ServerRequests &requests, const Rows &rows, qint64 origin, int shift, Buckets *buckets,
                 QString *error)
{
    for (const bool sends : {true, false}) {
        const QString offset = QStringLiteral("(%1 - %2)").arg(sends ? rows.send : rows.end).arg(origin);
        const QString &prewhere = rows.stay;
        std::vector<QStringList> answer;
        if (!requests.client().select(
                QStringLiteral("SELECT tl_bucket, count()%1 GROUP BY bitShiftRight(%2, %3) AS tl_bucket")
                    .arg(ServerRequests::withPrewhere(requests.fromWhere(), prewhere), offset)
                    .arg(shift),
                &answer, error, 2))
            return false;
        for (const auto &row : answer) {
            bool ok = false;
            const qint64 number = row[0].toLongLong(&ok);
            if (!ok || number < 0 || number >= qint64(buckets->size())) {
                *error = unknownBucket(row[0]);
                return false;
            }
            Bucket &bucket = (*buckets)[std::size_t(number)];
            (sends ? bucket.sends : bucket.ends) = row[1].toLongLong();
        }
    }
    return true;
}

// The highest level each listed bucket (of `shift` bits from `origin`)
// reaches above the level before it: its events sorted by the server (ends
// before sends at equal times) and their running sum's largest value.
bool risesInside(const ServerRequests &requests, const Rows &rows, qint64 origin, int shift,
                 const std::vector<qint64> &numbers, std::map<qint64, qint64> *rises, QString *error)
{
    QStringList listed;
    for (const qint64 number : numbers)
        listed << QString::number(number);
    const QString list = listed.join(QLatin1Char(','));
    const auto bucketOf = [&](const QString &time) {
        return QStringLiteral("bitShiftRight(%1 - %2, %3)").arg(time).arg(origin).arg(shift);
    };
    const QString prewhere = QStringLiteral("%1 AND (%2 IN (%4) OR %3 IN (%4))")
                                 .arg(rows.stay, bucketOf(rows.send), bucketOf(rows.end), list);
    const QString arrayJoin
        = QStringLiteral("[%1, %2] AS tl_t, [toInt64(1), toInt64(-1)] AS tl_d").arg(rows.send, rows.end);
    std::vector<QStringList> answer;
    if (!requests.client().select(
            QStringLiteral("SELECT tl_bucket, arrayReduce('max', arrayCumSum(arrayMap(e -> e.2, "
                           "arraySort(groupArray((tl_t, tl_d))))))%1 GROUP BY %2 AS tl_bucket")
                .arg(ServerRequests::withPrewhere(
                         requests.fromWhere(), prewhere,
                         QStringLiteral("%1 IN (%2)").arg(bucketOf(QStringLiteral("tl_t")), list), arrayJoin),
                     bucketOf(QStringLiteral("tl_t"))),
            &answer, error, 2))
        return false;
    for (const auto &row : answer)
        (*rises)[row[0].toLongLong()] = row[1].toLongLong();
    return true;
}

// The highest level of requests in flight, ends before sends at equal
// times: the level at a bucket's end is reached, so only the buckets whose
// level before plus sends could pass the highest such level have their
// events sorted by the server, in lists of at most kRisesPerRead buckets.
bool peakInFlight(const ServerRequests &requests, const Rows &rows, qint64 origin, qint64 span, qint64 stays,
                  qint64 *peak, QString *error)
{
    const int width = int(std::bit_width(quint64(span)));
    const int shift = std::max(0, width - ServerGoodput::kFirstBucketBits);
    Buckets buckets(std::size_t(span >> shift) + 1);
    if (!countEvents(requests, rows, origin, shift, &buckets, error))
        return false;
    qint64 level = 0;
    qint64 reached = 0;
    qint64 sends = 0;
    qint64 ends = 0;
    for (const Bucket &bucket : buckets) {
        level += bucket.sends - bucket.ends;
        reached = std::max(reached, level);
        sends += bucket.sends;
        ends += bucket.ends;
    }
    if (sends != stays || ends != stays) {
        *error = ServerRequests::rowsChanged(std::min(sends, ends), stays);
        return false;
    }
    std::map<qint64, qint64> before; // each bucket to look into, by number: the level before it
    level = 0;
    for (std::size_t number = 0; number < buckets.size(); ++number) {
        const Bucket &bucket = buckets[number];
        if (shift > 0 && bucket.sends > 0 && level + bucket.sends > reached)
            before[qint64(number)] = level;
        level += bucket.sends - bucket.ends;
    }
    std::vector<qint64> numbers;
    for (auto it = before.begin(); it != before.end();) {
        numbers.push_back(it->first);
        ++it;
        if (qsizetype(numbers.size()) < ServerGoodput::kRisesPerRead && it != before.end())
            continue;
        std::map<qint64, qint64> rises;
        if (!risesInside(requests, rows, origin, shift, numbers, &rises, error))
            return false;
        for (const auto &[number, rise] : rises) {
            const auto levelBefore = before.find(number);
            if (levelBefore == before.end()) {
                *error = unknownBucket(QString::number(number));
                return false;
            }
            reached = std::max(reached, levelBefore->second + rise);
        }
        numbers.clear();
    }
    *peak = reached;
    return true;
}

} // namespace

namespace ServerGoodput {

bool compute(const ServerRequests &requests, const Slo &slo, Boundary boundary, double observedInFlight,
             Goodput *goodput, LittlesLawCheck *little, QString *error)
{
    const Rows rows;
    const QString judged
        = QStringLiteral("(%1 AND %2)").arg(ServerRequests::definedSql(Metric::Ttft, boundary), rows.both);
    const QString ttftOk
        = QStringLiteral("(%1 <= %2)")
              .arg(ServerRequests::valueSql(Metric::Ttft, boundary), ServerRequests::float64Sql(slo.ttftMs));
    // One token: no gap to miss.
    const QString itlOk
        = QStringLiteral("(NOT %1 OR %2 <= %3)")
              .arg(ServerRequests::definedSql(Metric::Itl, boundary), ServerRequests::valueSql(Metric::Itl, boundary),
                   ServerRequests::float64Sql(slo.itlMs));
    const QString tokens = QStringLiteral("toInt64(output_tokens)");
    QStringList columns = {
        QStringLiteral("count()"),
        QStringLiteral("countIf(%1)").arg(judged),
        QStringLiteral("countIf(%1 AND %2 AND %3)").arg(judged, ttftOk, itlOk),
        QStringLiteral("countIf(%1 AND NOT %2 AND %3)").arg(judged, ttftOk, itlOk),
        QStringLiteral("countIf(%1 AND %2 AND NOT %3)").arg(judged, ttftOk, itlOk),
        QStringLiteral("countIf(%1 AND NOT %2 AND NOT %3)").arg(judged, ttftOk, itlOk),
        QStringLiteral("minIf(%1, %2)").arg(rows.send, judged),
        QStringLiteral("maxIf(%1, %2)").arg(rows.end, judged),
        QStringLiteral("sumIf(%1, %2)").arg(tokens, judged),
        QStringLiteral("sumIf(%1, %2 AND %3 AND %4)").arg(tokens, judged, ttftOk, itlOk),
        QStringLiteral("countIf(%1)").arg(rows.stay),
        QStringLiteral("minIf(%1, %2)").arg(rows.send, rows.stay),
        QStringLiteral("maxIf(%1, %2)").arg(rows.send, rows.stay),
        QStringLiteral("maxIf(%1, %2)").arg(rows.end, rows.stay),
    };
    const QString stayNs = QStringLiteral("(%1 - %2)").arg(rows.end, rows.send);
    columns << ServerRequests::integerSumSql(stayNs, rows.stay);
    std::vector<QStringList> answer;
    if (!requests.client().select(
            QStringLiteral("SELECT %1%2").arg(columns.join(QStringLiteral(", ")), requests.fromWhere()), &answer, error,
            columns.size()))
        return false;
    if (answer.size() != 1) {
        *error = QStringLiteral("ClickHouse answered %1 rows for the goodput's counts, not one").arg(answer.size());
        return false;
    }
    const QStringList &row = answer.front();
    const auto integer = [&row](int i) { return row[i].toLongLong(); };
    GoodputCounts counts;
    counts.completed = integer(1);
    counts.notJudged = integer(0) - counts.completed;
    counts.good = integer(2);
    counts.missedTtftOnly = integer(3);
    counts.missedItlOnly = integer(4);
    counts.missedBoth = integer(5);
    counts.firstSend = integer(6);
    counts.lastEnd = integer(7);
    counts.outputTokens = integer(8);
    counts.goodOutputTokens = integer(9);
    *goodput = ServiceLoad::goodputOf(counts, slo, boundary, 0);

    StaySums sums;
    sums.stays = integer(10);
    sums.firstSend = integer(11);
    sums.lastSend = integer(12);
    sums.lastEnd = integer(13);
    sums.stayNs = ServerRequests::integerSum(row, 14);
    if (sums.stays > 0 && sums.lastEnd > sums.firstSend
        && !peakInFlight(requests, rows, sums.firstSend, sums.lastEnd - sums.firstSend, sums.stays, &sums.peakInFlight,
                         error))
        return false;
    if (sums.stays > 0 && sums.lastSend > sums.firstSend) {
        const QString early = QStringLiteral("(%1 AND %2 <= %3)").arg(rows.stay, rows.send).arg(sums.earlyUntil());
        const QString late
            = QStringLiteral("(%1 AND NOT %2 AND %3 >= %4)").arg(rows.stay, early, rows.send).arg(sums.lateFrom());
        QStringList quarters = {QStringLiteral("countIf(%1 AND %2 <= %3)").arg(rows.stay, rows.end).arg(sums.lastSend),
                                QStringLiteral("countIf(%1)").arg(early), QStringLiteral("countIf(%1)").arg(late)};
        quarters << ServerRequests::integerSumSql(stayNs, early) << ServerRequests::integerSumSql(stayNs, late);
        answer.clear();
        if (!requests.client().select(
                QStringLiteral("SELECT %1%2").arg(quarters.join(QStringLiteral(", ")), requests.fromWhere()), &answer,
                error, quarters.size()))
            return false;
        if (answer.size() != 1) {
            *error
                = QStringLiteral("ClickHouse answered %1 rows for the steadiness quarters, not one").arg(answer.size());
            return false;
        }
        const QStringList &quarter = answer.front();
        sums.completedInside = quarter[0].toLongLong();
        sums.early = quarter[1].toLongLong();
        sums.late = quarter[2].toLongLong();
        sums.earlyNs = ServerRequests::integerSum(quarter, 3);
        sums.lateNs = ServerRequests::integerSum(quarter, 5);
    }
    *little = ServiceLoad::littlesLawOf(sums, observedInFlight);
    return true;
}

} // namespace ServerGoodput
