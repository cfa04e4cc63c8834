// goodput on a clickhouse:// URL: the bundled examples, real captures and a
// trace of equal times pushed to a two-shard cluster, then `goodput --json`
// from the URL must equal `goodput --json` from the file, figure for figure:
// the server counts and sums (ServerGoodput), no row travels, and the peak
// in flight comes from counts of the sends and ends in ever finer time
// buckets.

#include "support/CliRun.h"
#include "support/ClickHouseCluster.h"
#include "support/TestData.h"
#include "support/TracelaneTables.h"

#include <QtTest>

#include <nlohmann/json.hpp>

namespace {

struct Trace
{
    const char *name;
    const char *path; // under the source tree
};

const Trace kTraces[] = {
    {"mixed", "resources/examples/mixed-classes.jsonl"},
    {"burst", "resources/examples/burst.jsonl"},
    {"equaltimes", "tests/data/seed/equal-times.jsonl"},
    {"regionqueue", "tests/data/classes/region-queue.jsonl"},
    {"aiperf", "tests/data/realdata/aiperf/profile_export.jsonl"},
    {"vllm", "tests/data/realdata/vllm-bench/serving_meta-llama-Llama-3.3-70B-Instruct_tp8_pp1_sharegpt_qps_01.json"},
};

// The document without what names its input and what the loader refused
// (the table holds only the rows a push loaded).
nlohmann::json comparable(const QString &text)
{
    return TracelaneTables::comparable(text, {"rejected_records"});
}

} // namespace

class TestClickHouseGoodput : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
        for (const auto &trace : kTraces) {
            const QString failure = TracelaneTables::initAndPush(m_cluster, QString::fromLatin1(trace.name),
                                                                 TestData::source(QString::fromLatin1(trace.path)));
            QVERIFY2(failure.isEmpty(), qPrintable(failure));
        }
    }

    void goodputEqualsTheFile_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("table");
        QTest::addColumn<QStringList>("arguments");
        const std::vector<QStringList> variants = {
            {},
            {QStringLiteral("--slo-ttft"), QStringLiteral("300"), QStringLiteral("--slo-itl"), QStringLiteral("20")},
            {QStringLiteral("--boundary"), QStringLiteral("server"), QStringLiteral("--observed-in-flight"),
             QStringLiteral("40")},
        };
        for (const auto &trace : kTraces) {
            for (const auto &arguments : variants) {
                QTest::addRow("%s %s", trace.name, qPrintable(arguments.join(QLatin1Char(' '))))
                    << TestData::source(QString::fromLatin1(trace.path)) << QString::fromLatin1(trace.name)
                    << arguments;
            }
        }
    }

    void goodputEqualsTheFile()
    {
        QFETCH(QString, file);
        QFETCH(QString, table);
        QFETCH(QStringList, arguments);
        const auto fromFile
            = runCli(QStringList{QStringLiteral("goodput"), file, QStringLiteral("--json")} + arguments);
        QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
        const auto expected = comparable(fromFile.out);
        QVERIFY(expected.is_object());
        // Real captures hold no server-side stamps: nothing to judge there.
        if (!arguments.contains(QStringLiteral("server")))
            QVERIFY(expected["completed"].get<qint64>() > 0);
        for (int shard = 0; shard < 2; ++shard) {
            const auto fromServer = runCli(
                QStringList{QStringLiteral("goodput"), m_cluster.tracelaneUrl(table, shard), QStringLiteral("--json")}
                + arguments);
            QVERIFY2(fromServer.exitCode == 0, qPrintable(fromServer.err));
            const auto actual = comparable(fromServer.out);
            if (actual != expected) {
                qWarning("file %s\nserver %s", expected.dump(1).c_str(), actual.dump(1).c_str());
                QFAIL("the server's goodput differs from the file's");
            }
        }
    }

    // Ends before sends at equal times: 12 in flight at most, not 16.
    void equalTimesEndBeforeSends()
    {
        const auto run = runCli({QStringLiteral("goodput"), m_cluster.tracelaneUrl(QStringLiteral("equaltimes")),
                                 QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto document = nlohmann::json::parse(run.out.toStdString());
        QCOMPARE(document["littles_law"]["peak_in_flight"].get<qint64>(), 12);
    }

    void anEmptyRangeHasNothingInFlight()
    {
        const QString url = m_cluster.tracelaneUrl(QStringLiteral("burst")) + QStringLiteral("&from=1&to=2");
        const auto run = runCli({QStringLiteral("goodput"), url, QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto document = nlohmann::json::parse(run.out.toStdString());
        QCOMPARE(document["completed"].get<qint64>(), 0);
        QCOMPARE(document["littles_law"]["peak_in_flight"].get<qint64>(), 0);
    }

    void aServerThatIsDownSaysSo()
    {
        const auto run = runCli({QStringLiteral("goodput"),
                                 QStringLiteral("clickhouse://127.0.0.1:1/tracelane?table=nothing&timeout=2"),
                                 QStringLiteral("--json")});
        QVERIFY(run.exitCode != 0);
        QVERIFY2(run.err.contains(QStringLiteral("tracelane-cli goodput:")), qPrintable(run.err));
    }

private:
    ClickHouseCluster m_cluster{2};
};

QTEST_GUILESS_MAIN(TestClickHouseGoodput)
#include "tst_clickhousegoodput.moc"
