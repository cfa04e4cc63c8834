// The Exceedance dock on a constructed trace whose slow requests differ from
// the rest only in region (all ap-south) and in the queue phase: threshold,
// set, ranking, attribution, and stepping with N / P moving the highlighted
// lane in the swimlanes.

#include "ExceedancePanel.h"
#include "FeatureComparisonPlot.h"
#include "MemberComparisonModel.h"
#include "PhaseAttributionModel.h"
#include "SetComparisonModel.h"
#include "SetComparisonView.h"
#include "SwimlaneCanvas.h"
#include "SwimlaneColors.h"
#include "SwimlaneOverlay.h"
#include "SwimlaneView.h"
#include "ViewState.h"
#include "analysis/lanes/LaneLayout.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <qcustomplot.h>

namespace {

using Tester = QAbstractItemModelTester;

void waitFor(QSignalSpy &spy)
{
    if (spy.isEmpty())
        QVERIFY(spy.wait(10'000));
}

// One window: swimlanes, the exceedance panel and a text field, on region-queue.jsonl.
struct Fixture
{
    ViewState state;
    QWidget window;
    SwimlaneView *lanes = new SwimlaneView(&state, &window);
    ExceedancePanel *panel = new ExceedancePanel(&state, &window);
    QLineEdit *field = new QLineEdit(&window);
    Tester memberTester{panel->memberModel(), Tester::FailureReportingMode::QtTest};
    Tester attributeTester{panel->comparison()->attributeModel(), Tester::FailureReportingMode::QtTest};
    Tester phaseTester{panel->comparison()->phaseModel(), Tester::FailureReportingMode::QtTest};
    Tester attributionTester{panel->comparison()->attributionModel(), Tester::FailureReportingMode::QtTest};

    Fixture()
    {
        auto *layout = new QHBoxLayout(&window);
        layout->addWidget(lanes, 1);
        layout->addWidget(panel, 2);
        layout->addWidget(field);
        window.resize(1600, 700);
        window.show();
        if (!QTest::qWaitForWindowActive(&window))
            qFatal("the window did not become active");
        QSignalSpy ready(panel, &ExceedancePanel::analysisReady);
        QSignalSpy laid(lanes, &SwimlaneView::layoutReady);
        const LoadResult result
            = TraceFileLoader::load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/classes/region-queue.jsonl"), {});
        state.setStore(result.store);
        waitFor(ready);
        waitFor(laid);
        lanes->canvas()->setFocus();
    }
    QString currentId() const
    {
        return state.exceedanceCursor() < 0 ? QString() : state.requests()->idText(state.exceedanceCursor());
    }
    QString member(const QString &feature, int column) const
    {
        const auto *model = panel->memberModel();
        return model->index(model->rowOf(feature), column).data().toString();
    }
    // Colour in the cursor's gutter, at the middle of the lane of `row`.
    QColor gutterColour(qint32 row) const
    {
        SwimlaneCanvas *canvas = lanes->canvas();
        const qint64 slot = canvas->laneLayout()->slotOf(row);
        const auto shown = canvas->laneWindow();
        const double y = (double(slot) + 0.5 - shown.first) / shown.count * canvas->height();
        return canvas->grab().toImage().pixelColor(SwimlaneOverlay::kGutterWidth + 2, int(y));
    }
};

qint32 rowOf(const ViewState &state, const QString &id)
{
    for (qint32 row = 0; row < state.requestCount(); ++row) {
        if (state.requests()->idText(row) == id)
            return row;
    }
    return -1;
}

} // namespace

class tst_ExceedancePanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void thresholdAndSet();
    void rankingNamesRegionFirst_data();
    void rankingNamesRegionFirst();
    void attributionNamesQueue();
    void featureSideBySide();
    void stepWithKeys();
    void liveRefreshKeepsTheMemberInView();
    void keysDoNotStepWhileTyping();
    void clickingAMemberMakesItCurrent();
    void memberAgainstTheRest_data();
    void memberAgainstTheRest();
    void orderByArrival();
    void sliceWithoutMembersDropsTheCursor();
};

void tst_ExceedancePanel::thresholdAndSet()
{
    Fixture f;
    const ExceedanceMarks &marks = f.state.exceedance();
    QCOMPARE(marks.members.size(), 5);
    QCOMPARE(marks.thresholdMs, 128.8);
    QCOMPARE(marks.metric, Metric::Ttft);
    QCOMPARE(marks.boundary, Boundary::Client);
    QCOMPARE(f.panel->summaryLabel()->text(),
             QStringLiteral("Threshold: p95 of TTFT at the client boundary = <b>128.8 ms</b> \u00b7 set: <b>5</b> of "
                            "100 requests with TTFT (whole trace)"));
    QCOMPARE(f.panel->position(), -1);
    QCOMPARE(f.panel->positionLabel()->text(), QStringLiteral("Press N to step through the 5 slow requests."));
}

void tst_ExceedancePanel::rankingNamesRegionFirst_data()
{
    QTest::addColumn<bool>("phases");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("text");
    using C = SetComparisonModel::Column;
    QTest::newRow("attribute: region first") << false << int(C::Feature) << QStringLiteral("region");
    QTest::newRow("attribute: separation") << false << int(C::Separation) << QStringLiteral("0.800");
    QTest::newRow("attribute: method") << false << int(C::Method) << QStringLiteral("max share difference");
    QTest::newRow("attribute: shares") << false << int(C::SetVsRest)
                                       << QStringLiteral("ap-south: 100.0% of set vs 20.0% of rest");
    QTest::newRow("phase: queue first") << true << int(C::Feature) << QStringLiteral("Queue");
    QTest::newRow("phase: KS D") << true << int(C::Separation) << QStringLiteral("1.000");
    QTest::newRow("phase: medians") << true << int(C::SetVsRest) << QStringLiteral("median 520.0 ms vs 57.0 ms");
}

void tst_ExceedancePanel::rankingNamesRegionFirst()
{
    QFETCH(bool, phases);
    QFETCH(int, column);
    QFETCH(QString, text);
    Fixture f;
    SetComparisonModel *model = phases ? f.panel->comparison()->phaseModel() : f.panel->comparison()->attributeModel();
    QCOMPARE(model->index(0, column).data().toString(), text);
}

void tst_ExceedancePanel::attributionNamesQueue()
{
    Fixture f;
    const PhaseAttributionModel *model = f.panel->comparison()->attributionModel();
    using C = PhaseAttributionModel::Column;
    QCOMPARE(model->rowCount(), 8); // six TTFT phases, residual, total
    QCOMPARE(model->index(model->totalRow(), C::SetMean).data().toString(), QStringLiteral("525.0 ms"));
    QCOMPARE(model->index(model->totalRow(), C::RestMean).data().toString(), QStringLiteral("62.0 ms"));
    QCOMPARE(model->index(model->totalRow(), C::Difference).data().toString(), QStringLiteral("463.0 ms"));
    QCOMPARE(model->index(2, C::Phase_).data().toString(), QStringLiteral("Queue"));
    QCOMPARE(model->index(2, C::Difference).data().toString(), QStringLiteral("463.0 ms"));
    QCOMPARE(model->index(2, C::OfTotal).data().toString(), QStringLiteral("100.0%"));
    QCOMPARE(model->index(model->residualRow(), C::Difference).data().toString(), QStringLiteral("0.0 ms"));
    // The phase differences add up to the total exactly.
    double sum = 0.0;
    for (int row = 0; row < model->totalRow(); ++row)
        sum += model->index(row, C::Difference).data(PhaseAttributionModel::SortRole).toDouble();
    QCOMPARE(sum, model->index(model->totalRow(), C::Difference).data(PhaseAttributionModel::SortRole).toDouble());
    QVERIFY2(f.panel->comparison()->suspectLabel()->text().startsWith(
                 QStringLiteral("<b>Suspected phase: Queue</b> (463.0 ms of the 463.0 ms excess)<br>Next test: ")),
             qPrintable(f.panel->comparison()->suspectLabel()->text()));
}

void tst_ExceedancePanel::featureSideBySide()
{
    Fixture f;
    SetComparisonView *comparison = f.panel->comparison();
    FeatureComparisonPlot *plot = comparison->featurePlot();
    // The strongest separator first: region, share of each value.
    QCOMPARE(plot->title(), QStringLiteral("region: share of each value"));
    QCOMPARE(plot->setBars()->name(), QStringLiteral("set (n = 5)"));
    QCOMPARE(plot->restBars()->name(), QStringLiteral("rest (n = 95)"));
    QCOMPARE(plot->setBars()->data()->at(0)->mainValue(), 100.0); // ap-south in the set
    QCOMPARE(plot->restBars()->data()->at(0)->mainValue(), 20.0); // ap-south in the rest
    // Picking the queue phase draws both distributions over the same 20 bins.
    comparison->phaseView()->selectRow(0);
    QCOMPARE(plot->title(), QStringLiteral("Queue: distribution over the same bins"));
    QCOMPARE(plot->setBars()->name(), QStringLiteral("set (n = 5, median 520.0 ms)"));
    QCOMPARE(plot->restBars()->name(), QStringLiteral("rest (n = 95, median 57.0 ms)"));
    QCOMPARE(plot->setBars()->data()->size(), 20);
    QCOMPARE(plot->restBars()->data()->size(), 20);
    double setTotal = 0.0;
    for (auto it = plot->setBars()->data()->constBegin(); it != plot->setBars()->data()->constEnd(); ++it)
        setTotal += it->mainValue();
    QCOMPARE(setTotal, 100.0);
    QVERIFY(!comparison->attributeView()->selectionModel()->hasSelection());
}

void tst_ExceedancePanel::stepWithKeys()
{
    Fixture f;
    SwimlaneCanvas *canvas = f.lanes->canvas();
    canvas->setLaneWindow({0.0, 10.0}); // lanes 0-9: none of the members is on screen
    const QColor marked = SwimlaneColors::fromPalette(canvas->palette()).exceedance;
    const qint32 r031 = rowOf(f.state, QStringLiteral("r-031"));
    QVERIFY(f.gutterColour(0) != marked);
    QSignalSpy shown(f.panel, &ExceedancePanel::memberShown);
    QSignalSpy cursor(&f.state, &ViewState::exceedanceCursorChanged);

    QTest::keyClick(canvas, Qt::Key_N);
    QCOMPARE(cursor.count(), 1);
    QCOMPARE(f.currentId(), QStringLiteral("r-031")); // slowest first
    QCOMPARE(f.state.currentRow(), r031);
    QCOMPARE(f.panel->position(), 0);
    QCOMPARE(shown.last().first().value<qsizetype>(), 0);
    QCOMPARE(f.panel->positionLabel()->text(), QStringLiteral("1 of 5: request r-031 \u00b7 TTFT 545.0 ms"));
    // Its lane was scrolled into view and is highlighted.
    const qint64 slot = canvas->laneLayout()->slotOf(r031);
    QVERIFY(double(slot) >= canvas->laneWindow().first);
    QVERIFY(double(slot) + 1.0 <= canvas->laneWindow().first + canvas->laneWindow().count);
    QCOMPARE(f.gutterColour(r031), marked);

    QTest::keyClick(canvas, Qt::Key_N);
    QCOMPARE(f.currentId(), QStringLiteral("r-071"));
    QCOMPARE(f.member(QStringLiteral("queue"), MemberComparisonModel::Value), QStringLiteral("530.0 ms"));
    QCOMPARE(f.gutterColour(rowOf(f.state, QStringLiteral("r-071"))), marked);
    // With every lane on screen, only the current member carries the wide mark.
    canvas->setLaneWindow({0.0, 100.0});
    QCOMPARE(f.gutterColour(rowOf(f.state, QStringLiteral("r-071"))), marked);
    QVERIFY(f.gutterColour(r031) != marked);

    QTest::keyClick(canvas, Qt::Key_P);
    QCOMPARE(f.currentId(), QStringLiteral("r-031"));
    QCOMPARE(f.member(QStringLiteral("queue"), MemberComparisonModel::Value), QStringLiteral("540.0 ms"));
    // Previous at the first member stays there: no signal.
    cursor.clear();
    QTest::keyClick(canvas, Qt::Key_P);
    QCOMPARE(cursor.count(), 0);
    QCOMPARE(f.panel->position(), 0);
}

// A live refresh (4 times a second) recomputes the set on the grown capture:
// the member being looked at is still the one shown afterwards.
void tst_ExceedancePanel::liveRefreshKeepsTheMemberInView()
{
    Fixture f;
    QTest::keyClick(f.lanes->canvas(), Qt::Key_N);
    QTest::keyClick(f.lanes->canvas(), Qt::Key_N);
    QCOMPARE(f.currentId(), QStringLiteral("r-071"));
    QCOMPARE(f.panel->position(), 1);
    // The same capture received again, as a new store (rows in the same order).
    const auto again
        = TraceFileLoader::load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/classes/region-queue.jsonl"), {}).store;
    QSignalSpy ready(f.panel, &ExceedancePanel::analysisReady);
    f.state.refreshStore(again, true);
    waitFor(ready);
    QCOMPARE(f.state.store(), std::shared_ptr<const TraceStore>(again));
    QCOMPARE(f.currentId(), QStringLiteral("r-071"));
    QCOMPARE(f.panel->position(), 1);
    QCOMPARE(f.state.currentRow(), rowOf(f.state, QStringLiteral("r-071")));
    QCOMPARE(f.member(QStringLiteral("queue"), MemberComparisonModel::Value), QStringLiteral("530.0 ms"));
    // A trace opened in its place starts with no member shown.
    ready.clear();
    f.state.setStore(
        TraceFileLoader::load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/classes/region-queue.jsonl"), {}).store);
    waitFor(ready);
    QCOMPARE(f.state.exceedanceCursor(), -1);
    QCOMPARE(f.panel->position(), -1);
}

void tst_ExceedancePanel::keysDoNotStepWhileTyping()
{
    Fixture f;
    f.field->setFocus();
    QSignalSpy cursor(&f.state, &ViewState::exceedanceCursorChanged);
    QTest::keyClicks(f.field, QStringLiteral("np"));
    QCOMPARE(f.field->text(), QStringLiteral("np"));
    QCOMPARE(cursor.count(), 0);
    // The buttons and the menu actions still work.
    f.panel->nextAction()->trigger();
    QCOMPARE(f.currentId(), QStringLiteral("r-031"));
}

void tst_ExceedancePanel::clickingAMemberMakesItCurrent()
{
    Fixture f;
    QSignalSpy shown(f.panel, &ExceedancePanel::memberShown);
    f.state.selectRow(rowOf(f.state, QStringLiteral("r-011"))); // a click on its lane
    QCOMPARE(f.currentId(), QStringLiteral("r-011"));
    QCOMPARE(f.panel->position(), 2); // third slowest
    QCOMPARE(shown.count(), 1);
    // N continues from there.
    f.panel->stepNext();
    QCOMPARE(f.currentId(), QStringLiteral("r-091"));
    // A request of the rest does not move the cursor.
    f.state.selectRow(rowOf(f.state, QStringLiteral("r-001")));
    QCOMPARE(f.currentId(), QStringLiteral("r-091"));
}

void tst_ExceedancePanel::memberAgainstTheRest_data()
{
    QTest::addColumn<QString>("feature");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("text");
    using C = MemberComparisonModel::Column;
    // r-031 against the 95 other requests, as `tracelane-cli exceed` prints it.
    QTest::newRow("ttft value") << QStringLiteral("ttft") << int(C::Value) << QStringLiteral("545.0 ms");
    QTest::newRow("ttft rest median") << QStringLiteral("ttft") << int(C::RestMedian) << QStringLiteral("62.0 ms");
    QTest::newRow("ttft rank") << QStringLiteral("ttft") << int(C::RankAmongRest) << QStringLiteral("100.0");
    QTest::newRow("itl value") << QStringLiteral("itl") << int(C::Value) << QStringLiteral("20.00 ms/token");
    QTest::newRow("queue value") << QStringLiteral("queue") << int(C::Value) << QStringLiteral("540.0 ms");
    QTest::newRow("queue rest median") << QStringLiteral("queue") << int(C::RestMedian) << QStringLiteral("57.0 ms");
    QTest::newRow("queue rank") << QStringLiteral("queue") << int(C::RankAmongRest) << QStringLiteral("100.0");
    QTest::newRow("prefill rank") << QStringLiteral("prefill") << int(C::RankAmongRest) << QStringLiteral("50.0");
    QTest::newRow("prompt tokens") << QStringLiteral("prompt_tokens") << int(C::Value) << QStringLiteral("512 tokens");
    QTest::newRow("region value") << QStringLiteral("region") << int(C::Value) << QStringLiteral("ap-south");
    QTest::newRow("region share") << QStringLiteral("region") << int(C::RankAmongRest)
                                  << QStringLiteral("20.0% of the rest share it");
}

void tst_ExceedancePanel::memberAgainstTheRest()
{
    QFETCH(QString, feature);
    QFETCH(int, column);
    QFETCH(QString, text);
    Fixture f;
    f.panel->stepNext();
    QVERIFY(f.panel->memberModel()->rowOf(feature) >= 0);
    QCOMPARE(f.member(feature, column), text);
}

void tst_ExceedancePanel::orderByArrival()
{
    Fixture f;
    f.panel->stepNext();
    QCOMPARE(f.currentId(), QStringLiteral("r-031"));
    QSignalSpy ready(f.panel, &ExceedancePanel::analysisReady);
    f.panel->setOrder(ExceedanceOrder::Arrival);
    waitFor(ready);
    // The same member stays current, now second by arrival (r-011, r-031, r-051, r-071, r-091).
    QCOMPARE(f.currentId(), QStringLiteral("r-031"));
    QCOMPARE(f.panel->position(), 1);
    f.panel->stepNext();
    QCOMPARE(f.currentId(), QStringLiteral("r-051"));
}

void tst_ExceedancePanel::sliceWithoutMembersDropsTheCursor()
{
    Fixture f;
    f.panel->stepNext();
    QVERIFY(f.state.exceedanceCursor() >= 0);
    std::vector<qint32> rows;
    for (qint32 row = 0; row < 10; ++row)
        rows.push_back(row); // r-001 .. r-010: none of the slow ones
    QSignalSpy ready(f.panel, &ExceedancePanel::analysisReady);
    f.state.setSlice(RowSet::fromSortedUnique(rows), QStringLiteral("first ten"));
    waitFor(ready);
    QCOMPARE(f.state.exceedanceCursor(), -1);
    QCOMPARE(f.panel->position(), -1);
    QCOMPARE(f.state.exceedance().members.size(), 1); // the slowest of ten above their p95
    QVERIFY(f.panel->summaryLabel()->text().endsWith(QStringLiteral("(filter: first ten)")));
}

QTEST_MAIN(tst_ExceedancePanel)
#include "tst_exceedancepanel.moc"
