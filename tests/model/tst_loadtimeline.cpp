// Load over time on a constructed trace, checked against a plain
// computation: arrivals, completions, failures and goodput per bin; requests
// in flight and queue depth time-averaged (exact integrals) and at given
// instants; the burst envelope; Little's law inside a window.

#include "analysis/load/LoadTimeline.h"
#include "store/TraceStore.h"
#include "support/CliRun.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <random>

namespace {

constexpr qint64 kMs = 1'000'000;
constexpr qint64 kS = 1'000'000'000;

struct Plain
{
    qint64 send;
    qint64 queueEnter;
    qint64 prefillStart;
    qint64 firstToken;
    qint64 end; // kNoTime: never finished
    qint32 tokens;
};

std::shared_ptr<TraceStore> storeOf(const std::vector<Plain> &requests)
{
    auto store = std::make_shared<TraceStore>();
    std::vector<std::string> ids;
    for (size_t i = 0; i < requests.size(); ++i)
        ids.push_back("q" + std::to_string(i));
    for (size_t i = 0; i < requests.size(); ++i) {
        const Plain &p = requests[i];
        RequestTable::Row row;
        row.id = ids[i];
        row.promptTokens = 10;
        row.outputTokens = p.tokens;
        row.stamps.fill(kNoTime);
        row.stamps[size_t(Stamp::ClientSend)] = p.send;
        row.stamps[size_t(Stamp::QueueEnter)] = p.queueEnter;
        row.stamps[size_t(Stamp::PrefillStart)] = p.prefillStart;
        row.stamps[size_t(Stamp::FirstTokenClient)] = p.firstToken;
        row.stamps[size_t(Stamp::LastTokenClient)] = p.end;
        store->requests.appendRow(row);
        store->requests.finishRow();
    }
    return store;
}

// A bursty trace: 400 requests over 60 s, bursts of 12 every 5 s between a
// steady trickle; queue waits grow inside a burst; a few never finish.
std::vector<Plain> bursty()
{
    std::mt19937_64 random(3);
    const auto uniform = [&random](qint64 lo, qint64 hi) { return lo + qint64(random() % quint64(hi - lo + 1)); };
    std::vector<Plain> requests;
    const qint64 t0 = 1'700'000'000 * kS;
    for (int i = 0; i < 400; ++i) {
        qint64 send = i % 3 == 0 ? t0 + (i / 36) * 5 * kS + uniform(0, 300) * kMs : t0 + uniform(0, 60'000) * kMs;
        const qint64 enter = send + uniform(5, 40) * kMs;
        const qint64 start = enter + uniform(0, 2'500) * kMs;
        const qint64 first = start + uniform(50, 400) * kMs;
        const qint32 tokens = qint32(uniform(1, 300));
        const qint64 end = i % 97 == 5 ? kNoTime : first + qint64(tokens - 1) * uniform(15, 90) * kMs;
        requests.push_back({send, enter, start, first, end, tokens});
    }
    return requests;
}

// ∫ over [from, to) of how many intervals [a, b) cover t, in ns.
double coveredNs(const std::vector<std::pair<qint64, qint64>> &intervals, qint64 from, qint64 to)
{
    double total = 0.0;
    for (const auto &[a, b] : intervals)
        total += double(qMax<qint64>(0, qMin(b, to) - qMax(a, from)));
    return total;
}

} // namespace

class tst_LoadTimeline : public QObject
{
    Q_OBJECT
private slots:
    void seriesEqualAPlainComputation();
    void instantsAndPeaks();
    void burstEnvelope();
    void littleInsideAWindow();
    void failuresAndUnknownArrivals();
    void pickedRangeIsTheArrivals();
    void cliPrintsTheSeries();
};

void tst_LoadTimeline::seriesEqualAPlainComputation()
{
    const auto requests = bursty();
    const auto store = storeOf(requests);
    const Slo slo{1200.0, 60.0};
    const LoadTimeline t = LoadAnalysis::timeline(*store, nullptr, kS, slo, Boundary::Client);
    qint64 first = requests.front().send;
    qint64 last = 0;
    for (const Plain &p : requests) {
        first = qMin(first, p.send);
        last = qMax(last, qMax(p.send, p.end == kNoTime ? p.send : p.end));
    }
    QCOMPARE(t.startNs, first);
    QCOMPARE(t.binNs, kS);
    QCOMPARE(t.binCount(), int((last - first + 1 + kS - 1) / kS));
    QCOMPARE(t.placed, qint64(400));
    QCOMPARE(t.withoutEnd, qint64(5)); // i = 5, 102, 199, 296, 393
    std::vector<std::pair<qint64, qint64>> stays;
    std::vector<std::pair<qint64, qint64>> queued;
    const qint64 horizon = t.endNs();
    for (const Plain &p : requests) {
        stays.emplace_back(p.send, p.end == kNoTime ? horizon : p.end);
        queued.emplace_back(p.queueEnter, p.prefillStart);
    }
    for (int bin = 0; bin < t.binCount(); ++bin) {
        const qint64 from = t.binStart(bin);
        const qint64 to = from + kS;
        const bool lastBin = bin + 1 == t.binCount();
        qint64 arrivals = 0;
        qint64 completions = 0;
        qint64 good = 0;
        for (const Plain &p : requests) {
            arrivals += p.send >= from && (p.send < to || lastBin) ? 1 : 0;
            if (p.end != kNoTime && p.end >= from && (p.end < to || lastBin)) {
                ++completions;
                const double ttft = double(p.firstToken - p.send) / 1e6;
                const double itl = p.tokens > 1 ? double(p.end - p.firstToken) / 1e6 / (p.tokens - 1) : 0.0;
                good += ttft <= slo.ttftMs && itl <= slo.itlMs ? 1 : 0;
            }
        }
        QCOMPARE(t.arrivals[size_t(bin)], arrivals);
        QCOMPARE(t.completions[size_t(bin)], completions);
        QCOMPARE(t.good[size_t(bin)], good);
        QCOMPARE(t.meanInFlight[size_t(bin)], coveredNs(stays, from, to) / double(kS));
        QCOMPARE(t.meanQueueDepth[size_t(bin)], coveredNs(queued, from, to) / double(kS));
    }
    QCOMPARE(t.queueObserved, qint64(400));
}

void tst_LoadTimeline::instantsAndPeaks()
{
    const auto requests = bursty();
    const auto store = storeOf(requests);
    const LoadTimeline t = LoadAnalysis::timeline(*store, nullptr, kS, Slo{}, Boundary::Client);
    // At chosen instants, and the peak within each bin by sampling every
    // start and end inside it (the level only changes there).
    for (const qint64 at : {t.startNs, t.startNs + 2'500 * kMs, t.startNs + 30 * kS + 1, t.startNs + 61 * kS}) {
        qint64 inFlight = 0;
        qint64 queue = 0;
        for (const Plain &p : requests) {
            inFlight += p.send <= at && (p.end == kNoTime || at < p.end) ? 1 : 0;
            queue += p.queueEnter <= at && at < p.prefillStart ? 1 : 0;
        }
        QCOMPARE(LoadAnalysis::inFlightAt(store->requests, at), inFlight);
        QCOMPARE(LoadAnalysis::queueDepthAt(store->requests, at), queue);
    }
    for (int bin = 0; bin < t.binCount(); ++bin) {
        const qint64 from = t.binStart(bin);
        qint64 peak = LoadAnalysis::inFlightAt(store->requests, from);
        qint64 queuePeak = LoadAnalysis::queueDepthAt(store->requests, from);
        for (const Plain &p : requests) {
            for (const qint64 at : {p.send, p.end, p.queueEnter, p.prefillStart}) {
                if (at != kNoTime && at >= from && at < from + kS) {
                    peak = qMax(peak, LoadAnalysis::inFlightAt(store->requests, at));
                    queuePeak = qMax(queuePeak, LoadAnalysis::queueDepthAt(store->requests, at));
                }
            }
        }
        QCOMPARE(t.maxInFlight[size_t(bin)], peak);
        QCOMPARE(t.maxQueueDepth[size_t(bin)], queuePeak);
    }
}

void tst_LoadTimeline::burstEnvelope()
{
    const auto requests = bursty();
    const auto store = storeOf(requests);
    const BurstEnvelope envelope = LoadAnalysis::burstEnvelope(store->requests, nullptr);
    std::vector<qint64> sends;
    for (const Plain &p : requests)
        sends.push_back(p.send);
    std::sort(sends.begin(), sends.end());
    for (const auto &[width, peak, at] : {std::tuple{kS, envelope.peak1s, envelope.peak1sStartNs},
                                          std::tuple{10 * kS, envelope.peak10s, envelope.peak10sStartNs}}) {
        qint64 best = 0;
        qint64 bestAt = 0;
        for (const qint64 start : sends) {
            qint64 count = 0;
            for (const qint64 send : sends)
                count += send >= start && send < start + width ? 1 : 0;
            if (count > best) {
                best = count;
                bestAt = start;
            }
        }
        QCOMPARE(peak, best);
        QCOMPARE(at, bestAt);
    }
    QCOMPARE(envelope.arrivals, qint64(400));
    QCOMPARE(envelope.meanPerSecond, 399.0 / (double(sends.back() - sends.front()) / 1e9));
    QVERIFY(envelope.peak1s >= 12); // a burst of 12 within 300 ms
}

void tst_LoadTimeline::littleInsideAWindow()
{
    // A steady service: one arrival every 100 ms for 100 s, each staying 2 s.
    std::vector<Plain> steady;
    for (int i = 0; i < 1000; ++i) {
        const qint64 send = qint64(i) * 100 * kMs;
        steady.push_back({send, send, send, send + 300 * kMs, send + 2 * kS, 20});
    }
    auto store = storeOf(steady);
    const auto [from, to] = LoadAnalysis::middleOfArrivals(store->requests, nullptr);
    QCOMPARE(from, 24'975 * kMs); // a quarter of 99.9 s in
    QCOMPARE(to, 74'925 * kMs);
    const LittleInWindow check = LoadAnalysis::littleInWindow(store->requests, nullptr, from, to);
    QCOMPARE(check.meanTimeInSystemSeconds, 2.0);
    QCOMPARE(check.completions, qint64(500)); // ends at 26.9 .. 76.8 s fall inside
    QVERIFY2(std::abs(check.observedInFlight - 20.0) < 0.01, qPrintable(QString::number(check.observedInFlight)));
    QVERIFY(check.consistent);

    // The same arrivals, but the service slows: each stays 40 ms longer than the one before.
    std::vector<Plain> backlog = steady;
    for (size_t i = 0; i < backlog.size(); ++i)
        backlog[i].end = backlog[i].send + 2 * kS + qint64(i) * 40 * kMs;
    store = storeOf(backlog);
    const LittleInWindow growing = LoadAnalysis::littleInWindow(store->requests, nullptr, from, to);
    QVERIFY(!growing.consistent);
    QVERIFY(growing.relativeGap > 0.10); // more in flight than the completions inside explain
}

void tst_LoadTimeline::failuresAndUnknownArrivals()
{
    auto store = storeOf(bursty());
    RejectedRecord dated{QStringLiteral("f"), 3, QStringLiteral("x"), QStringLiteral("error"),
                         QStringLiteral("failed")};
    dated.atNs = store->requests.stamp(0, Stamp::ClientSend);
    store->rejected.push_back(dated);
    store->rejected.push_back(
        {QStringLiteral("f"), 4, QStringLiteral("y"), QStringLiteral("error"), QStringLiteral("failed")});
    LoadTimeline t = LoadAnalysis::timeline(*store, nullptr, kS, Slo{}, Boundary::Client);
    QCOMPARE(t.failuresPlaced, qint64(1));
    QCOMPARE(t.failuresWithoutTime, qint64(1));
    QCOMPARE(t.failures[size_t((dated.atNs - t.startNs) / kS)], qint64(1));
    store->arrivalsUnknown = QStringLiteral("no start times");
    t = LoadAnalysis::timeline(*store, nullptr, kS, Slo{}, Boundary::Client);
    QCOMPARE(t.binCount(), 0);
    QCOMPARE(t.arrivalsUnknown, QStringLiteral("no start times"));
    // Requests without a send time are counted out, never placed at 0.
    auto partial
        = storeOf({{kNoTime, kNoTime, kNoTime, kNoTime, kNoTime, 5}, {5 * kS, kNoTime, kNoTime, 6 * kS, 7 * kS, 5}});
    t = LoadAnalysis::timeline(*partial, nullptr, kS, Slo{}, Boundary::Client);
    QCOMPARE(t.withoutSend, qint64(1));
    QCOMPARE(t.placed, qint64(1));
    QCOMPARE(t.startNs, 5 * kS);
    QCOMPARE(t.queueObserved, qint64(0));
}

void tst_LoadTimeline::pickedRangeIsTheArrivals()
{
    const auto requests = bursty();
    const auto store = storeOf(requests);
    const qint64 from = requests[0].send;
    const qint64 to = from + 7 * kS;
    const RowSet rows = LoadAnalysis::arrivedBetween(store->requests, from, to);
    qint64 expected = 0;
    for (const Plain &p : requests)
        expected += p.send >= from && p.send < to ? 1 : 0;
    QCOMPARE(rows.size(), expected);
    for (const qint32 row : rows) {
        QVERIFY(requests[size_t(row)].send >= from);
        QVERIFY(requests[size_t(row)].send < to);
    }
    // A slice scopes the series.
    const LoadTimeline sliced = LoadAnalysis::timeline(*store, &rows, kS, Slo{}, Boundary::Client);
    QCOMPARE(sliced.placed, expected);
}

void tst_LoadTimeline::cliPrintsTheSeries()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("load.jsonl"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    // Four requests: sends at 0, 0.5, 1.2 and 2.5 s, each 1 s long.
    for (const double send : {0.0, 500.0, 1200.0, 2500.0}) {
        file.write(QStringLiteral(R"({"request_id":"r%1","prompt_tokens":10,"output_tokens":11,"client_send_ms":%1,)"
                                  R"("gateway_arrival_ms":%2,"queue_enter_ms":%2,"prefill_start_ms":%3,)"
                                  R"("prefill_end_ms":%3,"first_token_server_ms":%3,"first_token_client_ms":%3,)"
                                  R"("last_token_client_ms":%4})"
                                  "\n")
                       .arg(send)
                       .arg(send + 10)
                       .arg(send + 110)
                       .arg(send + 1000)
                       .toUtf8());
    }
    file.close();
    const CliRun run = runCli({QStringLiteral("load"), path, QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const QByteArray out = run.out.toUtf8();
    const auto json = nlohmann::json::parse(out.begin(), out.end());
    QVERIFY2(json["series"]["arrivals"] == nlohmann::json({2, 1, 1, 0}), out.constData());
    QVERIFY(json["series"]["completions"] == nlohmann::json({0, 2, 1, 1}));
    QVERIFY(json["series"]["max_queue_depth"] == nlohmann::json({1, 1, 1, 0})); // queue waits never overlap
    QCOMPARE(json["burst_envelope"]["peak_1s"].get<int>(), 2);
    const CliRun zero = runCli({QStringLiteral("load"), path, QStringLiteral("--window"), QStringLiteral("0")});
    QCOMPARE(zero.exitCode, 2);
    QVERIFY(zero.err.contains(QStringLiteral("--window expects a positive number")));
}

QTEST_GUILESS_MAIN(tst_LoadTimeline)
#include "tst_loadtimeline.moc"
