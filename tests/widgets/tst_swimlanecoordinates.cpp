#include "SwimlaneCoordinates.h"

#include <QTest>

using namespace SwimlaneCoordinates;

Q_DECLARE_METATYPE(TimeWindow)
Q_DECLARE_METATYPE(LaneWindow)

class tst_SwimlaneCoordinates : public QObject
{
    Q_OBJECT
private slots:
    void timeToX_data();
    void timeToX();
    void xToTime_data();
    void xToTime();
    void roundTripKeepsEpochPrecision();
    void clampWindow_data();
    void clampWindow();
    void zoomAround_data();
    void zoomAround();
    void panBy_data();
    void panBy();
    void bringIntoView_data();
    void bringIntoView();
    void lanes_data();
    void lanes();
    void lanesInPixelRow_data();
    void lanesInPixelRow();
    void zoomLanesAround_data();
    void zoomLanesAround();
    void unitForSpan_data();
    void unitForSpan();
    void tickStep_data();
    void tickStep();
    void firstTick_data();
    void firstTick();
    void formatTick_data();
    void formatTick();
    void formatDuration_data();
    void formatDuration();
};

void tst_SwimlaneCoordinates::timeToX_data()
{
    QTest::addColumn<qint64>("t");
    QTest::addColumn<TimeWindow>("window");
    QTest::addColumn<double>("width");
    QTest::addColumn<double>("x");
    QTest::newRow("start is 0") << qint64(100) << TimeWindow{100, 300} << 400.0 << 0.0;
    QTest::newRow("end is width") << qint64(300) << TimeWindow{100, 300} << 400.0 << 400.0;
    QTest::newRow("middle") << qint64(200) << TimeWindow{100, 300} << 400.0 << 200.0;
    QTest::newRow("left of window, unclamped") << qint64(50) << TimeWindow{100, 300} << 400.0 << -100.0;
    QTest::newRow("right of window, unclamped") << qint64(400) << TimeWindow{100, 300} << 400.0 << 600.0;
    QTest::newRow("empty window") << qint64(42) << TimeWindow{100, 100} << 400.0 << 0.0;
    QTest::newRow("epoch ns, 1 ms window")
        << qint64(1'700'000'000'000'500'000) << TimeWindow{1'700'000'000'000'000'000, 1'700'000'000'001'000'000}
        << 1000.0 << 500.0;
}

void tst_SwimlaneCoordinates::timeToX()
{
    QFETCH(qint64, t);
    QFETCH(TimeWindow, window);
    QFETCH(double, width);
    QFETCH(double, x);
    QCOMPARE(SwimlaneCoordinates::timeToX(t, window, width), x);
}

void tst_SwimlaneCoordinates::xToTime_data()
{
    QTest::addColumn<double>("x");
    QTest::addColumn<TimeWindow>("window");
    QTest::addColumn<double>("width");
    QTest::addColumn<qint64>("t");
    QTest::newRow("0 is start") << 0.0 << TimeWindow{100, 500} << 400.0 << qint64(100);
    QTest::newRow("width is end") << 400.0 << TimeWindow{100, 500} << 400.0 << qint64(500);
    QTest::newRow("quarter") << 100.0 << TimeWindow{100, 500} << 400.0 << qint64(200);
    QTest::newRow("rounds to nearest ns") << 1.0 << TimeWindow{0, 10} << 3.0 << qint64(3);
    QTest::newRow("zero width gives start") << 100.0 << TimeWindow{50, 200} << 0.0 << qint64(50);
    QTest::newRow("negative width gives start") << 100.0 << TimeWindow{50, 200} << -1.0 << qint64(50);
}

void tst_SwimlaneCoordinates::xToTime()
{
    QFETCH(double, x);
    QFETCH(TimeWindow, window);
    QFETCH(double, width);
    QFETCH(qint64, t);
    QCOMPARE(SwimlaneCoordinates::xToTime(x, window, width), t);
}

void tst_SwimlaneCoordinates::roundTripKeepsEpochPrecision()
{
    // A 10 µs window on an epoch clock: every ns must survive time -> x -> time.
    const TimeWindow window{1'700'000'000'123'000'000, 1'700'000'000'123'010'000};
    for (qint64 t = window.begin; t <= window.end; t += 997)
        QCOMPARE(SwimlaneCoordinates::xToTime(SwimlaneCoordinates::timeToX(t, window, 10'000.0), window, 10'000.0), t);
}

void tst_SwimlaneCoordinates::clampWindow_data()
{
    QTest::addColumn<TimeWindow>("window");
    QTest::addColumn<TimeWindow>("bounds");
    QTest::addColumn<qint64>("minDuration");
    QTest::addColumn<TimeWindow>("expected");
    QTest::newRow("inside stays") << TimeWindow{20, 40} << TimeWindow{0, 100} << qint64(1) << TimeWindow{20, 40};
    QTest::newRow("left edge moves in") << TimeWindow{-10, 10} << TimeWindow{0, 100} << qint64(1) << TimeWindow{0, 20};
    QTest::newRow("right edge moves in") << TimeWindow{95, 115} << TimeWindow{0, 100} << qint64(1)
                                         << TimeWindow{80, 100};
    QTest::newRow("too wide becomes bounds")
        << TimeWindow{-50, 250} << TimeWindow{0, 100} << qint64(1) << TimeWindow{0, 100};
    QTest::newRow("too narrow grows about centre")
        << TimeWindow{50, 52} << TimeWindow{0, 100} << qint64(10) << TimeWindow{46, 56};
    QTest::newRow("invalid bounds leave it") << TimeWindow{5, 7} << TimeWindow{} << qint64(10) << TimeWindow{5, 7};
}

void tst_SwimlaneCoordinates::clampWindow()
{
    QFETCH(TimeWindow, window);
    QFETCH(TimeWindow, bounds);
    QFETCH(qint64, minDuration);
    QFETCH(TimeWindow, expected);
    QCOMPARE(SwimlaneCoordinates::clampWindow(window, bounds, minDuration), expected);
}

void tst_SwimlaneCoordinates::zoomAround_data()
{
    QTest::addColumn<TimeWindow>("window");
    QTest::addColumn<qint64>("anchor");
    QTest::addColumn<double>("factor");
    QTest::addColumn<TimeWindow>("expected");
    const TimeWindow all{0, 1000};
    QTest::newRow("zoom in at centre") << all << qint64(500) << 0.5 << TimeWindow{250, 750};
    QTest::newRow("zoom in at left edge keeps it") << all << qint64(0) << 0.5 << TimeWindow{0, 500};
    QTest::newRow("zoom in at a quarter keeps the quarter") << all << qint64(250) << 0.5 << TimeWindow{125, 625};
    QTest::newRow("zoom out is clamped to bounds") << TimeWindow{400, 600} << qint64(500) << 10.0 << all;
    QTest::newRow("zoom out near the edge shifts in") << TimeWindow{0, 200} << qint64(100) << 2.0 << TimeWindow{0, 400};
    QTest::newRow("minimum duration holds") << TimeWindow{490, 510} << qint64(500) << 0.01 << TimeWindow{495, 505};
    QTest::newRow("factor 1 is a no-op") << TimeWindow{100, 300} << qint64(123) << 1.0 << TimeWindow{100, 300};
}

void tst_SwimlaneCoordinates::zoomAround()
{
    QFETCH(TimeWindow, window);
    QFETCH(qint64, anchor);
    QFETCH(double, factor);
    QFETCH(TimeWindow, expected);
    QCOMPARE(SwimlaneCoordinates::zoomAround(window, anchor, factor, TimeWindow{0, 1000}, 10), expected);
}

void tst_SwimlaneCoordinates::panBy_data()
{
    QTest::addColumn<TimeWindow>("window");
    QTest::addColumn<qint64>("delta");
    QTest::addColumn<TimeWindow>("expected");
    QTest::newRow("right") << TimeWindow{100, 200} << qint64(50) << TimeWindow{150, 250};
    QTest::newRow("left") << TimeWindow{100, 200} << qint64(-50) << TimeWindow{50, 150};
    QTest::newRow("stops at start") << TimeWindow{100, 200} << qint64(-500) << TimeWindow{0, 100};
    QTest::newRow("stops at end") << TimeWindow{800, 900} << qint64(500) << TimeWindow{900, 1000};
}

void tst_SwimlaneCoordinates::panBy()
{
    QFETCH(TimeWindow, window);
    QFETCH(qint64, delta);
    QFETCH(TimeWindow, expected);
    QCOMPARE(SwimlaneCoordinates::panBy(window, delta, TimeWindow{0, 1000}), expected);
}

void tst_SwimlaneCoordinates::bringIntoView_data()
{
    // Bounds [0, 1000], windows 100 long unless said otherwise, 5% margins.
    QTest::addColumn<TimeWindow>("window");
    QTest::addColumn<qint64>("begin");
    QTest::addColumn<qint64>("end");
    QTest::addColumn<TimeWindow>("expected");
    QTest::newRow("already inside") << TimeWindow{100, 200} << qint64(120) << qint64(180) << TimeWindow{100, 200};
    QTest::newRow("touching both edges") << TimeWindow{100, 200} << qint64(100) << qint64(200) << TimeWindow{100, 200};
    QTest::newRow("right of it: centred, same zoom")
        << TimeWindow{100, 200} << qint64(500) << qint64(540) << TimeWindow{470, 570};
    QTest::newRow("left of it: centred") << TimeWindow{500, 600} << qint64(100) << qint64(110) << TimeWindow{55, 155};
    QTest::newRow("half out: centred") << TimeWindow{100, 200} << qint64(180) << qint64(220) << TimeWindow{150, 250};
    QTest::newRow("fits only without margins: widened")
        << TimeWindow{100, 200} << qint64(300) << qint64(395) << TimeWindow{295, 400};
    QTest::newRow("longer than the window: widened")
        << TimeWindow{100, 200} << qint64(400) << qint64(800) << TimeWindow{380, 820};
    QTest::newRow("centring stops at the bounds")
        << TimeWindow{500, 600} << qint64(0) << qint64(20) << TimeWindow{0, 100};
    QTest::newRow("widening stops at the bounds")
        << TimeWindow{100, 200} << qint64(0) << qint64(990) << TimeWindow{0, 1000};
    QTest::newRow("reversed range: unchanged")
        << TimeWindow{100, 200} << qint64(600) << qint64(500) << TimeWindow{100, 200};
}

void tst_SwimlaneCoordinates::bringIntoView()
{
    QFETCH(TimeWindow, window);
    QFETCH(qint64, begin);
    QFETCH(qint64, end);
    QFETCH(TimeWindow, expected);
    QCOMPARE(SwimlaneCoordinates::bringIntoView(window, begin, end, TimeWindow{0, 1000}, 10), expected);
}

void tst_SwimlaneCoordinates::lanes_data()
{
    QTest::addColumn<double>("y");
    QTest::addColumn<LaneWindow>("window");
    QTest::addColumn<qint64>("laneCount");
    QTest::addColumn<qint64>("lane");
    // 10 lanes from lane 5 in 200 px: 20 px per lane.
    const LaneWindow tenFromFive{5.0, 10.0};
    QTest::newRow("top pixel is the first lane") << 0.0 << tenFromFive << qint64(20) << qint64(5);
    QTest::newRow("last pixel of the first lane") << 19.9 << tenFromFive << qint64(20) << qint64(5);
    QTest::newRow("second lane") << 20.0 << tenFromFive << qint64(20) << qint64(6);
    QTest::newRow("bottom pixel") << 199.0 << tenFromFive << qint64(20) << qint64(14);
    QTest::newRow("below the last lane") << 199.0 << LaneWindow{15.0, 10.0} << qint64(20) << qint64(-1);
    QTest::newRow("above the top") << -1.0 << LaneWindow{0.0, 10.0} << qint64(20) << qint64(-1);
    QTest::newRow("a million lanes, y = 100")
        << 100.0 << LaneWindow{0.0, 1'000'000.0} << qint64(1'000'000) << qint64(500'000);
}

void tst_SwimlaneCoordinates::lanes()
{
    QFETCH(double, y);
    QFETCH(LaneWindow, window);
    QFETCH(qint64, laneCount);
    QFETCH(qint64, lane);
    QCOMPARE(SwimlaneCoordinates::laneAt(y, window, 200.0, laneCount), lane);
    if (lane >= 0) {
        QVERIFY(SwimlaneCoordinates::laneToY(double(lane), window, 200.0) <= y);
        QVERIFY(SwimlaneCoordinates::laneToY(double(lane + 1), window, 200.0) > y);
    }
}

void tst_SwimlaneCoordinates::lanesInPixelRow_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<LaneWindow>("window");
    QTest::addColumn<double>("height");
    QTest::addColumn<qint64>("first");
    QTest::addColumn<qint64>("last");
    QTest::newRow("1000 lanes over 100 rows: row 0") << 0 << LaneWindow{0, 1000} << 100.0 << qint64(0) << qint64(10);
    QTest::newRow("1000 lanes over 100 rows: row 99")
        << 99 << LaneWindow{0, 1000} << 100.0 << qint64(990) << qint64(1000);
    QTest::newRow("3 lanes over 300 rows: row 150") << 150 << LaneWindow{0, 3} << 300.0 << qint64(1) << qint64(2);
    QTest::newRow("fractional window overlaps two lanes") << 0 << LaneWindow{0.5, 3} << 2.0 << qint64(0) << qint64(2);
    QTest::newRow("past the last lane is empty") << 10 << LaneWindow{995, 10} << 10.0 << qint64(1000) << qint64(1000);
}

void tst_SwimlaneCoordinates::lanesInPixelRow()
{
    QFETCH(int, row);
    QFETCH(LaneWindow, window);
    QFETCH(double, height);
    QFETCH(qint64, first);
    QFETCH(qint64, last);
    const auto range = SwimlaneCoordinates::lanesInPixelRow(row, window, height, 1000);
    QCOMPARE(range.first, first);
    QCOMPARE(range.second, last);
}

void tst_SwimlaneCoordinates::zoomLanesAround_data()
{
    QTest::addColumn<LaneWindow>("window");
    QTest::addColumn<double>("anchor");
    QTest::addColumn<double>("factor");
    QTest::addColumn<LaneWindow>("expected");
    QTest::newRow("zoom in at the middle") << LaneWindow{0, 100} << 50.0 << 0.5 << LaneWindow{25, 50};
    QTest::newRow("zoom in at the top") << LaneWindow{0, 100} << 0.0 << 0.1 << LaneWindow{0, 10};
    QTest::newRow("never fewer than the minimum") << LaneWindow{0, 10} << 5.0 << 0.01 << LaneWindow{2.5, 5};
    QTest::newRow("zoom out stops at all lanes") << LaneWindow{40, 20} << 50.0 << 100.0 << LaneWindow{0, 100};
}

void tst_SwimlaneCoordinates::zoomLanesAround()
{
    QFETCH(LaneWindow, window);
    QFETCH(double, anchor);
    QFETCH(double, factor);
    QFETCH(LaneWindow, expected);
    QCOMPARE(SwimlaneCoordinates::zoomLanesAround(window, anchor, factor, 100, 5.0), expected);
}

void tst_SwimlaneCoordinates::unitForSpan_data()
{
    QTest::addColumn<qint64>("span");
    QTest::addColumn<QString>("symbol");
    QTest::newRow("500 µs") << qint64(500'000) << QStringLiteral("\u00b5s");
    QTest::newRow("1.9 ms") << qint64(1'900'000) << QStringLiteral("\u00b5s");
    QTest::newRow("2 ms") << qint64(2'000'000) << QStringLiteral("ms");
    QTest::newRow("800 ms") << qint64(800'000'000) << QStringLiteral("ms");
    QTest::newRow("2 s") << qint64(2'000'000'000) << QStringLiteral("s");
    QTest::newRow("119 s") << qint64(119'000'000'000) << QStringLiteral("s");
    QTest::newRow("2 min") << qint64(120'000'000'000) << QStringLiteral("min");
    QTest::newRow("3 h") << qint64(10'800'000'000'000) << QStringLiteral("min");
}

void tst_SwimlaneCoordinates::unitForSpan()
{
    QFETCH(qint64, span);
    QFETCH(QString, symbol);
    QCOMPARE(SwimlaneCoordinates::unitForSpan(span).symbol, symbol);
}

void tst_SwimlaneCoordinates::tickStep_data()
{
    QTest::addColumn<qint64>("duration");
    QTest::addColumn<double>("width");
    QTest::addColumn<qint64>("step");
    // 90 px minimum spacing.
    QTest::newRow("1 s over 900 px: 100 ms") << qint64(1'000'000'000) << 900.0 << qint64(100'000'000);
    QTest::newRow("1 s over 800 px: 200 ms") << qint64(1'000'000'000) << 800.0 << qint64(200'000'000);
    QTest::newRow("1 s over 200 px: 500 ms") << qint64(1'000'000'000) << 200.0 << qint64(500'000'000);
    QTest::newRow("11 s over 816 px: 2 s") << qint64(11'000'000'000) << 816.0 << qint64(2'000'000'000);
    QTest::newRow("100 µs over 1000 px: 10 µs") << qint64(100'000) << 1000.0 << qint64(10'000);
    QTest::newRow("1 h over 1000 px: 10 min") << qint64(3'600'000'000'000) << 1000.0 << qint64(600'000'000'000);
    QTest::newRow("2 h over 400 px: 30 min") << qint64(7'200'000'000'000) << 400.0 << qint64(1'800'000'000'000);
    QTest::newRow("1 week over 200 px: 4 h multiples")
        << qint64(604'800'000'000'000) << 200.0 << qint64(273'600'000'000'000);
    QTest::newRow("degenerate width") << qint64(1000) << 0.0 << qint64(1);
}

void tst_SwimlaneCoordinates::tickStep()
{
    QFETCH(qint64, duration);
    QFETCH(double, width);
    QFETCH(qint64, step);
    QCOMPARE(SwimlaneCoordinates::tickStep(duration, width, 90.0), step);
}

void tst_SwimlaneCoordinates::firstTick_data()
{
    QTest::addColumn<qint64>("begin");
    QTest::addColumn<qint64>("origin");
    QTest::addColumn<qint64>("step");
    QTest::addColumn<qint64>("tick");
    QTest::newRow("on the grid") << qint64(200) << qint64(0) << qint64(100) << qint64(200);
    QTest::newRow("between ticks") << qint64(250) << qint64(0) << qint64(100) << qint64(300);
    QTest::newRow("before the origin") << qint64(-250) << qint64(0) << qint64(100) << qint64(-200);
    QTest::newRow("grid from an epoch origin")
        << qint64(1'700'000'000'050) << qint64(1'700'000'000'000) << qint64(100) << qint64(1'700'000'000'100);
}

void tst_SwimlaneCoordinates::firstTick()
{
    QFETCH(qint64, begin);
    QFETCH(qint64, origin);
    QFETCH(qint64, step);
    QFETCH(qint64, tick);
    QCOMPARE(SwimlaneCoordinates::firstTick(begin, origin, step), tick);
}

void tst_SwimlaneCoordinates::formatTick_data()
{
    QTest::addColumn<qint64>("value");
    QTest::addColumn<qint64>("step");
    QTest::addColumn<qint64>("span");
    QTest::addColumn<QString>("text");
    QTest::newRow("whole seconds") << qint64(4'000'000'000) << qint64(2'000'000'000) << qint64(11'000'000'000)
                                   << QStringLiteral("4");
    QTest::newRow("ms with a 200 ms step")
        << qint64(400'000'000) << qint64(200'000'000) << qint64(1'000'000'000) << QStringLiteral("400");
    QTest::newRow("seconds with a 500 ms step")
        << qint64(2'500'000'000) << qint64(500'000'000) << qint64(5'000'000'000) << QStringLiteral("2.5");
    QTest::newRow("µs with a 10 µs step")
        << qint64(30'000) << qint64(10'000) << qint64(100'000) << QStringLiteral("30");
    QTest::newRow("ms with a 50 µs step")
        << qint64(2'150'000) << qint64(50'000) << qint64(3'000'000) << QStringLiteral("2.15");
    QTest::newRow("minutes") << qint64(1'200'000'000'000) << qint64(600'000'000'000) << qint64(3'600'000'000'000)
                             << QStringLiteral("20");
    QTest::newRow("negative offset") << qint64(-500'000'000) << qint64(500'000'000) << qint64(5'000'000'000)
                                     << QStringLiteral("-0.5");
}

void tst_SwimlaneCoordinates::formatTick()
{
    QFETCH(qint64, value);
    QFETCH(qint64, step);
    QFETCH(qint64, span);
    QFETCH(QString, text);
    QCOMPARE(SwimlaneCoordinates::formatTick(value, step, SwimlaneCoordinates::unitForSpan(span)), text);
}

void tst_SwimlaneCoordinates::formatDuration_data()
{
    QTest::addColumn<qint64>("ns");
    QTest::addColumn<QString>("text");
    QTest::newRow("ns") << qint64(850) << QStringLiteral("850 ns");
    QTest::newRow("µs") << qint64(850'000) << QStringLiteral("850.0 \u00b5s");
    QTest::newRow("ms, two decimals below 10") << qint64(2'250'000) << QStringLiteral("2.25 ms");
    QTest::newRow("ms") << qint64(659'500'000) << QStringLiteral("659.5 ms");
    QTest::newRow("s") << qint64(11'130'000'000) << QStringLiteral("11.13 s");
    QTest::newRow("min") << qint64(5'400'000'000'000) << QStringLiteral("90.0 min");
}

void tst_SwimlaneCoordinates::formatDuration()
{
    QFETCH(qint64, ns);
    QFETCH(QString, text);
    QCOMPARE(SwimlaneCoordinates::formatDuration(ns), text);
}

QTEST_GUILESS_MAIN(tst_SwimlaneCoordinates)
#include "tst_swimlanecoordinates.moc"
