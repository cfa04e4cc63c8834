// The stream and load views: the request detail's stream strip, the Load dock
// (series, picking a range into the shared slice, following the swimlanes'
// time window), the Streams dock (verdict, editable stall rule) and the
// wiring that carries the stall rule to the detail and the swimlanes.

#include "LoadPanel.h"
#include "MainWindow.h"
#include "PhaseLegend.h"
#include "RequestDetailPanel.h"
#include "RequestTableModel.h"
#include "RequestTablePanel.h"
#include "StreamPanel.h"
#include "StreamsWiring.h"
#include "SwimlaneCanvas.h"
#include "SwimlaneView.h"
#include "TokenStreamStrip.h"
#include "ViewState.h"
#include "analysis/load/LoadTimeline.h"
#include "analysis/streams/StallMarks.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"
#include "support/TestData.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QHostAddress>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <memory>

namespace {

constexpr qint64 kMs = 1'000'000;
constexpr qint64 kS = 1'000'000'000;

using TestData::fixture;

std::shared_ptr<TraceStore> proxyTrace()
{
    return TraceFileLoader::load(fixture(QStringLiteral("streams/proxy-buffering.jsonl")), {}).store;
}

qsizetype rowWithStall(const RequestTable &table)
{
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        if (!RequestStream::stalls(table.serverTokens(), row, StallRule{}).empty())
            return row;
    }
    return -1;
}

} // namespace

class tst_StreamWidgets : public QObject
{
    Q_OBJECT
private slots:
    void stripShowsBothSidesAndStalls();
    void stripKeepsItsRowsWideInANarrowDock();
    void stripHiddenWithoutTokenTimes();
    void loadSeriesOfTheTrace();
    void loadSaysWhenTheServerGivesNoPopulation();
    void loadPlotKeepsItsPartsApartInAShortDock();
    void pickingARangeSlicesEveryView();
    void pickedRangeHoldsAcrossALiveRefresh();
    void loadFollowsTheSwimlanes();
    void streamPanelNamesTheMechanism();
    void stallRuleReachesDetailAndLanes();
};

void tst_StreamWidgets::stripShowsBothSidesAndStalls()
{
    const auto store = proxyTrace();
    QVERIFY(store && store->requests.rowCount() == 340);
    const qsizetype row = rowWithStall(store->requests);
    QVERIFY(row >= 0);
    TokenStreamStrip strip;
    strip.resize(900, strip.sizeHint().height());
    strip.setRequest(&store->requests, qint32(row), StallRule{});
    QVERIFY(strip.hasStream());
    const auto server
        = RequestStream::analyse(store->requests.serverTokens(), row, store->requests.outputTokens(row), StallRule{});
    QVERIFY(strip.caption().startsWith(QStringLiteral("server: %1 events").arg(server.events)));
    QVERIFY2(strip.caption().contains(QStringLiteral("1 stall(s)")), qPrintable(strip.caption()));
    // A rule with a floor above the stall clears it.
    strip.setRequest(&store->requests, qint32(row), StallRule{4.0, 5000.0});
    QVERIFY2(!strip.caption().contains(QStringLiteral("1 stall(s)")), qPrintable(strip.caption()));
    const QImage image = strip.grab().toImage();
    QCOMPARE(image.width(), 900);
}

void tst_StreamWidgets::stripKeepsItsRowsWideInANarrowDock()
{
    const auto store = proxyTrace();
    const qsizetype row = rowWithStall(store->requests);
    QVERIFY(row >= 0);
    const QColor tick(0x00, 0x72, 0xB2);
    const QColor bar(0x00, 0x9E, 0x73);
    // Where the ticks and the histogram's bars landed.
    const auto extent = [](const QImage &image, const QColor &colour) {
        QRect box;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                if (image.pixelColor(x, y) == colour)
                    box |= QRect(x, y, 1, 1);
            }
        }
        return box;
    };
    TokenStreamStrip strip;
    for (const int width : {900, 400}) {
        strip.resize(width, strip.heightForWidth(width));
        strip.setRequest(&store->requests, qint32(row), StallRule{});
        const QImage image = strip.grab().toImage();
        const QRect ticks = extent(image, tick);
        const QRect bars = extent(image, bar);
        QVERIFY(!ticks.isEmpty() && !bars.isEmpty());
        QVERIFY2(ticks.bottom() <= strip.tickArea().bottom(), qPrintable(QString::number(width)));
        QVERIFY(strip.histogramArea().contains(bars));
        if (width == 900) {
            // Beside: the rows stop short of the histogram.
            QVERIFY(strip.histogramArea().left() > strip.tickArea().right());
            QVERIFY(bars.left() > ticks.right());
        } else {
            // Below: the rows keep the strip's width, the bars sit under them.
            QCOMPARE(strip.tickArea().width(), 400);
            QVERIFY(bars.top() > ticks.bottom());
            QVERIFY2(ticks.width() >= 400 - 52 - 8, qPrintable(QString::number(ticks.width())));
            QVERIFY(strip.heightForWidth(400) > strip.heightForWidth(900));
        }
    }
}

void tst_StreamWidgets::stripHiddenWithoutTokenTimes()
{
    ViewState state;
    RequestDetailPanel panel(&state);
    panel.show();
    state.setStore(TraceFileLoader::load(fixture(QStringLiteral("seed/three-requests.jsonl")), {}).store);
    state.activateRow(0);
    QVERIFY(!panel.streamStrip()->isVisible());
    state.setStore(proxyTrace());
    state.activateRow(3);
    QVERIFY(panel.streamStrip()->isVisible());
    QVERIFY(panel.streamStrip()->caption().contains(QStringLiteral("client: ")));
}

void tst_StreamWidgets::loadSeriesOfTheTrace()
{
    ViewState state;
    LoadPanel panel(&state);
    QSignalSpy ready(&panel, &LoadPanel::timelineReady);
    const auto store = proxyTrace();
    state.setStore(store);
    QTRY_VERIFY(!panel.isComputing() && ready.count() > 0);
    const LoadTimeline &shown = panel.timeline();
    // Auto bins: 1-2-5 steps giving about 200 bins over the trace.
    const LoadTimeline expected = LoadAnalysis::timeline(*store, nullptr, shown.binNs, Slo{}, Boundary::Client);
    QCOMPARE(shown.binCount(), expected.binCount());
    QCOMPARE(shown.arrivals, expected.arrivals);
    QCOMPARE(shown.meanQueueDepth, expected.meanQueueDepth);
    QCOMPARE(shown.binNs, 500 * kMs); // about 90 s of trace / 200 bins -> 0.5 s
    // arrivals/s, completions/s, goodput/s in the top rect; in flight and queue below.
    QCOMPARE(panel.plot()->graphCount(), 5);
    QCOMPARE(panel.plot()->graph(0)->name(), QStringLiteral("arrivals/s"));
    const auto *arrivals = panel.plot()->graph(0)->data().data();
    QCOMPARE(arrivals->at(0)->value, double(expected.arrivals[0]) / 0.5);
    QVERIFY(panel.summaryText().contains(QStringLiteral("Burst envelope")));
    QVERIFY(panel.summaryText().contains(QStringLiteral("Little's law")));
    QVERIFY(!panel.summaryText().contains(QStringLiteral("sample"))); // every request held
    QCOMPARE(panel.plot()->yAxis->label(), QStringLiteral("req/s"));
}

// A sample of a server's table whose server fails: the series of the held
// rows are drawn, and the population's line says the server did not compute
// them, and why (no hang). One listener on loopback stands in for the server
// all along: first it hangs up on every connection, then it answers each
// whole request (headers and body read) with ClickHouse's error for a missing
// database.
void tst_StreamWidgets::loadSaysWhenTheServerGivesNoPopulation()
{
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::LocalHost));
    const quint16 port = server.serverPort();
    bool answering = false;
    connect(&server, &QTcpServer::newConnection, &server, [&server, &answering] {
        while (QTcpSocket *socket = server.nextPendingConnection()) {
            if (!answering) {
                socket->abort();
                socket->deleteLater();
                continue;
            }
            auto request = std::make_shared<QByteArray>();
            connect(socket, &QTcpSocket::readyRead, socket, [socket, request] {
                request->append(socket->readAll());
                const qsizetype headerEnd = request->indexOf("\r\n\r\n");
                if (headerEnd < 0)
                    return;
                qsizetype length = 0;
                for (const QByteArray &line : request->left(headerEnd).split('\n')) {
                    if (line.toLower().startsWith("content-length:"))
                        length = line.mid(15).trimmed().toLongLong();
                }
                if (request->size() < headerEnd + 4 + length)
                    return;
                request->clear();
                const QByteArray body = "Code: 81. DB::Exception: Database tracelane doesn't exist.";
                socket->write("HTTP/1.1 500 Internal Server Error\r\nConnection: close\r\nContent-Length: "
                              + QByteArray::number(body.size()) + "\r\n\r\n" + body);
                socket->disconnectFromHost();
            });
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        }
    });
    ViewState state;
    LoadPanel panel(&state);
    const auto store = proxyTrace();
    store->serverUrl = QStringLiteral("clickhouse://127.0.0.1:%1/tracelane?table=requests").arg(port);
    state.setStore(store);
    auto *population = panel.findChild<QLabel *>(QStringLiteral("loadPopulation"));
    QVERIFY(population);
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isComputing() && panel.timeline().binCount() > 0, 30'000);
    QVERIFY2(population->text().startsWith(
                 QStringLiteral("The server did not compute the whole population's load figures: ")),
             qPrintable(population->text()));
    QVERIFY2(population->text().contains(QString::number(port)), qPrintable(population->text()));
    QCOMPARE(panel.timeline().placed, qint64(340)); // the held rows' series all the same
    QVERIFY(panel.summaryText().contains(population->text()));

    // A failed answer is not kept: a new bin asks again, and the line gives
    // the server's new answer.
    answering = true;
    auto *bin = panel.findChild<QComboBox *>(QStringLiteral("loadBin"));
    QVERIFY(bin && bin->count() > 2);
    const int other = bin->currentIndex() == 1 ? 2 : 1;
    bin->setCurrentIndex(other);
    emit bin->activated(other);
    QTRY_VERIFY_WITH_TIMEOUT(population->text().contains(QStringLiteral("Database tracelane doesn't exist")), 30'000);
}

// The Load dock is wide and short (about 230 px in a 1400 × 900 window): the
// rates, the levels and the legend each keep their own strip, one under the
// other, inside the plot; narrower, the legend wraps onto a second row. (A
// legend column beside the rects once squeezed the levels to nothing, their
// axis drawn over the rates'.)
void tst_StreamWidgets::loadPlotKeepsItsPartsApartInAShortDock()
{
    ViewState state;
    LoadPanel panel(&state);
    state.setStore(proxyTrace());
    QTRY_VERIFY(!panel.isComputing() && panel.timeline().binCount() > 0);
    for (const int width : {1100, 800}) {
        panel.resize(width, 230);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCustomPlot *plot = panel.plot();
        plot->replot();
        QCOMPARE(plot->axisRectCount(), 2);
        const QRect rates = plot->axisRect(0)->outerRect();
        const QRect levels = plot->axisRect(1)->outerRect();
        const QRect legend = plot->legend->outerRect();
        const QString where = QStringLiteral("%1 px: rates %2-%3, levels %4-%5, legend %6-%7 of %8")
                                  .arg(width)
                                  .arg(rates.top())
                                  .arg(rates.bottom())
                                  .arg(levels.top())
                                  .arg(levels.bottom())
                                  .arg(legend.top())
                                  .arg(legend.bottom())
                                  .arg(plot->height())
            + QStringLiteral(" (inner %1, %2)")
                  .arg(plot->axisRect(0)->rect().height())
                  .arg(plot->axisRect(1)->rect().height());
        QVERIFY2(plot->axisRect(0)->rect().height() >= 20 && plot->axisRect(1)->rect().height() >= 20,
                 qPrintable(where));
        QVERIFY2(rates.bottom() < levels.top() && levels.bottom() < legend.top(), qPrintable(where));
        QVERIFY2(legend.bottom() < plot->height(), qPrintable(where));
        QCOMPARE(plot->graphCount(), 5); // arrivals, completions, goodput, in flight, in queue
        for (int i = 0; i < plot->graphCount(); ++i)
            QVERIFY(plot->legend->hasItemWithPlottable(plot->graph(i)));
        QCOMPARE(plot->legend->rowCount(), width < 900 ? 2 : 1);
    }
}

void tst_StreamWidgets::pickingARangeSlicesEveryView()
{
    ViewState state;
    LoadPanel panel(&state);
    const auto store = proxyTrace();
    state.setStore(store);
    QTRY_VERIFY(!panel.isComputing() && panel.timeline().binCount() > 0);
    const qint64 from = panel.timeline().startNs + 30 * kS;
    panel.pickRange(from, from + kS);
    QVERIFY(state.hasSlice());
    QCOMPARE(state.slice(), LoadAnalysis::arrivedBetween(store->requests, from, from + kS));
    QVERIFY(state.slice().size() >= 40); // the burst
    QVERIFY(state.sliceLabel().startsWith(QStringLiteral("arrived +")));
    // The panel keeps drawing the whole trace, the range shaded.
    QTRY_VERIFY(!panel.isComputing());
    QCOMPARE(panel.timeline().placed, qint64(340));
    // Another slice (a class) scopes the series.
    state.setSlice(RowSet::fromRows({0, 1, 2}), QStringLiteral("three"));
    QTRY_VERIFY(!panel.isComputing() && panel.timeline().placed == 3);
}

// A live capture grows: the range picked in the Load dock is picked again in
// the grown capture (its late arrivals join), before the views rebuild, and
// the request table shows it as a slice from elsewhere.
void tst_StreamWidgets::pickedRangeHoldsAcrossALiveRefresh()
{
    QTemporaryDir dir;
    const QString part = dir.filePath(QStringLiteral("first.jsonl"));
    QVERIFY(TestData::firstLines(fixture(QStringLiteral("streams/proxy-buffering.jsonl")), 200, part));
    const auto before = TraceFileLoader::load(part, {}).store;
    const auto after = proxyTrace();
    QCOMPARE(before->requests.rowCount(), 200);

    ViewState state;
    LoadPanel panel(&state);
    RequestTablePanel table(&state);
    state.setStore(before);
    QTRY_VERIFY(!panel.isComputing() && panel.timeline().binCount() > 0);
    const qint64 from = panel.timeline().startNs;
    const qint64 to = from + 60 * kS;
    panel.pickRange(from, to);
    const RowSet picked = state.slice();
    const QString label = state.sliceLabel();
    const RowSet grown = LoadAnalysis::arrivedBetween(after->requests, from, to);
    QVERIFY(grown.size() > picked.size()); // the refresh brings requests into the range

    QSignalSpy slices(&state, &ViewState::sliceChanged);
    bool pickedDuringStoreChanged = false;
    connect(&state, &ViewState::storeChanged, this,
            [&] { pickedDuringStoreChanged = state.hasSlice() && state.slice() == grown; });
    state.refreshStore(after, true);
    QVERIFY(pickedDuringStoreChanged);
    QCOMPARE(slices.count(), 0);
    QCOMPARE(state.slice(), grown);
    QCOMPARE(state.sliceLabel(), label);
    // The panel still knows the pick as its own: the whole capture drawn, Clear range on.
    QTRY_VERIFY(!panel.isComputing());
    QCOMPARE(panel.timeline().placed, qint64(after->requests.rowCount()));
    QVERIFY(panel.findChild<QPushButton *>(QStringLiteral("loadClearRange"))->isEnabled());
    // The request table lists exactly the picked requests, as a slice from elsewhere.
    QTRY_COMPARE(table.model()->rowCount(), int(grown.size()));
    QVERIFY(!table.findChild<QToolButton *>(QStringLiteral("clearSlice"))->isHidden());

    // After an eviction (rows moved) the range is still picked by time.
    const RowSet again = LoadAnalysis::arrivedBetween(before->requests, from, to);
    state.refreshStore(before, false);
    QCOMPARE(state.slice(), again);
    // Clearing it ends it: the next refresh has no slice.
    QTRY_VERIFY(!panel.isComputing());
    panel.findChild<QPushButton *>(QStringLiteral("loadClearRange"))->click();
    QVERIFY(!state.hasSlice());
    state.refreshStore(after, false);
    QVERIFY(!state.hasSlice());
}

void tst_StreamWidgets::loadFollowsTheSwimlanes()
{
    ViewState state;
    LoadPanel panel(&state);
    state.setStore(proxyTrace());
    QTRY_VERIFY(!panel.isComputing() && panel.timeline().binCount() > 0);
    const qint64 origin = panel.timeline().startNs;
    state.setTimeWindow({origin + 10 * kS, origin + 20 * kS});
    QCOMPARE(panel.plot()->xAxis->range().lower, 10.0);
    QCOMPARE(panel.plot()->xAxis->range().upper, 20.0);
    // Zooming the plot moves the swimlanes' window.
    panel.plot()->xAxis->setRange(12.0, 14.0);
    QCOMPARE(state.timeWindow().begin, origin + 12 * kS);
    QCOMPARE(state.timeWindow().end, origin + 14 * kS);
}

void tst_StreamWidgets::streamPanelNamesTheMechanism()
{
    ViewState state;
    StreamPanel panel(&state);
    state.setStore(proxyTrace());
    QTRY_VERIFY(!panel.isComputing());
    const auto &c = panel.summary().coalescing;
    QCOMPARE(c.requests, qint64(340));
    QCOMPARE(c.mechanism, StreamMechanism::Both); // proxy clusters and server stalls
    QVERIFY(panel.verdictText().contains(QStringLiteral("p95 inter-token gap")));
    QVERIFY(panel.reportText().contains(QStringLiteral("Inter-token gap, every gap pooled")));
    // Only the direct route: client events follow the server, stalls are the server's.
    std::vector<qint32> direct;
    const auto *route = state.store()->requests.attribute(QStringLiteral("route"));
    for (qsizetype row = 0; row < state.store()->requests.rowCount(); ++row) {
        if (route->text(row) == QStringLiteral("direct"))
            direct.push_back(qint32(row));
    }
    state.setSlice(RowSet::fromRows(direct), QStringLiteral("route = direct"));
    QTRY_VERIFY(!panel.isComputing() && panel.summary().scopeRequests == qsizetype(direct.size()));
    QCOMPARE(panel.summary().coalescing.mechanism, StreamMechanism::Decode);
    QCOMPARE(panel.summary().coalescing.multiTokenEvents, qint64(0));
}

void tst_StreamWidgets::stallRuleReachesDetailAndLanes()
{
    MainWindow window;
    window.setPersistent(false);
    window.resize(1400, 900);
    window.show();
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openFile(fixture(QStringLiteral("streams/proxy-buffering.jsonl")));
    QVERIFY(finished.wait(30'000));
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30'000);
    QVERIFY(window.findChild<QDockWidget *>(QStringLiteral("loadDock")));
    QVERIFY(window.findChild<QDockWidget *>(QStringLiteral("streamsDock")));
    const auto store = window.store();
    const qsizetype row = rowWithStall(store->requests);
    window.viewState()->activateRow(qint32(row));
    TokenStreamStrip *strip = window.requestDetail()->streamStrip();
    QVERIFY(strip->isVisible());
    QVERIFY(strip->caption().contains(QStringLiteral("1 stall(s)")));
    // The swimlanes hold every client stall of the trace (33, as the CLI counts).
    const StallMarks *marks = window.swimlanes()->canvas()->stallMarks();
    QVERIFY(marks);
    QCOMPARE(marks->stalls.size(), size_t(33));
    QCOMPARE(marks->of(row).size(), size_t(1));
    QVERIFY(window.swimlanes()->legend()->content().stalls);
    // Raise the floor to 5 s in the Streams dock: no stall left anywhere.
    auto *minimum = window.streams()->streamPanel()->findChild<QDoubleSpinBox *>(QStringLiteral("stallMinimum"));
    minimum->setValue(5000.0);
    QVERIFY(!strip->caption().contains(QStringLiteral("1 stall(s)")));
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30'000);
    QVERIFY(window.streams()->streamPanel()->reportText().contains(QStringLiteral("Stalls (client): 0 in 0")));
    QCOMPARE(window.swimlanes()->canvas()->stallMarks()->stalls.size(), size_t(0));
    QVERIFY(!window.swimlanes()->legend()->content().stalls); // the legend names only what is drawn
}

QTEST_MAIN(tst_StreamWidgets)
#include "tst_streamwidgets.moc"
