#include "OverviewStrip.h"
#include "PhaseColors.h"
#include "PhaseLegend.h"
#include "RequestText.h"
#include "SwimlaneCanvas.h"
#include "SwimlaneColors.h"
#include "SwimlaneView.h"
#include "TimeRuler.h"
#include "ViewState.h"
#include "analysis/lanes/LaneLayout.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"
#include "support/TestData.h"

#include <QFontMetrics>
#include <QGuiApplication>
#include <QLayout>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>

namespace {

constexpr qint64 kMs = 1'000'000;

std::shared_ptr<TraceStore> load(const QString &name)
{
    return TraceFileLoader::load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/") + name, {}).store;
}

// Small jobs may finish before their continuation is attached, and then
// apply at once: only wait when the signal has not come yet.
void waitFor(QSignalSpy &spy)
{
    if (spy.isEmpty())
        QVERIFY(spy.wait(10'000));
}

// A window with a swimlane view on `store`, laid out and shown.
struct Fixture
{
    ViewState state;
    SwimlaneView view{&state};

    explicit Fixture(std::shared_ptr<TraceStore> store, QSize canvasSize = QSize(816, 300))
    {
        view.resize(canvasSize.width() + 40, canvasSize.height() + 260);
        view.show();
        QSignalSpy ready(&view, &SwimlaneView::layoutReady);
        state.setStore(std::move(store));
        waitFor(ready);
        canvas()->setFixedSize(canvasSize);
        view.layout()->activate();
    }
    SwimlaneCanvas *canvas() const { return view.canvas(); }
    const LaneLayout &layout() const { return *canvas()->laneLayout(); }
    QStringList laneIds() const
    {
        QStringList ids;
        for (qint64 slot = 0; slot < layout().slotCount(); ++slot)
            ids.append(layout().isHeader(slot) ? QStringLiteral("#") : state.requests()->idText(layout().rowAt(slot)));
        return ids;
    }
    // Centre of lane `slot` at time `ms` in widget coordinates.
    QPoint pointAt(qint64 slot, double ms) const
    {
        const auto lanes = canvas()->laneWindow();
        const double y = (double(slot) + 0.5 - lanes.first) / lanes.count * canvas()->height();
        const TimeWindow window = state.timeWindow();
        const double x = double(qint64(ms * 1e6) - window.begin) / double(window.duration()) * canvas()->width();
        return QPoint(int(x), int(y));
    }
    void relayout(const LaneOrder &order)
    {
        QSignalSpy ready(&view, &SwimlaneView::layoutReady);
        view.setLaneOrder(order);
        waitFor(ready);
    }
};

// CIELAB (D65) of an sRGB colour seen through a colour-vision deficiency:
// Machado, Oliveira & Fernandes (2009) matrices at full severity, applied in
// linear RGB.
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

bool sameColour(QRgb a, QColor b)
{
    return qAbs(qRed(a) - b.red()) <= 2 && qAbs(qGreen(a) - b.green()) <= 2 && qAbs(qBlue(a) - b.blue()) <= 2;
}

} // namespace

Q_DECLARE_METATYPE(Matrix3)

class tst_SwimlaneView : public QObject
{
    Q_OBJECT
private slots:
    void laneCountAndArrivalOrder_data();
    void laneCountAndArrivalOrder();
    void orderAndGroup();
    void sliceLimitsLanes();
    void fitsTheTraceOnLoad();
    void zoomAndPan();
    void liveRefreshKeepsTheZoom();
    void keyboardNavigation();
    void rubberBandZoom();
    void laneZoomRevealsSingleLanes();
    void phaseColoursWhereThePhasesAre_data();
    void phaseColoursWhereThePhasesAre();
    void residualIsGreyNotAPhase();
    void legendNamesEveryPhase();
    void coloursSurviveColourBlindness_data();
    void coloursSurviveColourBlindness();
    void overviewMovesTheWindow();
    void tooltipText();
    void tooltipFacts();
    void clickSelectsAndPropagates();
    void aggregateClickSelectsTheRow();
    void doubleClickActivates();
    void overlayDoesNotInvalidateTheCache();
    void alignedAxis();
    void lanesNameTheirRequestWhereThereIsRoom();
    void rulerLabels();
};

void tst_SwimlaneView::laneCountAndArrivalOrder_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("lanes");
    QTest::addColumn<QString>("first");
    QTest::addColumn<QString>("last");
    QTest::newRow("burst") << QStringLiteral("burst.jsonl") << 10 << QStringLiteral("burst-01")
                           << QStringLiteral("burst-10");
    QTest::newRow("multiclass") << QStringLiteral("multiclass.jsonl") << 240 << QStringLiteral("mc-0001")
                                << QStringLiteral("mc-0240");
    QTest::newRow("three requests") << QStringLiteral("three-requests.jsonl") << 3 << QStringLiteral("r-a")
                                    << QStringLiteral("r-c");
}

void tst_SwimlaneView::laneCountAndArrivalOrder()
{
    QFETCH(QString, file);
    QFETCH(int, lanes);
    QFETCH(QString, first);
    QFETCH(QString, last);
    Fixture f(load(file));
    QCOMPARE(f.layout().slotCount(), lanes);
    QCOMPARE(f.laneIds().first(), first);
    QCOMPARE(f.laneIds().last(), last);
}

void tst_SwimlaneView::orderAndGroup()
{
    Fixture f(load(QStringLiteral("three-requests.jsonl")));
    LaneOrder order;
    order.key = LaneOrder::Key::Metric;
    order.metric = Metric::Ttft;
    f.relayout(order);
    QCOMPARE(f.laneIds(), (QStringList{QStringLiteral("r-c"), QStringLiteral("r-b"), QStringLiteral("r-a")}));
    order.groupBy = QStringLiteral("region");
    f.relayout(order);
    QCOMPARE(f.laneIds(),
             (QStringList{QStringLiteral("#"), QStringLiteral("r-c"), QStringLiteral("r-a"), QStringLiteral("#"),
                          QStringLiteral("r-b")}));
    // Header slots are drawn as header bands across the whole width.
    {
        f.canvas()->fitAll();
        const QImage frame = f.canvas()->renderFrame();
        const QColor header = QColor(SwimlaneColors::fromPalette(f.canvas()->palette()).headerBackground);
        for (const qint64 slot : {qint64(0), qint64(3)}) {
            for (const double ms : {2500.0, 3900.0}) // right of the label
                QVERIFY2(sameColour(frame.pixel(f.pointAt(slot, ms)), header), qPrintable(QString::number(slot)));
        }
        QVERIFY(!sameColour(frame.pixel(f.pointAt(1, 2500.0)), header));
        QCOMPARE(f.layout().groups()[size_t(f.layout().groupAt(0))].label, QStringLiteral("eu"));
        QCOMPARE(f.layout().groups()[size_t(f.layout().groupAt(3))].label, QStringLiteral("us"));
    }
    // Ordering by TTFT follows the boundary: at the engine boundary r-b's
    // prefill (600 ms) makes it the slowest.
    QSignalSpy ready(&f.view, &SwimlaneView::layoutReady);
    order.groupBy.clear();
    f.relayout(order);
    ready.clear();
    f.state.setBoundary(Boundary::Engine);
    waitFor(ready);
    QCOMPARE(f.laneIds(), (QStringList{QStringLiteral("r-c"), QStringLiteral("r-a"), QStringLiteral("r-b")}));
}

void tst_SwimlaneView::sliceLimitsLanes()
{
    Fixture f(load(QStringLiteral("burst.jsonl")));
    QSignalSpy ready(&f.view, &SwimlaneView::layoutReady);
    f.state.setSlice(RowSet::fromRows({1, 3}), QStringLiteral("two of them"));
    waitFor(ready);
    QCOMPARE(f.laneIds(), (QStringList{QStringLiteral("burst-02"), QStringLiteral("burst-04")}));
    ready.clear();
    f.state.clearSlice();
    waitFor(ready);
    QCOMPARE(f.layout().slotCount(), 10);
}

void tst_SwimlaneView::fitsTheTraceOnLoad()
{
    Fixture f(load(QStringLiteral("three-requests.jsonl")));
    // 0..4000 ms plus a 2% margin each side.
    QCOMPARE(f.state.timeWindow(), (TimeWindow{-80 * kMs, 4080 * kMs}));
    QCOMPARE(f.canvas()->laneWindow(), (SwimlaneCoordinates::LaneWindow{0.0, 3.0}));
    QVERIFY(f.canvas()->showsSingleLanes());
}

void tst_SwimlaneView::zoomAndPan()
{
    Fixture f(load(QStringLiteral("three-requests.jsonl")));
    QSignalSpy windows(&f.state, &ViewState::timeWindowChanged);
    // Wheel up one notch at the middle: 0.8 x the span, centre kept.
    QWheelEvent wheel(QPointF(408, 150), f.canvas()->mapToGlobal(QPointF(408, 150)), QPoint(), QPoint(0, 120),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(f.canvas(), &wheel);
    QCOMPARE(f.state.timeWindow(), (TimeWindow{336 * kMs, 3664 * kMs}));
    QCOMPARE(windows.count(), 1);
    f.canvas()->zoomTime(0.5, 0.0); // anchored at the left edge
    QCOMPARE(f.state.timeWindow(), (TimeWindow{336 * kMs, 2000 * kMs}));
    // Drag 204 px to the left: a quarter of the width, so 416 ms later.
    QTest::mousePress(f.canvas(), Qt::LeftButton, Qt::NoModifier, QPoint(600, 150));
    QTest::mouseMove(f.canvas(), QPoint(396, 150));
    QTest::mouseRelease(f.canvas(), Qt::LeftButton, Qt::NoModifier, QPoint(396, 150));
    QCOMPARE(f.state.timeWindow(), (TimeWindow{752 * kMs, 2416 * kMs}));
    QVERIFY(f.state.selection().isEmpty()); // a drag is not a click
    // Panning stops at the end of the trace.
    f.canvas()->panTime(10.0);
    QCOMPARE(f.state.timeWindow(), (TimeWindow{2416 * kMs, 4080 * kMs}));
    // Nothing changes: no signal.
    const int before = windows.count();
    f.canvas()->panTime(1.0);
    QCOMPARE(windows.count(), before);
}

// A live capture grows 4 times a second: a view showing everything follows
// it; lanes and a time window the user zoomed into stay put.
void tst_SwimlaneView::liveRefreshKeepsTheZoom()
{
    QTemporaryDir dir;
    const QString part = dir.filePath(QStringLiteral("first.jsonl"));
    QVERIFY(TestData::firstLines(TestData::fixture(QStringLiteral("seed/multiclass.jsonl")), 120, part));
    const std::shared_ptr<TraceStore> first = TraceFileLoader::load(part, {}).store;
    const std::shared_ptr<TraceStore> whole = load(QStringLiteral("multiclass.jsonl"));
    Fixture f(first);
    const auto refresh = [&f](std::shared_ptr<TraceStore> store, bool rowsKept) {
        QSignalSpy ready(&f.view, &SwimlaneView::layoutReady);
        f.state.refreshStore(std::move(store), rowsKept);
        waitFor(ready);
    };
    QCOMPARE(f.canvas()->laneWindow(), (SwimlaneCoordinates::LaneWindow{0.0, 120.0}));
    const TimeWindow firstBounds = f.canvas()->timeBounds();
    QCOMPARE(f.state.timeWindow(), firstBounds);

    // Showing everything: the view widens to the grown capture.
    refresh(whole, true);
    QCOMPARE(f.canvas()->laneWindow(), (SwimlaneCoordinates::LaneWindow{0.0, 240.0}));
    QVERIFY(f.canvas()->timeBounds().end > firstBounds.end);
    QCOMPARE(f.state.timeWindow(), f.canvas()->timeBounds());

    // Zoomed in: the same lanes and time stay across refreshes.
    refresh(first, false);
    f.canvas()->setLaneWindow({10.0, 20.0});
    const TimeWindow zoomed{firstBounds.begin + firstBounds.duration() / 4,
                            firstBounds.begin + firstBounds.duration() / 2};
    f.state.setTimeWindow(zoomed);
    refresh(whole, true);
    QCOMPARE(f.canvas()->laneWindow(), (SwimlaneCoordinates::LaneWindow{10.0, 20.0}));
    QCOMPARE(f.state.timeWindow(), zoomed);

    // Another slice is another set of lanes: it starts over.
    QSignalSpy ready(&f.view, &SwimlaneView::layoutReady);
    f.state.setSlice(RowSet::fromRows({1, 2, 3, 4, 5}), QStringLiteral("five"));
    waitFor(ready);
    QCOMPARE(f.canvas()->laneWindow(), (SwimlaneCoordinates::LaneWindow{0.0, 5.0}));

    // A trace opened in its place starts over at the whole trace.
    ready.clear();
    f.state.clearSlice();
    waitFor(ready);
    ready.clear();
    f.state.setStore(load(QStringLiteral("three-requests.jsonl")));
    waitFor(ready);
    QCOMPARE(f.canvas()->laneWindow(), (SwimlaneCoordinates::LaneWindow{0.0, 3.0}));
    QCOMPARE(f.state.timeWindow(), (TimeWindow{-80 * kMs, 4080 * kMs}));
}

void tst_SwimlaneView::keyboardNavigation()
{
    Fixture f(load(QStringLiteral("three-requests.jsonl")));
    QTest::keyClick(f.canvas(), Qt::Key_Plus); // 0.7 x around the centre
    QCOMPARE(f.state.timeWindow(), (TimeWindow{544 * kMs, 3456 * kMs}));
    QTest::keyClick(f.canvas(), Qt::Key_Home);
    QCOMPARE(f.state.timeWindow(), (TimeWindow{-80 * kMs, 2832 * kMs}));
    QTest::keyClick(f.canvas(), Qt::Key_End);
    QCOMPARE(f.state.timeWindow(), (TimeWindow{1168 * kMs, 4080 * kMs}));
    QTest::keyClick(f.canvas(), Qt::Key_Left); // a tenth of the window
    QCOMPARE(f.state.timeWindow(), (TimeWindow{876'800'000, 3'788'800'000}));
    QTest::keyClick(f.canvas(), Qt::Key_Minus);
    QTest::keyClick(f.canvas(), Qt::Key_F);
    QCOMPARE(f.state.timeWindow(), (TimeWindow{-80 * kMs, 4080 * kMs}));
}

void tst_SwimlaneView::rubberBandZoom()
{
    Fixture f(load(QStringLiteral("three-requests.jsonl")));
    // Right-drag over the middle lane from x 204 to x 408 (1 s to 3 s + margin math).
    QTest::mousePress(f.canvas(), Qt::RightButton, Qt::NoModifier, QPoint(204, 110));
    QTest::mouseMove(f.canvas(), QPoint(407, 189));
    QTest::mouseRelease(f.canvas(), Qt::RightButton, Qt::NoModifier, QPoint(407, 189));
    QCOMPARE(f.state.timeWindow(), (TimeWindow{960 * kMs, 2000 * kMs}));
    // The band covered 0.8 lanes, but at least five lanes (here: all three) stay visible.
    QCOMPARE(f.canvas()->laneWindow(), (SwimlaneCoordinates::LaneWindow{0.0, 3.0}));
}

void tst_SwimlaneView::laneZoomRevealsSingleLanes()
{
    Fixture f(load(QStringLiteral("multiclass.jsonl")), QSize(816, 300));
    QVERIFY(!f.canvas()->showsSingleLanes()); // 240 lanes in 300 px
    f.canvas()->zoomLanes(0.25, 0.0);
    QCOMPARE(f.canvas()->laneWindow(), (SwimlaneCoordinates::LaneWindow{0.0, 60.0}));
    QVERIFY(f.canvas()->showsSingleLanes()); // 5 px per lane
    f.canvas()->scrollLanes(1000.0);
    QCOMPARE(f.canvas()->laneWindow().first, 180.0);
    QTest::keyClick(f.canvas(), Qt::Key_Home, Qt::ControlModifier);
    QCOMPARE(f.canvas()->laneWindow().first, 0.0);
    // Arrows step one lane, pages a screen less one lane.
    QTest::keyClick(f.canvas(), Qt::Key_Down);
    QCOMPARE(f.canvas()->laneWindow().first, 1.0);
    QTest::keyClick(f.canvas(), Qt::Key_PageDown);
    QCOMPARE(f.canvas()->laneWindow().first, 60.0);
    QTest::keyClick(f.canvas(), Qt::Key_Up);
    QCOMPARE(f.canvas()->laneWindow().first, 59.0);
    QTest::keyClick(f.canvas(), Qt::Key_End, Qt::ControlModifier);
    QCOMPARE(f.canvas()->laneWindow(), (SwimlaneCoordinates::LaneWindow{180.0, 60.0}));
    // Ctrl+Down zooms lanes out around the middle.
    QTest::keyClick(f.canvas(), Qt::Key_Down, Qt::ControlModifier);
    QVERIFY(f.canvas()->laneWindow().count > 60.0);
}

void tst_SwimlaneView::phaseColoursWhereThePhasesAre_data()
{
    QTest::addColumn<qint64>("slot");
    QTest::addColumn<double>("ms");
    QTest::addColumn<int>("phase"); // -1: background
    // r-a: queue 200-600, prefill 600-1000, stream 1200-2000 ms.
    QTest::newRow("r-a queue") << qint64(0) << 400.0 << int(Phase::Queue);
    QTest::newRow("r-a prefill") << qint64(0) << 800.0 << int(Phase::Prefill);
    QTest::newRow("r-a first decode") << qint64(0) << 1050.0 << int(Phase::FirstDecode);
    QTest::newRow("r-a stream") << qint64(0) << 1600.0 << int(Phase::Stream);
    QTest::newRow("r-a is over at 2.6 s") << qint64(0) << 2600.0 << -1;
    // r-b: prefill 1200-1800 ms; nothing before its send at 1000 ms.
    QTest::newRow("r-b before it was sent") << qint64(1) << 300.0 << -1;
    QTest::newRow("r-b network in") << qint64(1) << 1025.0 << int(Phase::NetworkIn);
    QTest::newRow("r-b prefill") << qint64(1) << 1500.0 << int(Phase::Prefill);
    // r-c: network in 2000-2200, network to first 2600-2800, stream 2800-4000.
    QTest::newRow("r-c network in") << qint64(2) << 2100.0 << int(Phase::NetworkIn);
    QTest::newRow("r-c network to first") << qint64(2) << 2700.0 << int(Phase::NetworkToFirst);
    QTest::newRow("r-c stream") << qint64(2) << 3700.0 << int(Phase::Stream);
}

void tst_SwimlaneView::phaseColoursWhereThePhasesAre()
{
    QFETCH(qint64, slot);
    QFETCH(double, ms);
    QFETCH(int, phase);
    Fixture f(load(QStringLiteral("three-requests.jsonl")));
    f.state.setTimeWindow({0, 4000 * kMs});
    const QImage frame = f.canvas()->renderFrame();
    const QPoint point = f.pointAt(slot, ms);
    const QRgb pixel = frame.pixel(point);
    if (phase < 0) {
        QCOMPARE(QColor(pixel), f.canvas()->palette().color(QPalette::Base));
    } else {
        const QColor expected = PhaseColors::of(static_cast<Phase>(phase));
        QVERIFY2(sameColour(pixel, expected),
                 qPrintable(QStringLiteral("at %1,%2: %3, want %4")
                                .arg(point.x())
                                .arg(point.y())
                                .arg(QColor(pixel).name(), expected.name())));
    }
}

void tst_SwimlaneView::residualIsGreyNotAPhase()
{
    auto store = std::make_shared<TraceStore>();
    RequestTable::Row row;
    row.id = "gap";
    row.outputTokens = 2;
    const std::array<qint64, kStampCount> stamps
        = {0, 100 * kMs, kNoTime, 300 * kMs, 400 * kMs, 500 * kMs, 600 * kMs, 700 * kMs};
    row.stamps = stamps;
    store->requests.appendRow(row);
    store->requests.finishRow();
    Fixture f(store);
    f.state.setTimeWindow({0, 700 * kMs});
    const QImage frame = f.canvas()->renderFrame();
    QVERIFY(sameColour(frame.pixel(f.pointAt(0, 50.0)), PhaseColors::of(Phase::NetworkIn)));
    QVERIFY(sameColour(frame.pixel(f.pointAt(0, 150.0)), PhaseColors::residual()));
    QVERIFY(sameColour(frame.pixel(f.pointAt(0, 250.0)), PhaseColors::residual()));
    QVERIFY(sameColour(frame.pixel(f.pointAt(0, 350.0)), PhaseColors::of(Phase::Prefill)));
}

void tst_SwimlaneView::legendNamesEveryPhase()
{
    Fixture f(load(QStringLiteral("three-requests.jsonl")));
    const auto *legend = f.view.findChild<PhaseLegend *>(QStringLiteral("phaseLegend"));
    QVERIFY(legend);
    QVERIFY(legend->isVisible());
    const QString html = legend->text();
    // Each phase's name right after a swatch in that phase's colour.
    for (const Phase phase : kAllPhases) {
        const QString entry = QStringLiteral("color:%1; font-size:large'>\u25a0</span>&nbsp;%2")
                                  .arg(PhaseColors::of(phase).name(), phaseLabel(phase).toHtmlEscaped());
        QVERIFY2(html.contains(entry), qPrintable(phaseLabel(phase)));
    }
    QVERIFY(html.contains(QStringLiteral("color:%1; font-size:large'>\u25a0</span>&nbsp;Residual (not observed)")
                              .arg(PhaseColors::residual().name())));
    QCOMPARE(html.count(QStringLiteral("\u25a0")), kPhaseCount + 1);
}

void tst_SwimlaneView::coloursSurviveColourBlindness_data()
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

void tst_SwimlaneView::coloursSurviveColourBlindness()
{
    // Every pair of the seven phase colours and the residual grey stays at
    // least 15 CIELAB units apart (2.3 is a just-noticeable difference).
    QFETCH(Matrix3, deficiency);
    std::vector<std::pair<QString, QColor>> categories;
    for (const Phase phase : kAllPhases)
        categories.emplace_back(phaseLabel(phase), PhaseColors::of(phase));
    categories.emplace_back(QStringLiteral("residual"), PhaseColors::residual());
    for (size_t a = 0; a < categories.size(); ++a) {
        for (size_t b = a + 1; b < categories.size(); ++b) {
            const auto la = labSeenWith(categories[a].second, deficiency);
            const auto lb = labSeenWith(categories[b].second, deficiency);
            const double distance = std::hypot(la[0] - lb[0], la[1] - lb[1], la[2] - lb[2]);
            QVERIFY2(distance >= 15.0,
                     qPrintable(QStringLiteral("%1 vs %2: %3")
                                    .arg(categories[a].first, categories[b].first)
                                    .arg(distance, 0, 'f', 1)));
        }
    }
}

void tst_SwimlaneView::overviewMovesTheWindow()
{
    Fixture f(load(QStringLiteral("three-requests.jsonl")));
    auto *overview = f.view.findChild<OverviewStrip *>(QStringLiteral("overviewStrip"));
    QVERIFY(overview);
    QVERIFY(overview->isVisible());
    f.state.setTimeWindow({0, 1000 * kMs});
    // The strip spans the whole trace (-80..4080 ms, as the fitted view).
    const QRect plot = overview->rect().adjusted(0, 2, 0, -2);
    auto xOf = [&](double ms) { return int(std::lround((ms + 80.0) / 4160.0 * plot.width())); };
    QSignalSpy windows(&f.state, &ViewState::timeWindowChanged);
    QTest::mouseClick(overview, Qt::LeftButton, Qt::NoModifier, QPoint(xOf(2500.0), plot.center().y()));
    QCOMPARE(windows.count(), 1);
    const TimeWindow moved = f.state.timeWindow();
    QCOMPARE(moved.duration(), 1000 * kMs); // a click moves, never zooms
    QVERIFY2(qAbs(moved.begin + moved.duration() / 2 - 2500 * kMs) <= 4160 * kMs / plot.width(),
             qPrintable(QString::number(moved.begin)));
    // Near the end it stops at the trace's end.
    QTest::mouseClick(overview, Qt::LeftButton, Qt::NoModifier, QPoint(plot.width() - 1, plot.center().y()));
    QCOMPARE(f.state.timeWindow(), (TimeWindow{3080 * kMs, 4080 * kMs}));
}

void tst_SwimlaneView::tooltipText()
{
    Fixture f(load(QStringLiteral("three-requests.jsonl")));
    const QString tip = f.canvas()->toolTipAt(f.pointAt(1, 1500.0));
    QVERIFY2(tip.contains(QStringLiteral("<b>r-b</b>")), qPrintable(tip));
    QVERIFY(tip.contains(QStringLiteral("region</td><td>&nbsp;&nbsp;us")));
    QVERIFY(tip.contains(QStringLiteral("Prefill</td><td>&nbsp;&nbsp;600.0 ms")));
    QVERIFY(tip.contains(QStringLiteral("TTFT (client)</td><td>&nbsp;&nbsp;900.0 ms")));
    QCOMPARE(f.canvas()->toolTipAt(QPoint(10, 400)), QString()); // below the lanes
}

void tst_SwimlaneView::tooltipFacts()
{
    const auto store = load(QStringLiteral("three-requests.jsonl"));
    const auto facts = RequestText::facts(store->requests, 0, Boundary::Client);
    QStringList lines;
    for (const auto &[label, value] : facts)
        lines.append(label + QStringLiteral(": ") + value);
    QCOMPARE(lines,
             (QStringList{
                 QStringLiteral("Request: r-a"),
                 QStringLiteral("region: eu"),
                 QStringLiteral("Tokens: 1,000 prompt \u2192 9 output"),
                 QStringLiteral("TTFT (client): 1200.0 ms"),
                 QStringLiteral("ITL: 100.00 ms/token"),
                 QStringLiteral("E2E: 2000.0 ms"),
                 QStringLiteral("Network in: 100.0 ms"),
                 QStringLiteral("Gateway: 100.0 ms"),
                 QStringLiteral("Queue: 400.0 ms"),
                 QStringLiteral("Prefill: 400.0 ms"),
                 QStringLiteral("First decode: 100.0 ms"),
                 QStringLiteral("Network to first token: 100.0 ms"),
                 QStringLiteral("Stream: 800.0 ms"),
             }));
    // At the server boundary TTFT runs from queue enter to the first server token.
    QCOMPARE(RequestText::facts(store->requests, 0, Boundary::Server)[3].second, QStringLiteral("900.0 ms"));
}

void tst_SwimlaneView::clickSelectsAndPropagates()
{
    Fixture f(load(QStringLiteral("three-requests.jsonl")));
    QSignalSpy selection(&f.state, &ViewState::selectionChanged);
    QSignalSpy current(&f.state, &ViewState::currentRowChanged);
    QTest::mouseClick(f.canvas(), Qt::LeftButton, Qt::NoModifier, f.pointAt(1, 1500.0));
    QCOMPARE(selection.count(), 1);
    QCOMPARE(f.state.selection(), RowSet::single(1));
    QCOMPARE(current.count(), 1);
    QCOMPARE(current.at(0).at(0).toInt(), 1);
    // Clicking the same request again changes nothing: no signal.
    QTest::mouseClick(f.canvas(), Qt::LeftButton, Qt::NoModifier, f.pointAt(1, 1700.0));
    QCOMPARE(selection.count(), 1);
    QCOMPARE(current.count(), 1);
    // Ctrl+click adds, Ctrl+click again removes.
    QTest::mouseClick(f.canvas(), Qt::LeftButton, Qt::ControlModifier, f.pointAt(2, 3000.0));
    QCOMPARE(f.state.selection(), RowSet::fromRows({1, 2}));
    QTest::mouseClick(f.canvas(), Qt::LeftButton, Qt::ControlModifier, f.pointAt(1, 1500.0));
    QCOMPARE(f.state.selection(), RowSet::single(2));
    QCOMPARE(selection.count(), 3);
    QTest::keyClick(f.canvas(), Qt::Key_Escape);
    QVERIFY(f.state.selection().isEmpty());
}

void tst_SwimlaneView::aggregateClickSelectsTheRow()
{
    Fixture f(load(QStringLiteral("multiclass.jsonl")), QSize(816, 120)); // 2 lanes per pixel row
    QVERIFY(!f.canvas()->showsSingleLanes());
    QTest::mouseClick(f.canvas(), Qt::LeftButton, Qt::NoModifier, QPoint(300, 10));
    QCOMPARE(f.state.selection().size(), 2);
    QCOMPARE(f.state.selection(), RowSet::fromRows({f.layout().rowAt(20), f.layout().rowAt(21)}));
}

void tst_SwimlaneView::doubleClickActivates()
{
    Fixture f(load(QStringLiteral("three-requests.jsonl")));
    QSignalSpy activated(&f.state, &ViewState::rowActivated);
    QTest::mouseDClick(f.canvas(), Qt::LeftButton, Qt::NoModifier, f.pointAt(2, 3000.0));
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toInt(), 2);
}

void tst_SwimlaneView::overlayDoesNotInvalidateTheCache()
{
    Fixture f(load(QStringLiteral("three-requests.jsonl")));
    const QImage before = f.canvas()->renderFrame();
    const int renders = f.canvas()->frameRenders();
    f.state.selectRow(1);
    f.state.setExceedance(
        {Metric::Ttft, Boundary::Client, 850.0, QStringLiteral("TTFT > 850 ms"), RowSet::fromRows({0, 1})});
    const QImage withOverlay = f.canvas()->grab().toImage();
    QCOMPARE(f.canvas()->frameRenders(), renders);
    QCOMPARE(f.canvas()->renderFrame(), before);
    // The overlay is there: exceedance marks in the gutter of lanes 0 and 1, not 2.
    const QColor exceedance = SwimlaneColors::fromPalette(f.canvas()->palette()).exceedance;
    QVERIFY(sameColour(withOverlay.pixel(1, 50), exceedance));
    QVERIFY(sameColour(withOverlay.pixel(1, 150), exceedance));
    QVERIFY(!sameColour(withOverlay.pixel(1, 250), exceedance));
    // A new time window does rebuild it.
    f.canvas()->zoomTime(0.5, 100.0);
    f.canvas()->renderFrame();
    QCOMPARE(f.canvas()->frameRenders(), renders + 1);
}

void tst_SwimlaneView::alignedAxis()
{
    Fixture f(load(QStringLiteral("three-requests.jsonl")));
    f.state.setTimeAxis(TimeAxis::AlignedAtSend);
    // Longest lane is 2 s; margin 40 ms.
    QCOMPARE(f.state.timeWindow(), (TimeWindow{-40 * kMs, 2040 * kMs}));
    f.state.setTimeWindow({0, 2000 * kMs});
    const QImage frame = f.canvas()->renderFrame();
    // All lanes start together: at 25 ms every lane is in network in.
    for (qint64 slot = 0; slot < 3; ++slot)
        QVERIFY(sameColour(frame.pixel(f.pointAt(slot, 25.0)), PhaseColors::of(Phase::NetworkIn)));
    // r-b (slot 1) is in prefill 200..800 ms after its send.
    QVERIFY(sameColour(frame.pixel(f.pointAt(1, 500.0)), PhaseColors::of(Phase::Prefill)));
    QCOMPARE(f.view.ruler()->axisTitle(), QStringLiteral("Time since each request's client send (s)"));
}

// Issue 9, 9: a lane tall enough for text carries its request id beside it,
// right of its end where there is room, else left of its start.
void tst_SwimlaneView::lanesNameTheirRequestWhereThereIsRoom()
{
    Fixture f(load(QStringLiteral("three-requests.jsonl")));
    f.state.setTimeWindow({0, 4000 * kMs});
    QCOMPARE(f.laneIds(), (QStringList{QStringLiteral("r-a"), QStringLiteral("r-b"), QStringLiteral("r-c")}));
    const QColor text = f.canvas()->palette().color(QPalette::Text);
    const QColor base = f.canvas()->palette().color(QPalette::Base);
    // The text-coloured columns of lane `slot` between two times: [first, last] x, or {-1, -1}.
    const auto inkedColumns = [&](const QImage &frame, qint64 slot, double fromMs, double toMs) {
        const int centre = f.pointAt(slot, fromMs).y();
        const double laneHeight = f.canvas()->height() / f.canvas()->laneWindow().count;
        const int half = std::clamp(int(laneHeight / 2.0) - 1, 0, 8);
        std::pair<int, int> columns{-1, -1};
        for (int x = std::max(0, f.pointAt(slot, fromMs).x()); x < std::min(frame.width(), f.pointAt(slot, toMs).x());
             ++x) {
            for (int y = centre - half; y <= centre + half; ++y) {
                const QColor pixel = frame.pixelColor(x, y);
                if (qAbs(pixel.lightness() - text.lightness()) < qAbs(pixel.lightness() - base.lightness()) / 2) {
                    columns = {columns.first < 0 ? x : columns.first, x};
                    break;
                }
            }
        }
        return columns;
    };
    QFont font = QGuiApplication::font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    const QFontMetrics metrics(font);
    const QImage frame = f.canvas()->renderFrame();
    // r-a (0-2,000 ms): after its end, as wide as its id.
    const auto [aFirst, aLast] = inkedColumns(frame, 0, 2001.0, 4000.0);
    QVERIFY2(aFirst >= f.pointAt(0, 2000.0).x() + 2 && aFirst <= f.pointAt(0, 2000.0).x() + 8,
             qPrintable(QString::number(aFirst)));
    QVERIFY2(qAbs((aLast - aFirst + 1) - metrics.horizontalAdvance(QStringLiteral("r-a"))) <= 3,
             qPrintable(QStringLiteral("%1 px of ink for 'r-a'").arg(aLast - aFirst + 1)));
    // r-c (2,000-4,000 ms) reaches the right edge: before its start.
    const auto [cFirst, cLast] = inkedColumns(frame, 2, 0.0, 1999.0);
    QVERIFY2(cLast >= f.pointAt(2, 2000.0).x() - 8 && cLast <= f.pointAt(2, 2000.0).x() - 2,
             qPrintable(QString::number(cLast)));
    QVERIFY(qAbs((cLast - cFirst + 1) - metrics.horizontalAdvance(QStringLiteral("r-c"))) <= 3);
    // Lanes thinner than a line of text carry no label.
    f.canvas()->setFixedSize(f.canvas()->width(), 3 * (metrics.height() - 4));
    f.view.layout()->activate();
    QVERIFY(f.canvas()->showsSingleLanes());
    const QImage thin = f.canvas()->renderFrame();
    QCOMPARE(thin.height(), 3 * (metrics.height() - 4));
    QCOMPARE(inkedColumns(thin, 0, 2001.0, 4000.0).first, -1);
}

void tst_SwimlaneView::rulerLabels()
{
    Fixture f(load(QStringLiteral("three-requests.jsonl")));
    f.state.setTimeWindow({0, 4000 * kMs});
    QCOMPARE(f.view.ruler()->axisTitle(), QStringLiteral("Trace time since the first request was sent (s)"));
    QCOMPARE(f.view.ruler()->tickLabels().first(), QStringLiteral("0.0"));
    QVERIFY(f.view.ruler()->tickLabels().contains(QStringLiteral("2.0")));
    f.state.setTimeWindow({1000 * kMs, 1001 * kMs});
    QCOMPARE(f.view.ruler()->axisTitle(), QStringLiteral("Trace time since the first request was sent (\u00b5s)"));
}

QTEST_MAIN(tst_SwimlaneView)
#include "tst_swimlaneview.moc"
