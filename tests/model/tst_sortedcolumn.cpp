#include "SeededRandom.h"
#include "analysis/stats/SortedColumn.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

// SortedColumn's row order against the plain (value, row) pair sort it
// replaced, row for row: ties by row, -0 tied with +0, NaN rows left out;
// below the size where it keeps a comparison sort and above it.
class tst_SortedColumn : public QObject
{
    Q_OBJECT
private slots:
    void sameOrderAsPairSort_data();
    void sameOrderAsPairSort();
};

void tst_SortedColumn::sameOrderAsPairSort_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<bool>("fewDistinct");
    QTest::newRow("small: comparison sort") << 500 << false;
    QTest::newRow("small, many ties") << 500 << true;
    QTest::newRow("large: radix sort") << 200'000 << false;
    QTest::newRow("large, many ties") << 200'000 << true;
}

void tst_SortedColumn::sameOrderAsPairSort()
{
    QFETCH(int, n);
    QFETCH(bool, fewDistinct);
    SeededRandom random(11);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> values = {0.0,
                                  -0.0,
                                  nan,
                                  1e-300,
                                  -1e-300,
                                  std::numeric_limits<double>::infinity(),
                                  -std::numeric_limits<double>::infinity(),
                                  42.0,
                                  42.0,
                                  -0.0,
                                  nan};
    while (int(values.size()) < n) {
        double value = fewDistinct ? double(int(random.uniform() * 7.0)) * 0.5 : random.lognormal(3.0, 2.0);
        if (random.uniform() < 0.1)
            value = -value;
        values.push_back(random.uniform() < 0.05 ? nan : value);
    }
    std::vector<std::pair<double, qint32>> pairs;
    for (size_t row = 0; row < values.size(); ++row) {
        if (!std::isnan(values[row]))
            pairs.emplace_back(values[row] == 0.0 ? 0.0 : values[row], qint32(row));
    }
    std::sort(pairs.begin(), pairs.end());

    const SortedColumn column = SortedColumn::build(ColumnVector<double>(values.begin(), values.end()));
    QCOMPARE(column.values.size(), values.size());
    QCOMPARE(column.ascending.size(), pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i) {
        if (column.ascending[i] != pairs[i].second)
            QFAIL(qPrintable(QStringLiteral("position %1: row %2, expected row %3")
                                 .arg(i)
                                 .arg(column.ascending[i])
                                 .arg(pairs[i].second)));
    }
    QCOMPARE(column.definedCount(), qsizetype(pairs.size()));
}

QTEST_GUILESS_MAIN(tst_SortedColumn)
#include "tst_sortedcolumn.moc"
