#include "ServerExceedance.h"

#include "ServerClassTable.h"
#include "ServerRequests.h"
#include "TracelaneSchema.h"

ServerExceedance ServerExceedance::compute(const ServerRequests &requests, const ExceedanceSpec &spec, int listed,
                                           QString *error)
{
    ServerExceedance result;
    result.spec = spec;
    result.boundary = observedBoundary(spec.metric, spec.boundary);
    const auto &client = requests.client();
    const QString defined = ServerRequests::definedSql(spec.metric, spec.boundary);
    const QString value = ServerRequests::valueSql(spec.metric, spec.boundary);

    ServerClassTable::Percentile threshold;
    if (!ServerClassTable::percentile(requests, spec.metric, spec.boundary, spec.q, &threshold, error))
        return result;
    result.sliceRequests = threshold.requests;
    result.observedRequests = threshold.n;
    result.threshold = threshold.value;
    const Metric total = PhaseAttribution::totalFor(spec.metric);
    if (std::isnan(result.threshold)) {
        // No defined value: an empty set and rest, attributed as the file's are.
        result.attribution = PhaseAttribution::fromSums({}, {}, total, spec.boundary);
        return result;
    }
    // Set and rest: sizes and the integer sums of the attribution.
    const Boundary where = total == Metric::E2e ? Boundary::Client : spec.boundary;
    const auto [begin, end] = PhaseAttribution::window(total, where);
    const auto inside = PhaseAttribution::phasesInside(total, where);
    const QString absent = TracelaneSchema::absentSql();
    const QString windowed = QStringLiteral("%1 != %3 AND %2 != %3")
                                 .arg(TracelaneSchema::stampColumn(begin), TracelaneSchema::stampColumn(end), absent);
    // One pass: each row's group (1 set, 2 rest, 0 neither) and whether the
    // total's window is observed, then the sums per group.
    QStringList inner = {QStringLiteral("if(%1, if(%2 > %3, 1, 2), 0) AS g")
                             .arg(defined, value, ServerRequests::float64Sql(result.threshold)),
                         QStringLiteral("%1 AS w").arg(windowed),
                         QStringLiteral("%1 - %2 AS total_ns")
                             .arg(TracelaneSchema::stampColumn(end), TracelaneSchema::stampColumn(begin))};
    for (const Phase phase : inside)
        inner << QStringLiteral("%1_ns AS p_%1").arg(phaseKey(phase));
    QStringList columns;
    for (const int group : {1, 2}) {
        const QString in = QStringLiteral("g = %1 AND w").arg(group);
        columns << QStringLiteral("countIf(g = %1)").arg(group) << QStringLiteral("countIf(%1)").arg(in)
                << QStringLiteral("sumIf(total_ns, %1)").arg(in);
        for (const Phase phase : inside) {
            const QString observed = QStringLiteral("%1 AND p_%2 != %3").arg(in, phaseKey(phase), absent);
            columns << QStringLiteral("sumIf(p_%1, %2)").arg(phaseKey(phase), observed)
                    << QStringLiteral("countIf(%1)").arg(observed);
        }
    }
    std::vector<QStringList> rows;
    const int width = int(columns.size());
    if (!client.select(
            QStringLiteral("SELECT %1 FROM (SELECT %2 %3)")
                .arg(columns.join(QStringLiteral(", ")), inner.join(QStringLiteral(", ")), requests.fromWhere()),
            &rows, error, width)
        || rows.size() != 1)
        return result;
    std::array<GroupPhaseSums, 2> sums;
    qsizetype field = 0;
    const auto &row = rows.front();
    for (size_t group = 0; group < 2; ++group) {
        const qint64 size = row[field++].toLongLong();
        (group == 0 ? result.setSize : result.restSize) = size;
        auto &into = sums[group];
        into.n = row[field++].toLongLong();
        into.total = row[field++].toLongLong();
        GroupPhaseSums::Int128 covered = 0;
        for (const Phase phase : inside) {
            into.phases[size_t(phase)] = row[field++].toLongLong();
            into.observed[size_t(phase)] = row[field++].toLongLong();
            covered += into.phases[size_t(phase)];
        }
        // Σ(total − covered) over the rows is Σ total − Σ covered, exactly.
        into.residual = into.total - covered;
    }
    result.attribution = PhaseAttribution::fromSums(sums[0], sums[1], total, spec.boundary);

    // The listed members, in the set's order.
    if (listed > 0) {
        const QString order = spec.order == ExceedanceOrder::Arrival ? QStringLiteral("client_send_ns, row")
                                                                     : QStringLiteral("v DESC, client_send_ns, row");
        if (!client.select(
                QStringLiteral("SELECT row, request_id, %1 FROM (SELECT row, request_id, client_send_ns, %2 AS d, "
                               "%3 AS v %4) WHERE d AND v > %5 ORDER BY %6 LIMIT %7")
                    .arg(ServerRequests::float64BitsSql(QStringLiteral("v")), defined, value, requests.fromWhere(),
                         ServerRequests::float64Sql(result.threshold), order)
                    .arg(listed),
                &rows, error, 3))
            return result;
        for (const auto &member : rows)
            result.members.push_back({member[1], member[0].toLongLong(), ServerRequests::float64FromBits(member[2])});
    }
    return result;
}
