// The Classes dock on a constructed mixture (180 chat requests, 20 document
// requests that carry the overall p95): exact cells, the mixture warning,
// the CDF legend, and a selected cell filtering the swimlanes.

#include "ClassCdfPlot.h"
#include "ClassTableModel.h"
#include "ClassTablePanel.h"
#include "SwimlaneCanvas.h"
#include "SwimlaneView.h"
#include "ViewState.h"
#include "analysis/lanes/LaneLayout.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"
#include "support/TestData.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>

namespace {

std::shared_ptr<TraceStore> load(const QString &name)
{
    const LoadResult result = TraceFileLoader::load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/classes/") + name, {});
    if (!result.ok())
        qFatal("cannot load %s: %s", qPrintable(name), qPrintable(result.fatalError));
    return result.store;
}

// Small jobs may finish before the spy is read: only wait when nothing came yet.
void waitFor(QSignalSpy &spy)
{
    if (spy.isEmpty())
        QVERIFY(spy.wait(10'000));
}

// A Classes panel and a swimlane view on one view-state, on mixture.jsonl,
// split by workload.
struct Fixture
{
    ViewState state;
    ClassTablePanel panel{&state};
    SwimlaneView lanes{&state};
    QAbstractItemModelTester tester{panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest};
    QAbstractItemModelTester sortTester{panel.view()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest};

    Fixture()
    {
        panel.resize(1400, 500);
        lanes.resize(900, 500);
        QSignalSpy table(&panel, &ClassTablePanel::tableReady);
        QSignalSpy layout(&lanes, &SwimlaneView::layoutReady);
        state.setStore(load(QStringLiteral("mixture.jsonl")));
        waitFor(table);
        waitFor(layout);
    }
    QString text(int row, int column) const { return panel.model()->index(row, column).data().toString(); }
    int column(ClassTableModel::Column c) const { return panel.model()->column(c); }
    qint64 laneCount() const { return lanes.canvas()->laneLayout()->slotCount(); }
    void split(const QStringList &keys)
    {
        QSignalSpy table(&panel, &ClassTablePanel::tableReady);
        QVERIFY(panel.setDimensions(keys));
        waitFor(table);
    }
    // Selects these table rows and waits until the swimlanes are laid out again.
    void select(const QList<int> &rows)
    {
        QSignalSpy layout(&lanes, &SwimlaneView::layoutReady);
        panel.selectCells(rows);
        waitFor(layout);
    }
};

} // namespace

class tst_ClassTablePanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void cells_data();
    void cells();
    void mixtureWarning();
    void tooFewRequestsTooltip();
    void cdfLegendNamesClassesWithN();
    void selectingACellFiltersTheSwimlanes();
    void sliceFromElsewhereRecomputes();
    void filterClearedElsewhereDropsThePick();
    void liveRefreshKeepsThePick();
    void sortKeepsOverallLast_data();
    void sortKeepsOverallLast();
    void twoDimensions();
    void editedBandEdges();
    void badBandEdgesAreRefused();
};

void tst_ClassTablePanel::cells_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("text");
    using C = ClassTableModel::Column;
    // The same figures as `tracelane-cli slice mixture.jsonl --by workload`.
    const struct
    {
        const char *name;
        int row;
        C column;
        const char *text;
    } rows[] = {
        {"chat requests", 0, C::Requests, "180"},
        {"chat share", 0, C::RequestShare, "90.0%"},
        {"chat n", 0, C::N, "180"},
        {"chat p50", 0, C::P50, "144.8 [138.0\u2013151.5]"},
        {"chat p90", 0, C::P90, "180.6 [176.5\u2013184.5]"},
        {"chat p95", 0, C::P95, "185.0 [182.0\u2013188.0]"},
        {"chat p99", 0, C::P99, "too few requests"},
        {"chat above p95", 0, C::AboveThreshold, "0"},
        {"chat of set", 0, C::ExceedanceShare, "0.0%"},
        {"document share", 1, C::RequestShare, "10.0%"},
        {"document p50", 1, C::P50, "1475.0 [1250.0\u20131700.0]"},
        {"document p90", 1, C::P90, "too few requests"},
        {"document above p95", 1, C::AboveThreshold, "10"},
        {"document of set", 1, C::ExceedanceShare, "100.0%"},
        {"overall requests", 2, C::Requests, "200"},
        {"overall p50", 2, C::P50, "149.8 [142.5\u2013157.0]"},
        {"overall p90", 2, C::P90, "270.5 [185.0\u20131400.0]"},
        {"overall p95", 2, C::P95, "1452.5 [1150.0\u20131800.0]"},
        {"overall p99", 2, C::P99, "too few requests"},
        {"overall of set", 2, C::ExceedanceShare, "100.0%"},
    };
    for (const auto &r : rows)
        QTest::newRow(r.name) << r.row << int(r.column) << QString::fromUtf8(r.text);
}

void tst_ClassTablePanel::cells()
{
    QFETCH(int, row);
    QFETCH(int, column);
    QFETCH(QString, text);
    Fixture f;
    QCOMPARE(f.panel.dimensions(), QStringList{QStringLiteral("workload")});
    QCOMPARE(f.panel.model()->rowCount(), 3);
    QCOMPARE(f.text(0, 0), QStringLiteral("chat"));
    QCOMPARE(f.text(1, 0), QStringLiteral("document"));
    QCOMPARE(f.text(2, 0), QStringLiteral("overall"));
    QCOMPARE(f.panel.model()->headerData(f.column(ClassTableModel::P95), Qt::Horizontal).toString(),
             QStringLiteral("p95 [95% CI], ms"));
    QCOMPARE(f.text(row, f.panel.model()->dimensionColumns() + column), text);
}

void tst_ClassTablePanel::mixtureWarning()
{
    Fixture f;
    QVERIFY(!f.panel.mixtureLabel()->isHidden());
    QCOMPARE(f.panel.mixtureLabel()->text(),
             QStringLiteral("\u26a0 Mixture: the overall p95 TTFT is carried by workload = document. 10 of the 10 "
                            "requests above it (100%) are in that class, which is 10% of all requests: 10.0 times its "
                            "share. Read the class rows, not the overall row. (Warned when one class holds at least "
                            "half of the requests above the percentile and at least twice its share of all "
                            "requests.)"));
    // Split by region: every document is in eu, half of the requests, so eu
    // holds the whole set at exactly twice its share: the rule's edge, warned.
    f.split({QStringLiteral("region")});
    QVERIFY(!f.panel.mixtureLabel()->isHidden());
    QVERIFY2(f.panel.mixtureLabel()->text().contains(
                 QStringLiteral("carried by region = eu. 10 of the 10 requests above it (100%) are in that class, "
                                "which is 50% of all requests: 2.0 times its share.")),
             qPrintable(f.panel.mixtureLabel()->text()));
}

void tst_ClassTablePanel::tooFewRequestsTooltip()
{
    Fixture f;
    const QString tip = f.panel.model()->index(1, f.column(ClassTableModel::P95)).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.startsWith(QStringLiteral("p95 of 20 requests: a 95% interval needs at least 72 requests")),
             qPrintable(tip));
    QCOMPARE(f.panel.model()->index(1, f.column(ClassTableModel::P95)).data(ClassTableModel::SortRole).toDouble(),
             std::nan(""));
}

void tst_ClassTablePanel::cdfLegendNamesClassesWithN()
{
    Fixture f;
    QCOMPARE(f.panel.cdfPlot()->legendNames(),
             (QStringList{QStringLiteral("chat (n = 180)"), QStringLiteral("document (n = 20)"),
                          QStringLiteral("overall (n = 200)")}));
    f.select({1});
    QCOMPARE(f.panel.cdfPlot()->legendNames(),
             (QStringList{QStringLiteral("document (n = 20)"), QStringLiteral("overall (n = 200)")}));
}

void tst_ClassTablePanel::selectingACellFiltersTheSwimlanes()
{
    Fixture f;
    QCOMPARE(f.laneCount(), 200);
    QSignalSpy slice(&f.state, &ViewState::sliceChanged);
    QSignalSpy table(&f.panel, &ClassTablePanel::tableReady);

    f.select({1});
    QCOMPARE(slice.count(), 1);
    QCOMPARE(f.state.slice().size(), 20);
    QCOMPARE(f.state.sliceLabel(), QStringLiteral("workload = document"));
    QCOMPARE(f.laneCount(), 20);
    // The table keeps the scope it was computed on: it does not shrink to the class.
    QCOMPARE(table.count(), 0);
    QCOMPARE(f.text(2, f.column(ClassTableModel::Requests)), QStringLiteral("200"));

    // Both classes: every request again, but as a filter.
    f.select({0, 1});
    QCOMPARE(f.state.slice().size(), 200);
    QCOMPARE(f.state.sliceLabel(), QStringLiteral("workload = chat or workload = document"));

    // Selecting the same rows again changes nothing.
    slice.clear();
    f.panel.selectCells({0, 1});
    QCOMPARE(slice.count(), 0);

    // No class picked: the filter is lifted.
    QSignalSpy layout(&f.lanes, &SwimlaneView::layoutReady);
    f.panel.view()->clearSelection();
    QVERIFY(!f.state.hasSlice());
    waitFor(layout);
    QCOMPARE(f.laneCount(), 200);
}

void tst_ClassTablePanel::sliceFromElsewhereRecomputes()
{
    Fixture f;
    std::vector<qint32> first;
    for (qint32 row = 0; row < 100; ++row)
        first.push_back(row);
    QSignalSpy table(&f.panel, &ClassTablePanel::tableReady);
    f.state.setSlice(RowSet::fromSortedUnique(first), QStringLiteral("first 100"));
    waitFor(table);
    QCOMPARE(f.panel.model()->table().sliceRequests, 100);
    const int overall = f.panel.model()->overallRow();
    QCOMPARE(f.text(overall, f.column(ClassTableModel::Requests)), QStringLiteral("100"));

    // A cell picked inside that scope names both, and clearing it restores the scope.
    f.select({0});
    QVERIFY(f.state.sliceLabel().startsWith(QStringLiteral("first 100; workload = ")));
    QVERIFY(f.state.slice().size() < 100);
    f.panel.view()->clearSelection();
    QCOMPARE(f.state.slice().size(), 100);
    QCOMPARE(f.state.sliceLabel(), QStringLiteral("first 100"));
}

void tst_ClassTablePanel::filterClearedElsewhereDropsThePick()
{
    Fixture f;
    f.select({1});
    QCOMPARE(f.state.slice().size(), 20);
    QSignalSpy table(&f.panel, &ClassTablePanel::tableReady);
    f.state.clearSlice(); // e.g. "Clear slice" in the request table
    QVERIFY(f.panel.view()->selectionModel()->selectedRows().isEmpty());
    QVERIFY(!f.state.hasSlice());
    QCOMPARE(f.panel.cdfPlot()->legendNames().size(), 3); // back to every class and overall
    QCOMPARE(table.count(), 0);                           // the scope did not change: no recompute
}

// A live capture grows: the class the user picked stays picked in the table of
// the grown capture, and its filter now holds its new requests too.
void tst_ClassTablePanel::liveRefreshKeepsThePick()
{
    QTemporaryDir dir;
    const QString part = dir.filePath(QStringLiteral("first.jsonl"));
    QVERIFY(TestData::firstLines(TestData::fixture(QStringLiteral("classes/mixture.jsonl")), 120, part));
    const auto before = TraceFileLoader::load(part, {}).store;
    const auto after = load(QStringLiteral("mixture.jsonl"));
    const auto documentRows = [](const TraceStore &store) {
        const AttributeColumn *workload = store.requests.attribute(QStringLiteral("workload"));
        qint64 count = 0;
        for (qsizetype row = 0; workload && row < store.requests.rowCount(); ++row)
            count += workload->text(row) == QLatin1String("document") ? 1 : 0;
        return count;
    };
    const auto documentCell = [](const ClassTableModel &model) {
        const ClassTable &table = model.table();
        for (size_t cell = 0; cell < table.cells.size(); ++cell) {
            if (table.cells[cell].classes == QStringList{QStringLiteral("document")})
                return int(cell);
        }
        return -1;
    };

    ViewState state;
    QWidget window; // shown, so the panel can be out of sight in it
    auto *layout = new QVBoxLayout(&window);
    ClassTablePanel &panel = *new ClassTablePanel(&state, &window);
    layout->addWidget(&panel);
    window.resize(1400, 500);
    window.show();
    QSignalSpy table(&panel, &ClassTablePanel::tableReady);
    state.setStore(before);
    waitFor(table);
    const int cell = documentCell(*panel.model());
    QVERIFY(cell >= 0);
    panel.selectCells({cell});
    QCOMPARE(state.sliceLabel(), QStringLiteral("workload = document"));
    QCOMPARE(state.slice().size(), documentRows(*before));

    table.clear();
    QSignalSpy slices(&state, &ViewState::sliceChanged);
    bool pickedDuringStoreChanged = false;
    const auto watch = connect(&state, &ViewState::storeChanged, this, [&] {
        // In place before the views rebuild: the class's requests in the grown capture.
        pickedDuringStoreChanged = state.sliceLabel() == QStringLiteral("workload = document")
            && state.slice().size() == documentRows(*after);
    });
    state.refreshStore(after, true);
    QVERIFY(pickedDuringStoreChanged);
    disconnect(watch);
    waitFor(table);
    QVERIFY(documentRows(*after) > documentRows(*before));
    QCOMPARE(state.sliceLabel(), QStringLiteral("workload = document"));
    QCOMPARE(state.slice().size(), documentRows(*after));
    QCOMPARE(slices.count(), 0); // picked again on the same rows: the other views computed once
    const QModelIndexList picked = panel.view()->selectionModel()->selectedRows();
    QCOMPARE(picked.size(), 1);
    QCOMPARE(panel.model()->table().cells[size_t(documentCell(*panel.model()))].classes,
             QStringList{QStringLiteral("document")});

    // After an eviction (rows moved) the pick is dropped, then picked again in the new table.
    table.clear();
    state.refreshStore(before, false);
    QVERIFY(!state.hasSlice());
    waitFor(table);
    QCOMPARE(state.sliceLabel(), QStringLiteral("workload = document"));
    QCOMPARE(state.slice().size(), documentRows(*before));

    // Out of sight, the pick waits through several refreshes and holds meanwhile.
    panel.hide();
    state.refreshStore(after, true);
    state.refreshStore(load(QStringLiteral("mixture.jsonl")), true);
    QCOMPARE(state.sliceLabel(), QStringLiteral("workload = document"));
    QCOMPARE(state.slice().size(), documentRows(*after));
    table.clear();
    panel.show();
    waitFor(table);
    QCOMPARE(state.slice().size(), documentRows(*after));
    QCOMPARE(panel.view()->selectionModel()->selectedRows().size(), 1);

    // A trace opened in its place starts with nothing picked.
    table.clear();
    state.setStore(load(QStringLiteral("mixture.jsonl")));
    waitFor(table);
    QVERIFY(!state.hasSlice());
    QVERIFY(panel.view()->selectionModel()->selectedRows().isEmpty());
}

void tst_ClassTablePanel::sortKeepsOverallLast_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("order");
    QTest::addColumn<QStringList>("rows");
    using C = ClassTableModel::Column;
    // By region: eu p95 1702.5 ms, us 185.0 ms; p99 too few in both.
    QTest::newRow("p95 descending") << int(C::P95) << int(Qt::DescendingOrder)
                                    << QStringList{QStringLiteral("eu"), QStringLiteral("us"),
                                                   QStringLiteral("overall")};
    QTest::newRow("p95 ascending") << int(C::P95) << int(Qt::AscendingOrder)
                                   << QStringList{QStringLiteral("us"), QStringLiteral("eu"),
                                                  QStringLiteral("overall")};
    QTest::newRow("class descending") << -1 << int(Qt::DescendingOrder)
                                      << QStringList{QStringLiteral("us"), QStringLiteral("eu"),
                                                     QStringLiteral("overall")};
    QTest::newRow("p99 (too few everywhere) keeps the table order")
        << int(C::P99) << int(Qt::DescendingOrder)
        << QStringList{QStringLiteral("eu"), QStringLiteral("us"), QStringLiteral("overall")};
}

void tst_ClassTablePanel::sortKeepsOverallLast()
{
    QFETCH(int, column);
    QFETCH(int, order);
    QFETCH(QStringList, rows);
    Fixture f;
    f.split({QStringLiteral("region")});
    QTableView *view = f.panel.view();
    view->sortByColumn(column < 0 ? 0 : f.column(ClassTableModel::Column(column)), Qt::SortOrder(order));
    QStringList shown;
    for (int row = 0; row < view->model()->rowCount(); ++row)
        shown << view->model()->index(row, 0).data().toString();
    QCOMPARE(shown, rows);
    // Picking the first shown row filters to that class, whatever the order.
    view->selectRow(0);
    QCOMPARE(f.state.sliceLabel(), QStringLiteral("region = ") + rows.first());
    QCOMPARE(f.state.slice().size(), 100);
}

void tst_ClassTablePanel::twoDimensions()
{
    Fixture f;
    f.split({QStringLiteral("workload"), QStringLiteral("region")});
    const ClassTableModel &model = *f.panel.model();
    QCOMPARE(model.dimensionColumns(), 2);
    QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("workload"));
    QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("region"));
    QCOMPARE(model.rowCount(), int(model.table().cells.size()) + 1);
    qint64 requests = 0;
    for (const auto &cell : model.table().cells)
        requests += cell.requests;
    QCOMPARE(requests, 200);
    QCOMPARE(f.text(0, 0), QStringLiteral("chat"));
}

void tst_ClassTablePanel::editedBandEdges()
{
    Fixture f;
    f.split({QStringLiteral("prompt_band")});
    QSignalSpy table(&f.panel, &ClassTablePanel::tableReady);
    QVERIFY(f.panel.setBands(QStringLiteral("1000"), QStringLiteral("512, 2k, 8k")));
    waitFor(table);
    QStringList labels;
    for (int row = 0; row < f.panel.model()->overallRow(); ++row)
        labels << f.text(row, 0);
    QCOMPARE(labels, (QStringList{QStringLiteral("<1k"), QStringLiteral("\u22651k")}));
    QCOMPARE(f.panel.findChild<QLineEdit *>(QStringLiteral("classPromptBands"))->text(), QStringLiteral("1k"));
}

void tst_ClassTablePanel::badBandEdgesAreRefused()
{
    Fixture f;
    QString error;
    QVERIFY(!f.panel.setBands(QStringLiteral("2k, 1k"), QStringLiteral("512"), &error));
    QVERIFY2(error.startsWith(QStringLiteral("Prompt bands: ")), qPrintable(error));
}

QTEST_MAIN(tst_ClassTablePanel)
#include "tst_classtablepanel.moc"
