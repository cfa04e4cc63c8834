// Stream analysis on constructed streams: per-request gaps and stalls,
// pooled gap percentiles against a plain sort, chunked events, and the
// server-vs-client verdicts (coalescing in transport, stalls in decode).

#include "analysis/requests/Metric.h"
#include "analysis/stats/Percentile.h"
#include "analysis/streams/PooledGaps.h"
#include "analysis/streams/RequestStream.h"
#include "analysis/streams/StreamAlignment.h"
#include "analysis/streams/StreamSummary.h"
#include "store/TraceStore.h"

#include <QTest>

#include <random>

namespace {

constexpr qint64 kMs = 1'000'000;
using Event = TokenTimeline::Event;

// A request whose client sees its first token at `firstMs` and last at the
// last client event; server and client token times as given (ns).
struct StreamRequest
{
    std::vector<qint64> server; // one time per token
    std::vector<Event> client;  // events with token counts
    qint32 outputTokens = 0;
};

std::shared_ptr<TraceStore> storeOf(const std::vector<StreamRequest> &requests)
{
    auto store = std::make_shared<TraceStore>();
    auto &table = store->requests;
    TokenTimeline server;
    TokenTimeline client;
    std::vector<std::string> ids;
    for (size_t i = 0; i < requests.size(); ++i)
        ids.push_back("r" + std::to_string(i));
    for (size_t i = 0; i < requests.size(); ++i) {
        const auto &request = requests[i];
        RequestTable::Row row;
        row.id = ids[i];
        row.promptTokens = 10;
        row.outputTokens = request.outputTokens;
        row.stamps.fill(kNoTime);
        const qint64 firstClient = request.client.empty() ? request.server.front() : request.client.front().time;
        const qint64 lastClient = request.client.empty() ? request.server.back() : request.client.back().time;
        row.stamps[size_t(Stamp::ClientSend)] = firstClient - 100 * kMs;
        row.stamps[size_t(Stamp::FirstTokenClient)] = firstClient;
        row.stamps[size_t(Stamp::LastTokenClient)] = lastClient;
        table.appendRow(row);
        table.finishRow();
        // Constructed in order; a refused row would leave the timelines short and fail the tests.
        server.appendRow(std::span<const qint64>(request.server));
        client.appendRow(std::span<const Event>(request.client));
    }
    table.setTokenTimelines(std::move(server), std::move(client));
    return store;
}

// Tokens every `gapMs` from `startMs`.
std::vector<qint64> steadyTokens(int tokens, double startMs, double gapMs)
{
    std::vector<qint64> times;
    for (int i = 0; i < tokens; ++i)
        times.push_back(std::llround((startMs + gapMs * i) * 1e6));
    return times;
}

// One client event per server token, `transitMs` later.
std::vector<Event> followServer(const std::vector<qint64> &server, double transitMs)
{
    std::vector<Event> events;
    for (size_t i = 0; i < server.size(); ++i)
        events.push_back({server[i] + std::llround(transitMs * 1e6), 1, i == 0});
    return events;
}

} // namespace

class tst_Streams : public QObject
{
    Q_OBJECT
private slots:
    void perRequestGapsAndStalls();
    void stallRuleIsEditable_data();
    void stallRuleIsEditable();
    void pooledPercentilesEqualAPlainSort_data();
    void pooledPercentilesEqualAPlainSort();
    void pooledIntervalNeedsTwentyGroups();
    void chunkedEventsAreNotFastTokens();
    void clientClustersWithSmoothServerNameTransport();
    void clustersWithoutCountsAreAlignedByTime();
    void serverStallNamesDecode();
    void streamMetricsForClassesAndExceedance();
    void segmentsDoNotMakeGaps();
};

void tst_Streams::perRequestGapsAndStalls()
{
    // 20 ms rhythm, one 900 ms pause after token 10, one 60 ms hiccup.
    auto times = steadyTokens(30, 1000, 20);
    for (size_t i = 10; i < times.size(); ++i)
        times[i] += 880 * kMs;
    for (size_t i = 20; i < times.size(); ++i)
        times[i] += 40 * kMs;
    TokenTimeline timeline;
    QVERIFY(timeline.appendRow(std::span<const qint64>(times)));
    const RequestStreamStats stats = RequestStream::analyse(timeline, 0, 30, StallRule{});
    QCOMPARE(stats.events, qint64(30));
    QCOMPARE(stats.gaps, qint64(29));
    QCOMPARE(stats.p50GapMs, 20.0);
    QCOMPARE(stats.maxGapMs, 900.0);
    // Sorted gaps: 27 x 20, 60, 900; rank 28 x 0.95 = 26.6 -> 20 + 0.6 x (60 - 20)... index 26 is 20, 27 is 60.
    QCOMPARE(stats.p95GapMs, 20.0 + 0.6 * 40.0);
    QCOMPARE(stats.stallThresholdNs, 250 * kMs); // 4 x 20 ms is below the 250 ms floor
    QCOMPARE(stats.stalls, qint64(1));
    QCOMPARE(stats.stallMs, 900.0);
    QCOMPARE(stats.multiTokenEvents, qint64(0));
    QVERIFY(!stats.chunkingInferred);
    const auto stalls = RequestStream::stalls(timeline, 0, StallRule{});
    QCOMPARE(stalls.size(), size_t(1));
    QCOMPARE(stalls[0].startNs, times[9]);
    QCOMPARE(stalls[0].ns, 900 * kMs);
    QCOMPARE(RequestStream::gapQuantileMs(timeline, 0, 0.5), 20.0);
    QCOMPARE(RequestStream::maxGapMs(timeline, 0), 900.0);
}

void tst_Streams::stallRuleIsEditable_data()
{
    QTest::addColumn<double>("factor");
    QTest::addColumn<double>("minimumMs");
    QTest::addColumn<qint64>("stalls");
    QTest::newRow("default 4x, 250 ms: only the 900 ms pause") << 4.0 << 250.0 << qint64(1);
    QTest::newRow("floor 50 ms: the 60 ms hiccup too") << 2.0 << 50.0 << qint64(2);
    QTest::newRow("floor 1 s: none") << 4.0 << 1000.0 << qint64(0);
    QTest::newRow("factor 50 x 20 ms = 1 s: none") << 50.0 << 10.0 << qint64(0);
    QTest::newRow("threshold exactly 900 ms: counts (at least)") << 45.0 << 10.0 << qint64(1);
}

void tst_Streams::stallRuleIsEditable()
{
    QFETCH(double, factor);
    QFETCH(double, minimumMs);
    QFETCH(qint64, stalls);
    auto times = steadyTokens(30, 1000, 20);
    for (size_t i = 10; i < times.size(); ++i)
        times[i] += 880 * kMs;
    for (size_t i = 20; i < times.size(); ++i)
        times[i] += 40 * kMs;
    TokenTimeline timeline;
    QVERIFY(timeline.appendRow(std::span<const qint64>(times)));
    QCOMPARE(RequestStream::analyse(timeline, 0, 30, StallRule{factor, minimumMs}).stalls, stalls);
}

void tst_Streams::pooledPercentilesEqualAPlainSort_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<qint64>("collectCap");
    QTest::addColumn<bool>("constantGaps");
    QTest::newRow("one thread") << 1 << qint64(8'000'000) << false;
    QTest::newRow("two threads") << 2 << qint64(8'000'000) << false;
    QTest::newRow("crowded buckets refined") << 2 << qint64(50) << false;
    QTest::newRow("every gap equal, refined to one value") << 2 << qint64(10) << true;
}

void tst_Streams::pooledPercentilesEqualAPlainSort()
{
    QFETCH(int, threads);
    QFETCH(qint64, collectCap);
    QFETCH(bool, constantGaps);
    std::mt19937_64 random(11);
    std::lognormal_distribution<double> gapMs(std::log(25.0), 0.6);
    TokenTimeline timeline;
    std::vector<double> all;
    qint64 withGaps = 0;
    for (int r = 0; r < 300; ++r) {
        std::vector<qint64> times;
        qint64 t = qint64(r) * 1'000 * kMs;
        const int tokens = 1 + r % 57;
        for (int i = 0; i < tokens; ++i) {
            times.push_back(t);
            const qint64 gap = constantGaps ? 25 * kMs + 3 : std::llround(gapMs(random) * 1e6) + (r % 7 == 0 ? 0 : 1);
            if (i + 1 < tokens)
                all.push_back(double(gap) / 1e6);
            t += gap;
        }
        withGaps += tokens > 1 ? 1 : 0;
        QVERIFY(timeline.appendRow(std::span<const qint64>(times)));
    }
    constexpr std::array<double, 5> qs = {0.0, 0.5, 0.95, 0.99, 1.0};
    const PooledGaps pooled = PooledGapStats::compute(timeline, StreamSide::Client, nullptr, qs, threads, collectCap);
    QCOMPARE(pooled.gaps, qint64(all.size()));
    QCOMPARE(pooled.requests, withGaps); // one-token requests have no gap
    const auto sorted = Percentile::sortedFinite(all);
    for (size_t i = 0; i < qs.size(); ++i)
        QCOMPARE(pooled.quantiles[i].valueMs, Percentile::ofSorted(sorted, qs[i]));
    QCOMPARE(pooled.maxMs, sorted.back());

    // A slice: only even rows.
    std::vector<qint32> even;
    std::vector<double> evenGaps;
    for (qint32 r = 0; r < 300; r += 2) {
        even.push_back(r);
        const auto times = timeline.times(r);
        for (size_t i = 1; i < times.size(); ++i)
            evenGaps.push_back(double(times[i] - times[i - 1]) / 1e6);
    }
    const RowSet scope = RowSet::fromSortedUnique(even);
    const PooledGaps sliced = PooledGapStats::compute(timeline, StreamSide::Client, &scope, qs, threads, collectCap);
    const auto evenSorted = Percentile::sortedFinite(evenGaps);
    QCOMPARE(sliced.gaps, qint64(evenGaps.size()));
    QCOMPARE(sliced.quantiles[2].valueMs, Percentile::ofSorted(evenSorted, 0.95));
}

void tst_Streams::pooledIntervalNeedsTwentyGroups()
{
    std::mt19937_64 random(5);
    std::exponential_distribution<double> gapMs(1.0 / 30.0);
    const auto build = [&](int requests) {
        TokenTimeline timeline;
        for (int r = 0; r < requests; ++r) {
            std::vector<qint64> times{0};
            for (int i = 0; i < 100; ++i)
                times.push_back(times.back() + std::llround(gapMs(random) * 1e6) + 1);
            timeline.appendRow(std::span<const qint64>(times));
        }
        return timeline;
    };
    constexpr std::array<double, 1> p95 = {0.95};
    const TokenTimeline few = build(30);
    const PooledGaps small = PooledGapStats::compute(few, StreamSide::Client, nullptr, p95);
    QVERIFY(!small.quantiles[0].intervalFormed);
    QCOMPARE(small.groups, 0);
    const TokenTimeline many = build(400);
    const PooledGaps large = PooledGapStats::compute(many, StreamSide::Client, nullptr, p95);
    const PooledQuantile &q = large.quantiles[0];
    QVERIFY(q.intervalFormed);
    QCOMPARE(large.groups, 20);
    // Exponential gaps of mean 30 ms: p95 = 30 ln 20 = 89.9 ms, and 40,000
    // gaps pin it within a few percent.
    QVERIFY2(q.lowerMs < q.valueMs && q.valueMs < q.upperMs, qPrintable(QString::number(q.valueMs)));
    QVERIFY2(q.lowerMs > 80.0 && q.upperMs < 100.0,
             qPrintable(QStringLiteral("%1 .. %2").arg(q.lowerMs).arg(q.upperMs)));
}

void tst_Streams::chunkedEventsAreNotFastTokens()
{
    // 40 tokens in 10 chunks of 4, one chunk every 100 ms: 9 gaps of 100 ms,
    // never 30 gaps of 0 ms.
    std::vector<Event> chunks;
    for (int i = 0; i < 10; ++i)
        chunks.push_back({(1000 + 100 * i) * kMs, 4, i == 0});
    TokenTimeline client;
    QVERIFY(client.appendRow(std::span<const Event>(chunks)));
    const RequestStreamStats stats = RequestStream::analyse(client, 0, 40, StallRule{});
    QCOMPARE(stats.events, qint64(10));
    QCOMPARE(stats.tokens, qint64(40));
    QCOMPARE(stats.gaps, qint64(9));
    QCOMPARE(stats.p50GapMs, 100.0);
    QCOMPARE(stats.multiTokenEvents, qint64(10));
    QCOMPARE(stats.tokensPerEvent, 4.0);

    // The same stream with the counts unsaid: 10 events for 40 output tokens.
    TokenTimeline unsaid;
    std::vector<qint64> times;
    for (const auto &chunk : chunks)
        times.push_back(chunk.time);
    QVERIFY(unsaid.appendRow(std::span<const qint64>(times)));
    const RequestStreamStats inferred = RequestStream::analyse(unsaid, 0, 40, StallRule{});
    QVERIFY(inferred.chunkingInferred);
    QCOMPARE(inferred.tokensPerEvent, 4.0);
    QCOMPARE(inferred.p50GapMs, 100.0);

    constexpr std::array<double, 1> median = {0.5};
    const PooledGaps pooled = PooledGapStats::compute(client, StreamSide::Client, nullptr, median);
    QCOMPARE(pooled.gaps, qint64(9));
    QCOMPARE(pooled.quantiles[0].valueMs, 100.0);
}

void tst_Streams::clientClustersWithSmoothServerNameTransport()
{
    // The server emits a token every 25 ms; a proxy forwards them five at a
    // time, 30 ms after the fifth. Counts are given.
    std::vector<StreamRequest> requests;
    for (int r = 0; r < 6; ++r) {
        StreamRequest request;
        request.server = steadyTokens(100, 10'000.0 * r, 25.0);
        request.outputTokens = 100;
        for (int chunk = 0; chunk < 20; ++chunk)
            request.client.push_back({request.server[size_t(chunk * 5 + 4)] + 30 * kMs, 5, chunk == 0});
        requests.push_back(request);
    }
    const auto store = storeOf(requests);
    const CoalescingReport report = StreamAlignment::coalescing(store->requests, nullptr, StallRule{});
    QCOMPARE(report.requests, qint64(6));
    QCOMPARE(report.clientEvents, qint64(120));
    QCOMPARE(report.multiTokenEvents, qint64(120));
    QCOMPARE(report.multiTokenShare, 1.0);
    QCOMPARE(report.clusterSizes[5], qint64(120));
    QCOMPARE(report.clientStalls, qint64(0));
    QCOMPARE(report.serverStalls, qint64(0));
    QCOMPARE(report.mechanism, StreamMechanism::TransportBuffering);
    QVERIFY(report.reason.contains(QStringLiteral("smooth")));
    QVERIFY(report.nextTest.contains(QStringLiteral("buffering")));
}

void tst_Streams::clustersWithoutCountsAreAlignedByTime()
{
    // The first token goes through alone, then a proxy forwards five at a
    // time, 30 ms after the last of them; the client logged only its event
    // times. It also held one batch for 600 ms while the server went on.
    StreamRequest request;
    request.server = steadyTokens(100, 0.0, 25.0);
    request.outputTokens = 100;
    request.client.push_back({request.server[0] + 30 * kMs, 1, true});
    for (int k = 1; k <= 19; ++k) {
        qint64 at = request.server[size_t(5 * k)] + 30 * kMs;
        if (k == 10)
            at += 600 * kMs;
        // The batches that piled up behind it are flushed right after it.
        at = qMax(at, request.client.back().time + 1 * kMs);
        request.client.push_back({at, 1, false});
    }
    request.client.push_back({request.server[99] + 30 * kMs, 1, false});
    const auto store = storeOf({request});
    const AlignedStream aligned
        = StreamAlignment::align(store->requests.serverTokens(), store->requests.clientTokens(), 0, StallRule{});
    QVERIFY(!aligned.countsGiven);
    QCOMPARE(aligned.transitNs, 30 * kMs);
    QCOMPARE(aligned.tokensPerEvent.size(), size_t(21));
    QCOMPARE(aligned.tokensPerEvent[0], 1);
    for (int k = 1; k <= 9; ++k)
        QCOMPARE(aligned.tokensPerEvent[size_t(k)], 5);
    qint64 sum = 0;
    for (const qint32 tokens : aligned.tokensPerEvent)
        sum += tokens;
    QCOMPARE(sum, qint64(100));
    QCOMPARE(aligned.clientStalls, qint64(1));
    QCOMPARE(aligned.transportStalls, qint64(1)); // the server kept producing meanwhile
    QCOMPARE(aligned.decodeStalls, qint64(0));
    QCOMPARE(aligned.serverStalls, qint64(0));
    const CoalescingReport report = StreamAlignment::coalescing(store->requests, nullptr, StallRule{});
    QCOMPARE(report.mechanism, StreamMechanism::TransportBuffering);
}

void tst_Streams::serverStallNamesDecode()
{
    // The server pauses 1.2 s after token 40; the client receives every
    // token 20 ms after it leaves, so its stall is the server's.
    std::vector<StreamRequest> requests;
    for (int r = 0; r < 4; ++r) {
        StreamRequest request;
        request.server = steadyTokens(80, 5'000.0 * r, 25.0);
        for (size_t i = 40; i < request.server.size(); ++i)
            request.server[i] += 1200 * kMs;
        request.client = followServer(request.server, 20.0);
        request.outputTokens = 80;
        requests.push_back(request);
    }
    const auto store = storeOf(requests);
    const CoalescingReport report = StreamAlignment::coalescing(store->requests, nullptr, StallRule{});
    QCOMPARE(report.requests, qint64(4));
    QCOMPARE(report.multiTokenEvents, qint64(0));
    QCOMPARE(report.serverStalls, qint64(4));
    QCOMPARE(report.clientStalls, qint64(4));
    QCOMPARE(report.decodeStalls, qint64(4));
    QCOMPARE(report.transportStalls, qint64(0));
    QCOMPARE(report.mechanism, StreamMechanism::Decode);
    QVERIFY(report.reason.contains(QStringLiteral("4 of 4 client stalls")));
    QVERIFY(report.nextTest.contains(QStringLiteral("batch")));

    const StreamSummary summary = StreamAnalysis::summarise(store->requests, nullptr, StallRule{}, 2);
    QCOMPARE(summary.sides.size(), size_t(2));
    const auto *client = summary.side(StreamSide::Client);
    QVERIFY(client);
    QCOMPARE(client->stalls, qint64(4));
    QCOMPARE(client->requestsWithStalls, qint64(4));
    QCOMPARE(client->gaps.gaps, qint64(4 * 79));
    QCOMPARE(client->gaps.maxMs, 1225.0);
    QCOMPARE(summary.worst.size(), size_t(2));
    QCOMPARE(summary.worst[0].maxGapMs, 1225.0);
    QCOMPARE(summary.worst[0].requestId, QStringLiteral("r0")); // ties by row
    // Per-request mean ITL: (79 x 25 + 1200) / 79 ms.
    QCOMPARE(summary.meanItl.n, qint64(4));
    QCOMPARE(summary.meanItl.quantiles[0].value, (79.0 * 25.0 + 1200.0) / 79.0);
    QCOMPARE(summary.tpot.quantiles[0].value, (79.0 * 25.0 + 1200.0) / 79.0);
    QVERIFY(summary.meanItl.quantiles[2].tooFew());
}

void tst_Streams::streamMetricsForClassesAndExceedance()
{
    StreamRequest smooth;
    smooth.server = steadyTokens(10, 0, 20);
    smooth.client = followServer(smooth.server, 5);
    smooth.outputTokens = 10;
    StreamRequest stalled = smooth;
    for (size_t i = 5; i < stalled.server.size(); ++i)
        stalled.server[i] += 500 * kMs;
    stalled.client = followServer(stalled.server, 5);
    const auto store = storeOf({smooth, stalled});
    const auto &table = store->requests;
    QCOMPARE(metricValueMs(table, 0, Metric::MaxStall, Boundary::Client), 20.0);
    QCOMPARE(metricValueMs(table, 1, Metric::MaxStall, Boundary::Client), 520.0);
    QCOMPARE(metricValueMs(table, 1, Metric::MaxStall, Boundary::Server), 520.0);
    // Gaps 8 x 20 and 520: rank 8 x 0.95 = 7.6 -> 20 + 0.6 x 500.
    QCOMPARE(metricValueMs(table, 1, Metric::GapP95, Boundary::Client), 320.0);
    QCOMPARE(observedBoundary(Metric::GapP95, Boundary::Engine), Boundary::Server);
    QCOMPARE(observedBoundary(Metric::MaxStall, Boundary::Client), Boundary::Client);
    Metric parsed = Metric::Ttft;
    QVERIFY(metricFromKey(QStringLiteral("max_stall"), &parsed));
    QCOMPARE(parsed, Metric::MaxStall);
    QVERIFY(metricFromKey(QStringLiteral("gap_p95"), &parsed));
    QCOMPARE(parsed, Metric::GapP95);
    QCOMPARE(metricLabel(Metric::GapP95), QStringLiteral("p95 gap"));
    QVERIFY(!isPhaseMetric(Metric::MaxStall));
    const auto metrics = allMetrics();
    QCOMPARE(metrics.back(), Metric::MaxStall);
    QCOMPARE(int(metrics.size()), kMetricCount);
}

void tst_Streams::segmentsDoNotMakeGaps()
{
    // Two model calls of one workflow, 2 s apart (a tool between them).
    std::vector<Event> events{
        {0, 1, true}, {20 * kMs, 1, false}, {40 * kMs, 1, false}, {2040 * kMs, 1, true}, {2065 * kMs, 1, false}};
    TokenTimeline timeline;
    QVERIFY(timeline.appendRow(std::span<const Event>(events)));
    const auto gaps = RequestStream::gaps(timeline, 0);
    QCOMPARE(gaps.size(), size_t(3));
    QCOMPARE(RequestStream::maxGapMs(timeline, 0), 25.0);
    QCOMPARE(RequestStream::analyse(timeline, 0, 5, StallRule{}).stalls, qint64(0));
}

QTEST_GUILESS_MAIN(tst_Streams)
#include "tst_streams.moc"
