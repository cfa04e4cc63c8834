#include "analysis/stats/Percentile.h"

#include <QTest>

#include <cmath>
#include <limits>

class tst_Percentile : public QObject
{
    Q_OBJECT
private slots:
    void interpolation_data();
    void interpolation();
    void emptyIsNan();
    void nanValuesAreNotObservations();
    void selectionAgreesWithSorting_data();
    void selectionAgreesWithSorting();
};

void tst_Percentile::interpolation_data()
{
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<double>("q");
    QTest::addColumn<double>("expected");

    QTest::newRow("n=1, any q") << QList<double>{7.0} << 0.95 << 7.0;
    QTest::newRow("n=1, q=0") << QList<double>{7.0} << 0.0 << 7.0;
    QTest::newRow("n=2, median interpolates") << QList<double>{10.0, 20.0} << 0.5 << 15.0;
    QTest::newRow("n=2, p95") << QList<double>{10.0, 20.0} << 0.95 << 19.5;
    QTest::newRow("q=0 is the minimum") << QList<double>{5.0, 1.0, 3.0} << 0.0 << 1.0;
    QTest::newRow("q=1 is the maximum") << QList<double>{5.0, 1.0, 3.0} << 1.0 << 5.0;
    QTest::newRow("ties stay put") << QList<double>{4.0, 4.0, 4.0, 9.0} << 0.5 << 4.0;
    QTest::newRow("exact rank, no interpolation") << QList<double>{1, 2, 3, 4, 5} << 0.25 << 2.0;
    QTest::newRow("unsorted input") << QList<double>{9, 1, 8, 2, 7, 3} << 0.9 << 8.5;
    // The seed's burst TTFTs: p95 rank 8.55 between 588 and 718.
    QTest::newRow("seed burst p95") << QList<double>{718, 202, 206, 210, 216, 243, 288, 368, 458, 588} << 0.95 << 659.5;
}

void tst_Percentile::interpolation()
{
    QFETCH(QList<double>, values);
    QFETCH(double, q);
    QFETCH(double, expected);
    const std::vector<double> input(values.begin(), values.end());
    QCOMPARE(Percentile::of(input, q), expected);
}

void tst_Percentile::emptyIsNan()
{
    QVERIFY(std::isnan(Percentile::of(std::vector<double>{}, 0.5)));
}

void tst_Percentile::nanValuesAreNotObservations()
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<double> values = {nan, 10.0, nan, 30.0};
    QCOMPARE(Percentile::sortedFinite(values).size(), size_t(2));
    QCOMPARE(Percentile::of(values, 0.5), 20.0);
}

void tst_Percentile::selectionAgreesWithSorting_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("distinct");
    QTest::newRow("n=1") << 1 << 1;
    QTest::newRow("n=2") << 2 << 2;
    QTest::newRow("n=3") << 3 << 3;
    QTest::newRow("many ties") << 1000 << 3;
    QTest::newRow("n=1001, distinct") << 1001 << 1001;
    QTest::newRow("n=12345") << 12345 << 500;
}

void tst_Percentile::selectionAgreesWithSorting()
{
    QFETCH(int, n);
    QFETCH(int, distinct);
    std::vector<double> values;
    quint32 state = 12345;
    for (int i = 0; i < n; ++i) {
        state = state * 1103515245u + 12345u;
        values.push_back(double((state >> 8) % quint32(distinct)) * 1.5);
    }
    const std::vector<double> qs = {0.0, 0.01, 0.5, 0.9, 0.95, 0.99, 1.0};
    const auto sorted = Percentile::sortedFinite(values);
    auto scratch = values;
    const auto selected = Percentile::selectMany(scratch, qs);
    QCOMPARE(selected.size(), qs.size());
    for (size_t i = 0; i < qs.size(); ++i)
        QCOMPARE(selected[i], Percentile::ofSorted(sorted, qs[i]));
}

QTEST_GUILESS_MAIN(tst_Percentile)
#include "tst_percentile.moc"
