#include "DistributionPanel.h"
#include "PlotPalette.h"
#include "ViewState.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {

// TTFT at the client boundary: r-a 1200 ms, r-b 900 ms, r-c 800 ms.
std::shared_ptr<TraceStore> threeRequests()
{
    return TraceFileLoader::load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/three-requests.jsonl"), {}).store;
}

// Texts of the plot's labels (percentile marks and SLO), top to bottom.
QStringList labels(const DistributionPanel &panel)
{
    QStringList texts;
    for (int i = 0; i < panel.plot()->itemCount(); ++i) {
        if (auto *text = qobject_cast<QCPItemText *>(panel.plot()->item(i)))
            texts.append(text->text());
    }
    return texts;
}

// x of each vertical mark line, in the order drawn.
QList<double> markPositions(const DistributionPanel &panel)
{
    QList<double> xs;
    for (int i = 0; i < panel.plot()->itemCount(); ++i) {
        if (auto *line = qobject_cast<QCPItemStraightLine *>(panel.plot()->item(i)))
            xs.append(line->point1->coords().x());
    }
    return xs;
}

// Where each label sits against its own line (labels and lines are drawn in
// the same order): empty when every label is whole inside the plot, touches
// no other label and starts or ends 3 px from its own line (or, where the
// plot has no room beside the line, lies over it).
QString labelPlacementProblem(const DistributionPanel &panel)
{
    std::vector<QRectF> boxes;
    std::vector<double> lines;
    for (int i = 0; i < panel.plot()->itemCount(); ++i) {
        if (auto *text = qobject_cast<QCPItemText *>(panel.plot()->item(i)))
            boxes.emplace_back(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition());
        if (auto *line = qobject_cast<QCPItemStraightLine *>(panel.plot()->item(i)))
            lines.push_back(panel.plot()->xAxis->coordToPixel(line->point1->coords().x()));
    }
    if (boxes.size() != lines.size() || boxes.empty())
        return QStringLiteral("%1 labels for %2 lines").arg(boxes.size()).arg(lines.size());
    const QRectF area = panel.plot()->axisRect()->rect();
    for (size_t i = 0; i < boxes.size(); ++i) {
        const QRectF &box = boxes[i];
        if (!area.contains(box))
            return QStringLiteral("label %1 leaves the plot").arg(i);
        // Where neither side of the line has room, the label lies over it.
        const bool roomBeside
            = lines[i] + 3.0 + box.width() <= area.right() - 2.0 || lines[i] - 3.0 - box.width() >= area.left() + 2.0;
        const bool beside
            = std::abs(box.left() - (lines[i] + 3.0)) <= 1.5 || std::abs(box.right() - (lines[i] - 3.0)) <= 1.5;
        if (roomBeside ? !beside : !(box.left() <= lines[i] && lines[i] <= box.right()))
            return QStringLiteral("label %1 (%2..%3) is not beside its line at %4")
                .arg(i)
                .arg(box.left())
                .arg(box.right())
                .arg(lines[i]);
        for (size_t j = 0; j < i; ++j) {
            if (box.intersects(boxes[j]))
                return QStringLiteral("labels %1 and %2 overlap").arg(j).arg(i);
        }
    }
    return {};
}

QStringList graphNames(const DistributionPanel &panel)
{
    QStringList names;
    for (int i = 0; i < panel.plot()->graphCount(); ++i)
        names.append(panel.plot()->graph(i)->name());
    return names;
}

// A panel on the three-request trace, shown and computed.
struct Fixture
{
    ViewState state;
    DistributionPanel panel{&state};

    Fixture()
    {
        panel.resize(640, 420);
        panel.show();
        change([this] { state.setStore(threeRequests()); });
        QCOMPARE(panel.scopeDistribution().n, 3);
    }
    // Runs `action` and waits for the distribution it causes, if any (an
    // unchanged metric or boundary recomputes nothing).
    template<typename Action> void change(Action action)
    {
        QSignalSpy ready(&panel, &DistributionPanel::distributionReady);
        action();
        if (ready.isEmpty() && panel.isComputing())
            QVERIFY(ready.wait(10'000));
        QVERIFY(!panel.isComputing());
    }
};

} // namespace

class tst_DistributionPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void percentilesMarkedAndLabelled_data();
    void percentilesMarkedAndLabelled();
    void histogramAndCdf();
    void noTraceKeepsTheFrameWide();
    void identicalValuesDrawABar();
    void sloLineAndShare();
    void logScale();
    void filterAndSelection();
    void labelsFollowTheirLines_data();
    void labelsFollowTheirLines();
    void histogramReadsInEveryTheme_data();
    void histogramReadsInEveryTheme();
};

void tst_DistributionPanel::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void tst_DistributionPanel::percentilesMarkedAndLabelled_data()
{
    QTest::addColumn<int>("metric");
    QTest::addColumn<int>("boundary");
    QTest::addColumn<QString>("title");
    QTest::addColumn<QStringList>("labels");
    QTest::addColumn<QList<double>>("marks");
    // Seed interpolation over 800, 900, 1200: p90 = 900 + 0.8 x 300.
    QTest::newRow("TTFT, client") << int(Metric::Ttft) << int(Boundary::Client)
                                  << QStringLiteral("TTFT at the client boundary \u00b7 n = 3 \u00b7 whole trace")
                                  << QStringList{QStringLiteral("p50 900.0 ms"), QStringLiteral("p90 1140.0 ms"),
                                                 QStringLiteral("p95 1170.0 ms"), QStringLiteral("p99 1194.0 ms")}
                                  << QList<double>{900.0, 1140.0, 1170.0, 1194.0};
    // Server: queue enter to first server token: 900, 750, 300 ms.
    QTest::newRow("TTFT, server") << int(Metric::Ttft) << int(Boundary::Server)
                                  << QStringLiteral("TTFT at the server boundary \u00b7 n = 3 \u00b7 whole trace")
                                  << QStringList{QStringLiteral("p50 750.0 ms"), QStringLiteral("p90 870.0 ms"),
                                                 QStringLiteral("p95 885.0 ms"), QStringLiteral("p99 897.0 ms")}
                                  << QList<double>{750.0, 870.0, 885.0, 897.0};
    // ITL = (last - first client token) / (output tokens - 1): 100, 100, 300 ms.
    QTest::newRow("ITL") << int(Metric::Itl) << int(Boundary::Client)
                         << QStringLiteral("ITL at the client boundary \u00b7 n = 3 \u00b7 whole trace")
                         << QStringList{QStringLiteral("p50 100.00 ms/token"), QStringLiteral("p90 260.00 ms/token"),
                                        QStringLiteral("p95 280.00 ms/token"), QStringLiteral("p99 296.00 ms/token")}
                         << QList<double>{100.0, 260.0, 280.0, 296.0};
}

void tst_DistributionPanel::percentilesMarkedAndLabelled()
{
    QFETCH(int, metric);
    QFETCH(int, boundary);
    QFETCH(QString, title);
    QFETCH(QStringList, labels);
    QFETCH(QList<double>, marks);
    Fixture f;
    f.change([&] {
        f.state.setMetric(static_cast<Metric>(metric));
        f.state.setBoundary(static_cast<Boundary>(boundary));
    });
    QCOMPARE(f.panel.title(), title);
    auto *titleElement = qobject_cast<QCPTextElement *>(f.panel.plot()->plotLayout()->element(0, 0));
    QVERIFY(titleElement);
    QCOMPARE(titleElement->text(), title);
    QCOMPARE(::labels(f.panel), labels);
    const QList<double> drawn = markPositions(f.panel);
    QCOMPARE(drawn.size(), marks.size());
    for (qsizetype i = 0; i < marks.size(); ++i)
        QVERIFY2(qAbs(drawn[i] - marks[i]) < 1e-6, qPrintable(QString::number(drawn[i])));
    // Issue 9, 8: each label beside its own line, none over another.
    const QString problem = labelPlacementProblem(f.panel);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void tst_DistributionPanel::histogramAndCdf()
{
    Fixture f;
    QCOMPARE(graphNames(f.panel), (QStringList{QStringLiteral("histogram"), QStringLiteral("CDF (n = 3)")}));
    // The CDF steps to 1/3, 2/3 and 1 at the three TTFTs.
    const QCPGraph *cdf = f.panel.plot()->graph(1);
    QCOMPARE(cdf->valueAxis(), f.panel.plot()->yAxis2);
    QList<QPair<double, double>> steps;
    for (auto it = cdf->data()->constBegin(); it != cdf->data()->constEnd(); ++it)
        steps.append({it->key, it->value});
    QVERIFY2(steps.size() >= 3, qPrintable(QString::number(steps.size())));
    QCOMPARE(steps.last().first, 1200.0);
    QCOMPARE(steps.last().second, 1.0);
    double histogramTotal = 0.0;
    const QCPGraph *bars = f.panel.plot()->graph(0);
    // The last point only closes the step outline.
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd() - 1; ++it)
        histogramTotal += it->value;
    QCOMPARE(histogramTotal, 3.0);
    QCOMPARE(f.panel.plot()->xAxis->label(), QStringLiteral("TTFT (ms)"));
    QCOMPARE(f.panel.plot()->yAxis->label(), QStringLiteral("Requests per bin"));
    QCOMPARE(f.panel.plot()->yAxis2->label(), QStringLiteral("Share of requests \u2264 x"));
}

void tst_DistributionPanel::noTraceKeepsTheFrameWide()
{
    // With no curve the legend is empty; its row must not narrow the axes
    // (it squeezed them to 50 px, their tick labels on top of each other).
    ViewState state;
    DistributionPanel panel(&state);
    panel.resize(480, 360);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.plot()->replot();
    QCOMPARE(panel.plot()->graphCount(), 0);
    QVERIFY(!panel.plot()->legend->visible());
    const QRect frame = panel.plot()->axisRect()->rect();
    QVERIFY2(frame.width() > panel.plot()->width() / 2, qPrintable(QString::number(frame.width())));
    QCOMPARE(panel.plot()->xAxis->range().upper, 1.0);
    auto *note = panel.plot()->findChild<QCPItemText *>(QStringLiteral("emptyNote"));
    QVERIFY(note);
    QCOMPARE(note->text(), QStringLiteral("Open a trace to see its distribution."));
    // A trace brings the legend back.
    Fixture f;
    QVERIFY(f.panel.plot()->legend->visible());
}

void tst_DistributionPanel::identicalValuesDrawABar()
{
    // Two requests with the same TTFT (250 ms): the model's one bin has no
    // width; the plot still draws a bar of both requests around 250 ms.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("same.jsonl"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    for (const char *id : {"s-1", "s-2"})
        file.write(QByteArray(R"({"request_id": ")") + id
                   + R"(", "prompt_tokens": 10, "output_tokens": 2, "client_send_ms": 0, )"
                     R"("gateway_arrival_ms": 10, "queue_enter_ms": 20, "prefill_start_ms": 30, )"
                     R"("prefill_end_ms": 200, "first_token_server_ms": 220, )"
                     R"("first_token_client_ms": 250, "last_token_client_ms": 400})"
                   + "\n");
    file.close();
    ViewState state;
    DistributionPanel panel(&state);
    panel.resize(640, 420);
    panel.show();
    QSignalSpy ready(&panel, &DistributionPanel::distributionReady);
    state.setStore(TraceFileLoader::load(path, {}).store);
    if (ready.isEmpty() && panel.isComputing())
        QVERIFY(ready.wait(10'000));
    QCOMPARE(panel.scopeDistribution().n, 2);
    const QCPGraph *bars = panel.plot()->graph(0);
    QCOMPARE(bars->name(), QStringLiteral("histogram"));
    QCOMPARE(bars->data()->size(), 2);
    const double left = bars->data()->constBegin()->key;
    const double right = (bars->data()->constEnd() - 1)->key;
    QCOMPARE(bars->data()->constBegin()->value, 2.0);
    QVERIFY2(left < 250.0 && right > 250.0, qPrintable(QStringLiteral("%1..%2").arg(left).arg(right)));
    // Wide enough to see: at least 3 px on the plot.
    const double pixels = panel.plot()->xAxis->coordToPixel(right) - panel.plot()->xAxis->coordToPixel(left);
    QVERIFY2(pixels >= 3.0, qPrintable(QString::number(pixels)));
}

void tst_DistributionPanel::sloLineAndShare()
{
    Fixture f;
    f.change([&] { f.panel.setSloMs(1000.0); });
    // Two of the three TTFTs (800, 900) are within 1 s.
    QCOMPARE(::labels(f.panel).last(), QStringLiteral("SLO 1000.0 ms: 66.7% within"));
    QCOMPARE(markPositions(f.panel).last(), 1000.0);
    QCOMPARE(markPositions(f.panel).size(), 5);
    f.change([&] { f.panel.setSloMs(0.0); });
    QCOMPARE(markPositions(f.panel).size(), 4); // 0 removes it
}

void tst_DistributionPanel::logScale()
{
    Fixture f;
    QCOMPARE(f.panel.plot()->xAxis->scaleType(), QCPAxis::stLinear);
    f.change([&] { f.panel.setLogScale(true); });
    QCOMPARE(f.panel.plot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(!f.panel.plot()->xAxis->ticker().dynamicCast<QCPAxisTickerLog>().isNull());
    QVERIFY(f.panel.plot()->xAxis->range().lower > 0.0);
    // Same percentiles, whatever the scale.
    QCOMPARE(::labels(f.panel).first(), QStringLiteral("p50 900.0 ms"));
}

void tst_DistributionPanel::filterAndSelection()
{
    Fixture f;
    f.change([&] { f.state.setSlice(RowSet::fromRows({0, 2}), QStringLiteral("region = eu")); });
    QCOMPARE(f.panel.title(), QStringLiteral("TTFT at the client boundary \u00b7 n = 2 \u00b7 filter: region = eu"));
    QCOMPARE(f.panel.scopeDistribution().n, 2);
    // Two selected requests get their own CDF on top.
    f.change([&] { f.state.setSelection(RowSet::fromRows({0, 1})); });
    QCOMPARE(graphNames(f.panel),
             (QStringList{QStringLiteral("histogram"), QStringLiteral("CDF (n = 2)"),
                          QStringLiteral("selection CDF (n = 2)")}));
    f.change([&] { f.state.clearSelection(); });
    QCOMPARE(f.panel.plot()->graphCount(), 2);
}

void tst_DistributionPanel::labelsFollowTheirLines_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<double>("slo");
    // p50 900, p90 1140, p95 1170, p99 1194 ms: four lines within 300 ms.
    QTest::newRow("roomy") << QSize(640, 420) << 0.0;
    QTest::newRow("a laptop's dock") << QSize(420, 300) << 0.0;
    QTest::newRow("narrow, with an SLO among the lines") << QSize(360, 300) << 1000.0;
}

// Issue 9, 8 (overlapping percentile labels), at several sizes and after a
// resize, which moves the lines.
void tst_DistributionPanel::labelsFollowTheirLines()
{
    QFETCH(QSize, size);
    QFETCH(double, slo);
    Fixture f;
    if (slo > 0.0)
        f.change([&] { f.panel.setSloMs(slo); });
    f.panel.resize(size);
    QTest::qWait(50); // the labels are placed once the plot has its new size
    QString problem = labelPlacementProblem(f.panel);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    f.panel.resize(size.width() + 200, size.height());
    QTest::qWait(50);
    problem = labelPlacementProblem(f.panel);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void tst_DistributionPanel::histogramReadsInEveryTheme_data()
{
    QTest::addColumn<QColor>("base");
    QTest::addColumn<QColor>("text");
    QTest::newRow("light") << QColor(Qt::white) << QColor(Qt::black);
    QTest::newRow("dark (Tracelane's dark palette)") << QColor(0x1e, 0x1e, 0x1e) << QColor(0xe6, 0xe6, 0xe6);
    QTest::newRow("dark grey") << QColor(0x2b, 0x2b, 0x2b) << QColor(0xd0, 0xd0, 0xd0);
}

// Issue 9, 8: the dark-mode histogram was grey on grey (QPalette::Mid).
// On the rendered plot, the bars stand out from the background.
void tst_DistributionPanel::histogramReadsInEveryTheme()
{
    QFETCH(QColor, base);
    QFETCH(QColor, text);
    Fixture f;
    QPalette palette = f.panel.palette();
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Mid, PlotPalette::mix(base, text, 0.08)); // as dark themes have it
    f.panel.setPalette(palette);
    QTest::qWait(50);
    const QImage image = f.panel.plot()->grab().toImage();
    // Inside the middle bar (900 ms, one request of three), below the CDF.
    QCustomPlot *plot = f.panel.plot();
    const QPoint inside(int(plot->xAxis->coordToPixel(900.0)), int(plot->yAxis->coordToPixel(0.25)));
    const QColor fill = image.pixelColor(inside);
    QVERIFY2(PlotPalette::contrast(fill, base) >= 1.8,
             qPrintable(QStringLiteral("fill %1 on %2: %3:1")
                            .arg(fill.name(), base.name())
                            .arg(PlotPalette::contrast(fill, base))));
    QVERIFY(PlotPalette::contrast(PlotPalette::histogramOutline(palette), base) >= 3.0);
    QCOMPARE(image.pixelColor(QPoint(int(plot->axisRect()->right()) - 2, inside.y())), base); // no bar there
}

QTEST_MAIN(tst_DistributionPanel)
#include "tst_distributionpanel.moc"
