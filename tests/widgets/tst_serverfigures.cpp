// A window holding a sample of Tracelane's table (clickhouse://…&sample=N)
// shows the whole population's figures, computed by the two-shard cluster:
// the class table is the pushed file's, the exceedance set is judged by the
// file's threshold and carries the file's phase attribution, while the
// curves and a class pick hold the sample's rows, N / P walk the
// population's slowest (held ones as the lanes' cursor, the others' rows
// fetched by id); the report is the file's. When the server
// stops answering, the sample's own estimates stand and say so.

#include "ClassTableModel.h"
#include "ClassTablePanel.h"
#include "ClickHouseWiring.h"
#include "ExceedancePanel.h"
#include "LoadPanel.h"
#include "MainWindow.h"
#include "MemberComparisonModel.h"
#include "ReportView.h"
#include "SetComparisonModel.h"
#include "SetComparisonView.h"
#include "StreamsWiring.h"
#include "ViewState.h"
#include "analysis/classes/ClassColumn.h"
#include "analysis/classes/ClassDimension.h"
#include "analysis/exceedance/ExceedanceAnalysis.h"
#include "analysis/load/ServiceLoad.h"
#include "analysis/requests/ProfileReport.h"
#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/ColumnCache.h"
#include "clickhouse/ClickHouseSource.h"
#include "io/TraceFileLoader.h"
#include "remote/TraceSource.h"
#include "report/ExceedanceJson.h"
#include "report/ReportText.h"
#include "store/TraceStore.h"
#include "support/ClickHouseCluster.h"
#include "support/TestData.h"
#include "support/TracelaneTables.h"

#include <QAction>
#include <QComboBox>
#include <QHash>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <nlohmann/json.hpp>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace {

constexpr const char *kExample = "resources/examples/mixed-classes.jsonl";
constexpr int kOneIn = 3;

// The class table of `store`'s every request by `key`, as the window computes it.
ClassTable classTableOf(const std::shared_ptr<const TraceStore> &store, const QString &key)
{
    ColumnCache cache(store);
    ClassDimension dimension;
    if (!classDimensionFromKey(store->requests, key, &dimension))
        return {};
    const std::vector<ClassColumn> columns{ClassColumn::build(store->requests, dimension, ClassBands{})};
    return computeClassTable(*cache.metric(Metric::Ttft, Boundary::Client), columns,
                             RequestSlice::all(store->requests.rowCount()), ClassTableSpec{});
}

ExceedanceAnalysis exceedanceOf(const std::shared_ptr<const TraceStore> &store, double q)
{
    ColumnCache cache(store);
    ExceedanceSpec spec;
    spec.q = q;
    return ExceedanceAnalysis::compute(cache, RequestSlice::all(store->requests.rowCount()), spec);
}

QSet<QString> idsOf(const RequestTable &table, const std::vector<qint32> &rows)
{
    QSet<QString> ids;
    for (const qint32 row : rows)
        ids.insert(table.idText(row));
    return ids;
}

} // namespace

class tst_ServerFigures : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
        const QString failure = TracelaneTables::initAndPush(m_cluster, QStringLiteral("mixed"),
                                                             TestData::source(QLatin1String(kExample)));
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        m_file = TraceFileLoader::load(TestData::source(QLatin1String(kExample)), LoadOptions{}).store;
        QVERIFY(m_file && m_file->requests.rowCount() == 2000);

        m_window.setPersistent(false);
        m_window.resize(1280, 800);
        m_window.show();
        QSignalSpy finished(&m_window, &MainWindow::loadFinished);
        m_window.openFile(sampleUrl());
        QVERIFY(finished.wait(60'000));
        QVERIFY(finished.first().first().toBool());
        m_held = m_window.store();
        QCOMPARE(m_held->sampleOneIn, qint64(kOneIn));
        QCOMPARE(m_held->serverUrl, m_cluster.tracelaneUrl(QStringLiteral("mixed")));
        // A third or so of the requests: their own figures differ from the file's.
        QVERIFY(m_held->requests.rowCount() > 500 && m_held->requests.rowCount() < 900);
    }

    void theClassTableIsThePopulations()
    {
        ClassTablePanel *classes = m_window.classTable();
        QVERIFY(classes->setDimensions({QStringLiteral("region")}));
        const auto shown = [&] {
            const ClassTable &table = classes->model()->table();
            return !classes->isComputing() && table.dimensions.size() == 1
                && table.dimensions.front().label == QStringLiteral("region") && !table.cells.empty();
        };
        QTRY_VERIFY_WITH_TIMEOUT(shown(), 60'000);
        const ClassTable &table = classes->model()->table();
        const ClassTable file = classTableOf(m_file, QStringLiteral("region"));
        const ClassTable sample = classTableOf(m_held, QStringLiteral("region"));
        QCOMPARE(table.sliceRequests, qint64(2000));
        QCOMPARE(table.cells.size(), file.cells.size());
        QCOMPARE(table.overall.headline().value, file.overall.headline().value);
        QVERIFY(table.overall.headline().value != sample.overall.headline().value);
        QCOMPARE(table.exceedanceSize, file.exceedanceSize);
        for (size_t cell = 0; cell < file.cells.size(); ++cell) {
            const ClassCell &got = table.cells[cell];
            const ClassCell &want = file.cells[cell];
            QCOMPARE(got.classes, want.classes);
            QCOMPARE(got.requests, want.requests);
            QCOMPARE(got.n, want.n);
            QCOMPARE(got.meanMs, want.meanMs);
            for (size_t q = 0; q < got.quantiles.size(); ++q)
                QCOMPARE(got.quantiles[q].value, want.quantiles[q].value);
            QCOMPARE(got.exceedanceCount, want.exceedanceCount);
            // The curve drawn is the sample's class's.
            const auto held = std::find_if(sample.cells.begin(), sample.cells.end(),
                                           [&](const ClassCell &c) { return c.classes == got.classes; });
            QVERIFY(held != sample.cells.end());
            QCOMPARE(got.cdf.size(), held->cdf.size());
            QCOMPARE(got.cdfN, held->n);
        }
        QCOMPARE(table.overall.cdf.size(), sample.overall.cdf.size());
        QCOMPARE(table.overall.cdfN, sample.overall.n);
        auto *status = classes->findChild<QLabel *>(QStringLiteral("classStatus"));
        QVERIFY(status);
        QVERIFY2(status->text().contains(QStringLiteral("2,000 requests (the whole population, computed by the "
                                                        "server)")),
                 qPrintable(status->text()));
        QVERIFY2(status->text().contains(QStringLiteral("curves and picks: the %1 requests held (a 1-in-3 sample)")
                                             .arg(QLocale().toString(m_held->requests.rowCount()))),
                 qPrintable(status->text()));

        // Picking a class filters the held requests of that class.
        QSignalSpy sliced(m_window.viewState(), &ViewState::sliceChanged);
        classes->selectCells({0});
        QTRY_VERIFY(sliced.count() > 0);
        ClassDimension region;
        QVERIFY(classDimensionFromKey(m_held->requests, QStringLiteral("region"), &region));
        const ClassColumn column = ClassColumn::build(m_held->requests, region, ClassBands{});
        const qsizetype code = column.codeOf(table.cells.front().classes.front());
        QVERIFY(code >= 0);
        std::vector<qint32> expected;
        for (qint32 row = 0; row < m_held->requests.rowCount(); ++row) {
            if (column.codes[size_t(row)] == quint32(code))
                expected.push_back(row);
        }
        QVERIFY(!expected.empty());
        const auto slice = m_window.viewState()->slice().rows();
        QCOMPARE(std::vector<qint32>(slice.begin(), slice.end()), expected);
        classes->view()->clearSelection();
        QTRY_VERIFY(!m_window.viewState()->hasSlice());
    }

    void theExceedanceSetIsJudgedByThePopulation()
    {
        ExceedancePanel *panel = m_window.exceedance();
        panel->setPercentile(0.9);
        const auto shown = [&] {
            return !panel->isComputing() && panel->analysis() && panel->analysis()->set.spec.q == 0.9
                && panel->summaryLabel()->text().contains(QStringLiteral("computed by the server"));
        };
        QTRY_VERIFY_WITH_TIMEOUT(shown(), 60'000);
        const ExceedanceAnalysis file = exceedanceOf(m_file, 0.9);
        const ExceedanceAnalysis sample = exceedanceOf(m_held, 0.9);
        const ExceedanceAnalysis &got = *panel->analysis();
        QCOMPARE(got.set.threshold, file.set.threshold);
        QVERIFY(got.set.threshold != sample.set.threshold);
        // The phase attribution is the population's, to the last bit.
        QCOMPARE(got.attribution.setN, file.attribution.setN);
        QCOMPARE(got.attribution.restN, file.attribution.restN);
        QCOMPARE(got.attribution.setMeanMs, file.attribution.setMeanMs);
        QCOMPARE(got.attribution.restMeanMs, file.attribution.restMeanMs);
        QCOMPARE(got.attribution.differenceMs, file.attribution.differenceMs);
        QCOMPARE(got.attribution.phases.size(), file.attribution.phases.size());
        for (size_t p = 0; p < file.attribution.phases.size(); ++p)
            QCOMPARE(got.attribution.phases[p].differenceMs, file.attribution.phases[p].differenceMs);
        // The members stepped are the held requests among the file's set.
        const QSet<QString> held = idsOf(m_held->requests, got.set.members);
        QSet<QString> expected = idsOf(m_file->requests, file.set.members);
        QSet<QString> all;
        for (qint32 row = 0; row < m_held->requests.rowCount(); ++row)
            all.insert(m_held->requests.idText(row));
        expected.intersect(all);
        QVERIFY(!expected.isEmpty());
        QCOMPARE(held, expected);
        const QString summary = panel->summaryLabel()->text();
        QVERIFY2(summary.contains(QStringLiteral("set: <b>%1</b> of %2 requests with TTFT (the whole population")
                                      .arg(QLocale().toString(file.set.size()), QLocale().toString(2000))),
                 qPrintable(summary));
        QVERIFY2(summary.contains(
                     QStringLiteral("held: %1 of them in the 1-in-3 sample").arg(QLocale().toString(got.set.size()))),
                 qPrintable(summary));
        QVERIFY2(panel->positionLabel()->text().contains(
                     QStringLiteral("Press N to step through the population's 200 slowest of its %1 slow requests")
                         .arg(QLocale().toString(file.set.size()))),
                 qPrintable(panel->positionLabel()->text()));

        // Then the server ranks the population's features: the rankings
        // shown become the file's, figure for figure (the sample's differ).
        QTRY_VERIFY2_WITH_TIMEOUT(
            panel->summaryLabel()->text().contains(QStringLiteral("the feature rankings are the whole population's")),
            qPrintable(panel->summaryLabel()->text()), 60'000);
        SetComparison ranked;
        ranked.attributes = panel->comparison()->attributeModel()->ranking();
        ranked.phases = panel->comparison()->phaseModel()->ranking();
        QVERIFY(!ranked.attributes.empty() && !ranked.phases.empty());
        QVERIFY(ExceedanceJson::rankings(sample.comparison) != ExceedanceJson::rankings(file.comparison));
        QCOMPARE(ExceedanceJson::rankings(ranked).dump(), ExceedanceJson::rankings(file.comparison).dump());

        // N walks the population's slowest in the file's order: a held one
        // is the lanes' cursor, another one's row is fetched from the server
        // and compared with the sample's rest like a held one.
        QHash<QString, qint32> heldRow;
        for (qint32 row = 0; row < m_held->requests.rowCount(); ++row)
            heldRow.insert(m_held->requests.idText(row), row);
        int heldSeen = 0;
        int fetchedSeen = 0;
        for (qsizetype k = 0; k < 40 && (heldSeen < 2 || fetchedSeen < 2); ++k) {
            panel->stepNext();
            const qint32 fileRow = file.set.members[size_t(k)];
            const QString id = m_file->requests.idText(fileRow);
            const QString where = QStringLiteral("%1 of the population's %2 slow requests: request %3")
                                      .arg(QLocale().toString(k + 1), QLocale().toString(file.set.size()), id);
            QLabel *position = panel->positionLabel();
            if (heldRow.contains(id)) {
                ++heldSeen;
                QCOMPARE(m_window.viewState()->exceedanceCursor(), heldRow.value(id));
                QVERIFY2(position->text().startsWith(where)
                             && position->text().endsWith(QStringLiteral("(held in the sample)")),
                         qPrintable(position->text()));
                // A row compared as if fetched is compared as held.
                const MemberComparison &member = panel->memberModel()->comparison();
                const MemberComparison same
                    = MemberComparison::ofFetched(m_held->requests, got.samples, m_held->requests, heldRow.value(id));
                QCOMPARE(member.rows.size(), same.rows.size());
                for (size_t f = 0; f < same.rows.size(); ++f) {
                    QCOMPARE(member.rows[f].text, same.rows[f].text);
                    QCOMPARE(member.rows[f].percentileRank, same.rows[f].percentileRank);
                    QCOMPARE(member.rows[f].restShareSameValue, same.rows[f].restShareSameValue);
                }
            } else {
                ++fetchedSeen;
                QCOMPARE(m_window.viewState()->exceedanceCursor(), -1);
                QTRY_VERIFY2_WITH_TIMEOUT(position->text().startsWith(where)
                                              && position->text().endsWith(
                                                  QStringLiteral("(fetched from the server, not held in the sample)")),
                                          qPrintable(position->text()), 60'000);
                const MemberComparison &member = panel->memberModel()->comparison();
                QCOMPARE(member.requestId, id);
                // Every feature as the file's row has it.
                const MemberComparison fromFile
                    = MemberComparison::ofFetched(m_held->requests, got.samples, m_file->requests, fileRow);
                QCOMPARE(member.rows.size(), fromFile.rows.size());
                for (size_t f = 0; f < fromFile.rows.size(); ++f) {
                    QCOMPARE(member.rows[f].text, fromFile.rows[f].text);
                    QCOMPARE(member.rows[f].percentileRank, fromFile.rows[f].percentileRank);
                    QCOMPARE(member.rows[f].restShareSameValue, fromFile.rows[f].restShareSameValue);
                }
            }
        }
        QVERIFY(heldSeen >= 2 && fetchedSeen >= 2);
    }

    void theReportIsThePopulations()
    {
        auto *view = m_window.findChild<ReportView *>();
        QVERIFY(view);
        // Behind the Distributions tab it waits: the server's heaviest reads
        // are asked once it is looked at.
        QVERIFY2(view->toPlainText().contains(QStringLiteral("computed by the server once this tab is looked at")),
                 qPrintable(view->toPlainText().left(300)));
        QVERIFY(m_window.showPanel(QStringLiteral("Profile Report")));
        const QString label = TraceSource::displayName(sampleUrl())
            + QStringLiteral(" \u2014 the whole population, computed by the server");
        const QString expected = ReportText::profile(
            profileRequests(m_file->requests, Boundary::Client, label, QStringLiteral("trace replay")));
        QTRY_VERIFY_WITH_TIMEOUT(view->toPlainText().startsWith(expected), 60'000);
        QVERIFY(expected.contains(QStringLiteral("(2000 requests)")));
    }

    // Last: it stops the servers.
    // On a sample of a span trace's table, a slow workflow the sample does
    // not hold is fetched with its spans, and opens alone in a window of its
    // own: its Gantt and critical path, from the server.
    void aFetchedWorkflowOpensInAWindowOfItsOwn()
    {
        const QString file = TestData::realdata(QStringLiteral("otel-tui/test_data.json"));
        const QString failure = TracelaneTables::initAndPush(m_cluster, QStringLiteral("agents"), file);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        const auto spans = TraceFileLoader::load(file, LoadOptions{}).store;
        QVERIFY(spans && spans->workflows.rowCount() > 100);

        MainWindow window;
        window.setPersistent(false);
        window.resize(1280, 800);
        window.show();
        QSignalSpy finished(&window, &MainWindow::loadFinished);
        window.openFile(m_cluster.tracelaneUrl(QStringLiteral("agents")) + QStringLiteral("&sample=%1").arg(kOneIn));
        QVERIFY(finished.wait(60'000));
        QVERIFY(finished.first().first().toBool());
        QVERIFY(window.store()->workflows.rowCount() > 0);
        QVERIFY(window.store()->workflows.rowCount() < spans->workflows.rowCount());

        ExceedancePanel *panel = window.exceedance();
        window.showPanel(QStringLiteral("exceedanceDock"));
        panel->setPercentile(0.5);
        QTRY_VERIFY_WITH_TIMEOUT(
            !panel->isComputing() && panel->analysis()
                && panel->summaryLabel()->text().contains(QStringLiteral("computed by the server")),
            60'000);
        QSignalSpy opened(&window, &MainWindow::windowOpened);
        bool fetched = false;
        for (int k = 0; k < 30 && !fetched; ++k) {
            panel->stepNext();
            if (window.viewState()->exceedanceCursor() >= 0) {
                QVERIFY(panel->openWorkflowButton()->isHidden()); // held: the Workflow dock shows it
                continue;
            }
            QTRY_VERIFY_WITH_TIMEOUT(
                panel->positionLabel()->text().contains(QStringLiteral("(fetched from the server")), 60'000);
            fetched = true;
        }
        QVERIFY(fetched);
        QVERIFY(!panel->openWorkflowButton()->isHidden());
        const QString id = panel->memberModel()->comparison().requestId;
        const qint32 inFile = spans->workflows.indexOf(id.toStdString());
        QVERIFY(inFile >= 0);
        panel->openWorkflowButton()->click();
        QCOMPARE(opened.size(), 1);
        auto *alone = opened.first().first().value<MainWindow *>();
        QVERIFY(alone);
        QTRY_VERIFY_WITH_TIMEOUT(alone->store() && alone->store()->workflows.rowCount() == 1, 60'000);
        QCOMPARE(alone->store()->workflows.traceIdText(0), id);
        QCOMPARE(alone->store()->spans.rowCount(), qsizetype(spans->workflows.spanCount[size_t(inFile)]));
        QVERIFY2(alone->windowTitle().contains(QStringLiteral("trace=") + id), qPrintable(alone->windowTitle()));
        alone->close();
    }

    // The Load dock draws the held rows: its rates and levels say they are
    // the sample's, about a third of the population's.
    void theLoadDockSaysItsRatesAreTheSamples()
    {
        LoadPanel *load = m_window.streams()->loadPanel();
        m_window.showPanel(QStringLiteral("loadDock"));
        QTRY_VERIFY_WITH_TIMEOUT(!load->isComputing() && load->timeline().binCount() > 0
                                     && load->summaryText().contains(QStringLiteral("Little's law")),
                                 60'000);
        const QString summary = load->summaryText();
        QVERIFY2(summary.startsWith(QStringLiteral("In this 1-in-3 sample (the population's rates and levels are "
                                                   "about 3\u00d7 these")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral(", in the 1-in-3 sample)")), qPrintable(summary));
        QCOMPARE(load->plot()->yAxis->label(), QStringLiteral("req/s (sample)"));

        // Beside them, the population's goodput and peak in flight, computed
        // by the server: the file's figures, not the sample's.
        const Slo slo;
        const Goodput goodput = ServiceLoad::goodput(m_file->requests, slo, Boundary::Client, 0);
        const LittlesLawCheck little = ServiceLoad::littlesLaw(m_file->requests, std::nan(""));
        const LittlesLawCheck held = ServiceLoad::littlesLaw(m_held->requests, std::nan(""));
        QVERIFY(held.peakInFlight < little.peakInFlight);
        auto *population = load->findChild<QLabel *>(QStringLiteral("loadPopulation"));
        QVERIFY(population);
        QTRY_VERIFY_WITH_TIMEOUT(population->text().startsWith(QStringLiteral("The whole population (computed")),
                                 60'000);
        const QLocale locale;
        const QString expected
            = QStringLiteral("The whole population (computed by the server): %1 completed, goodput %2% (%3/s) meeting "
                             "TTFT \u2264 %4 ms and ITL \u2264 %5 ms/token; ")
                  .arg(locale.toString(goodput.completed))
                  .arg(100.0 * goodput.goodShare(), 0, 'f', 1)
                  .arg(goodput.goodputPerSecond, 0, 'f', 2)
                  .arg(slo.ttftMs, 0, 'f', 0)
                  .arg(slo.itlMs, 0, 'f', 0);
        QVERIFY2(population->text().startsWith(expected),
                 qPrintable(population->text() + QLatin1Char('\n') + expected));
        QVERIFY2(population->text().contains(
                     QStringLiteral("in flight on average, peak %1.").arg(locale.toString(little.peakInFlight))),
                 qPrintable(population->text()));
        QVERIFY(load->summaryText().contains(population->text()));

        // The population's figures depend on neither the bin nor a pick: a
        // new bin redraws the series and leaves them as shown, unasked.
        auto *bin = load->findChild<QComboBox *>(QStringLiteral("loadBin"));
        QVERIFY(bin && bin->count() > 2);
        const QString shown = population->text();
        const qint64 binBefore = load->timeline().binNs;
        const int other = bin->findData(binBefore == 100'000'000 ? qint64(1'000'000'000) : qint64(100'000'000));
        QVERIFY(other > 0);
        bin->setCurrentIndex(other);
        emit bin->activated(other);
        QCOMPARE(population->text(), shown);
        QTRY_VERIFY_WITH_TIMEOUT(!load->isComputing() && load->timeline().binNs != binBefore, 60'000);
        QCOMPARE(population->text(), shown);
    }

    // "All in View" opens every request of the population sent in the lanes'
    // time range (the sample holds a third of them) in a window of its own.
    void allInViewOpensThePopulationsRequestsInRange()
    {
        ClickHouseWiring *clickHouse = m_window.clickHouse();
        QAction *action = clickHouse->allInViewAction();
        ViewState *state = m_window.viewState();
        state->setTimeAxis(TimeAxis::Absolute);
        QVERIFY(action->isVisible());
        QVERIFY(action->isEnabled());
        // The middle third of the file's sends.
        const auto &sends = m_file->requests.stampColumn(Stamp::ClientSend);
        const auto [first, last] = std::minmax_element(sends.begin(), sends.end());
        const qint64 third = (*last - *first) / 3;
        const TimeWindow range{*first + third, *first + 2 * third};
        state->setTimeWindow(range);
        QCOMPARE(state->timeWindow(), range);
        QSet<QString> expected;
        for (qsizetype row = 0; row < m_file->requests.rowCount(); ++row) {
            if (range.contains(m_file->requests.stamp(row, Stamp::ClientSend)))
                expected.insert(m_file->requests.idText(qint32(row)));
        }
        QVERIFY(expected.size() > 300 && expected.size() < 1700);

        ClickHouseSource source;
        QString error;
        QVERIFY2(ClickHouseSource::parse(clickHouse->allInViewUrl(), &source, &error), qPrintable(error));
        QCOMPARE(source.sampleOneIn, qint64(1));
        QCOMPARE(source.from, range.begin);
        QCOMPARE(source.to, range.end);

        QSignalSpy opened(&m_window, &MainWindow::windowOpened);
        action->trigger();
        QCOMPARE(opened.size(), 1);
        auto *all = opened.first().first().value<MainWindow *>();
        QVERIFY(all);
        QTRY_VERIFY_WITH_TIMEOUT(all->store() && !all->isLoading(), 60'000);
        QCOMPARE(all->store()->sampleOneIn, qint64(1));
        // Its title names the range it holds.
        QVERIFY2(all->windowTitle().contains(QStringLiteral("&from=%1&to=%2").arg(range.begin).arg(range.end)),
                 qPrintable(all->windowTitle()));
        QSet<QString> held;
        for (qsizetype row = 0; row < all->store()->requests.rowCount(); ++row)
            held.insert(all->store()->requests.idText(qint32(row)));
        QCOMPARE(held, expected);
        // That window holds every request of its range: nothing more to open.
        QVERIFY(!all->clickHouse()->allInViewAction()->isVisible());
        QVERIFY(all->clickHouse()->allInViewUrl().isEmpty());
        all->close();

        // Aligned lanes share no time range.
        state->setTimeAxis(TimeAxis::AlignedAtSend);
        QVERIFY(action->isVisible());
        QVERIFY(!action->isEnabled());
        QVERIFY(clickHouse->allInViewUrl().isEmpty());
        state->setTimeAxis(TimeAxis::Absolute);
        QVERIFY(action->isEnabled());
    }

    void aServerThatStopsLeavesTheSamplesEstimates()
    {
        m_cluster.stop();
        ExceedancePanel *panel = m_window.exceedance();
        panel->setPercentile(0.8);
        const auto shown = [&] {
            return !panel->isComputing() && panel->analysis() && panel->analysis()->set.spec.q == 0.8
                && panel->summaryLabel()->text().contains(QStringLiteral("the server did not compute"));
        };
        QTRY_VERIFY_WITH_TIMEOUT(shown(), 60'000);
        QCOMPARE(panel->analysis()->set.threshold, exceedanceOf(m_held, 0.8).set.threshold);
        QVERIFY2(panel->summaryLabel()->text().contains(QStringLiteral("1-in-3 sample")),
                 qPrintable(panel->summaryLabel()->text()));

        ClassTablePanel *classes = m_window.classTable();
        QVERIFY(classes->setDimensions({QStringLiteral("priority")}));
        auto *status = classes->findChild<QLabel *>(QStringLiteral("classStatus"));
        QVERIFY(status);
        QTRY_VERIFY_WITH_TIMEOUT(!classes->isComputing()
                                     && status->text().contains(QStringLiteral("these are the sample's estimates")),
                                 60'000);
        const ClassTable sample = classTableOf(m_held, QStringLiteral("priority"));
        QCOMPARE(classes->model()->table().sliceRequests, m_held->requests.rowCount());
        QCOMPARE(classes->model()->table().overall.headline().value, sample.overall.headline().value);

        // The report, asked again, is the sample's and says why.
        m_window.viewState()->setBoundary(Boundary::Server);
        auto *report = m_window.findChild<ReportView *>();
        QTRY_VERIFY_WITH_TIMEOUT(report->toPlainText().contains(
                                     QStringLiteral("(the server did not compute the whole population's report: ")),
                                 60'000);
        QVERIFY2(report->toPlainText().contains(QStringLiteral("(%1 requests)").arg(m_held->requests.rowCount())),
                 qPrintable(report->toPlainText().left(300)));
    }

private:
    QString sampleUrl() const
    {
        return m_cluster.tracelaneUrl(QStringLiteral("mixed")) + QStringLiteral("&sample=%1").arg(kOneIn);
    }

    ClickHouseCluster m_cluster;
    std::shared_ptr<const TraceStore> m_file;
    MainWindow m_window;
    std::shared_ptr<const TraceStore> m_held;
};

QTEST_MAIN(tst_ServerFigures)
#include "tst_serverfigures.moc"
