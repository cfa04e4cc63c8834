// The test cluster itself: two real ClickHouse servers as two shards, a
// Distributed table over them, rows spread over both and read back whole.

#include "support/ClickHouseCluster.h"

#include <QtTest>

class TestClickHouseCluster : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
        QCOMPARE(m_cluster.shardCount(), 2);
    }

    void eachServerAnswers()
    {
        for (int shard = 0; shard < m_cluster.shardCount(); ++shard) {
            QString error;
            const QByteArray version = m_cluster.query(
                shard, QStringLiteral("SELECT value FROM system.build_options WHERE name = 'VERSION_FULL'"), &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QVERIFY2(version.startsWith("ClickHouse "), version.constData());
        }
        QVERIFY(m_cluster.httpPort(0) != m_cluster.httpPort(1));
    }

    void distributedTableSpansBothShards()
    {
        QString error;
        for (int shard = 0; shard < 2; ++shard) {
            m_cluster.query(
                shard, QStringLiteral("CREATE TABLE numbers_local (n UInt64) ENGINE = MergeTree ORDER BY n"), &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            m_cluster.query(shard,
                            QStringLiteral("CREATE TABLE numbers_all AS numbers_local ENGINE = "
                                           "Distributed(%1, default, numbers_local, n)")
                                .arg(QLatin1String(ClickHouseCluster::kCluster)),
                            &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
        }
        m_cluster.query(0, QStringLiteral("INSERT INTO numbers_all SELECT number FROM system.numbers LIMIT 1000"),
                        &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // Sharded by n: even numbers on the first shard, odd on the second.
        QCOMPARE(m_cluster.query(0, QStringLiteral("SELECT count(), sum(n) FROM numbers_local")).trimmed(),
                 QByteArray("500\t249500"));
        QCOMPARE(m_cluster.query(1, QStringLiteral("SELECT count(), sum(n) FROM numbers_local")).trimmed(),
                 QByteArray("500\t250000"));
        for (int shard = 0; shard < 2; ++shard) {
            QCOMPARE(m_cluster.query(shard, QStringLiteral("SELECT count(), sum(n) FROM numbers_all")).trimmed(),
                     QByteArray("1000\t499500"));
        }
    }

    void stoppedServersNoLongerAnswer()
    {
        const int port = m_cluster.httpPort(0);
        m_cluster.stop();
        QString error;
        m_cluster.query(0, QStringLiteral("SELECT 1"), &error);
        QVERIFY2(error.contains(QStringLiteral("refused"), Qt::CaseInsensitive), qPrintable(error));
        QVERIFY(port > 0);
    }

private:
    ClickHouseCluster m_cluster{2};
};

QTEST_GUILESS_MAIN(TestClickHouseCluster)
#include "tst_clickhousecluster.moc"
