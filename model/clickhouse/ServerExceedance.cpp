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
    // One pass grouped by each row's group (1 set, 2 rest; 0 neither is left
    // out): flags say whether the total's window and each phase are observed,
    // and a phase is its two stamps' difference read directly (not through
    // the ALIAS columns, whose own absent tests would be evaluated again).
    QStringList inner = {QStringLiteral("if(%1, if(%2 > %3, 1, 2), 0) AS g")
                             .arg(defined, value, ServerRequests::float64Sql(result.threshold)),
                         QStringLiteral("(%1) AS w").arg(windowed),
                         QStringLiteral("%1 - %2 AS total_ns")
                             .arg(TracelaneSchema::stampColumn(end), TracelaneSchema::stampColumn(begin))};
    // The ns sums in two 32-bit limbs each (ServerRequests::integerSumSql):
    // one Int64 sum wraps past 9.2e18 ns, 20M requests of 7.7 minutes.
    QStringList columns = {QStringLiteral("g"), QStringLiteral("count()"), QStringLiteral("sum(w)")};
    columns << ServerRequests::integerSumSql(QStringLiteral("total_ns"), QStringLiteral("w"));
    for (const Phase phase : inside) {
        const QString from = TracelaneSchema::stampColumn(phaseBegin(phase));
        const QString to = TracelaneSchema::stampColumn(phaseEnd(phase));
        inner << QStringLiteral("%2 - %1 AS p_%3").arg(from, to, phaseKey(phase))
              << QStringLiteral("(w AND %1 != %3 AND %2 != %3) AS o_%4").arg(from, to, absent, phaseKey(phase));
        columns << ServerRequests::integerSumSql(QStringLiteral("p_") + phaseKey(phase),
                                                 QStringLiteral("o_") + phaseKey(phase))
                << QStringLiteral("sum(o_%1)").arg(phaseKey(phase));
    }
    std::vector<QStringList> rows;
    const int width = int(columns.size());
    // WITH definitions over the table itself: each shard aggregates its rows.
    const QString rowsFrom = requests.fromWhere();
    if (!client.select(
            QStringLiteral("WITH %2 SELECT %1 %3 %4 g != 0 GROUP BY g")
                .arg(columns.join(QStringLiteral(", ")), inner.join(QStringLiteral(", ")), rowsFrom,
                     rowsFrom.contains(QStringLiteral(" WHERE ")) ? QStringLiteral("AND") : QStringLiteral("WHERE")),
            &rows, error, width))
        return result;
    std::array<GroupPhaseSums, 2> sums;
    for (const auto &row : rows) {
        const int group = row[0].toInt();
        if (group != 1 && group != 2) {
            *error = QStringLiteral("ClickHouse answered a malformed set-and-rest row");
            return result;
        }
        qsizetype field = 1;
        (group == 1 ? result.setSize : result.restSize) = row[field++].toLongLong();
        auto &into = sums[size_t(group - 1)];
        into.n = row[field++].toLongLong();
        into.total = ServerRequests::integerSum(row, field);
        field += 2;
        GroupPhaseSums::Int128 covered = 0;
        for (const Phase phase : inside) {
            into.phases[size_t(phase)] = ServerRequests::integerSum(row, field);
            field += 2;
            into.observed[size_t(phase)] = row[field++].toLongLong();
            covered += into.phases[size_t(phase)];
        }
        // Σ(total − covered) over the rows is Σ total − Σ covered, exactly.
        into.residual = into.total - covered;
    }
    result.attribution = PhaseAttribution::fromSums(sums[0], sums[1], total, spec.boundary);

    // The listed members, in the set's order.
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
