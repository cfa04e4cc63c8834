// The swimlanes of span traces: every workflow lane coloured along time by
// the kind on its critical path, the off-path work faint beneath, the
// legend of kinds, tooltips, labels, the aggregate of many workflows and
// the colours' safety for colour-blind readers. Pixels are sampled at known
// times of the bundled adviser workflow and of constructed workflows.

#include "ExceedanceMarks.h"
#include "LaneRaster.h"
#include "PhaseColors.h"
#include "PhaseLegend.h"
#include "SwimlaneCanvas.h"
#include "SwimlaneColors.h"
#include "SwimlaneView.h"
#include "TimeRuler.h"
#include "ViewState.h"
#include "WorkKindColors.h"
#include "analysis/lanes/LaneLayout.h"
#include "analysis/lanes/WorkflowLanes.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"
#include "support/TestData.h"

#include <QFile>
#include <QLayout>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <cmath>
#include <limits>

namespace {

constexpr qint64 kMs = 1'000'000;

std::shared_ptr<TraceStore> load(const QString &path)
{
    auto result = TraceFileLoader::load(path, {});
    if (!result.ok())
        qFatal("%s", qPrintable(result.fatalError));
    return result.store;
}

std::shared_ptr<TraceStore> adviser()
{
    return load(QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json"));
}

std::shared_ptr<TraceStore> constructed()
{
    return load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/otlp/workflow-kinds.json"));
}

bool sameColour(QRgb a, QColor b)
{
    return qAbs(qRed(a) - b.red()) <= 2 && qAbs(qGreen(a) - b.green()) <= 2 && qAbs(qBlue(a) - b.blue()) <= 2;
}

QString describe(QRgb pixel)
{
    for (int k = 0; k < kWorkKindCount; ++k) {
        if (sameColour(pixel, WorkKindColors::of(WorkKind(k))))
            return workKindLabel(WorkKind(k));
    }
    return QColor(pixel).name();
}

// A swimlane view on `store`, laid out, with its workflow lanes computed.
struct Fixture
{
    ViewState state;
    SwimlaneView view{&state};

    explicit Fixture(std::shared_ptr<TraceStore> store, QSize canvasSize = QSize(800, 300))
    {
        view.resize(canvasSize.width() + 40, canvasSize.height() + 260);
        view.show();
        state.setStore(std::move(store));
        QTRY_VERIFY_WITH_TIMEOUT(canvas()->workflowLanes() && !view.isLayingOut(), 20'000);
        canvas()->setFixedSize(canvasSize);
        view.layout()->activate();
    }
    SwimlaneCanvas *canvas() const { return view.canvas(); }
    const LaneLayout &layout() const { return *canvas()->laneLayout(); }
    const WorkflowLanes &lanes() const { return *canvas()->workflowLanes(); }
    qint64 slotOfWorkflow(qint32 workflow) const
    {
        return layout().slotOf(state.store()->workflows.requestRow[size_t(workflow)]);
    }
    // Shows `ms` of workflow time on each lane's own axis, [0, widthMs).
    void alignedWindow(double widthMs)
    {
        state.setTimeAxis(TimeAxis::AlignedAtSend);
        state.setTimeWindow({0, qint64(widthMs * 1e6)});
    }
    int xAt(double ms) const
    {
        const TimeWindow window = state.timeWindow();
        return int(std::lround((ms * 1e6 - double(window.begin)) / double(window.duration()) * canvas()->width()));
    }
    // Pixel rows in the middle of the path band and of the off-path band.
    int pathY(qint64 slot) const
    {
        const auto bands = LaneRaster::laneBands(canvas()->laneWindow(), canvas()->height(), slot);
        return bands.top + bands.pathHeight / 3;
    }
    int offPathY(qint64 slot) const
    {
        const auto bands = LaneRaster::laneBands(canvas()->laneWindow(), canvas()->height(), slot);
        return bands.top + bands.pathHeight + (bands.height - bands.pathHeight) / 2;
    }
};

// CIELAB (D65) of an sRGB colour seen through a colour-vision deficiency
// (Machado, Oliveira & Fernandes 2009, full severity, linear RGB).
using Matrix3 = std::array<std::array<double, 3>, 3>;

std::array<double, 3> labSeenWith(QColor colour, const Matrix3 &deficiency)
{
    auto linear = [](int c) {
        const double v = c / 255.0;
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    const std::array<double, 3> rgb = {linear(colour.red()), linear(colour.green()), linear(colour.blue())};
    std::array<double, 3> seen{};
    for (int i = 0; i < 3; ++i)
        seen[size_t(i)] = std::clamp(deficiency[size_t(i)][0] * rgb[0] + deficiency[size_t(i)][1] * rgb[1]
                                         + deficiency[size_t(i)][2] * rgb[2],
                                     0.0, 1.0);
    const double x = (0.4124 * seen[0] + 0.3576 * seen[1] + 0.1805 * seen[2]) / 0.95047;
    const double y = 0.2126 * seen[0] + 0.7152 * seen[1] + 0.0722 * seen[2];
    const double z = (0.0193 * seen[0] + 0.1192 * seen[1] + 0.9505 * seen[2]) / 1.08883;
    auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
    return {116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))};
}

// `count` copies of the constructed parallel-branch workflow, one every
// 50 ms, as OTLP JSON Lines in `dir`.
QString writeManyWorkflows(const QTemporaryDir &dir, int count)
{
    const QString path = dir.filePath(QStringLiteral("many.jsonl"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    const auto span = [](int trace, int id, int parent, const char *name, const char *operation, qint64 startMs,
                         qint64 endMs, qint64 base) {
        return QStringLiteral("{\"traceId\":\"%1\",\"spanId\":\"%2\",\"parentSpanId\":\"%3\",\"name\":\"%4\","
                              "\"startTimeUnixNano\":\"%5\",\"endTimeUnixNano\":\"%6\",\"attributes\":[{\"key\":"
                              "\"gen_ai.operation.name\",\"value\":{\"stringValue\":\"%7\"}}]}")
            .arg(QStringLiteral("%1").arg(trace + 1, 32, 16, QLatin1Char('0')),
                 QStringLiteral("%1").arg(trace * 8 + id, 16, 16, QLatin1Char('0')),
                 parent < 0 ? QString() : QStringLiteral("%1").arg(trace * 8 + parent, 16, 16, QLatin1Char('0')),
                 QLatin1String(name), QString::number(base + startMs * kMs), QString::number(base + endMs * kMs),
                 QLatin1String(operation));
    };
    for (int t = 0; t < count; ++t) {
        const qint64 base = 1'700'000'000'000'000'000LL + qint64(t) * 50 * kMs;
        const QStringList spans = {
            span(t, 1, -1, "plan", "invoke_agent", 0, 1000, base),
            span(t, 2, 1, "search", "execute_tool", 0, 800, base),
            span(t, 3, 1, "lookup", "retrieval", 0, 500, base),
            span(t, 4, 3, "embed", "embeddings", 100, 300, base),
        };
        file.write(QStringLiteral("{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[%1]}]}]}\n")
                       .arg(spans.join(QLatin1Char(',')))
                       .toUtf8());
    }
    return path;
}

} // namespace

Q_DECLARE_METATYPE(Matrix3)
Q_DECLARE_METATYPE(WorkKind)

class tst_WorkflowSwimlanes : public QObject
{
    Q_OBJECT
private slots:
    void adviserPathColours_data();
    void adviserPathColours();
    void adviserOffPathIsFaint();
    void constructedWorkflows_data();
    void constructedWorkflows();
    void legendListsKinds();
    void legendForMixedContent();
    void legendKeepsItsKindsThroughALiveRefresh();
    void tooltipNamesTheSpanAndWhetherCritical();
    void labelBesideTheLane();
    void groupedAndOnTheTraceClock();
    void aggregateShowsTheDominantKind();
    void manyWorkflowLanesRenderOffTheGuiThread();
    void aFrameThatWouldWaitForThePoolRendersOffTheGuiThread();
    void exceedanceStepScrollsAndTints();
    void kindColoursSurviveColourBlindness_data();
    void kindColoursSurviveColourBlindness();
    void microsecondTracesOpenFramed_data();
    void microsecondTracesOpenFramed();
};

void tst_WorkflowSwimlanes::adviserPathColours_data()
{
    QTest::addColumn<double>("ms");
    QTest::addColumn<WorkKind>("kind");
    // The seed's governed adviser response: inbound 0-70, gateway 70-115,
    // policy retrieval 115-545, prompt assembly 545-570, first call queue
    // 570-1180, prefill -1465, first token -1550, 18 tokens -1946, tool
    // -2706, second call 640 ms to its first token, then decode to 5986.
    QTest::newRow("inbound transit") << 35.0 << WorkKind::Network;
    QTest::newRow("gateway and policy") << 92.0 << WorkKind::Gateway;
    QTest::newRow("policy retrieval") << 330.0 << WorkKind::Retrieval;
    QTest::newRow("prompt assembly") << 557.0 << WorkKind::Preparation;
    QTest::newRow("first call: queue") << 875.0 << WorkKind::Queue;
    QTest::newRow("first call: prefill") << 1320.0 << WorkKind::Prefill;
    QTest::newRow("first call: first token") << 1508.0 << WorkKind::FirstToken;
    QTest::newRow("first call: decode") << 1750.0 << WorkKind::Decode;
    QTest::newRow("calculation tool") << 2330.0 << WorkKind::Tool;
    QTest::newRow("second call before its first token") << 3020.0 << WorkKind::ModelCall;
    QTest::newRow("second call: decode") << 4700.0 << WorkKind::Decode;
}

void tst_WorkflowSwimlanes::adviserPathColours()
{
    QFETCH(double, ms);
    QFETCH(WorkKind, kind);
    Fixture f(adviser());
    f.alignedWindow(6000.0);
    const QImage frame = f.canvas()->renderFrame();
    const QRgb pixel = frame.pixel(f.xAt(ms), f.pathY(0));
    QVERIFY2(sameColour(pixel, WorkKindColors::of(kind)),
             qPrintable(QStringLiteral("at %1 ms: %2, want %3").arg(ms).arg(describe(pixel), workKindLabel(kind))));
}

void tst_WorkflowSwimlanes::adviserOffPathIsFaint()
{
    Fixture f(adviser());
    f.alignedWindow(6000.0);
    const QImage frame = f.canvas()->renderFrame();
    const QColor base = f.canvas()->palette().color(QPalette::Base);
    // Account retrieval runs 115-395 ms beside policy retrieval, off the path.
    const QColor faint = WorkKindColors::faint(WorkKind::Retrieval, base);
    QVERIFY(!sameColour(faint.rgb(), WorkKindColors::of(WorkKind::Retrieval)));
    QVERIFY(sameColour(frame.pixel(f.xAt(250.0), f.offPathY(0)), faint));
    // Beneath the rest of the path nothing runs off it.
    for (const double ms : {50.0, 450.0, 1100.0, 2300.0, 5100.0})
        QVERIFY2(sameColour(frame.pixel(f.xAt(ms), f.offPathY(0)), base), qPrintable(QString::number(ms)));
    // The path band above it keeps the strong colour.
    QVERIFY(sameColour(frame.pixel(f.xAt(250.0), f.pathY(0)), WorkKindColors::of(WorkKind::Retrieval)));
}

void tst_WorkflowSwimlanes::constructedWorkflows_data()
{
    QTest::addColumn<int>("workflow");
    QTest::addColumn<double>("ms");
    QTest::addColumn<WorkKind>("path");
    QTest::addColumn<int>("offPath"); // a WorkKind, or -1 for none
    // plan (agent) 0-1000: search (tool) 0-800 on the path, lookup
    // (retrieval) 0-500 with embed (embeddings) 100-300 beside it.
    QTest::newRow("tool, retrieval beside") << 0 << 50.0 << WorkKind::Tool << int(WorkKind::Retrieval);
    QTest::newRow("tool, embeddings beside") << 0 << 200.0 << WorkKind::Tool << int(WorkKind::Embeddings);
    QTest::newRow("tool, retrieval again") << 0 << 400.0 << WorkKind::Tool << int(WorkKind::Retrieval);
    QTest::newRow("tool alone") << 0 << 650.0 << WorkKind::Tool << -1;
    QTest::newRow("agent's own time") << 0 << 900.0 << WorkKind::Coordination << -1;
    // generate: vLLM latencies only (queue 100 ms, prefill 200 ms, first
    // token at 350 ms, e2e 1000 ms).
    QTest::newRow("vLLM queue") << 1 << 50.0 << WorkKind::Queue << -1;
    QTest::newRow("vLLM prefill") << 1 << 230.0 << WorkKind::Prefill << -1;
    QTest::newRow("vLLM first token") << 1 << 325.0 << WorkKind::FirstToken << -1;
    QTest::newRow("vLLM decode") << 1 << 700.0 << WorkKind::Decode << -1;
}

void tst_WorkflowSwimlanes::constructedWorkflows()
{
    QFETCH(int, workflow);
    QFETCH(double, ms);
    QFETCH(WorkKind, path);
    QFETCH(int, offPath);
    Fixture f(constructed());
    QCOMPARE(f.lanes().laneCount(), 2);
    f.alignedWindow(1000.0);
    const QImage frame = f.canvas()->renderFrame();
    const qint64 slot = f.slotOfWorkflow(workflow);
    const QRgb onPath = frame.pixel(f.xAt(ms), f.pathY(slot));
    QVERIFY2(sameColour(onPath, WorkKindColors::of(path)),
             qPrintable(QStringLiteral("%1, want %2").arg(describe(onPath), workKindLabel(path))));
    const QColor base = f.canvas()->palette().color(QPalette::Base);
    const QColor beneath = offPath < 0 ? base : WorkKindColors::faint(WorkKind(offPath), base);
    QVERIFY2(sameColour(frame.pixel(f.xAt(ms), f.offPathY(slot)), beneath),
             qPrintable(QColor(frame.pixel(f.xAt(ms), f.offPathY(slot))).name()));
}

void tst_WorkflowSwimlanes::legendListsKinds()
{
    Fixture f(adviser());
    const QString html = f.view.legend()->text();
    // Every kind on the adviser's lanes after a swatch of its colour.
    const std::array shown
        = {WorkKind::Queue, WorkKind::Prefill,   WorkKind::FirstToken, WorkKind::Decode,  WorkKind::ModelCall,
           WorkKind::Tool,  WorkKind::Retrieval, WorkKind::Network,    WorkKind::Gateway, WorkKind::Preparation};
    for (const WorkKind kind : shown) {
        QVERIFY2(html.contains(QStringLiteral("color:%1; font-size:large'>\u25a0</span>&nbsp;%2")
                                   .arg(WorkKindColors::of(kind).name(), workKindLabel(kind).toHtmlEscaped())),
                 qPrintable(workKindLabel(kind)));
    }
    QCOMPARE(html.count(QStringLiteral("\u25a0")), int(shown.size()));
    // No request phase: a span trace has none of them.
    QVERIFY(!html.contains(QStringLiteral("Residual (not observed)")));
    QVERIFY(!html.contains(phaseLabel(Phase::NetworkToFirst)));
    QVERIFY(html.contains(QStringLiteral("off the critical path")));
    // A flat trace gets the phases back.
    QSignalSpy ready(&f.view, &SwimlaneView::layoutReady);
    f.state.setStore(load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/three-requests.jsonl")));
    QVERIFY(ready.wait(10'000));
    QCOMPARE(f.view.legend()->text().count(QStringLiteral("\u25a0")), kPhaseCount + 1);
    QVERIFY(!f.view.legend()->text().contains(workKindLabel(WorkKind::Tool)));
    QVERIFY(!f.canvas()->workflowLanes());
}

void tst_WorkflowSwimlanes::legendForMixedContent()
{
    PhaseLegend::Content content;
    content.phases = true;
    content.kinds[size_t(WorkKind::Tool)] = true;
    content.kinds[size_t(WorkKind::Decode)] = true;
    const QString html = PhaseLegend::html(QPalette(), content);
    QCOMPARE(html.count(QStringLiteral("\u25a0")), kPhaseCount + 1 + 2);
    QVERIFY(html.contains(QStringLiteral("Residual (not observed)")));
    QVERIFY(html.contains(workKindLabel(WorkKind::Tool)));
    QVERIFY(html.indexOf(phaseLabel(Phase::Stream)) < html.indexOf(workKindLabel(WorkKind::Decode)));
    content.kinds = {};
    content.kindsPending = true;
    QVERIFY(PhaseLegend::html(QPalette(), content).contains(QStringLiteral("critical path\u2026")));
}

// A live refresh recomputes the lanes of the grown capture; meanwhile the
// legend keeps listing the kinds instead of saying "finding…" for a moment
// (that changed its height twice a refresh: the window relaid out and the
// lanes were drawn again at another size). A trace opened anew says it.
void tst_WorkflowSwimlanes::legendKeepsItsKindsThroughALiveRefresh()
{
    Fixture f(adviser());
    const PhaseLegend::Content before = f.view.legend()->content();
    QVERIFY(before.anyKind());
    const int height = f.view.legend()->heightForWidth(f.view.legend()->width());
    f.state.refreshStore(adviser());
    QVERIFY(!f.canvas()->workflowLanes()); // the old lanes indexed the old store
    QCOMPARE(f.view.legend()->content(), before);
    QVERIFY(!f.view.legend()->text().contains(QStringLiteral("critical path\u2026")));
    QCOMPARE(f.view.legend()->heightForWidth(f.view.legend()->width()), height);
    QTRY_VERIFY_WITH_TIMEOUT(f.canvas()->workflowLanes() && !f.view.isLayingOut(), 20'000);
    QCOMPARE(f.view.legend()->content(), before);

    f.state.setStore(adviser()); // not a refresh
    QVERIFY(f.view.legend()->content().kindsPending);
    QVERIFY(!f.view.legend()->content().anyKind());
    QVERIFY(f.view.legend()->text().contains(QStringLiteral("critical path\u2026")));
    QTRY_VERIFY_WITH_TIMEOUT(f.canvas()->workflowLanes() && !f.view.isLayingOut(), 20'000);
    QCOMPARE(f.view.legend()->content(), before);
}

void tst_WorkflowSwimlanes::tooltipNamesTheSpanAndWhetherCritical()
{
    Fixture f(adviser());
    f.alignedWindow(6000.0);
    const QString onPath = f.canvas()->toolTipAt(QPoint(f.xAt(250.0), f.pathY(0)));
    QVERIFY2(onPath.contains(QStringLiteral("<b>policy retrieval</b>")), qPrintable(onPath));
    QVERIFY(onPath.contains(QStringLiteral("<b>on the critical path</b> from 115.0 ms \u2013 545.0 ms")));
    QVERIFY(onPath.contains(QStringLiteral("beneath, off the path:")));
    QVERIFY(onPath.contains(QStringLiteral("account retrieval")));
    const QString offPath = f.canvas()->toolTipAt(QPoint(f.xAt(250.0), f.offPathY(0)));
    QVERIFY2(offPath.startsWith(QStringLiteral("<span style='color:%1'>\u25a0</span> <b>account retrieval</b>")
                                    .arg(WorkKindColors::of(WorkKind::Retrieval).name())),
             qPrintable(offPath));
    QVERIFY(offPath.contains(QStringLiteral("<b>off the critical path</b> (slack 150.0 ms)")));
    QVERIFY(offPath.contains(QStringLiteral("critical path here:")));
    const QString model = f.canvas()->toolTipAt(QPoint(f.xAt(900.0), f.pathY(0)));
    QVERIFY(model.contains(QStringLiteral("<b>model call: tool proposal</b> \u2014 Model: queue")));
    QVERIFY(model.contains(QStringLiteral("Double-click")));
}

void tst_WorkflowSwimlanes::labelBesideTheLane()
{
    // Room to the right of the lane's end: its name and trace id go there.
    Fixture f(adviser());
    f.alignedWindow(12'000.0);
    const QImage frame = f.canvas()->renderFrame();
    const QColor text = f.canvas()->palette().color(QPalette::Text);
    const QColor base = f.canvas()->palette().color(QPalette::Base);
    const auto bands = LaneRaster::laneBands(f.canvas()->laneWindow(), f.canvas()->height(), 0);
    const int centre = bands.top + bands.height / 2;
    int inked = 0;
    for (int x = f.xAt(5986.0) + 2; x < f.xAt(5986.0) + 200; ++x) {
        for (int y = centre - 8; y <= centre + 8; ++y) {
            const QColor pixel = frame.pixelColor(x, y);
            if (qAbs(pixel.lightness() - text.lightness()) < qAbs(pixel.lightness() - base.lightness()))
                ++inked;
        }
    }
    QVERIFY2(inked > 40, qPrintable(QString::number(inked)));
    // Further right, the lane's row is empty again.
    for (int y = centre - 8; y <= centre + 8; ++y)
        QCOMPARE(frame.pixelColor(f.canvas()->width() - 3, y), base);
}

// Grouped by workflow type, and on the trace's own clock (absolute time),
// every lane still shows its critical path by kind (issue 18: ordering,
// grouping, time axis aligned or absolute as for requests).
void tst_WorkflowSwimlanes::groupedAndOnTheTraceClock()
{
    Fixture f(constructed());
    LaneOrder order;
    order.groupBy = QStringLiteral("workflow_type");
    QSignalSpy ready(&f.view, &SwimlaneView::layoutReady);
    f.view.setLaneOrder(order);
    QVERIFY(!ready.isEmpty() || ready.wait(10'000));
    QStringList groups;
    for (const auto &group : f.layout().groups())
        groups << group.label;
    QCOMPARE(groups, (QStringList{QStringLiteral("generate"), QStringLiteral("plan")}));
    QCOMPARE(f.layout().slotCount(), 4); // a header and a lane each
    QVERIFY(f.layout().isHeader(0) && f.layout().isHeader(2));
    QCOMPARE(f.slotOfWorkflow(1), 1);
    QCOMPARE(f.slotOfWorkflow(0), 3);
    f.canvas()->setLaneWindow({0.0, 4.0});
    // Aligned at each workflow's start.
    f.alignedWindow(1000.0);
    QImage frame = f.canvas()->renderFrame();
    QVERIFY(sameColour(frame.pixel(f.xAt(50.0), f.pathY(3)), WorkKindColors::of(WorkKind::Tool)));
    QVERIFY(sameColour(frame.pixel(f.xAt(700.0), f.pathY(1)), WorkKindColors::of(WorkKind::Decode)));
    // On the trace's clock (epoch ns): generate runs 2,000-3,000 ms after plan began.
    f.state.setTimeAxis(TimeAxis::Absolute);
    const qint64 planStart = f.lanes().origin(f.lanes().laneOfRow(f.state.store()->workflows.requestRow[0]));
    f.state.setTimeWindow({planStart, planStart + 4000 * kMs});
    const auto x = [&f](double ms) { return int(std::lround(ms / 4000.0 * f.canvas()->width())); };
    frame = f.canvas()->renderFrame();
    QVERIFY(sameColour(frame.pixel(x(50.0), f.pathY(3)), WorkKindColors::of(WorkKind::Tool)));
    QVERIFY(sameColour(frame.pixel(x(900.0), f.pathY(3)), WorkKindColors::of(WorkKind::Coordination)));
    QVERIFY(sameColour(frame.pixel(x(2050.0), f.pathY(1)), WorkKindColors::of(WorkKind::Queue)));
    QVERIFY(sameColour(frame.pixel(x(2700.0), f.pathY(1)), WorkKindColors::of(WorkKind::Decode)));
    // Before generate starts, and after plan ends, their lanes are empty
    // (the background, or a faint grid line).
    QVERIFY(frame.pixelColor(x(1500.0), f.pathY(1)).lightness() > 230);
    QVERIFY(frame.pixelColor(x(1500.0), f.pathY(3)).lightness() > 230);
}

void tst_WorkflowSwimlanes::aggregateShowsTheDominantKind()
{
    QTemporaryDir dir;
    Fixture f(load(writeManyWorkflows(dir, 600)), QSize(800, 200));
    QCOMPARE(f.lanes().laneCount(), 600);
    QVERIFY(!f.canvas()->showsSingleLanes());
    f.alignedWindow(1000.0);
    const QImage frame = f.canvas()->renderFrame();
    // Every lane has the tool on its path until 800 ms, then the agent's own
    // time: each pixel row shows that kind at full strength.
    for (const int y : {5, 100, 195}) {
        QVERIFY(sameColour(frame.pixel(f.xAt(400.0), y), WorkKindColors::of(WorkKind::Tool)));
        QVERIFY(sameColour(frame.pixel(f.xAt(900.0), y), WorkKindColors::of(WorkKind::Coordination)));
    }
    // The overview below stacks the same kinds over the whole trace.
    QVERIFY(f.canvas()->workflowLanes()->pathTotals()[size_t(WorkKind::Tool)] == 600 * 800 * kMs);
}

// Issue 18, scale: a workflow lane costs ~16x a request lane, so from 4,000
// workflow lanes (not 100,000 as for requests) an aggregated frame is built
// on a worker while the GUI thread shows the previous one scaled. At 100,000
// workflows the GUI thread spent ~390 ms a frame (bench_workflowlanes).
void tst_WorkflowSwimlanes::manyWorkflowLanesRenderOffTheGuiThread()
{
    QTemporaryDir dir;
    Fixture f(load(writeManyWorkflows(dir, 5000)), QSize(800, 300));
    QCOMPARE(f.lanes().laneCount(), 5000);
    f.canvas()->setLaneWindow({0.0, 5000.0});
    QVERIFY(!f.canvas()->showsSingleLanes());
    QTRY_VERIFY(!f.canvas()->isRenderingFrame());
    QSignalSpy ready(f.canvas(), &SwimlaneCanvas::frameReady);
    const TimeWindow window = f.state.timeWindow();
    f.state.setTimeWindow({window.begin, window.end - window.duration() / 10});
    f.canvas()->repaint();
    QVERIFY(f.canvas()->isRenderingFrame() || !ready.isEmpty());
    QVERIFY(!ready.isEmpty() || ready.wait(20'000));
    // Six hundred lanes are still drawn at once, on the GUI thread.
    Fixture small(load(writeManyWorkflows(dir, 600)), QSize(800, 200));
    QSignalSpy smallReady(small.canvas(), &SwimlaneCanvas::frameReady);
    const TimeWindow smallWindow = small.state.timeWindow();
    small.state.setTimeWindow({smallWindow.begin, smallWindow.end - smallWindow.duration() / 10});
    small.canvas()->repaint();
    QVERIFY(!small.canvas()->isRenderingFrame());
    QVERIFY(smallReady.isEmpty());
}

// Issue 15, the live window under load: a frame of few lanes (under the
// 4,000 above) from a layout of 20,000 slots or more splits its pixel rows
// across the background pool, and the GUI thread waited for the pool's
// busy, lower-priority threads (up to 100 ms a frame while a live session
// refreshed). Such a frame is built on a worker too.
void tst_WorkflowSwimlanes::aFrameThatWouldWaitForThePoolRendersOffTheGuiThread()
{
    QTemporaryDir dir;
    Fixture f(load(writeManyWorkflows(dir, 21000)), QSize(800, 300));
    QVERIFY(f.layout().slotCount() >= 20000);
    f.canvas()->setLaneWindow({0.0, 3000.0});
    QVERIFY(!f.canvas()->showsSingleLanes());
    QTRY_VERIFY_WITH_TIMEOUT(!f.canvas()->isRenderingFrame(), 20'000);
    QSignalSpy ready(f.canvas(), &SwimlaneCanvas::frameReady);
    const TimeWindow window = f.state.timeWindow();
    f.state.setTimeWindow({window.begin, window.end - window.duration() / 10});
    f.canvas()->repaint();
    QVERIFY(f.canvas()->isRenderingFrame() || !ready.isEmpty());
    QVERIFY(!ready.isEmpty() || ready.wait(20'000));
}

void tst_WorkflowSwimlanes::exceedanceStepScrollsAndTints()
{
    QTemporaryDir dir;
    Fixture f(load(writeManyWorkflows(dir, 200)));
    f.canvas()->setLaneWindow({0.0, 10.0});
    const qint32 row = f.state.store()->workflows.requestRow[150];
    ExceedanceMarks marks;
    marks.metric = Metric::E2e;
    marks.members = RowSet::fromRows({row});
    f.state.setExceedance(marks);
    f.state.setExceedanceCursor(row);
    const qint64 slot = f.layout().slotOf(row);
    const auto lanes = f.canvas()->laneWindow();
    QVERIFY(double(slot) >= lanes.first && double(slot) + 1.0 <= lanes.first + lanes.count);
    QVERIFY(f.canvas()->showsSingleLanes());
    // The member's lane: the cursor's mark in the gutter.
    const QImage shown = f.canvas()->grab().toImage();
    const int y = f.pathY(slot);
    QVERIFY(sameColour(shown.pixel(3, y), SwimlaneColors::fromPalette(f.canvas()->palette()).exceedance));
}

void tst_WorkflowSwimlanes::kindColoursSurviveColourBlindness_data()
{
    QTest::addColumn<Matrix3>("deficiency");
    QTest::newRow("normal vision") << Matrix3{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    QTest::newRow("protanopia") << Matrix3{
        {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}};
    QTest::newRow("deuteranopia") << Matrix3{
        {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}};
    QTest::newRow("tritanopia") << Matrix3{
        {{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}};
}

void tst_WorkflowSwimlanes::kindColoursSurviveColourBlindness()
{
    // Every pair of the fourteen kinds, and each kind against the light and
    // the dark lane background, stays at least 12 CIELAB units apart (2.3 is
    // a just-noticeable difference).
    QFETCH(Matrix3, deficiency);
    std::vector<std::pair<QString, QColor>> colours;
    for (int k = 0; k < kWorkKindCount; ++k)
        colours.emplace_back(workKindLabel(WorkKind(k)), WorkKindColors::of(WorkKind(k)));
    colours.emplace_back(QStringLiteral("light background"), QColor(Qt::white));
    colours.emplace_back(QStringLiteral("dark background"), QColor(0x1F, 0x21, 0x24));
    for (size_t a = 0; a < colours.size(); ++a) {
        for (size_t b = a + 1; b < colours.size(); ++b) {
            if (a >= size_t(kWorkKindCount))
                continue; // the two backgrounds are never side by side
            const auto la = labSeenWith(colours[a].second, deficiency);
            const auto lb = labSeenWith(colours[b].second, deficiency);
            const double distance = std::hypot(la[0] - lb[0], la[1] - lb[1], la[2] - lb[2]);
            QVERIFY2(
                distance >= 12.0,
                qPrintable(
                    QStringLiteral("%1 vs %2: %3").arg(colours[a].first, colours[b].first).arg(distance, 0, 'f', 1)));
        }
    }
}

// Issue 18, first view: Jaeger/OTel captures whose spans last a few µs
// opened on a 2 ms window (a fixed 1 ms margin each side), the workflows a
// hairline in its middle and the ruler in ms. The window now frames the
// spans with a margin relative to them, on both axes, and the ruler reads µs.
void tst_WorkflowSwimlanes::microsecondTracesOpenFramed_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<qint64>("extentNs");
    QTest::newRow("jaeger otel_traces_01: two 5 us workflows")
        << TestData::realdata(QStringLiteral("jaeger/otel_traces_01.json")) << qint64(5'000);
    QTest::newRow("jaeger-ui otlp2jaeger-in: one 123 us workflow")
        << TestData::realdata(QStringLiteral("jaeger-ui/otlp2jaeger-in.json")) << qint64(123'000);
}

void tst_WorkflowSwimlanes::microsecondTracesOpenFramed()
{
    QFETCH(QString, file);
    QFETCH(qint64, extentNs);
    Fixture f(load(file));
    const TraceStore &store = *f.state.store();
    qint64 begin = std::numeric_limits<qint64>::max();
    qint64 end = std::numeric_limits<qint64>::min();
    for (qint32 row = 0; row < qint32(store.spans.rowCount()); ++row) {
        begin = std::min(begin, store.spans.start(row));
        end = std::max(end, store.spans.end(row));
    }
    QCOMPARE(end - begin, extentNs);
    for (const TimeAxis axis : {TimeAxis::Absolute, TimeAxis::AlignedAtSend}) {
        f.state.setTimeAxis(axis);
        const TimeWindow window = f.state.timeWindow();
        const qint64 dataBegin = axis == TimeAxis::Absolute ? begin : 0;
        const qint64 dataEnd = dataBegin + extentNs;
        QVERIFY2(window.begin <= dataBegin && window.end >= dataEnd, qPrintable(QString::number(window.begin)));
        // The spans fill at least 80% of the window (a 5 us trace had 0.25%).
        QVERIFY2(double(extentNs) >= 0.8 * double(window.duration()),
                 qPrintable(QStringLiteral("window %1 ns for %2 ns of spans").arg(window.duration()).arg(extentNs)));
        const TimeRuler *ruler = f.view.ruler();
        QVERIFY2(ruler->axisTitle().endsWith(QStringLiteral("(\u00b5s)")), qPrintable(ruler->axisTitle()));
        const QStringList labels = ruler->tickLabels();
        QVERIFY2(labels.size() >= 3, qPrintable(labels.join(QLatin1Char(' '))));
        QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), labels.size());
        // Ticks on the data in µs: from about 0 to about the extent.
        bool ok = false;
        const double last = labels.last().toDouble(&ok);
        QVERIFY(ok);
        QVERIFY2(last <= double(extentNs) / 1e3 * 1.1 && last >= double(extentNs) / 1e3 * 0.6,
                 qPrintable(labels.join(QLatin1Char(' '))));
        // The first lane is coloured across the middle of the view, not blank.
        f.canvas()->setLaneWindow({0.0, double(f.layout().slotCount())});
        const QImage frame = f.canvas()->renderFrame();
        const int x = f.canvas()->width() / 2;
        QVERIFY2(frame.pixelColor(x, f.pathY(0)).lightness() < 200, qPrintable(frame.pixelColor(x, f.pathY(0)).name()));
    }
}

QTEST_MAIN(tst_WorkflowSwimlanes)
#include "tst_workflowswimlanes.moc"
