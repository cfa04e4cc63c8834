// The rows of each class-table cell: what a selected cell filters to.

#include "TraceBuilder.h"

#include "analysis/classes/ClassCellRows.h"
#include "analysis/classes/ClassColumn.h"
#include "analysis/classes/ClassTable.h"
#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/ColumnCache.h"

#include <QTest>

namespace {

// Rows 0..5: eu/chat, eu/doc, ap/chat, eu/chat, ap/doc, ap/chat.
std::shared_ptr<TraceStore> sixRequests()
{
    const char *regions[] = {"eu", "eu", "ap", "eu", "ap", "ap"};
    const char *kinds[] = {"chat", "doc", "chat", "chat", "doc", "chat"};
    TraceBuilder builder;
    for (int i = 0; i < 6; ++i) {
        TestRequest request;
        request.phasesMs[size_t(Phase::Queue)] = 10.0 * (i + 1);
        builder.add(request.with(QStringLiteral("region"), QString::fromLatin1(regions[i]))
                        .with(QStringLiteral("kind"), QString::fromLatin1(kinds[i])));
    }
    return builder.store();
}

} // namespace

class tst_ClassCellRows : public QObject
{
    Q_OBJECT

private slots:
    void rowsPerCell_data();
    void rowsPerCell();
};

void tst_ClassCellRows::rowsPerCell_data()
{
    QTest::addColumn<QStringList>("dimensions");
    QTest::addColumn<QList<qint32>>("slice"); // empty: every row
    QTest::addColumn<QStringList>("cells");   // "label: rows"

    QTest::newRow("one dimension, whole trace")
        << QStringList{QStringLiteral("region")} << QList<qint32>{}
        << QStringList{QStringLiteral("ap: 2 4 5"), QStringLiteral("eu: 0 1 3")};
    QTest::newRow("two dimensions") << QStringList{QStringLiteral("region"), QStringLiteral("kind")} << QList<qint32>{}
                                    << QStringList{
                                           QStringLiteral("ap \u00b7 chat: 2 5"), QStringLiteral("ap \u00b7 doc: 4"),
                                           QStringLiteral("eu \u00b7 chat: 0 3"), QStringLiteral("eu \u00b7 doc: 1")};
    QTest::newRow("within a slice") << QStringList{QStringLiteral("kind")} << QList<qint32>{0, 1, 2}
                                    << QStringList{QStringLiteral("chat: 0 2"), QStringLiteral("doc: 1")};
}

void tst_ClassCellRows::rowsPerCell()
{
    QFETCH(QStringList, dimensions);
    QFETCH(QList<qint32>, slice);
    QFETCH(QStringList, cells);
    const auto store = sixRequests();
    const RequestTable &table = store->requests;
    std::vector<ClassColumn> columns;
    for (const QString &key : dimensions) {
        ClassDimension dimension;
        QVERIFY(classDimensionFromKey(table, key, &dimension));
        columns.push_back(ClassColumn::build(table, dimension));
    }
    const std::vector<qint32> members(slice.begin(), slice.end());
    const RequestSlice scope
        = slice.isEmpty() ? RequestSlice::all(table.rowCount()) : RequestSlice::fromRows(table.rowCount(), members);
    ColumnCache cache(store);
    const ClassTable classes = computeClassTable(*cache.metric(Metric::Ttft, Boundary::Client), columns, scope, {});
    const auto rows = classCellRows(classes, columns, scope);
    QCOMPARE(rows.size(), classes.cells.size());
    QStringList actual;
    for (size_t i = 0; i < rows.size(); ++i) {
        QStringList numbers;
        for (const qint32 row : rows[i])
            numbers << QString::number(row);
        actual << classes.cells[i].label() + QStringLiteral(": ") + numbers.join(QLatin1Char(' '));
        QCOMPARE(qint64(rows[i].size()), classes.cells[i].requests);
    }
    QCOMPARE(actual, cells);
}

QTEST_GUILESS_MAIN(tst_ClassCellRows)
#include "tst_classcellrows.moc"
