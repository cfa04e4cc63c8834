// The Compare dock on the before/after fixtures (tests/data/compare): the
// difference table as the CLI prints it, verdict colours and words, the
// banner, recomputing off the GUI thread when the percentile, SLO, classes
// or metric change, the CDF overlay of picked classes, the phase-shift bars
// and both sides' lanes on one aligned time axis.

#include "ComparePanel.h"
#include "ComparisonCdfPlot.h"
#include "ComparisonTableModel.h"
#include "ComparisonVerdictView.h"
#include "PathAttributionModel.h"
#include "PathAttributionView.h"
#include "PhaseColors.h"
#include "PhaseShiftBars.h"
#include "SwimlaneCanvas.h"
#include "SwimlaneView.h"
#include "ViewState.h"
#include "analysis/lanes/LaneLayout.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"
#include "support/PathFixtures.h"
#include "support/WorkflowPopulation.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

namespace {

std::shared_ptr<TraceStore> load(const QString &path)
{
    const LoadResult result = TraceFileLoader::load(path, {});
    if (!result.ok())
        qFatal("cannot load %s: %s", qPrintable(path), qPrintable(result.fatalError));
    return result.store;
}

// 40 agent workflows in sequence (retrieval, model call, tool, model call,
// 2 ms of the agent's own time before each); only the tool's time varies.
std::shared_ptr<TraceStore> agents(double toolMs)
{
    WorkflowPopulation population;
    for (int i = 0; i < 40; ++i)
        population.add(PathFixtures::agentWorkflow(i, 100.0, toolMs), i * 10'000.0);
    return population.store();
}

QString fixture(const QString &name)
{
    return QStringLiteral(TRACELANE_TEST_DATA_DIR "/compare/") + name;
}

void waitFor(QSignalSpy &spy)
{
    if (spy.isEmpty())
        QVERIFY(spy.wait(20'000));
}

struct Fixture
{
    ViewState state;
    ComparePanel panel{&state};
    QAbstractItemModelTester tester{panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest};

    Fixture()
    {
        panel.resize(1500, 700);
        QSignalSpy ready(&panel, &ComparePanel::comparisonReady);
        state.setStore(load(fixture(QStringLiteral("baseline.jsonl"))));
        state.setCandidate(load(fixture(QStringLiteral("candidate.jsonl"))), QStringLiteral("candidate.jsonl"));
        waitFor(ready);
    }
    QString text(int row, int column) const { return panel.model()->index(row, column).data().toString(); }
    int rowOf(const QString &label) const
    {
        for (int row = 0; row < panel.model()->rowCount(); ++row) {
            if (text(row, ComparisonTableModel::Class) == label)
                return row;
        }
        return -1;
    }
    // Changes a control and waits for the recomputed comparison.
    template<typename Change> void change(Change change)
    {
        QSignalSpy ready(&panel, &ComparePanel::comparisonReady);
        change();
        waitFor(ready);
    }
};

} // namespace

class tst_ComparePanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }
    void tableAsTheCliPrintsIt();
    void verdictColoursAndWords();
    void bannerSaysTheStopRule();
    void percentileChangeRecomputesOffTheGuiThread();
    void sloAndPrediction();
    void classesAndMetricChange();
    void pickedClassesDrawBothSides();
    void phaseShiftBars();
    void lanesOfBothSidesOnOneAxis();
    void whatCannotBeComparedIsSaid();
    void noCandidateYet();
    void sameFileNamesAreToldApart();
    void workflowsSplitTheDifferenceOverTheCriticalPath();
};

void tst_ComparePanel::tableAsTheCliPrintsIt()
{
    Fixture f;
    // `tracelane-cli compare baseline.jsonl candidate.jsonl --by region`
    QCOMPARE(f.panel.model()->rowCount(), 4);
    const int eu = f.rowOf(QStringLiteral("eu"));
    QVERIFY(eu >= 0);
    using C = ComparisonTableModel::Column;
    QCOMPARE(f.text(eu, C::BaselineN), QStringLiteral("200"));
    QCOMPARE(f.text(eu, C::BaselineValue), QStringLiteral("797.3 [752.8\u2013914.5]"));
    QCOMPARE(f.text(eu, C::CandidateValue), QStringLiteral("354.0 [321.4\u2013409.3]"));
    QCOMPARE(f.text(eu, C::Change), QStringLiteral("-443.2 [-527.7, -358.7]"));
    QCOMPARE(f.text(eu, C::ChangePercent), QStringLiteral("-55.6%"));
    QCOMPARE(f.text(eu, C::Detectable), QStringLiteral("\u00b184.5"));
    QCOMPARE(f.text(eu, C::BaselineMisses), QStringLiteral("10 (5.0%)"));
    QCOMPARE(f.text(eu, C::CandidateMisses), QStringLiteral("0 (0%)"));
    const int overall = f.panel.model()->overallRow();
    QCOMPARE(f.text(overall, C::Class), QStringLiteral("overall"));
    QCOMPARE(f.text(overall, C::Change), QStringLiteral("-294.6 [-361.2, -228.0]"));
    QCOMPARE(f.panel.model()->headerData(C::BaselineValue, Qt::Horizontal).toString(),
             QStringLiteral("p95 base (ms) [95% CI]"));
    QCOMPARE(f.panel.model()->headerData(C::Class, Qt::Horizontal).toString(), QStringLiteral("region"));
}

void tst_ComparePanel::verdictColoursAndWords()
{
    Fixture f;
    using C = ComparisonTableModel::Column;
    const int eu = f.rowOf(QStringLiteral("eu"));
    const int us = f.rowOf(QStringLiteral("us"));
    QCOMPARE(f.text(eu, C::Verdict), QStringLiteral("\u25bc improved"));
    QCOMPARE(f.text(us, C::Verdict), QStringLiteral("= no detectable change"));
    const auto colour
        = [&](int row) { return f.panel.model()->index(row, C::Verdict).data(Qt::BackgroundRole).value<QColor>(); };
    QCOMPARE(colour(eu), QColor(0x00, 0x9E, 0x73)); // Okabe–Ito bluish green
    QCOMPARE(colour(us), QColor(0x99, 0x99, 0x99));
    QCOMPARE(ComparisonTableModel::verdictColour(PercentileDifference::Verdict::Regressed), QColor(0xD5, 0x5E, 0x00));
    // The words are on screen, not only the colour: render the row and find the text.
    f.panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&f.panel));
    const QRect cell = f.panel.view()->visualRect(f.panel.model()->index(eu, C::Verdict));
    const QImage image = f.panel.view()->viewport()->grab(cell).toImage();
    int green = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            green += image.pixelColor(x, y) == QColor(0x00, 0x9E, 0x73) ? 1 : 0;
    }
    QVERIFY2(green > image.width() * image.height() / 3, qPrintable(QString::number(green)));
}

void tst_ComparePanel::bannerSaysTheStopRule()
{
    Fixture f;
    QVERIFY2(f.panel.bannerText().startsWith(QStringLiteral("\u2714 THE CHANGE WORKED \u2014 target p95 TTFT (client) "
                                                            "648.6 \u2192 354.0 ms")),
             qPrintable(f.panel.bannerText()));
    const QString words = f.panel.verdictView()->text();
    QVERIFY(words.contains(QStringLiteral("Stop rule: the change worked")));
    QVERIFY(words.contains(QStringLiteral("suspected phase queue (carries the baseline's tail above its p95)")));
    QVERIFY(words.contains(QStringLiteral("guardrail E2E p95 1829.6 \u2192 1708.7 ms")));
    QVERIFY(words.contains(QStringLiteral("Arrival rate: 10.25 req/s vs 10.17 req/s \u2014 ok")));
    QVERIFY(words.contains(QStringLiteral("Queue: 504.7 \u2192 213.2 ms"))); // phase p95s side by side
}

void tst_ComparePanel::percentileChangeRecomputesOffTheGuiThread()
{
    Fixture f;
    using C = ComparisonTableModel::Column;
    const QString before = f.text(f.panel.model()->overallRow(), C::BaselineValue);
    QSignalSpy ready(&f.panel, &ComparePanel::comparisonReady);
    f.panel.setPercentile(0.5);
    // Nothing changed yet on the GUI thread: the job runs in the background.
    QCOMPARE(f.text(f.panel.model()->overallRow(), C::BaselineValue), before);
    QVERIFY(f.panel.isComputing());
    waitFor(ready);
    QCOMPARE(f.panel.model()->headerData(C::BaselineValue, Qt::Horizontal).toString(),
             QStringLiteral("p50 base (ms) [95% CI]"));
    QVERIFY(f.text(f.panel.model()->overallRow(), C::BaselineValue) != before);
    QCOMPARE(f.panel.model()->comparison().spec.q, 0.5);
    QVERIFY(f.panel.bannerText().contains(QStringLiteral("target p50 TTFT")));
}

void tst_ComparePanel::sloAndPrediction()
{
    Fixture f;
    using C = ComparisonTableModel::Column;
    f.change([&] { f.panel.setSloMs(400.0); });
    QCOMPARE(f.panel.model()->headerData(C::BaselineMisses, Qt::Horizontal).toString(),
             QStringLiteral("Above SLO base"));
    QVERIFY(f.panel.model()->comparison().missesAgainstSlo);
    f.change([&] { f.panel.setPredictedSavingMs(1000.0); });
    QVERIFY(f.panel.model()->comparison().prediction.has_value());
    QVERIFY(f.panel.verdictView()->text().contains(QStringLiteral("smaller than predicted")));
}

void tst_ComparePanel::classesAndMetricChange()
{
    Fixture f;
    f.change([&] { QVERIFY(f.panel.setDimensions({})); });
    QCOMPARE(f.panel.model()->rowCount(), 1); // overall only
    QCOMPARE(f.panel.model()->headerData(ComparisonTableModel::Class, Qt::Horizontal).toString(),
             QStringLiteral("Population"));
    f.change([&] { QVERIFY(f.panel.setDimensions({QStringLiteral("region"), QStringLiteral("variant")})); });
    // The two variants never meet a region on both sides: every cell is one-sided.
    QCOMPARE(f.panel.model()->rowCount(), 7);
    QCOMPARE(f.text(0, ComparisonTableModel::Verdict), QStringLiteral("baseline only"));  // ap · old
    QCOMPARE(f.text(1, ComparisonTableModel::Verdict), QStringLiteral("candidate only")); // ap · new
    f.change([&] { f.state.setMetric(Metric::E2e); });
    QCOMPARE(f.panel.model()->comparison().spec.metric, Metric::E2e);
    QVERIFY(f.panel.bannerText().contains(QStringLiteral("target p95 E2E (client)")));
}

void tst_ComparePanel::pickedClassesDrawBothSides()
{
    Fixture f;
    // Nothing picked: overall and the two classes that moved most.
    QCOMPARE(
        f.panel.cdfPlot()->legendNames(),
        (QStringList{QStringLiteral("overall \u00b7 baseline (n = 600)"),
                     QStringLiteral("overall \u00b7 candidate (n = 600)"),
                     QStringLiteral("eu \u00b7 baseline (n = 200)"), QStringLiteral("eu \u00b7 candidate (n = 200)"),
                     QStringLiteral("us \u00b7 baseline (n = 200)"), QStringLiteral("us \u00b7 candidate (n = 200)")}));
    QCOMPARE(f.panel.cdfPlot()->title(),
             QStringLiteral("dashed: baseline \u00b7 solid: candidate \u00b7 marks: p95 with its 95% interval"));
    f.panel.selectRows({f.rowOf(QStringLiteral("ap"))});
    QCOMPARE(
        f.panel.cdfPlot()->legendNames(),
        (QStringList{QStringLiteral("ap \u00b7 baseline (n = 200)"), QStringLiteral("ap \u00b7 candidate (n = 200)")}));
}

void tst_ComparePanel::phaseShiftBars()
{
    Fixture f;
    const auto bars = f.panel.phaseBars()->bars();
    QCOMPARE(bars.size(), 7); // six TTFT phases and the residual
    QCOMPARE(bars[2].first, QStringLiteral("Queue"));
    QVERIFY(std::abs(bars[2].second - (-75.207007)) < 1e-9);
    QCOMPARE(bars.last().first, QStringLiteral("Residual (unobserved)"));
    double sum = 0.0;
    for (const auto &bar : bars)
        sum += bar.second;
    QVERIFY(std::abs(sum - (-73.395385)) < 1e-9); // the parts add up to the total
    // The queue's bar is drawn in the queue colour, left of the zero line.
    f.panel.tabs()->setCurrentWidget(f.panel.phaseBars());
    f.panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&f.panel));
    PhaseShiftBars *barsView = f.panel.phaseBars();
    const QImage image = barsView->grab().toImage();
    const QRect queue = barsView->barRect(2);
    QVERIFY(queue.right() < barsView->zeroLine());  // faster: left of zero
    QVERIFY(queue.width() > barsView->width() / 5); // the longest bar
    int orange = 0;
    for (int y = queue.top() + 1; y < queue.bottom(); ++y) {
        for (int x = queue.left() + 1; x < queue.right(); ++x)
            orange += image.pixelColor(x, y) == PhaseColors::of(Phase::Queue) ? 1 : 0;
    }
    QCOMPARE(orange, (queue.width() - 2) * (queue.height() - 2));
    // The network-in bar (+0.19 ms) is a sliver right of zero.
    QVERIFY(barsView->barRect(0).left() == barsView->zeroLine());
}

void tst_ComparePanel::lanesOfBothSidesOnOneAxis()
{
    Fixture f;
    QSignalSpy lanes(&f.panel, &ComparePanel::lanesReady);
    f.panel.tabs()->setCurrentWidget(f.panel.lanes());
    waitFor(lanes);
    const ViewState *state = f.panel.lanesState();
    QCOMPARE(state->requestCount(), 1200);
    QCOMPARE(state->timeAxis(), TimeAxis::AlignedAtSend);
    const auto layout = f.panel.lanes()->canvas()->laneLayout();
    QVERIFY(layout);
    QCOMPARE(layout->groups().size(), size_t(2));
    QCOMPARE(layout->groups()[0].label, QStringLiteral("baseline"));
    QCOMPARE(layout->groups()[0].laneCount, 600);
    QCOMPARE(layout->groups()[1].label, QStringLiteral("candidate"));
    QCOMPARE(layout->groups()[1].laneCount, 600);
    // Slowest first within each side: the first baseline lane is the baseline's slowest TTFT.
    const qint32 first = layout->rowAt(layout->groups()[0].headerSlot + 1);
    QCOMPARE(state->requests()->idText(first).left(9), QStringLiteral("baseline:"));
}

void tst_ComparePanel::whatCannotBeComparedIsSaid()
{
    Fixture f;
    const auto vllm = load(QStringLiteral(TRACELANE_REALDATA_DIR "/vllm-bench/serving_meta-llama-Llama-3.3-70B-"
                                                                 "Instruct_tp8_pp1_sharegpt_qps_01.json"));
    f.change([&] {
        f.state.setMetric(phaseMetric(Phase::Queue));
        f.state.setCandidate(vllm, QStringLiteral("vllm.json"));
    });
    // First the class split: vLLM's results have no region.
    QCOMPARE(f.panel.bannerText(),
             QStringLiteral("Cannot compare: no dimension 'region' in the candidate; dimensions "
                            "both sides have: prompt_band, output_band"));
    f.change([&] { f.panel.setDimensions({}); });
    QVERIFY2(f.panel.bannerText().startsWith(QStringLiteral("Cannot compare: Queue is not observed in the candidate")),
             qPrintable(f.panel.bannerText()));
    QCOMPARE(f.panel.model()->rowCount(), 0);
    QVERIFY(f.panel.verdictView()->text().contains(QStringLiteral("both sides observe: ttft, itl, e2e")));
}

void tst_ComparePanel::noCandidateYet()
{
    ViewState state;
    ComparePanel panel(&state);
    state.setStore(load(fixture(QStringLiteral("baseline.jsonl"))));
    QCOMPARE(panel.model()->rowCount(), 0);
    QCOMPARE(panel.bannerText(), QStringLiteral("No comparison yet."));
    QVERIFY(!panel.isComputing());
}

// Two runs of one benchmark write the same file name into different folders:
// the sides are named by the folder that tells them apart.
void tst_ComparePanel::sameFileNamesAreToldApart()
{
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("vllm-70b/results")));
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("llm-d-70b/results")));
    const QString base = dir.filePath(QStringLiteral("vllm-70b/results/LMBench_output_1.jsonl"));
    const QString cand = dir.filePath(QStringLiteral("llm-d-70b/results/LMBench_output_1.jsonl"));
    QVERIFY(QFile::copy(fixture(QStringLiteral("baseline.jsonl")), base));
    QVERIFY(QFile::copy(fixture(QStringLiteral("candidate.jsonl")), cand));
    ViewState state;
    ComparePanel panel(&state);
    QSignalSpy ready(&panel, &ComparePanel::comparisonReady);
    state.setStore(load(base));
    state.setCandidate(load(cand), QStringLiteral("LMBench_output_1.jsonl"));
    waitFor(ready);
    QCOMPARE(panel.model()->comparison().baselineLabel, QStringLiteral("vllm-70b/\u2026/LMBench_output_1.jsonl"));
    QCOMPARE(panel.model()->comparison().candidateLabel, QStringLiteral("llm-d-70b/\u2026/LMBench_output_1.jsonl"));
    auto *sides = panel.findChild<QLabel *>(QStringLiteral("compareSides"));
    QVERIFY(sides);
    QCOMPARE(sides->text(),
             QStringLiteral("<b>Baseline:</b> vllm-70b/\u2026/LMBench_output_1.jsonl (600 requests) &nbsp; "
                            "<b>Candidate:</b> llm-d-70b/\u2026/LMBench_output_1.jsonl (600 requests)"));
}

// Issue 17: baseline vs candidate for workflow traces. The candidate's tool
// takes 300 ms longer; the Critical path tab splits the mean E2E difference
// over critical-path time, names the tool and the sides; another key re-prepares.
void tst_ComparePanel::workflowsSplitTheDifferenceOverTheCriticalPath()
{
    {
        Fixture flat; // flat requests: nothing to split over spans
        QVERIFY(!flat.panel.tabs()->isTabEnabled(flat.panel.tabs()->indexOf(flat.panel.pathAttribution())));
    }
    ViewState state;
    ComparePanel panel(&state);
    panel.resize(1500, 700);
    QSignalSpy ready(&panel, &ComparePanel::comparisonReady);
    state.setStore(agents(100.0));
    state.setMetric(Metric::E2e);
    state.setCandidate(agents(400.0), QStringLiteral("after.jsonl"));
    QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty() && !panel.isComputing(), 20'000);
    QCOMPARE(panel.spec().metric, Metric::E2e);
    QTabWidget *tabs = panel.tabs();
    QVERIFY(tabs->isTabEnabled(tabs->indexOf(panel.pathAttribution())));
    const PathAttributionModel *model = panel.pathAttribution()->model();
    const PathAttribution &a = model->attribution();
    QCOMPARE(a.setName, QStringLiteral("candidate"));
    QCOMPARE(a.restName, QStringLiteral("baseline"));
    QCOMPARE(a.setN, 40);
    QCOMPARE(a.restN, 40);
    QCOMPARE(a.differenceMs, 300.0);
    QVERIFY(a.exact);
    QCOMPARE(model->index(0, PathAttributionModel::Key).data().toString(), QStringLiteral("tool"));
    QCOMPARE(model->index(0, PathAttributionModel::Difference).data(PathAttributionModel::SortRole).toDouble(), 300.0);
    QCOMPARE(model->headerData(PathAttributionModel::SetMean, Qt::Horizontal).toString(),
             QStringLiteral("Candidate mean"));
    QCOMPARE(model->headerData(PathAttributionModel::RestMean, Qt::Horizontal).toString(),
             QStringLiteral("Baseline mean"));
    const QString suspect = panel.pathAttribution()->suspectLabel()->text();
    QVERIFY2(suspect.contains(QStringLiteral("Suspect: tool")), qPrintable(suspect));
    QVERIFY2(suspect.contains(QStringLiteral("of the candidate's workflows")), qPrintable(suspect));
    const QString excess = panel.pathAttribution()->excessLabel()->text();
    QVERIFY2(excess.contains(QStringLiteral("candidate")) && excess.contains(QStringLiteral("baseline")),
             qPrintable(excess));

    // Another key: the sides are prepared again and the service is named.
    ready.clear();
    QComboBox *key = panel.pathAttribution()->keyBox();
    key->setCurrentIndex(key->findData(int(SpanKeyKind::Service)));
    emit key->activated(key->currentIndex());
    QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty() && !panel.isComputing(), 20'000);
    const PathAttribution &byService = panel.pathAttribution()->model()->attribution();
    QCOMPARE(byService.keyKind, SpanKeyKind::Service);
    QVERIFY(byService.suspect);
    QCOMPARE(byService.keys[*byService.suspect].key, QStringLiteral("orders"));
    QCOMPARE(byService.keys[*byService.suspect].differenceMs, 300.0);
}

QTEST_MAIN(tst_ComparePanel)
#include "tst_comparepanel.moc"
