#include "ServerMemberComparison.h"

#include "ClickHouseSource.h"
#include "ServerOrderStatistics.h"
#include "ServerRequests.h"
#include "TracelaneSchema.h"
#include "store/RequestTable.h"

#include <cmath>
#include <map>

namespace {

// SQL: the row holds `text` as its value of the categorical attribute `key`
// (no value at all when `text` is empty), read as the rankings read it.
QString sameValueSql(const ServerRequests &requests, const QString &key, const QString &text)
{
    if (requests.hasClassColumn(key)) {
        const QString column = clickHouseIdentifier(TracelaneSchema::classColumn(key));
        return QStringLiteral("%1 = %2").arg(column, clickHouseString(text.isEmpty() ? text : QLatin1Char('=') + text));
    }
    const QString quotedKey = clickHouseString(key);
    if (text.isEmpty())
        return QStringLiteral("NOT has(attr_keys, %1)").arg(quotedKey);
    return QStringLiteral("has(attr_keys, %1) AND attr_values[indexOf(attr_keys, %1)] = %2")
        .arg(quotedKey, clickHouseString(text));
}

} // namespace

bool ServerMemberComparison::compute(const ServerRequests &requests, const ExceedanceSpec &spec, double threshold,
                                     const SetComparison *rankings, const RequestTable &fetched, qint32 fetchedRow,
                                     MemberComparison *result, QString *error)
{
    const RequestTable &names = requests.attributeNames();
    const QString rest = QStringLiteral("%1 AND NOT (%2)")
                             .arg(ServerRequests::definedSql(spec.metric, spec.boundary),
                                  ServerRequests::aboveSql(spec.metric, spec.boundary, threshold));
    MemberComparison comparison;
    comparison.requestId = fetched.idText(fetchedRow);
    // One read of the rest: its count, then per feature the counts a row needs.
    QStringList counts = {QStringLiteral("count()")};
    std::vector<QString> defined;
    std::vector<QString> values;
    for (const auto &feature : comparisonFeatures(names, spec.boundary)) {
        MemberFeatureRow line = MemberComparison::valueOfFetched(names, feature, fetched, fetchedRow);
        QString has;
        QString value;
        if (feature.numeric) {
            if (!ServerRequests::featureSql(feature, &has, &value))
                continue; // not in the table (the per-token figures)
            counts << QStringLiteral("countIf(%1)").arg(has);
            if (!std::isnan(line.value)) {
                const QString member = ServerRequests::float64Sql(line.value);
                counts << QStringLiteral("countIf(%1 AND %2 < %3)").arg(has, value, member)
                       << QStringLiteral("countIf(%1 AND %2 = %3)").arg(has, value, member);
            }
        } else {
            counts << QStringLiteral("countIf(%1)").arg(sameValueSql(requests, feature.key, line.text));
        }
        defined.push_back(has);
        values.push_back(value);
        comparison.rows.push_back(line);
    }
    std::vector<QStringList> rows;
    if (!requests.client().select(
            QStringLiteral("SELECT %1%2")
                .arg(counts.join(QStringLiteral(", ")), ServerRequests::withPrewhere(requests.fromWhere(), rest)),
            &rows, error, counts.size()))
        return false;
    if (rows.size() != 1) {
        *error = QStringLiteral("ClickHouse answered %1 rows for the rest's counts, not one").arg(rows.size());
        return false;
    }
    const QStringList &answer = rows.front();
    const qint64 restTotal = answer[0].toLongLong();
    qsizetype field = 1;
    // The medians the rankings found; the others by order statistics.
    std::map<QString, const FeatureSeparation *> ranked;
    if (rankings) {
        for (const auto *list : {&rankings->attributes, &rankings->phases}) {
            for (const auto &separation : *list)
                ranked[separation.feature.cacheKey()] = &separation;
        }
    }
    ServerOrderStatistics statistics;
    // Every value travelling to one server costs more than two reads of a
    // column here: the rest is nearly every row.
    statistics.setAlwaysBuckets(true);
    std::map<size_t, int> asked; // row -> statistics column
    for (size_t i = 0; i < comparison.rows.size(); ++i) {
        MemberFeatureRow &line = comparison.rows[i];
        if (!line.feature.numeric) {
            line.restN = restTotal;
            if (restTotal > 0)
                line.restShareSameValue = double(answer[field].toLongLong()) / double(restTotal);
            ++field;
            continue;
        }
        line.restN = answer[field++].toLongLong();
        if (!std::isnan(line.value)) {
            const qint64 less = answer[field++].toLongLong();
            const qint64 equal = answer[field++].toLongLong();
            line.percentileRank = MemberComparison::percentileRank(less, equal, line.restN);
        }
        const auto separation = ranked.find(line.feature.cacheKey());
        if (separation != ranked.end()) {
            if (separation->second->restN != line.restN) {
                *error = ServerRequests::rowsChanged(line.restN, separation->second->restN);
                return false;
            }
            line.restMedian = separation->second->restMedian;
        } else if (line.restN > 0) {
            static constexpr double kMedian[] = {0.5};
            asked[i] = statistics.add(values[i], QStringLiteral("(%1) AND (%2)").arg(rest, defined[i]), line.restN,
                                      ServerOrderStatistics::percentileRanks(line.restN, kMedian));
        }
    }
    if (!asked.empty() && !statistics.run(requests.client(), {}, requests.fromWhere(), error))
        return false;
    for (const auto &[row, column] : asked)
        comparison.rows[row].restMedian = statistics.percentile(column, 0.5);
    *result = std::move(comparison);
    return true;
}
