#include "SeededRandom.h"
#include "analysis/stats/ValueSort.h"

#include <QTest>

#include <algorithm>
#include <limits>
#include <vector>

// ValueSort against std::sort on every kind of number, both below the size
// where it falls back to a comparison sort and above it.
class tst_ValueSort : public QObject
{
    Q_OBJECT
private slots:
    void doubles_data();
    void doubles();
    void integers_data();
    void integers();
};

void tst_ValueSort::doubles_data()
{
    QTest::addColumn<int>("n");
    QTest::newRow("small: comparison sort") << 100;
    QTest::newRow("large: radix sort") << 100'000;
}

void tst_ValueSort::doubles()
{
    QFETCH(int, n);
    SeededRandom random(5);
    std::vector<double> values;
    const double specials[] = {0.0,
                               -0.0,
                               1e-300,
                               -1e-300,
                               std::numeric_limits<double>::denorm_min(),
                               std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity(),
                               std::numeric_limits<double>::max(),
                               -std::numeric_limits<double>::max(),
                               42.0,
                               42.0};
    values.assign(std::begin(specials), std::end(specials));
    while (int(values.size()) < n) {
        const double magnitude = random.lognormal(3.0, 4.0);
        values.push_back(random.uniform() < 0.2 ? -magnitude : magnitude);
    }
    std::vector<double> expected = values;
    std::sort(expected.begin(), expected.end());
    ValueSort::ascending(std::span<double>(values));
    QVERIFY(std::is_sorted(values.begin(), values.end()));
    for (size_t i = 0; i < values.size(); ++i)
        QVERIFY(values[i] == expected[i]); // -0 == +0: their order is free
}

void tst_ValueSort::integers_data()
{
    QTest::addColumn<int>("n");
    QTest::newRow("small") << 1000;
    QTest::newRow("large") << 200'000;
}

void tst_ValueSort::integers()
{
    QFETCH(int, n);
    SeededRandom random(9);
    std::vector<qint64> values = {std::numeric_limits<qint64>::min(), std::numeric_limits<qint64>::max(), 0, -1, 1};
    while (int(values.size()) < n) {
        // Nanosecond durations: a few high bytes shared, some negative.
        values.push_back(qint64(random.uniform(-1e9, 5e10)));
    }
    std::vector<qint64> expected = values;
    std::sort(expected.begin(), expected.end());
    ValueSort::ascending(std::span<qint64>(values));
    QVERIFY(values == expected);
    // All equal: nothing to reorder.
    std::vector<qint64> same(5000, 77);
    ValueSort::ascending(std::span<qint64>(same));
    QCOMPARE(same.front(), 77);
    QCOMPARE(same.back(), 77);
}

QTEST_GUILESS_MAIN(tst_ValueSort)
#include "tst_valuesort.moc"
