#include "ViewState.h"
#include "store/TraceStore.h"

#include <QSignalSpy>
#include <QTest>

namespace {

std::shared_ptr<TraceStore> storeWithRows(int rows)
{
    auto store = std::make_shared<TraceStore>();
    for (int i = 0; i < rows; ++i) {
        const std::string id = "r" + std::to_string(i);
        RequestTable::Row row;
        row.id = id;
        row.stamps.fill(qint64(i) * 1000);
        store->requests.appendRow(row);
        store->requests.finishRow();
    }
    return store;
}

} // namespace

class tst_ViewState : public QObject
{
    Q_OBJECT
private slots:
    void rowSetSortsAndDropsDuplicates();
    void rowSetIndexRange();
    void selectionSignalsOnlyOnChange();
    void selectRowSetsSelectionAndCurrent();
    void invalidRowsAreIgnored_data();
    void invalidRowsAreIgnored();
    void newStoreResetsRowState();
    void refreshKeepsRowStateOnlyWhenRowsAreKept();
    void sliceKeeperCarriesTheSliceIntoARefresh();
    void sliceScope();
    void scopeTextSaysFilterAndSample();
    void exceedanceCursorFollowsMembers();
    void coordinatesSignalOnlyOnChange();
    void timeAxisChangeInvalidatesWindow();
    void activationIsAnEvent();
};

void tst_ViewState::rowSetSortsAndDropsDuplicates()
{
    const RowSet set = RowSet::fromRows({5, 1, 3, 1, 5});
    QCOMPARE(set.size(), 3);
    QCOMPARE(std::vector<qint32>(set.begin(), set.end()), (std::vector<qint32>{1, 3, 5}));
    QVERIFY(set.contains(3));
    QVERIFY(!set.contains(2));
    QCOMPARE(RowSet::all(4), RowSet::fromRows({3, 2, 1, 0}));
}

void tst_ViewState::rowSetIndexRange()
{
    const RowSet set = RowSet::fromRows({2, 4, 6, 8, 10});
    QCOMPARE(set.indexRange(3, 8), (std::pair<qsizetype, qsizetype>(1, 4)));
    QCOMPARE(set.indexRange(11, 20), (std::pair<qsizetype, qsizetype>(5, 5)));
    QCOMPARE(set.indexRange(0, 1), (std::pair<qsizetype, qsizetype>(0, 0)));
}

void tst_ViewState::selectionSignalsOnlyOnChange()
{
    ViewState state;
    state.setStore(storeWithRows(10));
    QSignalSpy spy(&state, &ViewState::selectionChanged);
    state.setSelection(RowSet::fromRows({1, 2}));
    QCOMPARE(spy.count(), 1);
    state.setSelection(RowSet::fromRows({2, 1, 2})); // same set, other order
    QCOMPARE(spy.count(), 1);
    state.clearSelection();
    QCOMPARE(spy.count(), 2);
    state.clearSelection();
    QCOMPARE(spy.count(), 2);
}

void tst_ViewState::selectRowSetsSelectionAndCurrent()
{
    ViewState state;
    state.setStore(storeWithRows(10));
    QSignalSpy selection(&state, &ViewState::selectionChanged);
    QSignalSpy current(&state, &ViewState::currentRowChanged);
    state.selectRow(7);
    QCOMPARE(state.selection(), RowSet::single(7));
    QCOMPARE(state.currentRow(), 7);
    QCOMPARE(selection.count(), 1);
    QCOMPARE(current.count(), 1);
    QCOMPARE(current.at(0).at(0).toInt(), 7);
    state.selectRow(7);
    QCOMPARE(selection.count(), 1);
    QCOMPARE(current.count(), 1);
}

void tst_ViewState::invalidRowsAreIgnored_data()
{
    QTest::addColumn<int>("row");
    QTest::newRow("negative") << -3;
    QTest::newRow("one past the end") << 10;
    QTest::newRow("far past the end") << 1000000;
}

void tst_ViewState::invalidRowsAreIgnored()
{
    QFETCH(int, row);
    ViewState state;
    state.setStore(storeWithRows(10));
    QSignalSpy current(&state, &ViewState::currentRowChanged);
    QSignalSpy activated(&state, &ViewState::rowActivated);
    state.setCurrentRow(row);
    state.activateRow(row);
    state.setExceedanceCursor(row);
    QCOMPARE(state.currentRow(), -1);
    QCOMPARE(state.exceedanceCursor(), -1);
    QCOMPARE(current.count(), 0);
    QCOMPARE(activated.count(), 0);
}

void tst_ViewState::newStoreResetsRowState()
{
    ViewState state;
    state.setStore(storeWithRows(10));
    state.selectRow(3);
    state.setSlice(RowSet::fromRows({1, 2, 3}), QStringLiteral("region = eu-west"));
    state.setExceedance({Metric::Ttft, Boundary::Client, 100.0, QStringLiteral("TTFT > p95"), RowSet::single(3)});
    state.setExceedanceCursor(3);
    state.setTimeWindow({0, 5000});
    QSignalSpy stores(&state, &ViewState::storeChanged);
    QSignalSpy selection(&state, &ViewState::selectionChanged);
    state.setStore(storeWithRows(4));
    QCOMPARE(stores.count(), 1);
    QCOMPARE(selection.count(), 0); // storeChanged says it all
    QVERIFY(state.selection().isEmpty());
    QCOMPARE(state.currentRow(), -1);
    QVERIFY(!state.hasSlice());
    QVERIFY(!state.hasExceedance());
    QCOMPARE(state.exceedanceCursor(), -1);
    QVERIFY(!state.timeWindow().isValid());
    QCOMPARE(state.requestCount(), 4);
    state.setStore(state.store());
    QCOMPARE(stores.count(), 1);
}

void tst_ViewState::refreshKeepsRowStateOnlyWhenRowsAreKept()
{
    ViewState state;
    state.setStore(storeWithRows(10));
    const auto candidate = storeWithRows(3);
    state.setCandidate(candidate, QStringLiteral("after.jsonl"));
    state.setSelection(RowSet::fromRows({2, 5}));
    state.setCurrentRow(5);
    state.setSlice(RowSet::fromRows({1, 2}), QStringLiteral("region = eu-west"));
    bool keptDuringStoreChanged = false;
    connect(&state, &ViewState::storeChanged, this, [&] {
        // What views see while they rebuild: the kept state, already in place.
        keptDuringStoreChanged
            = state.refreshKeepsRows() && state.selection() == RowSet::fromRows({2, 5}) && state.currentRow() == 5;
    });
    QSignalSpy selection(&state, &ViewState::selectionChanged);
    QSignalSpy current(&state, &ViewState::currentRowChanged);

    // Grown, nothing evicted: selection and current request stay and are announced.
    state.refreshStore(storeWithRows(12), true);
    QVERIFY(keptDuringStoreChanged);
    QVERIFY(!state.refreshKeepsRows()); // only while storeChanged() is delivered
    QCOMPARE(state.selection(), RowSet::fromRows({2, 5}));
    QCOMPARE(state.currentRow(), 5);
    QCOMPARE(selection.count(), 1);
    QCOMPARE(current.count(), 1);
    QCOMPARE(current.first().first().toInt(), 5);
    // A slice set without a keeper is dropped; the candidate stays beside.
    QVERIFY(!state.hasSlice());
    QCOMPARE(state.candidate(), std::shared_ptr<const TraceStore>(candidate));
    QCOMPARE(state.candidateLabel(), QStringLiteral("after.jsonl"));

    // Rows moved (an eviction): nothing row-based survives.
    state.refreshStore(storeWithRows(11), false);
    QVERIFY(!keptDuringStoreChanged);
    QVERIFY(state.selection().isEmpty());
    QCOMPARE(state.currentRow(), -1);
    QCOMPARE(selection.count(), 1);
    QCOMPARE(current.count(), 1);
    QCOMPARE(state.candidateLabel(), QStringLiteral("after.jsonl"));

    // A kept current row past the new end is dropped, not kept dangling.
    state.setCurrentRow(10);
    state.refreshStore(storeWithRows(4), true);
    QCOMPARE(state.currentRow(), -1);

    // A trace opened in its place drops the candidate too.
    state.setStore(storeWithRows(5));
    QVERIFY(!state.candidate());
    QVERIFY(state.candidateLabel().isEmpty());
}

void tst_ViewState::sliceKeeperCarriesTheSliceIntoARefresh()
{
    ViewState state;
    state.setStore(storeWithRows(10));
    // The keeper re-derives its slice on the grown store: here, every odd row.
    int calls = 0;
    RowSet previousSeen;
    qsizetype keptSeen = -1;
    const auto oddRows = [&](const TraceStore &store, const RowSet &previous, qsizetype keptRows) {
        ++calls;
        previousSeen = previous;
        keptSeen = keptRows;
        std::vector<qint32> rows;
        for (qint32 row = 1; row < qint32(store.requests.rowCount()); row += 2)
            rows.push_back(row);
        return std::optional<RowSet>(RowSet::fromSortedUnique(std::move(rows)));
    };
    state.setSlice(RowSet::fromRows({1, 3, 5, 7, 9}), QStringLiteral("odd"), oddRows);
    QSignalSpy slices(&state, &ViewState::sliceChanged);
    bool slicedDuringStoreChanged = false;
    connect(&state, &ViewState::storeChanged, this, [&] {
        // In place before views rebuild: they compute once, on the kept slice.
        slicedDuringStoreChanged = state.hasSlice() && state.sliceLabel() == QStringLiteral("odd");
    });

    state.refreshStore(storeWithRows(14), false);
    QCOMPARE(calls, 1);
    QCOMPARE(previousSeen, RowSet::fromRows({1, 3, 5, 7, 9}));
    QCOMPARE(keptSeen, 0); // rows moved
    QVERIFY(slicedDuringStoreChanged);
    QCOMPARE(state.slice(), RowSet::fromRows({1, 3, 5, 7, 9, 11, 13}));
    QCOMPARE(slices.count(), 0); // a store change already tells views to recompute

    // The keeper stays with the slice across refreshes.
    state.refreshStore(storeWithRows(16), true);
    QCOMPARE(calls, 2);
    QCOMPARE(keptSeen, 14); // the old store's rows lead the new one
    QCOMPARE(state.slice().size(), 8);

    // A keeper that gives nothing drops the slice.
    state.setSlice(RowSet::fromRows({2, 4}), QStringLiteral("filter"),
                   [](const TraceStore &, const RowSet &, qsizetype) { return std::optional<RowSet>(); });
    state.refreshStore(storeWithRows(18), true);
    QVERIFY(!state.hasSlice());
    QVERIFY(state.sliceLabel().isEmpty());

    // A slice set without a keeper, or after one was cleared, is dropped.
    state.setSlice(RowSet::fromRows({1}), QStringLiteral("odd"), oddRows);
    state.clearSlice();
    state.setSlice(RowSet::fromRows({1}), QStringLiteral("plain"));
    calls = 0;
    state.refreshStore(storeWithRows(19), true);
    QCOMPARE(calls, 0);
    QVERIFY(!state.hasSlice());

    // A trace opened in its place never keeps a slice.
    state.setSlice(RowSet::fromRows({1}), QStringLiteral("odd"), oddRows);
    state.setStore(storeWithRows(30));
    QCOMPARE(calls, 0);
    QVERIFY(!state.hasSlice());
}

void tst_ViewState::sliceScope()
{
    ViewState state;
    state.setStore(storeWithRows(6));
    QSignalSpy spy(&state, &ViewState::sliceChanged);
    QCOMPARE(state.scopeSize(), 6);
    QVERIFY(state.inScope(5));
    state.setSlice(RowSet::fromRows({0, 2}), QStringLiteral("priority = batch"));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(state.scopeSize(), 2);
    QVERIFY(!state.inScope(5));
    QCOMPARE(state.rowsInScope(), RowSet::fromRows({0, 2}));
    QCOMPARE(state.sliceLabel(), QStringLiteral("priority = batch"));
    state.setSlice(RowSet::fromRows({2, 0}), QStringLiteral("priority = batch"));
    QCOMPARE(spy.count(), 1);
    // An empty slice is a real slice (a filter that matched nothing).
    state.setSlice({}, QStringLiteral("region = mars"));
    QCOMPARE(spy.count(), 2);
    QCOMPARE(state.scopeSize(), 0);
    state.clearSlice();
    QCOMPARE(spy.count(), 3);
    QCOMPARE(state.rowsInScope(), RowSet::all(6));
    state.clearSlice();
    QCOMPARE(spy.count(), 3);
}

void tst_ViewState::scopeTextSaysFilterAndSample()
{
    // What every aggregate's title says its population is.
    ViewState state;
    QCOMPARE(state.scopeText(), QStringLiteral("whole trace"));
    state.setStore(storeWithRows(6));
    QCOMPARE(state.scopeText(), QStringLiteral("whole trace"));
    state.setSlice(RowSet::fromRows({0, 2}), QStringLiteral("priority = batch"));
    QCOMPARE(state.scopeText(), QStringLiteral("filter: priority = batch"));
    QCOMPARE(state.scopeText(false, QStringLiteral("ignored")), QStringLiteral("whole trace"));
    // A server's sample says so, filtered or not.
    auto sampled = storeWithRows(6);
    sampled->sampleOneIn = 20;
    state.setStore(sampled);
    QCOMPARE(state.scopeText(), QStringLiteral("1-in-20 sample"));
    state.setSlice(RowSet::fromRows({1}), QStringLiteral("region = eu-west"));
    QCOMPARE(state.scopeText(), QStringLiteral("filter: region = eu-west \u00b7 1-in-20 sample"));
    QCOMPARE(state.scopeText(true, QStringLiteral("a pick")), QStringLiteral("filter: a pick \u00b7 1-in-20 sample"));
}

void tst_ViewState::exceedanceCursorFollowsMembers()
{
    ViewState state;
    state.setStore(storeWithRows(10));
    QSignalSpy marks(&state, &ViewState::exceedanceChanged);
    QSignalSpy cursor(&state, &ViewState::exceedanceCursorChanged);
    QSignalSpy current(&state, &ViewState::currentRowChanged);
    state.setExceedance(
        {Metric::Ttft, Boundary::Client, 250.0, QStringLiteral("TTFT > p90"), RowSet::fromRows({4, 8})});
    QCOMPARE(marks.count(), 1);
    QVERIFY(state.isExceedanceMember(8));
    QVERIFY(!state.isExceedanceMember(5));
    state.setExceedanceCursor(8);
    QCOMPARE(cursor.count(), 1);
    QCOMPARE(state.currentRow(), 8);
    QCOMPARE(current.count(), 1);
    // Same marks again: nothing changes.
    state.setExceedance(
        {Metric::Ttft, Boundary::Client, 250.0, QStringLiteral("TTFT > p90"), RowSet::fromRows({4, 8})});
    QCOMPARE(marks.count(), 1);
    // New marks without the cursor's row drop the cursor.
    state.setExceedance({Metric::E2e, Boundary::Client, 900.0, QStringLiteral("E2E > p95"), RowSet::single(4)});
    QCOMPARE(marks.count(), 2);
    QCOMPARE(cursor.count(), 2);
    QCOMPARE(state.exceedanceCursor(), -1);
    state.clearExceedance();
    QCOMPARE(marks.count(), 3);
    QVERIFY(!state.hasExceedance());
}

void tst_ViewState::coordinatesSignalOnlyOnChange()
{
    ViewState state;
    QSignalSpy boundary(&state, &ViewState::boundaryChanged);
    QSignalSpy metric(&state, &ViewState::metricChanged);
    QSignalSpy window(&state, &ViewState::timeWindowChanged);
    state.setBoundary(Boundary::Client);
    state.setMetric(Metric::Ttft);
    QCOMPARE(boundary.count(), 0);
    QCOMPARE(metric.count(), 0);
    state.setBoundary(Boundary::Engine);
    state.setMetric(Metric::E2e);
    QCOMPARE(boundary.count(), 1);
    QCOMPARE(metric.count(), 1);
    QCOMPARE(state.boundary(), Boundary::Engine);
    QCOMPARE(state.metric(), Metric::E2e);
    state.setTimeWindow({100, 200});
    state.setTimeWindow({100, 200});
    QCOMPARE(window.count(), 1);
    QCOMPARE(window.at(0).at(0).value<TimeWindow>(), (TimeWindow{100, 200}));
}

void tst_ViewState::timeAxisChangeInvalidatesWindow()
{
    ViewState state;
    QSignalSpy axis(&state, &ViewState::timeAxisChanged);
    state.setTimeWindow({100, 200});
    state.setTimeAxis(TimeAxis::AlignedAtSend);
    QCOMPARE(axis.count(), 1);
    QVERIFY(!state.timeWindow().isValid());
    state.setTimeAxis(TimeAxis::AlignedAtSend);
    QCOMPARE(axis.count(), 1);
}

void tst_ViewState::activationIsAnEvent()
{
    ViewState state;
    state.setStore(storeWithRows(3));
    QSignalSpy activated(&state, &ViewState::rowActivated);
    state.activateRow(2);
    state.activateRow(2);
    QCOMPARE(activated.count(), 2);
    QCOMPARE(state.currentRow(), -1); // activating does not move the cursor
}

QTEST_GUILESS_MAIN(tst_ViewState)
#include "tst_viewstate.moc"
