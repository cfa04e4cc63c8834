// Time axes read in the unit their range needs (ms, s, min) — the
// distribution plot of a span trace whose E2E runs to 48 s, its empty TTFT
// chart saying why, and a span trace opening on E2E.

#include "DistributionPanel.h"
#include "ViewState.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTest>

namespace {

std::shared_ptr<TraceStore> load(const QString &path)
{
    auto result = TraceFileLoader::load(path, {});
    if (!result.ok())
        qFatal("%s", qPrintable(result.fatalError));
    return result.store;
}

QStringList texts(const DistributionPanel &panel)
{
    QStringList all;
    for (int i = 0; i < panel.plot()->itemCount(); ++i) {
        if (auto *text = qobject_cast<QCPItemText *>(panel.plot()->item(i)))
            all.append(text->text());
    }
    return all;
}

struct Fixture
{
    ViewState state;
    DistributionPanel panel{&state};

    explicit Fixture(std::shared_ptr<TraceStore> store)
    {
        panel.resize(640, 420);
        panel.show();
        change([&] { state.setStore(std::move(store)); });
    }
    template<typename Change> void change(Change what)
    {
        QSignalSpy ready(&panel, &DistributionPanel::distributionReady);
        what();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isComputing() && !ready.isEmpty(), 10'000);
    }
    QStringList tickLabels() const
    {
        panel.plot()->replot();
        const QVector<QString> labels = panel.plot()->xAxis->tickVectorLabels();
        return QStringList(labels.begin(), labels.end());
    }
};

} // namespace

class tst_TimeUnits : public QObject
{
    Q_OBJECT
private slots:
    void spanTraceOpensOnE2eInSeconds();
    void emptyMetricSaysWhy();
    void shortTimesStayInMilliseconds();
    void flatTraceKeepsTtft();
};

void tst_TimeUnits::spanTraceOpensOnE2eInSeconds()
{
    // The OpenTelemetry demo: no model call, so no TTFT; E2E up to 48.5 s.
    Fixture f(load(QStringLiteral(TRACELANE_REALDATA_DIR "/otel-tui/test_data.json")));
    QCOMPARE(f.state.metric(), Metric::E2e);
    QCOMPARE(f.panel.scopeDistribution().n, 141);
    QCOMPARE(f.panel.plot()->xAxis->label(), QStringLiteral("E2E (s)"));
    const QStringList ticks = f.tickLabels();
    QVERIFY2(ticks.contains(QStringLiteral("10")) && ticks.contains(QStringLiteral("40")),
             qPrintable(ticks.join(u' ')));
    QVERIFY2(!ticks.contains(QStringLiteral("10000")), qPrintable(ticks.join(u' ')));
    // The data stay in ms: the p99 mark sits at its value in ms.
    QVERIFY(texts(f.panel).contains(QStringLiteral("p99 34.53 s")));
}

void tst_TimeUnits::emptyMetricSaysWhy()
{
    Fixture f(load(QStringLiteral(TRACELANE_REALDATA_DIR "/otel-tui/test_data.json")));
    f.change([&] { f.state.setMetric(Metric::Ttft); });
    QCOMPARE(f.panel.scopeDistribution().n, 0);
    const QStringList shown = texts(f.panel);
    QCOMPARE(shown.size(), 1);
    QVERIFY2(shown.front().startsWith(QStringLiteral("None of these 141 requests has TTFT.\nTTFT needs a first-token "
                                                     "time (client_send_ms to first_token_client_ms);\na workflow")),
             qPrintable(shown.front()));
    // The user's choice holds for the next trace that has it.
    f.change([&] { f.state.setStore(load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/three-requests.jsonl"))); });
    QCOMPARE(f.state.metric(), Metric::Ttft);
}

void tst_TimeUnits::shortTimesStayInMilliseconds()
{
    // TTFT of 800-1200 ms: milliseconds.
    Fixture f(load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/three-requests.jsonl")));
    QCOMPARE(f.state.metric(), Metric::Ttft);
    QCOMPARE(f.panel.plot()->xAxis->label(), QStringLiteral("TTFT (ms)"));
    QVERIFY(f.tickLabels().contains(QStringLiteral("1000")));
}

void tst_TimeUnits::flatTraceKeepsTtft()
{
    // A flat trace after a span trace: back on the chosen metric, TTFT.
    Fixture f(load(QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json")));
    QCOMPARE(f.state.metric(), Metric::Ttft); // the adviser's model calls record their first token
    QSignalSpy metric(&f.state, &ViewState::metricChanged);
    f.change([&] { f.state.setStore(load(QStringLiteral(TRACELANE_REALDATA_DIR "/otel-tui/test_data.json"))); });
    QCOMPARE(f.state.metric(), Metric::E2e);
    QCOMPARE(metric.size(), 1);
    f.change([&] { f.state.setStore(load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/three-requests.jsonl"))); });
    QCOMPARE(f.state.metric(), Metric::Ttft);
    QCOMPARE(metric.size(), 2);
}

QTEST_MAIN(tst_TimeUnits)
#include "tst_timeunits.moc"
