#include "RejectedRecordsModel.h"
#include "RejectedRecordsPanel.h"
#include "RequestTableModel.h"
#include "RequestTablePanel.h"
#include "ViewState.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"
#include "support/TestData.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

namespace {

std::shared_ptr<TraceStore> load(const QString &path)
{
    return TraceFileLoader::load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/") + path, {}).store;
}

void waitFor(QSignalSpy &spy)
{
    if (spy.isEmpty())
        QVERIFY(spy.wait(10'000));
}

QStringList column(const QAbstractItemModel &model, int column, int role = Qt::DisplayRole)
{
    QStringList values;
    for (int row = 0; row < model.rowCount(); ++row)
        values.append(model.index(row, column).data(role).toString());
    return values;
}

int columnOf(const RequestTableModel &model, RequestColumn::Kind kind, Metric metric = Metric::Ttft)
{
    for (int c = 0; c < model.columnCount(); ++c) {
        const RequestColumn col = model.columnAt(c);
        if (col.kind == kind && (kind != RequestColumn::Kind::Metric || col.metric == metric))
            return c;
    }
    return -1;
}

} // namespace

class tst_RequestTable : public QObject
{
    Q_OBJECT
private slots:
    void modelPassesTheTester();
    void columnsAndRoles_data();
    void columnsAndRoles();
    void streamColumnsOnlyWithTokenTimes();
    void reorderKeepsPersistentIndexes();
    void boundaryChangesTtft();
    void panelSortsOffTheGuiThread();
    void panelFilterBecomesTheSlice();
    void externalSliceFiltersTheTable();
    void selectionPropagates();
    void liveRefreshKeepsFilterAndSort();
    void rejectedModelAndExport();
};

void tst_RequestTable::modelPassesTheTester()
{
    RequestTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setStore(load(QStringLiteral("seed/multiclass.jsonl")));
    std::vector<qint32> reversed(240);
    for (int i = 0; i < 240; ++i)
        reversed[size_t(i)] = 239 - i;
    model.setOrder(reversed);  // permutation
    model.setOrder({5, 6, 7}); // a filtered subset
    model.setBoundary(Boundary::Server);
    model.setStore(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void tst_RequestTable::columnsAndRoles_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("metric");
    QTest::addColumn<QString>("header");
    QTest::addColumn<QString>("display");
    QTest::addColumn<double>("raw");
    // Row 1 is r-b.
    QTest::newRow("TTFT") << int(RequestColumn::Kind::Metric) << int(Metric::Ttft) << QStringLiteral("TTFT (client)")
                          << QStringLiteral("900.0 ms") << 900.0;
    QTest::newRow("ITL") << int(RequestColumn::Kind::Metric) << int(Metric::Itl) << QStringLiteral("ITL")
                         << QStringLiteral("100.00 ms/token") << 100.0;
    QTest::newRow("E2E") << int(RequestColumn::Kind::Metric) << int(Metric::E2e) << QStringLiteral("E2E")
                         << QStringLiteral("2000.0 ms") << 2000.0;
    QTest::newRow("queue phase") << int(RequestColumn::Kind::Metric) << int(phaseMetric(Phase::Queue))
                                 << QStringLiteral("Queue") << QStringLiteral("100.0 ms") << 100.0;
    QTest::newRow("network in, two decimals under 100 ms")
        << int(RequestColumn::Kind::Metric) << int(phaseMetric(Phase::NetworkIn)) << QStringLiteral("Network in")
        << QStringLiteral("50.00 ms") << 50.0;
    QTest::newRow("prompt tokens") << int(RequestColumn::Kind::PromptTokens) << 0 << QStringLiteral("Prompt tokens")
                                   << QStringLiteral("3,000") << 3000.0;
}

void tst_RequestTable::columnsAndRoles()
{
    QFETCH(int, kind);
    QFETCH(int, metric);
    QFETCH(QString, header);
    QFETCH(QString, display);
    QFETCH(double, raw);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    RequestTableModel model;
    model.setStore(load(QStringLiteral("seed/three-requests.jsonl")));
    // Request, region, prompt, output, TTFT, ITL, E2E, seven phases.
    QCOMPARE(model.columnCount(), 14);
    QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("region"));
    const int c = columnOf(model, static_cast<RequestColumn::Kind>(kind), static_cast<Metric>(metric));
    QVERIFY(c >= 0);
    QCOMPARE(model.headerData(c, Qt::Horizontal).toString(), header);
    QCOMPARE(model.index(1, c).data().toString(), display);
    QCOMPARE(model.index(1, c).data(RequestTableModel::RawRole).toDouble(), raw);
    QCOMPARE(model.index(1, c).data(RequestTableModel::RowRole).toInt(), 1);
    QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("r-b"));
}

void tst_RequestTable::streamColumnsOnlyWithTokenTimes()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    RequestTableModel plain;
    plain.setStore(load(QStringLiteral("seed/three-requests.jsonl")));
    QCOMPARE(columnOf(plain, RequestColumn::Kind::Metric, Metric::GapP95), -1);
    QCOMPARE(columnOf(plain, RequestColumn::Kind::Metric, Metric::MaxStall), -1);

    // Per-token times: the request's p95 gap and longest gap follow ITL's
    // columns; req-13's two client events are 20 ms apart.
    RequestTableModel streams;
    streams.setStore(load(QStringLiteral("malformed/token-times.jsonl")));
    const int p95 = columnOf(streams, RequestColumn::Kind::Metric, Metric::GapP95);
    const int longest = columnOf(streams, RequestColumn::Kind::Metric, Metric::MaxStall);
    QCOMPARE(streams.columnCount(), 15); // no class attribute; TTFT .. phases, p95 gap, max stall
    QCOMPARE(streams.headerData(p95, Qt::Horizontal).toString(), QStringLiteral("p95 gap"));
    QCOMPARE(streams.headerData(longest, Qt::Horizontal).toString(), QStringLiteral("Max stall"));
    int row = -1;
    for (int r = 0; r < streams.rowCount(); ++r) {
        if (streams.index(r, 0).data().toString() == QStringLiteral("req-13"))
            row = r;
    }
    QVERIFY(row >= 0);
    QCOMPARE(streams.index(row, p95).data(RequestTableModel::RawRole).toDouble(), 20.0);
    QCOMPARE(streams.index(row, longest).data(RequestTableModel::RawRole).toDouble(), 20.0);
}

void tst_RequestTable::reorderKeepsPersistentIndexes()
{
    RequestTableModel model;
    model.setStore(load(QStringLiteral("seed/three-requests.jsonl")));
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy layouts(&model, &QAbstractItemModel::layoutChanged);
    const QPersistentModelIndex rb(model.index(1, 3));
    model.setOrder({2, 0, 1});
    QCOMPARE(layouts.count(), 1);
    QCOMPARE(resets.count(), 0);
    QCOMPARE(rb.row(), 2);
    QCOMPARE(rb.column(), 3);
    QCOMPARE(rb.data(RequestTableModel::RowRole).toInt(), 1);
    QCOMPARE(model.tableRowOf(2), 0);
    model.setOrder({0}); // a different set: reset
    QCOMPARE(resets.count(), 1);
    QCOMPARE(model.tableRowOf(2), -1);
}

void tst_RequestTable::boundaryChangesTtft()
{
    RequestTableModel model;
    model.setStore(load(QStringLiteral("seed/three-requests.jsonl")));
    const int ttft = columnOf(model, RequestColumn::Kind::Metric, Metric::Ttft);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setBoundary(Boundary::Engine);
    QCOMPARE(changed.count(), 1);
    // r-a at the engine boundary: prefill start 600 -> first server token 1100.
    QCOMPARE(model.index(0, ttft).data(RequestTableModel::RawRole).toDouble(), 500.0);
    QCOMPARE(model.headerData(ttft, Qt::Horizontal).toString(), QStringLiteral("TTFT (engine)"));
    model.setBoundary(Boundary::Engine);
    QCOMPARE(changed.count(), 1);
}

void tst_RequestTable::panelSortsOffTheGuiThread()
{
    ViewState state;
    RequestTablePanel panel(&state);
    QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    state.setStore(load(QStringLiteral("seed/burst.jsonl")));
    QSignalSpy finished(&panel, &RequestTablePanel::queryFinished);
    const int e2e = columnOf(*panel.model(), RequestColumn::Kind::Metric, Metric::E2e);
    panel.sortBy(e2e, Qt::DescendingOrder);
    waitFor(finished);
    QCOMPARE(column(*panel.model(), 0).mid(0, 3),
             (QStringList{QStringLiteral("burst-10"), QStringLiteral("burst-09"), QStringLiteral("burst-08")}));
    // Sorting is not filtering: no slice.
    QVERIFY(!state.hasSlice());
}

void tst_RequestTable::panelFilterBecomesTheSlice()
{
    ViewState state;
    RequestTablePanel panel(&state);
    state.setStore(load(QStringLiteral("seed/multiclass.jsonl")));
    QSignalSpy finished(&panel, &RequestTablePanel::queryFinished);
    QSignalSpy slices(&state, &ViewState::sliceChanged);
    panel.setAttributeFilter(QStringLiteral("region"), QStringLiteral("ap-south"));
    waitFor(finished);
    QCOMPARE(panel.model()->rowCount(), 82);
    QCOMPARE(slices.count(), 1);
    QCOMPARE(state.slice().size(), 82);
    QCOMPARE(state.sliceLabel(), QStringLiteral("region = ap-south"));
    finished.clear();
    panel.setTextFilter(QStringLiteral("interactive"));
    waitFor(finished);
    QCOMPARE(panel.model()->rowCount(), 63);
    QCOMPARE(state.sliceLabel(), QStringLiteral("text ~ \"interactive\" and region = ap-south"));
    finished.clear();
    panel.setTextFilter(QString());
    panel.setAttributeFilter(QString(), QString());
    // Two queries were started; only the last one's result counts.
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isQueryRunning(), 10'000);
    QVERIFY(!state.hasSlice());
    QCOMPARE(panel.model()->rowCount(), 240);
}

void tst_RequestTable::externalSliceFiltersTheTable()
{
    ViewState state;
    RequestTablePanel panel(&state);
    state.setStore(load(QStringLiteral("seed/burst.jsonl")));
    QSignalSpy finished(&panel, &RequestTablePanel::queryFinished);
    state.setSlice(RowSet::fromRows({0, 9}), QStringLiteral("class cell"));
    waitFor(finished);
    QCOMPARE(column(*panel.model(), 0), (QStringList{QStringLiteral("burst-01"), QStringLiteral("burst-10")}));
    // The table did not overwrite someone else's slice.
    QCOMPARE(state.sliceLabel(), QStringLiteral("class cell"));
    QCOMPARE(state.slice(), RowSet::fromRows({0, 9}));
}

void tst_RequestTable::selectionPropagates()
{
    ViewState state;
    RequestTablePanel panel(&state);
    panel.resize(800, 400);
    panel.show();
    state.setStore(load(QStringLiteral("seed/burst.jsonl")));
    QSignalSpy selection(&state, &ViewState::selectionChanged);
    QItemSelectionModel *selectionModel = panel.view()->selectionModel();
    // Table -> state.
    selectionModel->select(panel.model()->index(3, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QCOMPARE(selection.count(), 1);
    QCOMPARE(state.selection(), RowSet::single(3));
    // State -> table, with no echo back into the state.
    state.setSelection(RowSet::fromRows({1, 2}));
    QCOMPARE(selection.count(), 2);
    QCOMPARE(selectionModel->selectedRows().size(), 2);
    QVERIFY(selectionModel->isRowSelected(1, {}));
    QVERIFY(selectionModel->isRowSelected(2, {}));
    // The same selection again: nothing changes, no signal.
    selectionModel->select(QItemSelection(panel.model()->index(1, 0), panel.model()->index(2, 0)),
                           QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QCOMPARE(selection.count(), 2);
    // The current request follows the table's current row.
    selectionModel->setCurrentIndex(panel.model()->index(7, 0), QItemSelectionModel::NoUpdate);
    QCOMPARE(state.currentRow(), 7);
}

// A live capture grows under the table: what the user asked of it (a text
// and attribute filter, a sort) holds for the new requests too, the slice it
// writes follows, and a trace opened in its place starts afresh.
void tst_RequestTable::liveRefreshKeepsFilterAndSort()
{
    QTemporaryDir dir;
    const QString half = dir.filePath(QStringLiteral("first-half.jsonl"));
    QVERIFY(TestData::firstLines(TestData::fixture(QStringLiteral("seed/multiclass.jsonl")), 120, half));
    const auto before = TraceFileLoader::load(half, {}).store;
    const auto after = load(QStringLiteral("seed/multiclass.jsonl"));
    QCOMPARE(before->requests.rowCount(), 120);
    QCOMPARE(after->requests.rowCount(), 240);

    ViewState state;
    RequestTablePanel panel(&state);
    QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    state.setStore(before);
    QSignalSpy finished(&panel, &RequestTablePanel::queryFinished);
    panel.setAttributeFilter(QStringLiteral("region"), QStringLiteral("ap-south"));
    waitFor(finished);
    const int e2e = columnOf(*panel.model(), RequestColumn::Kind::Metric, Metric::E2e);
    finished.clear();
    panel.sortBy(e2e, Qt::DescendingOrder);
    waitFor(finished);
    QCOMPARE(panel.model()->rowCount(), 42);
    state.setSelection(RowSet::fromRows({panel.model()->storeRowAt(0)}));

    // The ap-south requests of the grown capture, slowest first, computed here.
    const AttributeColumn *region = after->requests.attribute(QStringLiteral("region"));
    QVERIFY(region);
    std::vector<std::pair<double, qint32>> expected;
    for (qsizetype row = 0; row < after->requests.rowCount(); ++row) {
        if (region->text(row) == QLatin1String("ap-south"))
            expected.emplace_back(-double(after->requests.stamp(row, Stamp::LastTokenClient)
                                          - after->requests.stamp(row, Stamp::ClientSend)),
                                  qint32(row));
    }
    std::stable_sort(expected.begin(), expected.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    QCOMPARE(expected.size(), size_t(82));

    finished.clear();
    QSignalSpy slices(&state, &ViewState::sliceChanged);
    state.refreshStore(after, true);
    // Until the query answers, the rows shown before stay (not all 240); the
    // slice the other views compute on already holds the new matches.
    QCOMPARE(panel.model()->rowCount(), 42);
    QVERIFY(state.hasSlice());
    QCOMPARE(state.slice().size(), 82);
    QCOMPARE(state.sliceLabel(), QStringLiteral("region = ap-south"));
    // Still the table's own filter, not a slice from elsewhere.
    QVERIFY(panel.findChild<QToolButton *>(QStringLiteral("clearSlice"))->isHidden());
    waitFor(finished);
    QCOMPARE(slices.count(), 0); // the query found the same rows: no second recompute
    QCOMPARE(panel.model()->rowCount(), 82);
    // Slowest first (ties in any order), and exactly those requests.
    std::vector<qint32> shownRows;
    std::vector<qint32> expectedRows;
    for (int i = 0; i < 82; ++i) {
        const qint32 row = panel.model()->storeRowAt(i);
        QCOMPARE(
            -double(after->requests.stamp(row, Stamp::LastTokenClient) - after->requests.stamp(row, Stamp::ClientSend)),
            expected[size_t(i)].first);
        shownRows.push_back(row);
        expectedRows.push_back(expected[size_t(i)].second);
    }
    std::sort(shownRows.begin(), shownRows.end());
    std::sort(expectedRows.begin(), expectedRows.end());
    QCOMPARE(shownRows, expectedRows);
    QCOMPARE(panel.view()->horizontalHeader()->sortIndicatorSection(), e2e);
    QCOMPARE(panel.view()->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
    QCOMPARE(panel.filterAttribute(), QStringLiteral("region"));
    QCOMPARE(panel.filterValue(), QStringLiteral("ap-south"));
    QVERIFY(state.hasSlice());
    QCOMPARE(state.slice().size(), 82);
    QCOMPARE(state.sliceLabel(), QStringLiteral("region = ap-south"));
    // The selected request is still selected in the table.
    QCOMPARE(panel.view()->selectionModel()->selectedRows().size(), 1);
    QCOMPARE(panel.view()->selectionModel()->selectedRows().first().data(RequestTableModel::RowRole).toInt(),
             state.selection().rows().front());

    // A text filter typed in the box holds too.
    finished.clear();
    panel.setTextFilter(QStringLiteral("interactive"));
    waitFor(finished);
    QCOMPARE(panel.model()->rowCount(), 63);
    finished.clear();
    state.refreshStore(before, false); // rows moved: shown in arrival order until answered
    waitFor(finished);
    QCOMPARE(panel.filterEdit()->text(), QStringLiteral("interactive"));
    QCOMPARE(panel.textFilter(), QStringLiteral("interactive"));
    QCOMPARE(state.sliceLabel(), QStringLiteral("text ~ \"interactive\" and region = ap-south"));
    QVERIFY(panel.model()->rowCount() > 0);
    QVERIFY(panel.model()->rowCount() < 42);

    // A trace opened in its place: no filter, no sort, no slice.
    state.setStore(load(QStringLiteral("seed/multiclass.jsonl")));
    QCOMPARE(panel.model()->rowCount(), 240);
    QVERIFY(panel.filterEdit()->text().isEmpty());
    QVERIFY(panel.filterAttribute().isEmpty());
    QCOMPARE(panel.view()->horizontalHeader()->sortIndicatorSection(), -1);
    QVERIFY(!state.hasSlice());
}

void tst_RequestTable::rejectedModelAndExport()
{
    ViewState state;
    RejectedRecordsPanel panel(&state);
    QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    state.setStore(load(QStringLiteral("malformed/missing-field.jsonl")));
    RejectedRecordsModel *model = panel.model();
    QCOMPARE(model->rowCount(), 1);
    QCOMPARE(model->index(0, RejectedRecordsModel::File).data().toString(), QStringLiteral("missing-field.jsonl"));
    QCOMPARE(model->index(0, RejectedRecordsModel::Line).data().toString(), QStringLiteral("2"));
    QCOMPARE(model->index(0, RejectedRecordsModel::Request).data().toString(), QStringLiteral("r-002"));
    QCOMPARE(model->index(0, RejectedRecordsModel::Field).data().toString(), QStringLiteral("queue_enter_ms"));
    QCOMPARE(model->index(0, RejectedRecordsModel::Reason).data().toString(),
             QStringLiteral("missing fields: queue_enter_ms, prefill_end_ms"));
    const QString file = state.store()->rejected.front().file;
    QCOMPARE(panel.copyText(),
             QStringLiteral("file\tline\trequest_id\tfield\treason\n") + file
                 + QStringLiteral("\t2\tr-002\tqueue_enter_ms\tmissing fields: queue_enter_ms, "
                                  "prefill_end_ms\n"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("rejected.csv"));
    QVERIFY(panel.exportCsv(path));
    QFile csv(path);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(csv.readAll()),
             QStringLiteral("file,line,request_id,field,reason\n") + file
                 + QStringLiteral(",2,r-002,queue_enter_ms,\"missing fields: queue_enter_ms, prefill_end_ms\"\n"));
}

QTEST_MAIN(tst_RequestTable)
#include "tst_requesttable.moc"
