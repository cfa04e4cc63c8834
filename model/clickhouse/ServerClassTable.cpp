#include "ServerClassTable.h"

#include "ServerOrderStatistics.h"
#include "ServerRequests.h"
#include "analysis/stats/Percentile.h"

#include <map>
#include <set>

namespace {

// The order statistics (0-based ranks) a cell of n defined values needs: the
// neighbours of each percentile and the ranks of each interval.
std::set<qint64> ranksFor(qint64 n, double exceedanceQ)
{
    std::vector<double> qs(kClassQuantiles.begin(), kClassQuantiles.end());
    qs.push_back(exceedanceQ);
    std::set<qint64> ranks = ServerOrderStatistics::percentileRanks(n, qs);
    for (const double q : qs) {
        const auto interval = QuantileInterval::forSample(n, q);
        if (interval.formed) {
            ranks.insert(interval.lowerRank - 1);
            ranks.insert(interval.upperRank - 1);
        }
    }
    return ranks;
}

void fill(ClassCell *cell, const ServerOrderStatistics &statistics, int index, const ServerMeanSums &sums)
{
    cell->n = statistics.n(index);
    if (cell->n > 0)
        cell->meanMs = sums.mean(cell->n);
    for (size_t i = 0; i < kClassQuantiles.size(); ++i) {
        auto &estimate = cell->quantiles[i];
        estimate.q = kClassQuantiles[i];
        estimate.value = statistics.percentile(index, estimate.q);
        estimate.interval = QuantileInterval::forSample(cell->n, estimate.q);
        if (estimate.interval.formed) {
            estimate.lower = statistics.at(index, estimate.interval.lowerRank - 1);
            estimate.upper = statistics.at(index, estimate.interval.upperRank - 1);
        }
    }
    cell->small = cell->headline().tooFew();
}

} // namespace

namespace ServerClassTable {

bool percentile(const ServerRequests &requests, Metric metric, Boundary boundary, double q, Percentile *result,
                QString *error)
{
    // WITH definitions over the table itself: each shard aggregates its rows.
    const QStringList with = {QStringLiteral("%1 AS d").arg(ServerRequests::definedSql(metric, boundary)),
                              QStringLiteral("%1 AS v").arg(ServerRequests::valueSql(metric, boundary))};
    std::vector<QStringList> rows;
    if (!requests.client().select(QStringLiteral("WITH %1 SELECT count(), countIf(d) %2")
                                      .arg(with.join(QStringLiteral(", ")), requests.fromWhere()),
                                  &rows, error, 2)
        || rows.size() != 1)
        return false;
    result->requests = rows[0][0].toLongLong();
    result->n = rows[0][1].toLongLong();
    if (result->n == 0)
        return true;
    ServerOrderStatistics statistics;
    const double qs[] = {q};
    const int index = statistics.add(QStringLiteral("v"), QStringLiteral("d"), result->n,
                                     ServerOrderStatistics::percentileRanks(result->n, qs));
    if (!statistics.run(requests.client(), with, requests.fromWhere(), error))
        return false;
    result->value = statistics.percentile(index, q);
    return true;
}

ClassTable compute(ServerRequests &requests, const QStringList &by, const ClassBands &bands, const ClassTableSpec &spec,
                   QString *error)
{
    ClassTable table;
    table.metric = spec.metric;
    table.boundary = observedBoundary(spec.metric, spec.boundary);
    table.exceedanceQ = spec.exceedanceQ;
    std::vector<ClassDimension> dimensions;
    QStringList raws;
    for (const QString &key : by) {
        ClassDimension dimension;
        if (!classDimensionFromKey(requests.attributeNames(), key, &dimension)) {
            *error = QStringLiteral("no dimension '%1'").arg(key);
            return table;
        }
        QString raw;
        if (!requests.prepareDimension(dimension, error) || !requests.rawSql(dimension, &raw, error))
            return table;
        dimensions.push_back(dimension);
        raws << raw;
    }
    if (dimensions.empty() || dimensions.size() > 2) {
        table.dimensions = dimensions;
        table.error = QStringLiteral("a class table splits by one or two dimensions");
        return table;
    }
    if (raws.size() == 1)
        raws << QStringLiteral("''");
    const QString defined = ServerRequests::definedSql(spec.metric, spec.boundary);
    const QString value = ServerRequests::valueSql(spec.metric, spec.boundary);
    const auto &client = requests.client();

    // 1. Requests, defined values and the sums behind the mean for each pair
    // of raw values: the distinct values the classes are built from, and the
    // counts and sums that add up per class (one pass, no separate DISTINCT).
    // When the raw values are the few values of text attributes, the pairs
    // are split by the value's bucket too: pass 1 of the order statistics
    // (ServerOrderStatistics) in the same read of the attribute arrays, the
    // largest cost of every pass over the rows.
    bool fewRaws = true;
    for (const ClassDimension &dimension : dimensions) {
        const AttributeColumn *names = requests.attributeNames().attribute(dimension.source);
        fewRaws = fewRaws && dimension.kind != ClassDimension::Kind::PromptBand
            && dimension.kind != ClassDimension::Kind::OutputBand && names != nullptr
            && names->kind() == AttributeColumn::Kind::Categorical;
    }
    const quint64 undefinedBucket = quint64(1) << ServerOrderStatistics::kBucketBits;
    std::vector<QStringList> rows;
    const int meanWidth = ServerMeanSums::width(spec.metric);
    if (!client.select(
            QStringLiteral(
                "WITH %2 AS ra, %3 AS rb, %4 AS d, %5 AS v, %6%8 SELECT ra, rb, count(), countIf(d), %1%9 %7 "
                "GROUP BY ra, rb%9")
                .arg(ServerMeanSums::sumsSql(spec.metric, QStringLiteral("m"), QStringLiteral("d"))
                         .join(QStringLiteral(", ")),
                     raws[0], raws[1], defined, value,
                     ServerMeanSums::innerSql(spec.metric, spec.boundary, QStringLiteral("d"), QStringLiteral("v"),
                                              QStringLiteral("m")),
                     requests.fromWhere(),
                     fewRaws ? QStringLiteral(", if(d, %1, toUInt64(%2)) AS tl_bucket")
                                   .arg(ServerOrderStatistics::bucketSql(QStringLiteral("v")))
                                   .arg(undefinedBucket)
                             : QString(),
                     fewRaws ? QStringLiteral(", tl_bucket") : QString()),
            &rows, error, 4 + meanWidth + (fewRaws ? 1 : 0)))
        return table;
    std::vector<ClassColumn> columns;
    std::vector<std::map<QString, quint32>> codeOf(2);
    QStringList codes;
    for (size_t d = 0; d < dimensions.size(); ++d) {
        // The classes of every row in range, as the file classes the whole
        // trace before a --where filter picks rows (the rows read here are
        // the filter's only).
        QStringList values;
        if (requests.hasFilter()) {
            if (!requests.distinctRawValues(dimensions[d], &values, error))
                return table;
        } else {
            std::set<QString> seen;
            for (const auto &row : rows) {
                if (seen.insert(row[qsizetype(d)]).second)
                    values << row[qsizetype(d)];
            }
        }
        ClassColumn column;
        QStringList sorted;
        QString code;
        if (!requests.classColumn(dimensions[d], bands, values, &column, &sorted, &code, error))
            return table;
        for (qsizetype i = 0; i < sorted.size(); ++i)
            codeOf[d][sorted[i]] = column.codes[size_t(i)];
        table.dimensions.push_back(dimensions[d]);
        columns.push_back(std::move(column));
        codes << code;
    }
    const qint64 second = columns.size() == 2 ? columns[1].classCount() : 1;
    if (columns[0].classCount() * second > ClassTable::kMaxClasses) {
        table.error = QStringLiteral("%1 classes are too many for a table; choose dimensions with fewer values")
                          .arg(columns[0].classCount() * second);
        return table;
    }
    if (codes.size() == 1)
        codes << QStringLiteral("toUInt32(0)");
    const QStringList with = {QStringLiteral("%1 AS a").arg(codes[0]), QStringLiteral("%1 AS b").arg(codes[1]),
                              QStringLiteral("%1 AS d").arg(defined), QStringLiteral("%1 AS v").arg(value)};
    struct Counts
    {
        qint64 requests = 0;
        qint64 n = 0;
        ServerMeanSums sums;
        int statistics = -1;
        std::map<quint64, qint64> buckets;
    };
    std::map<std::pair<quint32, quint32>, Counts> counts;
    qint64 overallN = 0;
    ServerMeanSums overallSums(spec.metric);
    for (const auto &row : rows) {
        // With a filter the classes come from a later read: a value gone
        // since (rows merged away or deleted) has no code.
        const auto codeA = codeOf[0].find(row[0]);
        const auto codeB = columns.size() == 2 ? codeOf[1].find(row[1]) : codeOf[1].end();
        if (codeA == codeOf[0].end() || (columns.size() == 2 && codeB == codeOf[1].end())) {
            *error = QStringLiteral("the rows changed while they were read (a class value no longer there)");
            return table;
        }
        const quint32 a = codeA->second;
        const quint32 b = columns.size() == 2 ? codeB->second : 0;
        const auto [found, added] = counts.try_emplace({a, b});
        Counts &count = found->second;
        if (added)
            count.sums = ServerMeanSums(spec.metric);
        count.requests += row[2].toLongLong();
        count.n += row[3].toLongLong();
        count.sums.add(row, 4);
        overallSums.add(row, 4);
        if (fewRaws) {
            const quint64 bucket = row[4 + meanWidth].toULongLong();
            if (bucket != undefinedBucket)
                count.buckets[bucket] += row[3].toLongLong();
        }
        table.sliceRequests += row[2].toLongLong();
        overallN += row[3].toLongLong();
    }

    // 2. The order statistics of the overall row and of every class: one
    // bucket count grouped by class (the overall row is their sum), then
    // the values of the buckets holding the wanted ranks.
    ServerOrderStatistics statistics;
    const int overallIndex
        = statistics.add(QStringLiteral("v"), QStringLiteral("d"), overallN, ranksFor(overallN, spec.exceedanceQ));
    const QString classOf = QStringLiteral("toUInt64(a) * 4294967296 + b");
    std::map<quint64, qint64> overallBuckets;
    for (auto &[key, count] : counts) {
        count.statistics
            = statistics.add(QStringLiteral("v"), QStringLiteral("d"), count.n, ranksFor(count.n, spec.exceedanceQ),
                             classOf, (quint64(key.first) << 32) | key.second);
        if (fewRaws) {
            for (const auto &[bucket, n] : count.buckets)
                overallBuckets[bucket] += n;
            statistics.setBuckets(count.statistics, std::move(count.buckets));
        }
    }
    if (fewRaws)
        statistics.setBuckets(overallIndex, std::move(overallBuckets));
    if (!statistics.run(client, with, requests.fromWhere(), error))
        return table;
    table.exceedanceThreshold = statistics.percentile(overallIndex, spec.exceedanceQ);

    // 3. Each class's share of the exceedance set: from the bucket counts
    // and the keys of the threshold's bucket when they travelled in pass 2
    // (the overall column's neighbours of the threshold are among its
    // cells), else counted by the server.
    std::map<std::pair<quint32, quint32>, qint64> above;
    qint64 overallAbove = 0;
    bool counted = !std::isnan(table.exceedanceThreshold)
        && statistics.countAbove(overallIndex, table.exceedanceThreshold, &overallAbove);
    for (auto it = counts.begin(); counted && it != counts.end(); ++it)
        counted = statistics.countAbove(it->second.statistics, table.exceedanceThreshold, &above[it->first]);
    if (!counted) {
        above.clear();
        overallAbove = 0;
    }
    if (!counted && !std::isnan(table.exceedanceThreshold)) {
        // The class codes are computed only for the rows above (PREWHERE).
        if (!client.select(
                QStringLiteral("WITH %1 SELECT a, b, count() %2 GROUP BY a, b")
                    .arg(
                        with.join(QStringLiteral(", ")),
                        ServerRequests::withPrewhere(
                            requests.fromWhere(),
                            QStringLiteral("d AND v > %1").arg(ServerRequests::float64Sql(table.exceedanceThreshold)))),
                &rows, error, 3))
            return table;
        for (const auto &row : rows) {
            above[{row[0].toUInt(), row[1].toUInt()}] = row[2].toLongLong();
            overallAbove += row[2].toLongLong();
        }
    }

    table.overall.classes = {QStringLiteral("overall")};
    table.overall.requests = table.sliceRequests;
    table.overall.requestShare = table.sliceRequests > 0 ? 1.0 : 0.0;
    fill(&table.overall, statistics, overallIndex, overallSums);
    table.overall.exceedanceCount = overallAbove;
    table.exceedanceSize = table.overall.exceedanceCount;
    table.overall.exceedanceShare = table.exceedanceSize > 0 ? 1.0 : 0.0;
    for (const auto &[key, count] : counts) {
        ClassCell cell;
        cell.codes[0] = qint32(key.first);
        cell.classes << columns[0].classes[cell.codes[0]];
        if (columns.size() == 2) {
            cell.codes[1] = qint32(key.second);
            cell.classes << columns[1].classes[cell.codes[1]];
        }
        cell.requests = count.requests;
        cell.requestShare = double(cell.requests) / double(table.sliceRequests);
        fill(&cell, statistics, count.statistics, count.sums);
        cell.exceedanceCount = above[key];
        if (table.exceedanceSize > 0)
            cell.exceedanceShare = double(cell.exceedanceCount) / double(table.exceedanceSize);
        table.cells.push_back(std::move(cell));
    }
    table.mixture = MixtureWarning::check(table);
    return table;
}

} // namespace ServerClassTable
