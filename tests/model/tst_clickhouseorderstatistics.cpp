// ServerOrderStatistics on a real two-shard cluster: the bucket counts of
// pass 1 and the values of pass 2 must give exactly the order statistics a
// sort of the same values gives, wherever the wanted ranks fall: at bucket
// boundaries, among many ties, across zero and the negatives, next to NaN,
// in a column of one value, and per group beside the overall column.

#include "analysis/stats/Percentile.h"
#include "clickhouse/ClickHouseClient.h"
#include "clickhouse/ServerOrderStatistics.h"
#include "support/ClickHouseCluster.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

quint64 bitsOf(double value)
{
    quint64 bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

bool same(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

// What a sort gives for rank r of the n values (NaN counted in n, not
// ordered: element floor((r + 0.5) / n · m) of the m others, as the
// one-query quantilesExactIf read them).
double expected(std::vector<double> values, qint64 rank)
{
    const qint64 n = qint64(values.size());
    values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }), values.end());
    std::sort(values.begin(), values.end());
    const qint64 m = qint64(values.size());
    if (m == 0)
        return kNan;
    if (m == n)
        return values[size_t(rank)];
    return values[size_t(qint64((double(rank) + 0.5) / double(n) * double(m)))];
}

// Values next to bucket boundaries: each base, the doubles just below and
// above it, and the base of the next bucket (1/256 of an octave up).
std::vector<double> boundaryValues()
{
    std::vector<double> values;
    for (const double base : {1.0, 2.0, 0.5, 1.0 + 1.0 / 256, 1.0 + 2.0 / 256, 1000.0, 1e-300, -1.0, -2.0}) {
        values.push_back(std::nextafter(base, -kInf));
        values.push_back(base);
        values.push_back(std::nextafter(base, kInf));
    }
    return values;
}

std::set<qint64> allRanks(size_t n)
{
    std::set<qint64> ranks;
    for (size_t r = 0; r < n; ++r)
        ranks.insert(qint64(r));
    return ranks;
}

} // namespace

class TestClickHouseOrderStatistics : public QObject
{
    Q_OBJECT

private:
    // Loads `values` as the rows of set `set` (group g = i % groups),
    // alternating between the shards' local tables.
    void load(int set, const std::vector<double> &values, int groups = 1)
    {
        QByteArray rows[2];
        for (size_t i = 0; i < values.size(); ++i) {
            rows[i % 2] += QByteArray::number(set) + '\t' + QByteArray::number(qulonglong(i % size_t(groups))) + '\t'
                + QByteArray::number(qulonglong(i)) + '\t' + QByteArray::number(qulonglong(bitsOf(values[i]))) + '\n';
        }
        for (int shard = 0; shard < 2; ++shard) {
            if (rows[shard].isEmpty())
                continue;
            QString error;
            m_cluster.query(shard,
                            QStringLiteral("INSERT INTO vals_local FORMAT TabSeparated\n")
                                + QString::fromLatin1(rows[shard]),
                            &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
        }
    }

    ClickHouseClient client() const
    {
        ClickHouseSource source;
        QString error;
        if (!ClickHouseSource::parse(
                QStringLiteral("clickhouse://127.0.0.1:%1/default?table=vals").arg(m_cluster.httpPort(0)), &source,
                &error))
            qFatal("the test's URL does not parse: %s", qPrintable(error));
        return ClickHouseClient(source);
    }

    // The value, and a definition no query may carry: ClickHouse 18.16
    // reads the columns of every WITH expression, and this one has none.
    static QStringList with()
    {
        return {QStringLiteral("reinterpretAsFloat64(reinterpretAsString(bits)) AS x"),
                QStringLiteral("no_such_column + 1 AS unused"), QStringLiteral("(bits = bits) AS every")};
    }
    static QString from(int set) { return QStringLiteral(" FROM default.vals WHERE s = %1").arg(set); }

    // Every rank of `values` (set `set`) asked at once must be the sort's:
    // selected directly, and in buckets with cells selected as they are
    // (their keys shipped, or a quantilesExactIf per cell), split until one
    // value each (refining above 1) and part of the way (above 3). The
    // count above any value must be the sort's whenever it is given, and it
    // is given for every value when the keys of every bucket travelled.
    void checkAllRanks(int set, const std::vector<double> &values)
    {
        // refineAbove 0: no buckets, the direct query of a column without a group.
        for (const qint64 refineAbove : {qint64(0), ServerOrderStatistics::kRefineAbove, qint64(1), qint64(3)}) {
            for (const qint64 shipAtMost : {ServerOrderStatistics::kShipAtMost, qint64(0)}) {
                ServerOrderStatistics statistics;
                statistics.setAlwaysBuckets(refineAbove > 0);
                statistics.setRefineAbove(refineAbove);
                statistics.setShipAtMost(shipAtMost);
                // A condition that is a definition's name, as a metric's d_M.
                const int index = statistics.add(QStringLiteral("x"), QStringLiteral("every"), qint64(values.size()),
                                                 allRanks(values.size()));
                QString error;
                QVERIFY2(statistics.run(client(), with(), from(set), &error), qPrintable(error));
                const QString path
                    = QStringLiteral("refining above %1, shipping at most %2").arg(refineAbove).arg(shipAtMost);
                for (size_t r = 0; r < values.size(); ++r) {
                    const double want = expected(values, qint64(r));
                    QVERIFY2(same(statistics.at(index, qint64(r)), want),
                             qPrintable(QStringLiteral("%1, rank %2: %3 where %4")
                                            .arg(path)
                                            .arg(r)
                                            .arg(statistics.at(index, qint64(r)), 0, 'g', 17)
                                            .arg(want, 0, 'g', 17)));
                }
                const bool everyBucketShipped = refineAbove == ServerOrderStatistics::kRefineAbove && shipAtMost > 0;
                for (const double threshold : values) {
                    if (std::isnan(threshold))
                        continue;
                    for (const double t :
                         {std::nextafter(threshold, -kInf), threshold, std::nextafter(threshold, kInf)}) {
                        const auto want = std::count_if(values.begin(), values.end(), [&](double v) { return v > t; });
                        qint64 above = -1;
                        const bool given = statistics.countAbove(index, t, &above);
                        QVERIFY2(!given || above == want,
                                 qPrintable(QStringLiteral("%1: %2 above %3 where %4")
                                                .arg(path)
                                                .arg(above)
                                                .arg(t, 0, 'g', 17)
                                                .arg(want)));
                        QVERIFY2(given || !everyBucketShipped,
                                 qPrintable(QStringLiteral("%1: no count above %2").arg(path).arg(t, 0, 'g', 17)));
                    }
                }
                qint64 ignored = 0;
                QVERIFY(!statistics.countAbove(index, kNan, &ignored));
            }
        }
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
        for (int shard = 0; shard < 2; ++shard) {
            m_cluster.query(shard,
                            QStringLiteral("CREATE TABLE vals_local (s UInt32, g UInt32, i UInt64, bits UInt64) "
                                           "ENGINE = MergeTree ORDER BY (s, i)"),
                            &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            m_cluster.query(shard,
                            QStringLiteral("CREATE TABLE vals AS vals_local ENGINE = Distributed(%1, default, "
                                           "vals_local, i)")
                                .arg(QLatin1String(ClickHouseCluster::kCluster)),
                            &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
        }
    }

    void theSqlKeyIsTheClientsKey()
    {
        // Both passes bucket on the server; the client reads buckets by the
        // same map, so the two must agree bit for bit.
        const std::vector<double> values = {-kInf, -2.5, -1e-300, -0.0, 0.0, 1e-300, 1.0, 3.75, 1e300, kInf, kNan};
        load(1, values);
        if (QTest::currentTestFailed())
            return;
        std::vector<QStringList> rows;
        QString error;
        QVERIFY2(client().select(QStringLiteral("WITH %1 SELECT bits, %2 %3")
                                     .arg(with().first(), ServerOrderStatistics::keySql(QStringLiteral("x")), from(1)),
                                 &rows, &error, 2),
                 qPrintable(error));
        QCOMPARE(rows.size(), values.size());
        for (const auto &row : rows) {
            const quint64 bits = row[0].toULongLong();
            double value = 0;
            std::memcpy(&value, &bits, sizeof value);
            QCOMPARE(row[1].toULongLong(), ServerOrderStatistics::orderKey(value));
        }
        // Numeric order is key order; -0 and 0 share a key; NaN is below all.
        for (size_t i = 0; i + 2 < values.size(); ++i) {
            if (values[i] != values[i + 1]) {
                QVERIFY(ServerOrderStatistics::orderKey(values[i]) < ServerOrderStatistics::orderKey(values[i + 1]));
            }
        }
        QCOMPARE(ServerOrderStatistics::orderKey(-0.0), ServerOrderStatistics::orderKey(0.0));
        QCOMPARE(ServerOrderStatistics::orderKey(kNan), quint64(0));
        QVERIFY(ServerOrderStatistics::bucketOf(-kInf) > 0);
    }

    void ranksAtBucketBoundaries()
    {
        const auto values = boundaryValues();
        // The values straddle bucket boundaries: the neighbours of a base are
        // in different buckets than the base or share it.
        QVERIFY(ServerOrderStatistics::bucketOf(std::nextafter(1.0, 0.0)) != ServerOrderStatistics::bucketOf(1.0));
        QCOMPARE(ServerOrderStatistics::bucketOf(std::nextafter(1.0, 2.0)), ServerOrderStatistics::bucketOf(1.0));
        load(2, values);
        if (!QTest::currentTestFailed())
            checkAllRanks(2, values);
    }

    void manyTies()
    {
        std::vector<double> values(3000, 3.25);
        values.insert(values.end(), {1.0, 1.0, 1.0, 7.0, 7.0, 3.2500000000000004, 3.2499999999999996});
        load(3, values);
        if (!QTest::currentTestFailed())
            checkAllRanks(3, values);
    }

    void negativesZeroAndInfinities()
    {
        const std::vector<double> values = {-1e9,  -5.5,   -1.0,    -0.0,    0.0,
                                            -0.0,  1e-300, -1e-300, 2.0,     kInf,
                                            -kInf, 0.0,    5e-324,  -5e-324, 1.7976931348623157e308};
        load(4, values);
        if (!QTest::currentTestFailed())
            checkAllRanks(4, values);
    }

    void nanIsCountedButNotOrdered()
    {
        const std::vector<double> values = {4.0, kNan, 2.0, 3.0, kNan, -kNan, 1.0, 8.0, 5.0};
        load(5, values);
        if (!QTest::currentTestFailed())
            checkAllRanks(5, values);
        const std::vector<double> onlyNan = {kNan, kNan};
        load(6, onlyNan);
        if (!QTest::currentTestFailed())
            checkAllRanks(6, onlyNan);
    }

    void aColumnOfOneValue()
    {
        load(7, {42.5});
        if (QTest::currentTestFailed())
            return;
        for (const bool buckets : {false, true}) {
            ServerOrderStatistics statistics;
            statistics.setAlwaysBuckets(buckets);
            const double qs[] = {0.5, 0.99};
            const int index = statistics.add(QStringLiteral("x"), QStringLiteral("1"), 1,
                                             ServerOrderStatistics::percentileRanks(1, qs));
            const int empty = statistics.add(QStringLiteral("x"), QStringLiteral("x > 100"), 0, {});
            QString error;
            QVERIFY2(statistics.run(client(), with(), from(7), &error), qPrintable(error));
            QCOMPARE(statistics.percentile(index, 0.5), 42.5);
            QCOMPARE(statistics.percentile(index, 0.99), 42.5);
            QVERIFY(std::isnan(statistics.percentile(empty, 0.5)));
        }
    }

    void groupsBesideTheOverallColumn_data()
    {
        QTest::addColumn<qint64>("refineAbove");
        QTest::addColumn<qint64>("shipAtMost");
        QTest::addRow("cells as they are") << ServerOrderStatistics::kRefineAbove << ServerOrderStatistics::kShipAtMost;
        QTest::addRow("cells as they are, a quantile per cell") << ServerOrderStatistics::kRefineAbove << qint64(0);
        QTest::addRow("cells split") << qint64(50) << ServerOrderStatistics::kShipAtMost;
        // A budget the overall column's whole buckets exceed (they hold
        // every class's values): a quantile per cell instead.
        QTest::addRow("cells as they are, a small budget") << ServerOrderStatistics::kRefineAbove << qint64(1000);
    }

    void groupsBesideTheOverallColumn()
    {
        // A class table's shape: one group expression, a member per class,
        // and the overall column counted from the same pass-1 rows; another
        // value and another condition in the same run.
        std::vector<double> values;
        quint64 state = 12345;
        for (int i = 0; i < 20000; ++i) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            const double u = double(state >> 11) / double(quint64(1) << 53);
            // Three groups of different scale; rounded so ties occur.
            values.push_back(std::round(std::exp(u * 6.0 + double(i % 3)) * 100.0) / 100.0);
        }
        if (qstrcmp(QTest::currentDataTag(), "cells as they are") == 0)
            load(8, values, 3);
        if (QTest::currentTestFailed())
            return;
        static constexpr double qs[] = {0.0, 0.01, 0.5, 0.9, 0.95, 0.99, 0.999, 1.0};
        QFETCH(qint64, refineAbove);
        QFETCH(qint64, shipAtMost);
        ServerOrderStatistics statistics;
        statistics.setRefineAbove(refineAbove);
        statistics.setShipAtMost(shipAtMost);
        // Split cells: the ungrouped column in buckets too, its pass 2 in
        // the same query as the groups'.
        statistics.setAlwaysBuckets(refineAbove < ServerOrderStatistics::kRefineAbove);
        std::vector<std::vector<double>> groups(3);
        for (size_t i = 0; i < values.size(); ++i)
            groups[i % 3].push_back(values[i]);
        const auto n = qint64(values.size());
        const int overall = statistics.add(QStringLiteral("x"), QStringLiteral("1"), n,
                                           ServerOrderStatistics::percentileRanks(n, qs));
        std::vector<int> members;
        for (quint64 g = 0; g < 3; ++g) {
            const auto size = qint64(groups[g].size());
            members.push_back(statistics.add(QStringLiteral("x"), QStringLiteral("1"), size,
                                             ServerOrderStatistics::percentileRanks(size, qs), QStringLiteral("g"), g));
        }
        std::vector<double> big;
        for (const double v : values) {
            if (v > 50)
                big.push_back(-v);
        }
        const int negated = statistics.add(QStringLiteral("-x"), QStringLiteral("x > 50"), qint64(big.size()),
                                           ServerOrderStatistics::percentileRanks(qint64(big.size()), qs));
        QString error;
        QVERIFY2(statistics.run(client(), with(), from(8), &error), qPrintable(error));
        const auto check = [&](int index, std::vector<double> sample) {
            std::sort(sample.begin(), sample.end());
            for (const double q : qs)
                QCOMPARE(statistics.percentile(index, q), Percentile::ofSorted(sample, q));
        };
        check(overall, values);
        for (size_t g = 0; g < 3; ++g)
            check(members[g], groups[g]);
        check(negated, big);
        // Pass 1 saw more than one bucket per column.
        QVERIFY(statistics.buckets(overall).size() > 100);
        // Never more keys than the budget: the overall column's buckets
        // travel for every member, and are counted so.
        QVERIFY(statistics.shippedKeys() <= shipAtMost);
        if (shipAtMost == 0)
            QCOMPARE(statistics.shippedKeys(), qint64(0));
        if (shipAtMost == ServerOrderStatistics::kShipAtMost && refineAbove == ServerOrderStatistics::kRefineAbove)
            QVERIFY(statistics.shippedKeys() > 0);

        // The count of each column's values above the overall percentiles
        // (a class's share of the exceedance set), known without a query
        // when the keys of the overall column's cells travelled.
        const bool shipped = shipAtMost > 0 && refineAbove == ServerOrderStatistics::kRefineAbove;
        const auto countAbove = [&](int index, const std::vector<double> &sample, double threshold,
                                    bool required = true) {
            qint64 above = -1;
            const bool given = statistics.countAbove(index, threshold, &above);
            QVERIFY2(given || !shipped || !required, qPrintable(QStringLiteral("no count above %1").arg(threshold)));
            if (given)
                QCOMPARE(above,
                         qint64(std::count_if(sample.begin(), sample.end(), [&](double v) { return v > threshold; })));
        };
        for (const double q : qs) {
            const double threshold = statistics.percentile(overall, q);
            countAbove(overall, values, threshold);
            for (size_t g = 0; g < 3; ++g)
                countAbove(members[g], groups[g], threshold);
            // Selected directly (no buckets) unless split.
            countAbove(negated, big, statistics.percentile(negated, q), false);
        }
    }

    void bucketsCountedByTheCaller()
    {
        // A class table counts the buckets in its own GROUP BY (bucketSql)
        // and hands them over: pass 1 is skipped, the ranks are the same.
        const auto values = boundaryValues();
        std::vector<QStringList> rows;
        QString error;
        QVERIFY2(
            client().select(QStringLiteral("WITH %1 SELECT %2 AS k, count() %3 GROUP BY k")
                                .arg(with().first(), ServerOrderStatistics::bucketSql(QStringLiteral("x")), from(2)),
                            &rows, &error, 2),
            qPrintable(error));
        std::map<quint64, qint64> buckets;
        for (const auto &row : rows)
            buckets[row[0].toULongLong()] = row[1].toLongLong();
        std::map<quint64, qint64> expectedBuckets;
        for (const double v : values)
            ++expectedBuckets[ServerOrderStatistics::bucketOf(v)];
        QCOMPARE(buckets, expectedBuckets);
        ServerOrderStatistics statistics;
        const int index
            = statistics.add(QStringLiteral("x"), QStringLiteral("1"), qint64(values.size()), allRanks(values.size()));
        statistics.setBuckets(index, buckets);
        QVERIFY2(statistics.run(client(), with(), from(2), &error), qPrintable(error));
        for (size_t r = 0; r < values.size(); ++r)
            QVERIFY(same(statistics.at(index, qint64(r)), expected(values, qint64(r))));
        // Counts that do not add up to n are refused before any query.
        ServerOrderStatistics wrong;
        wrong.setBuckets(wrong.add(QStringLiteral("x"), QStringLiteral("1"), qint64(values.size()) + 1, {0}), buckets);
        QVERIFY(!wrong.run(client(), with(), from(2), &error));
        QVERIFY2(error.contains(QStringLiteral("rows changed")), qPrintable(error));
    }

    void changedRowsAreAnError()
    {
        // n says more rows than the table holds: the rows changed since they
        // were counted.
        for (const bool buckets : {false, true}) {
            ServerOrderStatistics statistics;
            statistics.setAlwaysBuckets(buckets);
            statistics.add(QStringLiteral("x"), QStringLiteral("1"), 4, {0, 3});
            QString error;
            QVERIFY(!statistics.run(client(), with(), from(7), &error));
            QVERIFY2(error.contains(QStringLiteral("rows changed")), qPrintable(error));
        }
    }

private:
    ClickHouseCluster m_cluster{2};
};

QTEST_GUILESS_MAIN(TestClickHouseOrderStatistics)
#include "tst_clickhouseorderstatistics.moc"
