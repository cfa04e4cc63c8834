// SpanTable's column bookkeeping: reorder moves every per-span column with
// its row, and reserve / shrinkToFit / memoryBytes see every column (they
// all go through one visitor).

#include "store/SpanTable.h"

#include <QTest>

#include <string>

namespace {

// Span i: every column holds a value that names i.
SpanTable threeSpans()
{
    SpanTable table;
    static const std::string ids[] = {"span-0", "span-1", "span-2"};
    static const std::string names[] = {"name-0", "name-1", "name-2"};
    static const std::string operations[] = {"op-0", "op-1", "op-2"};
    static const std::string services[] = {"svc-0", "svc-1", "svc-2"};
    for (int i = 0; i < 3; ++i) {
        SpanTable::Row row;
        row.workflow = 10 + i;
        row.parent = i == 0 ? -1 : 0;
        row.start = 1000 * i;
        row.end = 1000 * i + 500 + i;
        row.spanId = ids[i];
        row.name = names[i];
        row.operation = operations[i];
        row.service = services[i];
        row.kind = static_cast<SpanKind>(1 + i);
        row.category = static_cast<SpanCategory>(i);
        row.status = static_cast<SpanStatus>(i);
        row.flags = quint8(1 << i);
        row.inputTokens = 100 + i;
        row.outputTokens = 200 + i;
        row.sourceLine = quint32(1 + i);
        table.appendSpan(row);
        table.appendAttribute(std::string_view("key"), std::string_view(names[i]), false);
        table.appendEvent(1000 * i + 1, std::string_view(operations[i]));
    }
    return table;
}

} // namespace

class tst_SpanTable : public QObject
{
    Q_OBJECT
private slots:
    void reorderMovesEveryColumn();
    void shrinkToFitLeavesNoSlack();
};

void tst_SpanTable::reorderMovesEveryColumn()
{
    SpanTable table = threeSpans();
    table.reorder({2, 0}); // span 1 is dropped
    QCOMPARE(table.rowCount(), 2);
    const int was[] = {2, 0};
    for (int row = 0; row < 2; ++row) {
        const int i = was[row];
        QCOMPARE(table.workflow(row), 10 + i);
        QCOMPARE(table.start(row), qint64(1000 * i));
        QCOMPARE(table.end(row), qint64(1000 * i + 500 + i));
        QCOMPARE(table.spanIdText(row), QStringLiteral("span-%1").arg(i));
        QCOMPARE(table.name(row), QStringLiteral("name-%1").arg(i));
        QCOMPARE(table.operation(row), QStringLiteral("op-%1").arg(i));
        QCOMPARE(table.service(row), QStringLiteral("svc-%1").arg(i));
        QCOMPARE(table.kind(row), static_cast<SpanKind>(1 + i));
        QCOMPARE(table.category(row), static_cast<SpanCategory>(i));
        QCOMPARE(table.status(row), static_cast<SpanStatus>(i));
        QCOMPARE(table.flags(row), quint8(1 << i));
        QCOMPARE(table.inputTokens(row), 100 + i);
        QCOMPARE(table.outputTokens(row), 200 + i);
        QCOMPARE(table.sourceLine(row), quint32(1 + i));
        QCOMPARE(table.attributeText(row, "key"), QStringLiteral("name-%1").arg(i));
        QCOMPARE(table.events(row).size(), size_t(1));
        QCOMPARE(table.events(row)[0].time, qint64(1000 * i + 1));
    }
    // Span 2's parent was span 0, now row 1; span 0 has none.
    QCOMPARE(table.parent(0), 1);
    QCOMPARE(table.parent(1), -1);
}

void tst_SpanTable::shrinkToFitLeavesNoSlack()
{
    SpanTable table = threeSpans();
    table.reserve(100'000, 100'000);
    const size_t reserved = table.memoryBytes();
    // 17 per-span columns of 1 to 8 bytes and the offsets: well over 2 MB.
    QVERIFY2(reserved > 2'000'000, qPrintable(QString::number(reserved)));
    table.shrinkToFit();
    QVERIFY2(table.memoryBytes() < reserved / 20, qPrintable(QString::number(table.memoryBytes())));
    QCOMPARE(table.rowCount(), 3);
    QCOMPARE(table.name(2), QStringLiteral("name-2"));
}

QTEST_GUILESS_MAIN(tst_SpanTable)
#include "tst_spantable.moc"
