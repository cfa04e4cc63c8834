#include "store/ColumnMemory.h"

#include <QFile>
#include <QTest>

#include <cstdint>

// The store's columns: large ones are mappings of their own on a 2 MiB
// boundary that ask Linux for huge pages; every element reads back as
// written across growth, copies and moves; slack is given back only when
// it is over a quarter of the column.
class tst_ColumnMemory : public QObject
{
    Q_OBJECT

private:
    // The VmFlags of the mapping that holds `address` in /proc/self/smaps.
    static QByteArray vmFlagsAt(const void *address)
    {
        QFile smaps(QStringLiteral("/proc/self/smaps"));
        if (!smaps.open(QIODevice::ReadOnly))
            return {};
        const auto at = reinterpret_cast<uintptr_t>(address);
        bool inside = false;
        for (const QByteArray &line : smaps.readAll().split('\n')) {
            const int dash = line.indexOf('-');
            const int space = line.indexOf(' ');
            if (dash > 0 && space > dash && !line.startsWith("VmFlags")) {
                bool ok1 = false;
                bool ok2 = false;
                const auto begin = line.left(dash).toULongLong(&ok1, 16);
                const auto end = line.mid(dash + 1, space - dash - 1).toULongLong(&ok2, 16);
                if (ok1 && ok2)
                    inside = at >= begin && at < end;
            } else if (inside && line.startsWith("VmFlags:")) {
                return line.mid(8).trimmed();
            }
        }
        return {};
    }

private slots:
    void largeColumnsAskForHugePages()
    {
        if (!ColumnMemory::asksForHugePages())
            QSKIP("this build keeps every column on operator new (not Linux, or a sanitizer build)");
        ColumnVector<qint64> column;
        column.reserve(ColumnMemory::kLargeColumnBytes / sizeof(qint64) + 1000);
        QCOMPARE(reinterpret_cast<uintptr_t>(column.data()) % (uintptr_t{2} << 20), uintptr_t{0});
        const QByteArray flags = vmFlagsAt(column.data());
        QVERIFY2(flags.split(' ').contains("hg"), flags.constData());

        ColumnVector<qint64> small;
        small.reserve(1000);
        QVERIFY2(!vmFlagsAt(small.data()).split(' ').contains("hg") || small.data() == nullptr,
                 "a small column comes from operator new, not a mapping that asks for huge pages");
    }

    void valuesSurviveGrowthCopiesAndMoves()
    {
        // Growth by doubling crosses the size where columns become mappings
        // of their own, both ways: every element must read back.
        ColumnVector<qint64> column;
        const qint64 count = qint64(3 * ColumnMemory::kLargeColumnBytes / sizeof(qint64));
        for (qint64 i = 0; i < count; ++i)
            column.push_back(i * 7 - 3);
        ColumnVector<qint64> copy = column;
        ColumnVector<qint64> moved = std::move(column);
        copy.resize(size_t(count / 100));
        copy.shrink_to_fit();
        QCOMPARE(qint64(moved.size()), count);
        for (qint64 i = 0; i < count; i += 4099)
            QCOMPARE(moved[size_t(i)], i * 7 - 3);
        QCOMPARE(moved.back(), (count - 1) * 7 - 3);
        QCOMPARE(qint64(copy.size()), count / 100);
        QCOMPARE(copy.back(), (count / 100 - 1) * 7 - 3);
    }

    void slackIsGivenBackOnlyWhenLarge()
    {
        ColumnVector<double> reserved;
        reserved.reserve(1200);
        reserved.resize(1000); // a loader's estimate plus a fifth: kept
        ColumnMemory::releaseSlack(reserved);
        QCOMPARE(reserved.capacity(), size_t(1200));

        ColumnVector<double> doubled;
        doubled.reserve(2048);
        doubled.resize(1025); // just past a doubling: given back
        ColumnMemory::releaseSlack(doubled);
        QCOMPARE(doubled.capacity(), size_t(1025));
        QCOMPARE(doubled.size(), size_t(1025));
    }
};

QTEST_GUILESS_MAIN(tst_ColumnMemory)
#include "tst_columnmemory.moc"
