#include "ServerClassTable.h"

#include "ServerRequests.h"
#include "analysis/stats/Percentile.h"

#include <map>
#include <set>

namespace {

// The order statistics (1-based ranks) a cell of n defined values needs.
std::set<qint64> ranksFor(qint64 n, double exceedanceQ)
{
    std::set<qint64> ranks;
    if (n == 0)
        return ranks;
    std::vector<double> qs(kClassQuantiles.begin(), kClassQuantiles.end());
    qs.push_back(exceedanceQ);
    for (const double q : qs) {
        const auto neighbours = Percentile::neighbours(n, q);
        ranks.insert(neighbours.lo + 1);
        ranks.insert(neighbours.hi + 1);
        const auto interval = QuantileInterval::forSample(n, q);
        if (interval.formed) {
            ranks.insert(interval.lowerRank);
            ranks.insert(interval.upperRank);
        }
    }
    return ranks;
}

struct Sorted
{
    qint64 n = 0;
    double sum = 0.0;
    std::map<qint64, double> at; // 1-based rank -> value

    double rank0(qint64 rank) const { return at.at(rank + 1); }
    double percentile(double q) const
    {
        if (n == 0)
            return std::numeric_limits<double>::quiet_NaN();
        if (n == 1)
            return rank0(0);
        const auto neighbours = Percentile::neighbours(n, q);
        if (neighbours.lo == neighbours.hi)
            return rank0(neighbours.lo);
        return Percentile::interpolate(rank0(neighbours.lo), rank0(neighbours.hi), neighbours.fraction);
    }
};

void fill(ClassCell *cell, const Sorted &sorted)
{
    cell->n = sorted.n;
    if (sorted.n > 0)
        cell->meanMs = sorted.sum / double(sorted.n);
    for (size_t i = 0; i < kClassQuantiles.size(); ++i) {
        auto &estimate = cell->quantiles[i];
        estimate.q = kClassQuantiles[i];
        estimate.value = sorted.percentile(estimate.q);
        estimate.interval = QuantileInterval::forSample(sorted.n, estimate.q);
        if (estimate.interval.formed) {
            estimate.lower = sorted.at.at(estimate.interval.lowerRank);
            estimate.upper = sorted.at.at(estimate.interval.upperRank);
        }
    }
    cell->small = cell->headline().tooFew();
}

// "multiIf(length(s) = n1, [r, ...], ...)": the ranks each cell's n needs.
QString rankArraySql(const std::set<qint64> &sizes, double exceedanceQ)
{
    QString sql = QStringLiteral("multiIf(");
    bool any = false;
    for (const qint64 n : sizes) {
        QStringList ranks;
        for (const qint64 rank : ranksFor(n, exceedanceQ))
            ranks << QString::number(rank);
        if (ranks.isEmpty())
            continue;
        any = true;
        sql += QStringLiteral("length(s) = %1, arrayMap(x -> toUInt64(x), [%2]), ")
                   .arg(n)
                   .arg(ranks.join(QLatin1Char(',')));
    }
    return any ? sql + QStringLiteral("emptyArrayUInt64())") : QStringLiteral("emptyArrayUInt64()");
}

bool readSorted(const QStringList &fields, int first, Sorted *sorted)
{
    // fields: n, sum bits, ranks array, values bits array
    sorted->n = fields[first].toLongLong();
    sorted->sum = ServerRequests::float64FromBits(fields[first + 1]);
    const auto list = [](QString text) {
        text.remove(QLatin1Char('[')).remove(QLatin1Char(']'));
        return text.isEmpty() ? QStringList() : text.split(QLatin1Char(','));
    };
    const QStringList ranks = list(fields[first + 2]);
    const QStringList values = list(fields[first + 3]);
    if (ranks.size() != values.size())
        return false;
    for (qsizetype i = 0; i < ranks.size(); ++i)
        sorted->at[ranks[i].toLongLong()] = ServerRequests::float64FromBits(values[i]);
    return true;
}

} // namespace

namespace ServerClassTable {

bool percentile(const ServerRequests &requests, Metric metric, Boundary boundary, double q, Percentile *result,
                QString *error)
{
    const QString rowsSql = QStringLiteral("SELECT %1 AS d, %2 AS v %3")
                                .arg(ServerRequests::definedSql(metric, boundary),
                                     ServerRequests::valueSql(metric, boundary), requests.fromWhere());
    std::vector<QStringList> rows;
    if (!requests.client().select(QStringLiteral("SELECT count(), countIf(d) FROM (%1)").arg(rowsSql), &rows, error, 2)
        || rows.size() != 1)
        return false;
    result->requests = rows[0][0].toLongLong();
    result->n = rows[0][1].toLongLong();
    if (result->n == 0)
        return true;
    // Two order statistics by quantileExact (nth_element, no sort): it returns
    // element floor(level * n) of the values in order, so level (r + 0.5) / n
    // is rank r exactly, with half a rank to spare for rounding.
    const auto neighbours = ::Percentile::neighbours(result->n, q);
    const std::set<qint64> ranks = {neighbours.lo, neighbours.hi};
    QStringList levels;
    for (const qint64 rank : ranks)
        levels << QString::number((double(rank) + 0.5) / double(result->n), 'g', 17);
    if (!requests.client().select(
            QStringLiteral("SELECT arrayMap(x -> %1, quantilesExactIf(%2)(v, d)) FROM (%3)")
                .arg(ServerRequests::float64BitsSql(QStringLiteral("x")), levels.join(QLatin1Char(',')), rowsSql),
            &rows, error, 1)
        || rows.size() != 1)
        return false;
    QString text = rows[0][0];
    text.remove(QLatin1Char('[')).remove(QLatin1Char(']'));
    const QStringList bits = text.split(QLatin1Char(','));
    Sorted sorted;
    sorted.n = result->n;
    qsizetype i = 0;
    for (const qint64 rank : ranks)
        sorted.at[rank + 1] = ServerRequests::float64FromBits(bits.value(i++));
    result->value = sorted.percentile(q);
    return true;
}

ClassTable compute(const ServerRequests &requests, const QStringList &by, const ClassBands &bands,
                   const ClassTableSpec &spec, QString *error)
{
    ClassTable table;
    table.metric = spec.metric;
    table.boundary = observedBoundary(spec.metric, spec.boundary);
    table.exceedanceQ = spec.exceedanceQ;
    std::vector<ClassColumn> columns;
    QStringList codes;
    for (const QString &key : by) {
        ClassDimension dimension;
        if (!classDimensionFromKey(requests.attributeNames(), key, &dimension)) {
            *error = QStringLiteral("no dimension '%1'").arg(key);
            return table;
        }
        ClassColumn column;
        QString code;
        if (!requests.classColumn(dimension, bands, &column, &code, error))
            return table;
        table.dimensions.push_back(dimension);
        columns.push_back(std::move(column));
        codes << code;
    }
    if (columns.empty() || columns.size() > 2) {
        table.error = QStringLiteral("a class table splits by one or two dimensions");
        return table;
    }
    const qint64 second = columns.size() == 2 ? columns[1].classCount() : 1;
    if (columns[0].classCount() * second > ClassTable::kMaxClasses) {
        table.error = QStringLiteral("%1 classes are too many for a table; choose dimensions with fewer values")
                          .arg(columns[0].classCount() * second);
        return table;
    }
    if (codes.size() == 1)
        codes << QStringLiteral("toUInt32(0)");
    const QString defined = ServerRequests::definedSql(spec.metric, spec.boundary);
    const QString value = ServerRequests::valueSql(spec.metric, spec.boundary);
    const QString rowsSql = QStringLiteral("SELECT %1 AS a, %2 AS b, %3 AS d, %4 AS v %5")
                                .arg(codes[0], codes[1], defined, value, requests.fromWhere());
    const auto &client = requests.client();

    // 1. Requests and defined values per class.
    std::vector<QStringList> rows;
    if (!client.select(
            QStringLiteral("SELECT a, b, count(), countIf(d) FROM (%1) GROUP BY a, b ORDER BY a, b").arg(rowsSql),
            &rows, error, 4))
        return table;
    std::map<std::pair<quint32, quint32>, std::pair<qint64, qint64>> counts;
    std::set<qint64> sizes;
    qint64 overallN = 0;
    for (const auto &row : rows) {
        const qint64 n = row[3].toLongLong();
        counts[{row[0].toUInt(), row[1].toUInt()}] = {row[2].toLongLong(), n};
        table.sliceRequests += row[2].toLongLong();
        overallN += n;
        sizes.insert(n);
    }
    const QString sortedSql = QStringLiteral("length(s), %1, ranks, arrayMap(r -> %2, ranks)")
                                  .arg(ServerRequests::float64BitsSql(QStringLiteral("arraySum(s)")),
                                       ServerRequests::float64BitsSql(QStringLiteral("s[r]")));

    // 2. The overall row's order statistics, then the threshold.
    Sorted overall;
    if (!client.select(QStringLiteral("SELECT %1 FROM (SELECT s, %2 AS ranks FROM (SELECT arraySort(groupArrayIf(v, "
                                      "d)) AS s FROM (%3)))")
                           .arg(sortedSql, rankArraySql({overallN}, spec.exceedanceQ), rowsSql),
                       &rows, error, 4)
        || rows.size() != 1 || !readSorted(rows[0], 0, &overall)) {
        if (error->isEmpty())
            *error = QStringLiteral("ClickHouse answered no overall row");
        return table;
    }
    table.exceedanceThreshold = overall.percentile(spec.exceedanceQ);
    const QString above = std::isnan(table.exceedanceThreshold)
        ? QStringLiteral("0")
        : QStringLiteral("countIf(d AND v > %1)").arg(ServerRequests::float64Sql(table.exceedanceThreshold));

    // 3. Each class's order statistics and exceedance count.
    std::map<std::pair<quint32, quint32>, std::pair<Sorted, qint64>> cells;
    if (!client.select(QStringLiteral("SELECT a, b, above, %1 FROM (SELECT a, b, above, s, %2 AS ranks FROM (SELECT a, "
                                      "b, %3 AS above, arraySort(groupArrayIf(v, d)) AS s FROM (%4) GROUP BY a, b))")
                           .arg(sortedSql, rankArraySql(sizes, spec.exceedanceQ), above, rowsSql),
                       &rows, error, 7))
        return table;
    qint64 overallAbove = 0;
    for (const auto &row : rows) {
        Sorted sorted;
        if (!readSorted(row, 3, &sorted)) {
            *error = QStringLiteral("ClickHouse answered a malformed order-statistics row");
            return table;
        }
        overallAbove += row[2].toLongLong();
        cells[{row[0].toUInt(), row[1].toUInt()}] = {std::move(sorted), row[2].toLongLong()};
    }

    table.overall.classes = {QStringLiteral("overall")};
    table.overall.requests = table.sliceRequests;
    table.overall.requestShare = table.sliceRequests > 0 ? 1.0 : 0.0;
    fill(&table.overall, overall);
    table.overall.exceedanceCount = std::isnan(table.exceedanceThreshold) ? 0 : overallAbove;
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
        cell.requests = count.first;
        cell.requestShare = double(cell.requests) / double(table.sliceRequests);
        const auto found = cells.find(key);
        if (found != cells.end()) {
            fill(&cell, found->second.first);
            cell.exceedanceCount = std::isnan(table.exceedanceThreshold) ? 0 : found->second.second;
        }
        if (table.exceedanceSize > 0)
            cell.exceedanceShare = double(cell.exceedanceCount) / double(table.exceedanceSize);
        table.cells.push_back(std::move(cell));
    }
    table.mixture = MixtureWarning::check(table);
    return table;
}

} // namespace ServerClassTable
