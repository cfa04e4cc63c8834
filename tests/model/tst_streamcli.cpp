// tracelane-cli stream as a script runs it, on the constructed proxy trace
// (tests/data/streams): the pooled client gap percentiles against a plain
// computation over the file's own lists, the mechanism, the stall rule's
// options and their usage errors.

#include "support/CliRun.h"
#include "support/TestData.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

QString proxyTrace()
{
    return TestData::fixture(QStringLiteral("streams/proxy-buffering.jsonl"));
}

// Every client gap of the file in ms: consecutive client_token_ms of one
// request, each list one stream event per time (the counts say how many
// tokens each carried, which does not change the gaps).
std::vector<double> clientGapsMs()
{
    QFile file(proxyTrace());
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open the proxy trace");
    std::vector<double> gaps;
    while (!file.atEnd()) {
        const QJsonArray times
            = QJsonDocument::fromJson(file.readLine()).object()[QStringLiteral("client_token_ms")].toArray();
        for (qsizetype i = 1; i < times.size(); ++i) {
            const qint64 from = std::llround(times[i - 1].toDouble() * 1e6);
            const qint64 to = std::llround(times[i].toDouble() * 1e6);
            gaps.push_back(double(to - from) / 1e6);
        }
    }
    std::sort(gaps.begin(), gaps.end());
    return gaps;
}

// The seed's percentile: rank (n − 1)·q, linear between neighbours.
double percentile(const std::vector<double> &sorted, double q)
{
    const double rank = double(sorted.size() - 1) * q;
    const size_t below = size_t(std::floor(rank));
    const size_t above = std::min(below + 1, sorted.size() - 1);
    return sorted[below] + (sorted[above] - sorted[below]) * (rank - double(below));
}

QJsonObject sideOf(const QJsonObject &report, const QString &side)
{
    for (const auto &value : report[QStringLiteral("sides")].toArray()) {
        if (value.toObject()[QStringLiteral("side")].toString() == side)
            return value.toObject();
    }
    return {};
}

} // namespace

class tst_StreamCli : public QObject
{
    Q_OBJECT
private slots:
    void pooledGapsEqualAPlainComputation();
    void stallRuleOptions();
    void usageErrors_data();
    void usageErrors();
};

void tst_StreamCli::pooledGapsEqualAPlainComputation()
{
    const CliRun run = runCli({QStringLiteral("stream"), proxyTrace(), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject report = jsonOf(run);
    QCOMPARE(report[QStringLiteral("requests")].toInt(), 340);
    const QJsonObject client = sideOf(report, QStringLiteral("client"));
    const QJsonObject pooled = client[QStringLiteral("pooled_gaps")].toObject();
    const std::vector<double> gaps = clientGapsMs();
    QCOMPARE(pooled[QStringLiteral("gaps")].toInteger(), qint64(gaps.size()));
    QCOMPARE(qint64(gaps.size()), qint64(24'074));
    QCOMPARE(pooled[QStringLiteral("max_ms")].toDouble(), gaps.back());
    const QJsonArray quantiles = pooled[QStringLiteral("quantiles")].toArray();
    QCOMPARE(quantiles.size(), 4);
    for (const auto &value : quantiles) {
        const QJsonObject quantile = value.toObject();
        const double q = quantile[QStringLiteral("q")].toDouble();
        const double expected = percentile(gaps, q);
        QVERIFY2(std::abs(quantile[QStringLiteral("value_ms")].toDouble() - expected) < 1e-9,
                 qPrintable(QStringLiteral("p%1: %2 vs %3")
                                .arg(q)
                                .arg(quantile[QStringLiteral("value_ms")].toDouble())
                                .arg(expected)));
        const QJsonArray interval = quantile[QStringLiteral("interval_ms")].toArray();
        QVERIFY(interval[0].toDouble() <= expected && expected <= interval[1].toDouble());
    }
    // Both sides recorded: the server's smooth ticks and the proxy's clusters,
    // with one server pause under every client stall.
    const QJsonObject coalescing = report[QStringLiteral("coalescing")].toObject();
    QCOMPARE(coalescing[QStringLiteral("mechanism")].toString(), QStringLiteral("decode_and_transport"));
    QCOMPARE(coalescing[QStringLiteral("coalesced_requests")].toInt(), 173);
    QCOMPARE(coalescing[QStringLiteral("decode_stalls")].toInt(), 33);
    QCOMPARE(coalescing[QStringLiteral("transport_stalls")].toInt(), 0);
    QCOMPARE(client[QStringLiteral("stalls")].toInt(), 33);
    QCOMPARE(report[QStringLiteral("worst")].toArray().size(), 10);

    // The text names both per-request figures apart from the pooled gap.
    const CliRun text = runCli({QStringLiteral("stream"), proxyTrace()});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains(QStringLiteral("every gap pooled over requests")));
    QVERIFY(text.out.contains(QStringLiteral("mean ITL per request (seed profiler")));
    QVERIFY(text.out.contains(QStringLiteral("TPOT per request (vLLM, MLPerf")));
}

void tst_StreamCli::stallRuleOptions()
{
    // The longest client gap is 999.7 ms: a 1 s floor leaves no stall.
    CliRun run = runCli({QStringLiteral("stream"), proxyTrace(), QStringLiteral("--json"), QStringLiteral("--stall-ms"),
                         QStringLiteral("1000"), QStringLiteral("--worst"), QStringLiteral("3")});
    QCOMPARE(run.exitCode, 0);
    QJsonObject report = jsonOf(run);
    QCOMPARE(sideOf(report, QStringLiteral("client"))[QStringLiteral("stalls")].toInt(), 0);
    QCOMPARE(report[QStringLiteral("stall_rule")].toObject()[QStringLiteral("minimum_ms")].toDouble(), 1000.0);
    QCOMPARE(report[QStringLiteral("worst")].toArray().size(), 3);
    // 100 times a request's median gap (over 10 ms in every request) is above every gap too.
    run = runCli({QStringLiteral("stream"), proxyTrace(), QStringLiteral("--json"), QStringLiteral("--stall-factor"),
                  QStringLiteral("100")});
    report = jsonOf(run);
    QCOMPARE(sideOf(report, QStringLiteral("client"))[QStringLiteral("stalls")].toInt(), 0);
}

void tst_StreamCli::usageErrors_data()
{
    addCliErrorColumns();
    QTest::newRow("no file") << QStringList{QStringLiteral("stream")} << 2
                             << QStringLiteral("tracelane-cli stream: expected exactly one FILE");
    QTest::newRow("zero stall floor") << QStringList{QStringLiteral("stream"), proxyTrace(),
                                                     QStringLiteral("--stall-ms"), QStringLiteral("0")}
                                      << 2 << QStringLiteral("--stall-ms expects a positive number, got '0'");
    QTest::newRow("text factor") << QStringList{QStringLiteral("stream"), proxyTrace(),
                                                QStringLiteral("--stall-factor"), QStringLiteral("four")}
                                 << 2 << QStringLiteral("--stall-factor expects a positive number, got 'four'");
    QTest::newRow("empty file") << QStringList{QStringLiteral("stream"),
                                               TestData::fixture(QStringLiteral("malformed/empty.jsonl"))}
                                << 1 << QStringLiteral("the file is empty");
}

void tst_StreamCli::usageErrors()
{
    runCliErrorRow();
}

QTEST_GUILESS_MAIN(tst_StreamCli)
#include "tst_streamcli.moc"
