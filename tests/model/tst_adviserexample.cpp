#include "io/TraceFileLoader.h"
#include "io/TracelaneContract.h"

#include <QTest>

// The bundled "governed adviser response" (resources/examples/adviser.otlp.json)
// is the seed article's agent workflow written in the Tracelane attribute
// contract. The critical-path acceptance figures rest on it, so every span,
// parent, dependency and duration is checked exactly.
namespace {

constexpr qint64 kMs = 1'000'000;
constexpr qint64 kT0 = 1'736'935'200'000'000'000LL; // 2025-01-15T10:00:00Z

QString example()
{
    return QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json");
}

} // namespace

class tst_AdviserExample : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void spans_data();
    void spans();
    void dependencyEdges();
    void modelCallPhasesAndTokens();
    void workflowMetrics();

private:
    LoadResult m_result;
};

void tst_AdviserExample::initTestCase()
{
    m_result = TraceFileLoader::load(example(), {});
    QVERIFY2(m_result.ok(), qPrintable(m_result.fatalError));
    QCOMPARE(m_result.store->rejected.size(), size_t(0));
    QCOMPARE(m_result.store->notices.size(), size_t(0));
    QCOMPARE(m_result.store->spans.rowCount(), 10);
    QCOMPARE(m_result.store->workflows.rowCount(), 1);
    QCOMPARE(m_result.store->workflows.rootSpan[0], 0);
}

void tst_AdviserExample::spans_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("parent");
    QTest::addColumn<SpanCategory>("category");
    QTest::addColumn<QString>("operation");
    QTest::addColumn<qint64>("startMs");
    QTest::addColumn<qint64>("durationMs");

    const auto row = [](int index, const char *name, int parent, SpanCategory category, const char *operation,
                        qint64 start, qint64 duration) {
        QTest::newRow(name) << index << QStringLiteral("0000000000ad%1").arg(index + 1, 4, 16, QLatin1Char('0'))
                            << QString::fromUtf8(name) << parent << category << QString::fromUtf8(operation) << start
                            << duration;
    };
    row(0, "governed adviser response", -1, SpanCategory::Agent, "invoke_agent", 0, 5986);
    row(1, "inbound transit", 0, SpanCategory::Network, "network", 0, 70);
    row(2, "gateway and policy", 0, SpanCategory::Gateway, "gateway", 70, 45);
    row(3, "retrieval", 0, SpanCategory::Retrieval, "retrieval", 115, 430);
    row(4, "policy retrieval", 3, SpanCategory::Retrieval, "retrieval", 115, 430);
    row(5, "account retrieval", 3, SpanCategory::Retrieval, "retrieval", 115, 280);
    row(6, "prompt assembly", 0, SpanCategory::Preparation, "preparation", 545, 25);
    row(7, "model call: tool proposal", 0, SpanCategory::ModelCall, "chat", 570, 1376);
    row(8, "calculation tool", 0, SpanCategory::Tool, "execute_tool", 1946, 760);
    row(9, "model call: final answer", 0, SpanCategory::ModelCall, "chat", 2706, 3280);
}

void tst_AdviserExample::spans()
{
    QFETCH(int, row);
    QFETCH(QString, id);
    QFETCH(QString, name);
    QFETCH(int, parent);
    QFETCH(SpanCategory, category);
    QFETCH(QString, operation);
    QFETCH(qint64, startMs);
    QFETCH(qint64, durationMs);
    const SpanTable &spans = m_result.store->spans;
    QCOMPARE(spans.spanIdText(row), id);
    QCOMPARE(spans.name(row), name);
    QCOMPARE(spans.parent(row), parent);
    QCOMPARE(spans.category(row), category);
    QCOMPARE(spans.operation(row), operation);
    QCOMPARE(spans.start(row) - kT0, startMs * kMs);
    QCOMPARE(spans.duration(row), durationMs * kMs);
    QCOMPARE(spans.flags(row), quint8(0));
    QCOMPARE(spans.service(row), QStringLiteral("adviser"));
}

void tst_AdviserExample::dependencyEdges()
{
    const SpanTable &spans = m_result.store->spans;
    QList<QPair<int, int>> edges;
    for (const auto &edge : spans.edges()) {
        QCOMPARE(edge.kind, SpanTable::EdgeKind::Dependency);
        edges.append({edge.from, edge.to});
    }
    // inbound → gateway → retrieval → assembly → call 1 → tool → call 2;
    // policy and account retrieval run in parallel under "retrieval".
    const QList<QPair<int, int>> expected = {{1, 2}, {2, 3}, {3, 6}, {6, 7}, {7, 8}, {8, 9}};
    QCOMPARE(edges, expected);
    QCOMPARE(spans.externalLinks().size(), size_t(0));
}

void tst_AdviserExample::modelCallPhasesAndTokens()
{
    const SpanTable &spans = m_result.store->spans;
    const auto at = [](qint64 ms) { return kT0 + ms * kMs; };
    const SpanTable::ModelCall *first = spans.modelCall(7);
    QVERIFY(first);
    QCOMPARE(first->stamps[size_t(Stamp::QueueEnter)], at(570));
    QCOMPARE(first->stamps[size_t(Stamp::PrefillStart)], at(1180));
    QCOMPARE(first->stamps[size_t(Stamp::PrefillEnd)], at(1465));
    QCOMPARE(first->stamps[size_t(Stamp::FirstTokenServer)], kNoTime); // the article does not split decode and return
    QCOMPARE(first->stamps[size_t(Stamp::FirstTokenClient)], at(1550));
    QCOMPARE(first->stamps[size_t(Stamp::LastTokenClient)], at(1946));
    // queue 610, prefill 285, first decode and return 85
    QCOMPARE(first->stamps[size_t(Stamp::PrefillStart)] - first->stamps[size_t(Stamp::QueueEnter)], 610 * kMs);
    QCOMPARE(first->stamps[size_t(Stamp::PrefillEnd)] - first->stamps[size_t(Stamp::PrefillStart)], 285 * kMs);
    QCOMPARE(first->stamps[size_t(Stamp::FirstTokenClient)] - first->stamps[size_t(Stamp::PrefillEnd)], 85 * kMs);
    const auto firstTokens = spans.tokenTimes(first->clientTokens);
    QCOMPARE(firstTokens.size(), size_t(19));
    QCOMPARE(firstTokens.front(), at(1550));
    QCOMPARE(firstTokens.back(), at(1946));
    for (size_t i = 1; i < firstTokens.size(); ++i)
        QCOMPARE(firstTokens[i] - firstTokens[i - 1], 22 * kMs);
    QCOMPARE(spans.outputTokens(7), 19);

    const SpanTable::ModelCall *second = spans.modelCall(9);
    QVERIFY(second);
    QCOMPARE(second->stamps[size_t(Stamp::QueueEnter)], at(2706));
    QCOMPARE(second->stamps[size_t(Stamp::PrefillStart)], kNoTime);
    QCOMPARE(second->stamps[size_t(Stamp::FirstTokenClient)] - second->stamps[size_t(Stamp::QueueEnter)], 640 * kMs);
    const auto secondTokens = spans.tokenTimes(second->clientTokens);
    QCOMPARE(secondTokens.size(), size_t(111));
    QCOMPARE(secondTokens.back() - secondTokens.front(), 2640 * kMs);
    for (size_t i = 1; i < secondTokens.size(); ++i)
        QCOMPARE(secondTokens[i] - secondTokens[i - 1], 24 * kMs);
    QCOMPARE(spans.outputTokens(9), 111);
    QVERIFY(second->contentBearing);
    QCOMPARE(spans.modelCall(8), nullptr); // the tool is not a model call
}

void tst_AdviserExample::workflowMetrics()
{
    const RequestTable &requests = m_result.store->requests;
    QCOMPARE(requests.rowCount(), 1);
    QCOMPARE(m_result.store->workflows.requestRow[0], 0);
    QCOMPARE(requests.idText(0), QStringLiteral("4d7f2c6a9b1e4f0a8c3d5e6f7a8b9c0d"));
    const auto stamp = [&](Stamp which) {
        const qint64 value = requests.stamp(0, which);
        return value == kNoTime ? qint64(-1) : (value - kT0) / kMs;
    };
    QCOMPARE(stamp(Stamp::ClientSend), 0);
    QCOMPARE(stamp(Stamp::GatewayArrival), 70);
    QCOMPARE(stamp(Stamp::QueueEnter), 570);
    QCOMPARE(stamp(Stamp::PrefillStart), 1180);
    QCOMPARE(stamp(Stamp::PrefillEnd), 1465);
    QCOMPARE(stamp(Stamp::FirstTokenServer), -1);
    QCOMPARE(stamp(Stamp::FirstTokenClient), 1550); // client TTFT 1,550 ms
    QCOMPARE(stamp(Stamp::LastTokenClient), 5986);  // E2E 5,986 ms
    QCOMPARE(requests.promptTokens(0), 2450);
    QCOMPARE(requests.outputTokens(0), 130);
    QCOMPARE(requests.attribute(QStringLiteral("workflow_type"))->text(0), QStringLiteral("governed adviser"));
    QCOMPARE(requests.attribute(QStringLiteral("service"))->text(0), QStringLiteral("adviser"));
    QCOMPARE(requests.attribute(QStringLiteral("status"))->text(0), QStringLiteral("ok"));
    QCOMPARE(requests.attribute(QStringLiteral("model"))->text(0), QStringLiteral("adviser-model"));
    QCOMPARE(requests.attribute(QStringLiteral("span_count"))->number(0), 10.0);
    QCOMPARE(requests.attribute(QStringLiteral("model_calls"))->number(0), 2.0);
    QCOMPARE(requests.attribute(QStringLiteral("tool_calls"))->number(0), 1.0);
    // The workflow's client token stream: both calls, in time order.
    QCOMPARE(requests.clientTokens().countFor(0), size_t(130));
    QCOMPARE(requests.serverTokens().countFor(0), size_t(0));
}

QTEST_GUILESS_MAIN(tst_AdviserExample)
#include "tst_adviserexample.moc"
