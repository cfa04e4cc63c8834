#include "ServerProfile.h"

#include "ServerOrderStatistics.h"
#include "ServerRequests.h"
#include "TracelaneSchema.h"

#include <QStringList>

#include <array>

namespace {

constexpr std::array kMetrics = {Metric::Ttft, Metric::Itl, Metric::E2e};

QString suffix(Metric metric)
{
    return metricKey(metric);
}

MetricSummary &summaryOf(ProfileReport *report, Metric metric)
{
    return metric == Metric::Ttft ? report->ttft : metric == Metric::Itl ? report->itl : report->e2e;
}

} // namespace

namespace ServerProfile {

bool compute(const ServerRequests &requests, Boundary boundary, const QString &label, const QString &workload,
             ProfileReport *report, QString *error)
{
    *report = ProfileReport();
    report->label = label;
    report->workload = workload;
    report->boundary = boundary;
    const QString absent = TracelaneSchema::absentSql();
    const QString ttftBegin = TracelaneSchema::stampColumn(boundaryStart(boundary));
    const QString ttftEnd = TracelaneSchema::stampColumn(boundaryFirstToken(boundary));

    // Each row's metrics (d_M defined, v_M value) and phases (p_P, ns).
    QStringList inner = {QStringLiteral("%1 - %2 AS ttft_ns").arg(ttftEnd, ttftBegin)};
    for (const Metric metric : kMetrics) {
        inner << QStringLiteral("%1 AS d_%2").arg(ServerRequests::definedSql(metric, boundary), suffix(metric))
              << QStringLiteral("%1 AS v_%2").arg(ServerRequests::valueSql(metric, boundary), suffix(metric));
    }
    for (const Phase phase : kAllPhases)
        inner << QStringLiteral("%1_ns AS p_%1").arg(phaseKey(phase));
    QStringList limbs;
    for (const Metric metric : kMetrics) {
        limbs << ServerMeanSums::innerSql(metric, boundary, QStringLiteral("d_") + suffix(metric),
                                          QStringLiteral("v_") + suffix(metric), QStringLiteral("m_") + suffix(metric));
    }

    // 1. Counts, extremes and sums.
    QStringList columns = {QStringLiteral("count()")};
    for (const Metric metric : kMetrics) {
        const QString d = QStringLiteral("d_") + suffix(metric);
        const QString v = QStringLiteral("v_") + suffix(metric);
        columns << QStringLiteral("countIf(%1)").arg(d)
                << ServerRequests::float64BitsSql(QStringLiteral("minIf(%1, %2)").arg(v, d))
                << ServerRequests::float64BitsSql(QStringLiteral("maxIf(%1, %2)").arg(v, d))
                << ServerMeanSums::sumsSql(metric, QStringLiteral("m_") + suffix(metric), d);
    }
    for (const Phase phase : kAllPhases) {
        const QString observed = QStringLiteral("p_%1 != %2").arg(phaseKey(phase), absent);
        columns << QStringLiteral("countIf(%1)").arg(observed)
                << ServerRequests::integerSumSql(QStringLiteral("p_") + phaseKey(phase), observed);
    }
    // The residual: Σ TTFT − Σ of each inside phase, over the rows with a TTFT.
    columns << ServerRequests::integerSumSql(QStringLiteral("ttft_ns"), QStringLiteral("d_ttft"));
    const auto inside = ttftPhases(boundary);
    for (const Phase phase : inside) {
        columns << ServerRequests::integerSumSql(QStringLiteral("p_") + phaseKey(phase),
                                                 QStringLiteral("d_ttft AND p_%1 != %2").arg(phaseKey(phase), absent));
    }
    std::vector<QStringList> rows;
    const int width = int(columns.size());
    // WITH definitions over the table itself: each shard aggregates its rows.
    if (!requests.client().select(QStringLiteral("WITH %2, %3 SELECT %1 %4")
                                      .arg(columns.join(QStringLiteral(", ")), inner.join(QStringLiteral(", ")),
                                           limbs.join(QStringLiteral(", ")), requests.fromWhere()),
                                  &rows, error, width))
        return false;
    if (rows.size() != 1) {
        *error = QStringLiteral("ClickHouse answered %1 rows where 1 was expected").arg(rows.size());
        return false;
    }
    const QStringList &row = rows.front();
    qsizetype field = 0;
    report->requests = row[field++].toLongLong();
    if (report->requests == 0) {
        *error = QStringLiteral("no requests in %1").arg(requests.client().source().display());
        return false;
    }
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    for (size_t m = 0; m < kMetrics.size(); ++m) {
        MetricSummary &summary = summaryOf(report, kMetrics[m]);
        summary.metric = kMetrics[m];
        summary.boundary = observedBoundary(kMetrics[m], boundary);
        summary.n = row[field++].toLongLong();
        summary.min = ServerRequests::float64FromBits(row[field++]);
        summary.max = ServerRequests::float64FromBits(row[field++]);
        ServerMeanSums sums(kMetrics[m]);
        sums.add(row, field);
        field += ServerMeanSums::width(kMetrics[m]);
        if (summary.n == 0) {
            summary.mean = summary.min = summary.max = nan;
            summary.p50 = summary.p90 = summary.p95 = summary.p99 = nan;
        } else {
            summary.mean = sums.mean(summary.n);
        }
    }
    ProfileSums profileSums;
    for (const Phase phase : kAllPhases) {
        profileSums.phaseN[size_t(phase)] = row[field++].toLongLong();
        profileSums.phaseNs[size_t(phase)] = ServerRequests::integerSum(row, field);
        field += 2;
    }
    profileSums.residualN = report->ttft.n;
    profileSums.residualNs = ServerRequests::integerSum(row, field);
    field += 2;
    for (size_t i = 0; i < inside.size(); ++i) {
        profileSums.residualNs -= ServerRequests::integerSum(row, field);
        field += 2;
    }
    setProfileSums(report, profileSums);

    // 2. The order statistics of the request shape and the three metrics.
    ServerOrderStatistics statistics;
    static constexpr double shapeQuantiles[] = {0.50, 0.95};
    static constexpr double metricQuantiles[] = {0.50, 0.90, 0.95, 0.99};
    const auto shapeRanks = ServerOrderStatistics::percentileRanks(report->requests, shapeQuantiles);
    const int prompt
        = statistics.add(QStringLiteral("toFloat64(prompt_tokens)"), QStringLiteral("1"), report->requests, shapeRanks);
    const int output
        = statistics.add(QStringLiteral("toFloat64(output_tokens)"), QStringLiteral("1"), report->requests, shapeRanks);
    std::array<int, kMetrics.size()> metricIndex{};
    for (size_t m = 0; m < kMetrics.size(); ++m) {
        const qint64 n = summaryOf(report, kMetrics[m]).n;
        metricIndex[m]
            = statistics.add(QStringLiteral("v_") + suffix(kMetrics[m]), QStringLiteral("d_") + suffix(kMetrics[m]), n,
                             ServerOrderStatistics::percentileRanks(n, metricQuantiles));
    }
    if (!statistics.run(requests.client(), inner, requests.fromWhere(), error))
        return false;
    report->promptP50 = statistics.percentile(prompt, 0.50);
    report->promptP95 = statistics.percentile(prompt, 0.95);
    report->outputP50 = statistics.percentile(output, 0.50);
    report->outputP95 = statistics.percentile(output, 0.95);
    for (size_t m = 0; m < kMetrics.size(); ++m) {
        MetricSummary &summary = summaryOf(report, kMetrics[m]);
        if (summary.n == 0)
            continue;
        summary.p50 = statistics.percentile(metricIndex[m], 0.50);
        summary.p90 = statistics.percentile(metricIndex[m], 0.90);
        summary.p95 = statistics.percentile(metricIndex[m], 0.95);
        summary.p99 = statistics.percentile(metricIndex[m], 0.99);
    }
    return true;
}

} // namespace ServerProfile
