// Stream figures on real benchmark files: vLLM's benchmark_serving.py
// results carry their own run-level ITL and TPOT, computed by vLLM from the
// same per-request lists; ours must equal them. vLLM's "ITL" pools every
// gap (our pooled inter-token gap); its "TPOT" is per request (our TPOT, the
// same quantity as the seed's mean ITL).

#include "analysis/load/LoadTimeline.h"
#include "analysis/streams/StreamSummary.h"
#include "io/TraceFileLoader.h"
#include "report/StreamReport.h"
#include "support/TestData.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

namespace {

using TestData::realdata;

nlohmann::json oracle(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = file.readAll();
    return nlohmann::json::parse(bytes.begin(), bytes.end());
}

} // namespace

class tst_StreamsRealData : public QObject
{
    Q_OBJECT
private slots:
    void vllmFiguresEqualVllms_data();
    void vllmFiguresEqualVllms();
    void deepSeekAcrossNodesStalls();
    void vllmWithoutStartTimesHasNoArrivals();
    void vllmGapListsThatDoNotMatchAreFlagged();
    void aiperfChunksAreClientEvents();
};

void tst_StreamsRealData::vllmFiguresEqualVllms_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<qint64>("gaps");
    QTest::newRow("Llama-3.3-70B, 1 req/s")
        << QStringLiteral("vllm-bench/serving_meta-llama-Llama-3.3-70B-Instruct_tp8_pp1_sharegpt_qps_01.json")
        << qint64(42522);
    QTest::newRow("Llama-3.3-70B, all at once")
        << QStringLiteral("vllm-bench/serving_meta-llama-Llama-3.3-70B-Instruct_tp8_pp1_sharegpt_qps_inf.json")
        << qint64(42198);
    QTest::newRow("DeepSeek-V2.5 over two nodes without InfiniBand")
        << QStringLiteral("vllm-bench/serving_deepseek-ai-DeepSeek-V2.5_tp8_pp2_sharegpt_qps_16.json") << qint64(42347);
}

void tst_StreamsRealData::vllmFiguresEqualVllms()
{
    QFETCH(QString, file);
    QFETCH(qint64, gaps);
    const QString path = realdata(file);
    if (!QFile::exists(path))
        QSKIP("realdata is not available");
    const LoadResult result = TraceFileLoader::load(path, {});
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    const auto expected = oracle(path);
    const StreamSummary summary = StreamAnalysis::summarise(result.store->requests, nullptr, StallRule{});
    const StreamSideSummary *client = summary.side(StreamSide::Client);
    QVERIFY(client);
    QVERIFY(!summary.side(StreamSide::Server));
    QCOMPARE(client->requests, 200);
    QCOMPARE(client->gaps.gaps, gaps);
    // Gaps are kept as integer ns (vLLM writes seconds as doubles), so
    // agreement is to the nanosecond: 1e-5 ms leaves room for rounding.
    constexpr double kNs10 = 1e-5;
    const auto near = [](double ours, double theirs, double tolerance) { return std::abs(ours - theirs) <= tolerance; };
    const double p99 = client->gaps.find(0.99)->valueMs;
    QVERIFY2(near(p99, expected["p99_itl_ms"].get<double>(), kNs10),
             qPrintable(QStringLiteral("p99 gap %1 vs vLLM p99 ITL %2")
                            .arg(p99, 0, 'f', 9)
                            .arg(expected["p99_itl_ms"].get<double>(), 0, 'f', 9)));
    const double p50 = client->gaps.find(0.50)->valueMs;
    QVERIFY(near(p50, expected["median_itl_ms"].get<double>(), kNs10));
    QVERIFY(near(client->gaps.meanMs, expected["mean_itl_ms"].get<double>(), kNs10));
    // TPOT per request: vLLM measures latency separately from the last
    // chunk's time, a microsecond or so later; spread over the tokens that is
    // far below 1e-5 ms.
    const double medianTpot = summary.tpot.quantiles[0].value;
    QVERIFY2(near(medianTpot, expected["median_tpot_ms"].get<double>(), kNs10),
             qPrintable(QStringLiteral("median TPOT %1 vs vLLM %2")
                            .arg(medianTpot, 0, 'f', 9)
                            .arg(expected["median_tpot_ms"].get<double>(), 0, 'f', 9)));
    QVERIFY(near(summary.tpot.quantiles[3].value, expected["p99_tpot_ms"].get<double>(), 1e-4));
    QVERIFY(near(summary.tpot.meanMs, expected["mean_tpot_ms"].get<double>(), 1e-4));
    // Requests with one output token have no TPOT (vLLM leaves them out too).
    QCOMPARE(summary.tpot.n, summary.meanItl.n);
    QCOMPARE(summary.meanItl.quantiles[0].value, summary.tpot.quantiles[0].value);
}

void tst_StreamsRealData::deepSeekAcrossNodesStalls()
{
    const QString path
        = realdata(QStringLiteral("vllm-bench/serving_deepseek-ai-DeepSeek-V2.5_tp8_pp2_sharegpt_qps_16.json"));
    if (!QFile::exists(path))
        QSKIP("realdata is not available");
    const LoadResult result = TraceFileLoader::load(path, {});
    const StreamSummary summary = StreamAnalysis::summarise(result.store->requests, nullptr, StallRule{}, 3);
    const StreamSideSummary *client = summary.side(StreamSide::Client);
    // Counted independently (gaps rounded to ns, seed median, 4x and 250 ms).
    QCOMPARE(client->stalls, qint64(563));
    QCOMPARE(client->requestsWithStalls, qint64(137));
    QCOMPARE(client->gaps.maxMs, 1863.729427);
    QCOMPARE(summary.worst.front().requestId, QStringLiteral("vllm-bench-1"));
    QCOMPARE(summary.worst.front().maxGapMs, 1863.729427);
    // The pooled p95 stays near the median while p99 is five times it: the
    // tail a per-request mean hides.
    QCOMPARE(client->gaps.find(0.95)->valueMs, 158.3121187);
    QVERIFY(client->gaps.find(0.95)->intervalFormed);
    QCOMPARE(summary.coalescing.mechanism, StreamMechanism::NotJudged);
    const QString text = StreamReport::text(summary);
    QVERIFY2(text.contains(QStringLiteral("Stalls (client): 563 in 137 of 200 requests")), qPrintable(text));
}

void tst_StreamsRealData::vllmWithoutStartTimesHasNoArrivals()
{
    const QString path
        = realdata(QStringLiteral("vllm-bench/serving_meta-llama-Llama-3.3-70B-Instruct_tp8_pp1_sharegpt_qps_01.json"));
    if (!QFile::exists(path))
        QSKIP("realdata is not available");
    const LoadResult result = TraceFileLoader::load(path, {});
    QVERIFY(!result.store->arrivalsUnknown.isEmpty());
    const LoadTimeline timeline
        = LoadAnalysis::timeline(*result.store, nullptr, 1'000'000'000, Slo{}, Boundary::Client);
    QCOMPARE(timeline.binCount(), 0);
    QVERIFY(timeline.arrivalsUnknown.contains(QStringLiteral("start_times")));
}

void tst_StreamsRealData::vllmGapListsThatDoNotMatchAreFlagged()
{
    // Three requests: gaps that fit, one gap too many, and a negative gap.
    const QByteArray json = R"({"backend":"vllm","ttfts":[0.1,0.1,0.1],"input_lens":[5,5,5],"output_lens":[3,3,3],)"
                            R"("itls":[[0.02,0.03],[0.02,0.03,0.04],[0.02,-0.01]],"errors":["","",""],)"
                            R"("start_times":[10.0,11.0,12.0]})";
    const QString path = QDir::temp().filePath(QStringLiteral("tracelane-vllm-gaps.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(json);
    file.close();
    const LoadResult result = TraceFileLoader::load(path, {});
    QFile::remove(path);
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    const auto &store = *result.store;
    QCOMPARE(store.requests.rowCount(), 2);
    QCOMPARE(store.rejected.size(), size_t(1));
    QCOMPARE(store.rejected[0].field, QStringLiteral("itls[2]"));
    QVERIFY(store.arrivalsUnknown.isEmpty());
    QCOMPARE(store.requests.clientTokens().countFor(0), size_t(3));
    QCOMPARE(store.requests.clientTokens().countFor(1), size_t(1)); // only the first token: no gaps to trust
    bool flagged = false;
    for (const auto &notice : store.notices)
        flagged = flagged || notice.message.contains(QStringLiteral("itls[1] has 3 gaps for 3 output tokens"));
    QVERIFY(flagged);
}

void tst_StreamsRealData::aiperfChunksAreClientEvents()
{
    const QString path = realdata(QStringLiteral("aiperf/profile_export.jsonl"));
    if (!QFile::exists(path))
        QSKIP("realdata is not available");
    const LoadResult result = TraceFileLoader::load(path, {});
    const StreamSummary summary = StreamAnalysis::summarise(result.store->requests, nullptr, StallRule{});
    const StreamSideSummary *client = summary.side(StreamSide::Client);
    QVERIFY(client);
    QCOMPARE(client->requests, qint64(89));
    QCOMPARE(client->events, qint64(21623));
    QCOMPARE(client->gaps.gaps, qint64(21623 - 89));
    // Failed requests are dated: the load view places all 11 in time.
    const LoadTimeline timeline
        = LoadAnalysis::timeline(*result.store, nullptr, 1'000'000'000, Slo{}, Boundary::Client);
    QCOMPARE(timeline.failuresPlaced, qint64(11));
    qint64 failures = 0;
    for (const qint64 count : timeline.failures)
        failures += count;
    QCOMPARE(failures, qint64(11));
}

QTEST_GUILESS_MAIN(tst_StreamsRealData)
#include "tst_streamsrealdata.moc"
