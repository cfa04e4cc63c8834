#pragma once

// The exceedance set of a clickhouse:// table against the file's or the
// rows' own (tst_clickhouseread on Debian's 18.16, tst_clickhousecurrent on
// a current engine): a trace with a narrow peak of equal and nearly equal
// values around the threshold, a copy of a table with stamps missing in
// some rows, and the figures ServerExceedance computes as `exceed URL
// --json` writes them, so either of its paths (the threshold's buckets
// grouped by value, or the exact threshold first) can be compared.

#include "analysis/exceedance/ExceedanceAnalysis.h"
#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/ColumnCache.h"
#include "clickhouse/ClickHouseClient.h"
#include "clickhouse/ServerExceedance.h"
#include "clickhouse/ServerRequests.h"
#include "clickhouse/ServerSetComparison.h"
#include "clickhouse/TracelaneSchema.h"
#include "report/ExceedanceJson.h"
#include "store/TraceStore.h"

#include <QFile>
#include <QStringList>
#include <QtTest>

#include <array>
#include <cmath>
#include <optional>

#include <nlohmann/json.hpp>

namespace ExceedanceFixtures {

// The figures the server computes, in `exceed --json`'s keys.
inline const std::array<const char *, 9> kServerKeys
    = {"slice_requests", "observed_requests", "threshold",         "set_size",     "rest_size",
       "members",        "attribution",       "attribute_ranking", "phase_ranking"};

inline QString msText(qint64 ns)
{
    return QStringLiteral("%1.%2").arg(ns / 1'000'000).arg(ns % 1'000'000, 6, 10, QLatin1Char('0'));
}

// 1000 seed requests, shuffled: TTFT 100 + 0.625·k ms for 800 of them, 650 ms
// exactly for 150 and 650 ms + 1 ... 50 ns for 50. So p90 TTFT is 650 ms
// (150 ties, none above it in the set), p95 lies between 650 ms and 650 ms +
// 1 ns, p50 between two values 0.625 ms apart (in neighbouring buckets of
// the server's), and every ITL is 20 ms/token (all tied).
inline bool writeNarrowPeak(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    constexpr qint64 kMs = 1'000'000;
    constexpr int kRequests = 1000;
    for (int r = 0; r < kRequests; ++r) {
        const int k = int((qint64(r) * 7919) % kRequests); // a permutation: the peak is not contiguous
        const qint64 ttft = k < 800 ? 100 * kMs + k * 625'000 : k < 950 ? 650 * kMs : 650 * kMs + (k - 949);
        const int output = 2 + r % 40;
        const qint64 send = 1'700'000'000'000 * kMs + qint64(r) * 10 * kMs;
        const qint64 networkIn = kMs + (r % 3) * 100'000;
        const qint64 prefill = 20 * kMs + (r % 7) * kMs;
        const qint64 queue = ttft - networkIn - kMs / 2 - prefill - 5 * kMs - 2 * kMs;
        const qint64 gateway = send + networkIn;
        const qint64 queueEnter = gateway + kMs / 2;
        const qint64 prefillStart = queueEnter + queue;
        const qint64 prefillEnd = prefillStart + prefill;
        const qint64 firstServer = prefillEnd + 5 * kMs;
        const qint64 firstClient = firstServer + 2 * kMs;
        const qint64 last = firstClient + qint64(output - 1) * 20 * kMs;
        const QString line
            = QStringLiteral("{\"request_id\":\"peak-%1\",\"prompt_tokens\":%2,\"output_tokens\":%3,"
                             "\"client_send_ms\":%4,\"gateway_arrival_ms\":%5,\"queue_enter_ms\":%6,"
                             "\"prefill_start_ms\":%7,\"prefill_end_ms\":%8,\"first_token_server_ms\":%9,")
                  .arg(r)
                  .arg(100 + r % 500)
                  .arg(output)
                  .arg(msText(send), msText(gateway), msText(queueEnter), msText(prefillStart), msText(prefillEnd),
                       msText(firstServer))
            + QStringLiteral("\"first_token_client_ms\":%1,\"last_token_client_ms\":%2,\"region\":\"%3\",")
                  .arg(msText(firstClient), msText(last),
                       r % 2 == 0 ? QStringLiteral("eu-west") : QStringLiteral("us-east"))
            // Numeric attributes for the rankings: ties and negative values;
            // two values at double's ends (bins measured in halves).
            + QStringLiteral("\"score\":%1,\"extreme\":%2}\n")
                  .arg(double((r * 37) % 101) - 50.5)
                  .arg(r == 3       ? QStringLiteral("-1e308")
                           : r == 4 ? QStringLiteral("1e308")
                                    : QString::number(r % 5));
        if (file.write(line.toUtf8()) < 0)
            return false;
    }
    return true;
}

// The SELECT list that copies Tracelane's requests table with stamps absent
// (kNoTime) in some rows: a gateway stamp in every 4th row, the prefill's
// two in every 6th and its end alone in every 8th, the server's first token
// in every 9th, the client send in every 10th, the last token in every 15th,
// the client's first token in every 21st (so TTFT, E2E and ITL are each
// undefined in some rows, and at every boundary some phase is unobserved in
// rows that have the total).
inline QString withStampsMissing()
{
    const auto absentWhere = [](Stamp stamp) -> QString {
        switch (stamp) {
        case Stamp::GatewayArrival:
            return QStringLiteral("row % 4 = 1");
        case Stamp::PrefillStart:
            return QStringLiteral("row % 6 = 2");
        case Stamp::PrefillEnd:
            return QStringLiteral("row % 6 = 2 OR row % 8 = 7");
        case Stamp::FirstTokenServer:
            return QStringLiteral("row % 9 = 3");
        case Stamp::ClientSend:
            return QStringLiteral("row % 10 = 4");
        case Stamp::LastTokenClient:
            return QStringLiteral("row % 15 = 5");
        case Stamp::FirstTokenClient:
            return QStringLiteral("row % 21 = 6");
        default:
            return {};
        }
    };
    QStringList select;
    for (const QString &column : TracelaneSchema::requestColumns()) {
        select << column;
        for (int s = 0; s < kStampCount; ++s) {
            const QString condition = absentWhere(Stamp(s));
            if (column == TracelaneSchema::stampColumn(Stamp(s)) && !condition.isEmpty())
                select.back()
                    = QStringLiteral("if(%1, %2, %3) AS %3").arg(condition, TracelaneSchema::absentSql(), column);
        }
    }
    return select.join(QStringLiteral(", "));
}

inline nlohmann::json finite(double value)
{
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

// ServerExceedance::compute on `url` (a reason in `error` when it fails),
// its figures in `exceed URL --json`'s keys.
// The rankings' cells are split into exact values when they hold at most
// `exactUpTo` rows, else by more bits (ServerSetComparison).
inline std::optional<nlohmann::json> computeOnServer(const QString &url, const ExceedanceSpec &spec, int listed,
                                                     qint64 groupedUpTo, qint64 exactUpTo, QString *error)
{
    ClickHouseSource source;
    if (!ClickHouseSource::parse(url, &source, error))
        return std::nullopt;
    const ClickHouseClient client(source);
    ServerRequests requests(client);
    if (!requests.open(error))
        return std::nullopt;
    const ServerExceedance result = ServerExceedance::compute(requests, spec, listed, error, groupedUpTo);
    if (!error->isEmpty())
        return std::nullopt;
    SetComparison comparison;
    if (!ServerSetComparison::compute(requests, spec, result.threshold, result.setSize, result.restSize, &comparison,
                                      error, exactUpTo))
        return std::nullopt;
    nlohmann::json members = nlohmann::json::array();
    for (const auto &member : result.members)
        members.push_back(
            {{"request_id", member.requestId.toStdString()}, {"row", member.row}, {"value", finite(member.value)}});
    nlohmann::json figures = {{"slice_requests", result.sliceRequests},
                              {"observed_requests", result.observedRequests},
                              {"threshold", finite(result.threshold)},
                              {"set_size", result.setSize},
                              {"rest_size", result.restSize},
                              {"members", members},
                              {"attribution", ExceedanceJson::attribution(result.attribution)}};
    figures.update(ExceedanceJson::rankings(comparison));
    return figures;
}

// What `exceed FILE --json` says of a file of the store's rows.
inline nlohmann::json analysisOf(const std::shared_ptr<const TraceStore> &store, const ExceedanceSpec &spec, int listed)
{
    ColumnCache cache(store, ColumnCache::Retention::MetricsOnly);
    const auto analysis = ExceedanceAnalysis::compute(cache, RequestSlice::all(store->requests.rowCount()), spec);
    return ExceedanceJson::analysis(analysis, store->requests, {}, listed, -1);
}

// Each server figure equal to `expected`'s (an `exceed --json` document).
inline bool sameFigures(const nlohmann::json &expected, const nlohmann::json &actual)
{
    bool same = true;
    for (const char *key : kServerKeys) {
        if (!expected.contains(key) || !actual.contains(key) || expected[key] != actual[key]) {
            qWarning("%s: expected %s\nactual %s", key, expected.value(key, nlohmann::json()).dump(1).c_str(),
                     actual.value(key, nlohmann::json()).dump(1).c_str());
            same = false;
        }
    }
    return same;
}

// Both server paths (the exact threshold first, the rankings' cells split
// a few bits at a time; the rows of the threshold's buckets grouped by
// value, the cells split into their values at once) give `expected`'s
// figures: empty when they do, else what went wrong.
inline QString serverPathsDiffer(const nlohmann::json &expected, const QString &url, const ExceedanceSpec &spec)
{
    for (const qint64 groupedUpTo : {qint64(0), ServerExceedance::kGroupedUpTo}) {
        const char *path = groupedUpTo == 0 ? "exact threshold first, cells split by bits" : "grouped by value";
        QString error;
        const auto figures = computeOnServer(url, spec, 20, groupedUpTo,
                                             groupedUpTo == 0 ? 0 : ServerSetComparison::kExactUpTo, &error);
        if (!figures)
            return QStringLiteral("%1: %2").arg(QLatin1String(path), error);
        if (!sameFigures(expected, *figures))
            return QStringLiteral("%1: the figures differ from the file's").arg(QLatin1String(path));
    }
    return {};
}

// ServerRequests::wrappedSum of the server's sum(x) and sum(x >> 32) over
// 3502 Int64 values spread over the whole range (and its two ends), 500 of
// them near -4e18 so the high halves' sum is negative, against their sum
// taken here in 128 bits: false with the reason when they differ.
inline bool wrappedSumIsExact(const QString &url, QString *why)
{
    ClickHouseSource source;
    if (!ClickHouseSource::parse(url, &source, why))
        return false;
    const ClickHouseClient client(source);
    const QString values = QStringLiteral(
        "SELECT reinterpretAsInt64(reinterpretAsString(cityHash64(number))) AS x FROM numbers(3000) "
        "UNION ALL SELECT toInt64(-4000000000000000000) - toInt64(number) AS x FROM numbers(500) "
        "UNION ALL SELECT toInt64(-9223372036854775807 - 1) AS x UNION ALL SELECT toInt64(9223372036854775807) AS x");
    std::vector<QStringList> rows;
    if (!client.select(QStringLiteral("SELECT x FROM (%1)").arg(values), &rows, why, 1))
        return false;
    ServerRequests::Int128 expected = 0;
    for (const auto &row : rows)
        expected += row[0].toLongLong();
    std::vector<QStringList> sums;
    if (!client.select(QStringLiteral("SELECT %1 FROM (%2)")
                           .arg(ServerRequests::wrappedSumSql(QStringLiteral("x")).join(QStringLiteral(", ")), values),
                       &sums, why, 2))
        return false;
    const ServerRequests::Int128 actual = ServerRequests::wrappedSum(sums.front(), 0);
    if (rows.size() != 3502 || !sums.front()[1].startsWith(QLatin1Char('-')) || actual != expected) {
        *why = QStringLiteral("%1 values: sum %2 (high %3, low %4), expected %5 %6")
                   .arg(rows.size())
                   .arg(double(actual), 0, 'g', 17)
                   .arg(qint64(actual >> 64))
                   .arg(quint64(actual))
                   .arg(double(expected), 0, 'g', 17)
                   .arg(quint64(expected));
        return false;
    }
    return true;
}

// The exceed arguments the tests run and the spec each stands for.
struct Variant
{
    const char *name;
    QStringList arguments;
    ExceedanceSpec spec;
};

inline std::vector<Variant> variants()
{
    const auto spec = [](Metric metric, Boundary boundary, double q, ExceedanceOrder order) {
        ExceedanceSpec result;
        result.metric = metric;
        result.boundary = boundary;
        result.q = q;
        result.order = order;
        return result;
    };
    const auto descending = ExceedanceOrder::MetricDescending;
    return {
        {"p95 ttft", {}, spec(Metric::Ttft, Boundary::Client, 0.95, descending)},
        {"p90 ttft arrival",
         {QStringLiteral("--percentile"), QStringLiteral("0.9"), QStringLiteral("--order"), QStringLiteral("arrival")},
         spec(Metric::Ttft, Boundary::Client, 0.9, ExceedanceOrder::Arrival)},
        {"p50 ttft server",
         {QStringLiteral("--percentile"), QStringLiteral("0.5"), QStringLiteral("--boundary"),
          QStringLiteral("server")},
         spec(Metric::Ttft, Boundary::Server, 0.5, descending)},
        {"p99 e2e",
         {QStringLiteral("--metric"), QStringLiteral("e2e"), QStringLiteral("--percentile"), QStringLiteral("0.99")},
         spec(Metric::E2e, Boundary::Client, 0.99, descending)},
        {"p95 itl",
         {QStringLiteral("--metric"), QStringLiteral("itl")},
         spec(Metric::Itl, Boundary::Client, 0.95, descending)},
        {"p90 queue engine",
         {QStringLiteral("--metric"), QStringLiteral("queue"), QStringLiteral("--boundary"), QStringLiteral("engine"),
          QStringLiteral("--percentile"), QStringLiteral("0.9")},
         spec(phaseMetric(Phase::Queue), Boundary::Engine, 0.9, descending)},
    };
}

} // namespace ExceedanceFixtures
