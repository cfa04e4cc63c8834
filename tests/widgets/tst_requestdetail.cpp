#include "PhaseColors.h"
#include "RequestDetailPanel.h"
#include "ViewState.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"

#include <QLabel>
#include <QTableWidget>
#include <QTest>

namespace {

// r-a: sent at 0, network in to 100, gateway to 200, queue to 600, prefill
// to 1000, first decode to 1100, network to first token to 1200, stream to
// 2000 ms.
std::shared_ptr<TraceStore> threeRequests()
{
    return TraceFileLoader::load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/three-requests.jsonl"), {}).store;
}

QString factValue(const QTableWidget &facts, const QString &field)
{
    for (int row = 0; row < facts.rowCount(); ++row) {
        if (facts.item(row, 0)->text() == field)
            return facts.item(row, 1)->text();
    }
    return QStringLiteral("(no %1)").arg(field);
}

bool sameColour(QRgb a, QColor b)
{
    return qAbs(qRed(a) - b.red()) <= 2 && qAbs(qGreen(a) - b.green()) <= 2 && qAbs(qBlue(a) - b.blue()) <= 2;
}

} // namespace

class tst_RequestDetail : public QObject
{
    Q_OBJECT
private slots:
    void numbersOfTheActivatedRequest_data();
    void numbersOfTheActivatedRequest();
    void timelineToScale_data();
    void timelineToScale();
    void followsTheCurrentRequest();
    void titleNamesTheLineWhereThereIsOne_data();
    void titleNamesTheLineWhereThereIsOne();
};

void tst_RequestDetail::numbersOfTheActivatedRequest_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::newRow("id") << QStringLiteral("Request") << QStringLiteral("r-a");
    QTest::newRow("class attribute") << QStringLiteral("region") << QStringLiteral("eu");
    QTest::newRow("tokens") << QStringLiteral("Tokens") << QStringLiteral("1,000 prompt \u2192 9 output");
    QTest::newRow("TTFT") << QStringLiteral("TTFT (client)") << QStringLiteral("1200.0 ms");
    QTest::newRow("ITL") << QStringLiteral("ITL") << QStringLiteral("100.00 ms/token");
    QTest::newRow("E2E") << QStringLiteral("E2E") << QStringLiteral("2000.0 ms");
    QTest::newRow("queue") << QStringLiteral("Queue") << QStringLiteral("400.0 ms");
    QTest::newRow("stream") << QStringLiteral("Stream") << QStringLiteral("800.0 ms");
    QTest::newRow("raw stamp, relative to the send")
        << QStringLiteral("prefill_end_ms") << QStringLiteral("1000.000 ms  (+1000.0 ms)");
}

void tst_RequestDetail::numbersOfTheActivatedRequest()
{
    QFETCH(QString, field);
    QFETCH(QString, value);
    ViewState state;
    RequestDetailPanel panel(&state);
    state.setStore(threeRequests());
    state.activateRow(0); // a double-click in the lanes
    QCOMPARE(panel.shownRow(), 0);
    QCOMPARE(factValue(*panel.factsTable(), field), value);
}

void tst_RequestDetail::timelineToScale_data()
{
    QTest::addColumn<double>("ms");
    QTest::addColumn<int>("phase");
    QTest::newRow("network in at 50 ms") << 50.0 << int(Phase::NetworkIn);
    QTest::newRow("gateway at 150 ms") << 150.0 << int(Phase::Gateway);
    QTest::newRow("queue at 400 ms") << 400.0 << int(Phase::Queue);
    QTest::newRow("prefill at 800 ms") << 800.0 << int(Phase::Prefill);
    QTest::newRow("first decode at 1050 ms") << 1050.0 << int(Phase::FirstDecode);
    QTest::newRow("network to first token at 1150 ms") << 1150.0 << int(Phase::NetworkToFirst);
    QTest::newRow("stream at 1600 ms") << 1600.0 << int(Phase::Stream);
}

void tst_RequestDetail::timelineToScale()
{
    // The bar runs from the send (x = 12) to the last token (width - 12):
    // each phase sits where its share of the 2 s puts it.
    QFETCH(double, ms);
    QFETCH(int, phase);
    ViewState state;
    RequestDetailPanel panel(&state);
    panel.resize(612, 400);
    panel.show();
    state.setStore(threeRequests());
    state.activateRow(0);
    auto *timeline = panel.findChild<QWidget *>(QStringLiteral("requestTimeline"));
    QVERIFY(timeline);
    const QImage image = timeline->grab().toImage();
    const int line = timeline->fontMetrics().height();
    const int barTop = line + 8;
    const int barHeight = line + 6;
    const double barWidth = timeline->width() - 24;
    const QPoint point(12 + int(ms / 2000.0 * barWidth), barTop + barHeight / 2);
    const QColor expected = PhaseColors::of(static_cast<Phase>(phase));
    QVERIFY2(sameColour(image.pixel(point), expected),
             qPrintable(QStringLiteral("%1 at x %2, want %3")
                            .arg(QColor(image.pixel(point)).name())
                            .arg(point.x())
                            .arg(expected.name())));
}

void tst_RequestDetail::followsTheCurrentRequest()
{
    ViewState state;
    RequestDetailPanel panel(&state);
    state.setStore(threeRequests());
    QCOMPARE(panel.shownRow(), -1);
    state.setCurrentRow(2);
    QCOMPARE(panel.shownRow(), 2);
    QCOMPARE(factValue(*panel.factsTable(), QStringLiteral("Request")), QStringLiteral("r-c"));
    // A new trace clears it.
    state.setStore(threeRequests());
    QCOMPARE(panel.shownRow(), -1);
    QCOMPARE(panel.factsTable()->rowCount(), 0);
}

void tst_RequestDetail::titleNamesTheLineWhereThereIsOne_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("title");
    QTest::newRow("JSON Lines: the record's line")
        << QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/three-requests.jsonl") << 2
        << QStringLiteral("Request r-c (line 3)");
    // One JSON document holds every request: no "(line 0)" (issue 9, 8).
    QTest::newRow("one JSON document: no line") << QStringLiteral(
        TRACELANE_REALDATA_DIR "/vllm-bench/serving_meta-llama-Llama-3.3-70B-Instruct_tp8_pp1_sharegpt_qps_01.json")
                                                << 0 << QStringLiteral("Request vllm-bench-1");
}

void tst_RequestDetail::titleNamesTheLineWhereThereIsOne()
{
    QFETCH(QString, file);
    QFETCH(int, row);
    QFETCH(QString, title);
    ViewState state;
    RequestDetailPanel panel(&state);
    const auto loaded = TraceFileLoader::load(file, {});
    QVERIFY(loaded.store);
    state.setStore(loaded.store);
    state.activateRow(row);
    auto *label = panel.findChild<QLabel *>(QStringLiteral("requestDetailTitle"));
    QVERIFY(label);
    QCOMPARE(label->text(), title);
}

QTEST_MAIN(tst_RequestDetail)
#include "tst_requestdetail.moc"
