// The same SQL on a current ClickHouse: npm's chdb (libchdb, ClickHouse 26 in
// process) behind a small HTTP shim (tests/clickhouse/chdb-http.mjs), single
// node. Tracelane's schema, push, and slice/exceed/analyse from clickhouse:// equal
// to the file, as on Debian's 18.16 cluster in tst_clickhouseread.

#include "io/LoadControl.h"
#include "remote/TracelaneTableLoader.h"
#include "support/ChdbServer.h"
#include "support/CliRun.h"
#include "support/ExceedanceFixtures.h"
#include "support/TestData.h"
#include "support/TracelaneTables.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

namespace {

nlohmann::json parsed(const QString &text)
{
    auto document = nlohmann::json::parse(text.toStdString(), nullptr, false);
    if (document.is_object()) {
        document.erase("file");
        document.erase("rejected");
        document.erase("not_computed_on_server");
    }
    return document;
}

} // namespace

class TestClickHouseCurrent : public QObject
{
    Q_OBJECT

private:
    QString url(const QString &table) const
    {
        return QStringLiteral("clickhouse://127.0.0.1:%1/tracelane?table=%2&timeout=60").arg(m_port).arg(table);
    }

private slots:
    void initTestCase()
    {
        m_chdb.start();
        if (QTest::currentTestFailed())
            return;
        m_port = m_chdb.port();
        // "classes" keeps region and cached_prefix in class columns from
        // its init (schema version 2) and gets priority's once its rows are
        // there: the current engine's DEFAULT columns and ALTER too.
        for (const QString &table :
             {QStringLiteral("mixed"), QStringLiteral("vllm"), QStringLiteral("classes"), QStringLiteral("numbands")}) {
            QStringList arguments = {QStringLiteral("clickhouse"), QStringLiteral("init"), url(table)};
            if (table == QLatin1String("classes"))
                arguments << QStringLiteral("--class-columns") << QStringLiteral("region,cached_prefix");
            const auto run = runCli(arguments);
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        }
        for (const auto &[table, file] :
             {std::pair{QStringLiteral("mixed"), QStringLiteral("resources/examples/mixed-classes.jsonl")},
              std::pair{QStringLiteral("classes"), QStringLiteral("resources/examples/mixed-classes.jsonl")},
              std::pair{QStringLiteral("numbands"), QStringLiteral("tests/data/classes/numeric-bands.jsonl")},
              std::pair{QStringLiteral("vllm"),
                        QStringLiteral("tests/data/realdata/vllm-bench/"
                                       "serving_meta-llama-Llama-3.3-70B-Instruct_tp8_pp1_sharegpt_qps_01.json")}}) {
            const auto run = runCli({QStringLiteral("clickhouse"), QStringLiteral("push"), TestData::source(file),
                                     url(table), QStringLiteral("--batch-rows"), QStringLiteral("500")});
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            m_files[table] = TestData::source(file);
        }
        const auto run = runCli({QStringLiteral("clickhouse"), QStringLiteral("init"), url(QStringLiteral("classes")),
                                 QStringLiteral("--class-columns"), QStringLiteral("priority")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    }

    void cleanupTestCase() { m_chdb.stop(); }

    void equalsTheFile_data()
    {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QStringList>("arguments");
        QTest::addRow("mixed slice region,prompt_band")
            << QStringLiteral("mixed")
            << QStringList{QStringLiteral("slice"), QStringLiteral("--by"), QStringLiteral("region,prompt_band")};
        QTest::addRow("mixed slice cached_prefix itl")
            << QStringLiteral("mixed")
            << QStringList{QStringLiteral("slice"), QStringLiteral("--by"), QStringLiteral("cached_prefix"),
                           QStringLiteral("--metric"), QStringLiteral("itl")};
        QTest::addRow("class columns slice region,priority")
            << QStringLiteral("classes")
            << QStringList{QStringLiteral("slice"), QStringLiteral("--by"), QStringLiteral("region,priority")};
        QTest::addRow("class columns slice cached_prefix,workload_class e2e")
            << QStringLiteral("classes")
            << QStringList{QStringLiteral("slice"), QStringLiteral("--by"),
                           QStringLiteral("cached_prefix,workload_class"), QStringLiteral("--metric"),
                           QStringLiteral("e2e")};
        QTest::addRow("numeric bands slice budget_ms,region")
            << QStringLiteral("numbands")
            << QStringList{QStringLiteral("slice"), QStringLiteral("--by"), QStringLiteral("budget_ms,region")};
        QTest::addRow("mixed exceed") << QStringLiteral("mixed") << QStringList{QStringLiteral("exceed")};
        QTest::addRow("mixed exceed e2e arrival")
            << QStringLiteral("mixed")
            << QStringList{QStringLiteral("exceed"), QStringLiteral("--metric"), QStringLiteral("e2e"),
                           QStringLiteral("--order"), QStringLiteral("arrival")};
        QTest::addRow("vllm slice bands")
            << QStringLiteral("vllm")
            << QStringList{QStringLiteral("slice"), QStringLiteral("--by"), QStringLiteral("prompt_band,output_band")};
        QTest::addRow("vllm exceed") << QStringLiteral("vllm") << QStringList{QStringLiteral("exceed")};
        QTest::addRow("mixed analyse") << QStringLiteral("mixed") << QStringList{QStringLiteral("analyse")};
        QTest::addRow("mixed analyse engine")
            << QStringLiteral("mixed")
            << QStringList{QStringLiteral("analyse"), QStringLiteral("--boundary"), QStringLiteral("engine")};
        QTest::addRow("vllm analyse") << QStringLiteral("vllm") << QStringList{QStringLiteral("analyse")};
    }

    void equalsTheFile()
    {
        QFETCH(QString, table);
        QFETCH(QStringList, arguments);
        const QString command = arguments.takeFirst();
        const auto fromFile = runCli(QStringList{command, m_files[table], QStringLiteral("--json")} + arguments);
        QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
        const auto fromServer = runCli(QStringList{command, url(table), QStringLiteral("--json")} + arguments);
        QVERIFY2(fromServer.exitCode == 0, qPrintable(fromServer.err));
        auto expected = parsed(fromFile.out);
        auto actual = parsed(fromServer.out);
        if (command == QLatin1String("exceed"))
            TracelaneTables::withoutTokenFigures(&expected);
        if (command == QLatin1String("analyse")) {
            // What names the source, and what stays with the file.
            for (const char *key : {"label", "format", "rejected_records", "notices"}) {
                expected.erase(key);
                actual.erase(key);
            }
        }
        if (actual != expected) {
            qWarning("file:\n%s\nserver:\n%s", expected.dump(1).c_str(), actual.dump(1).c_str());
            QFAIL("the current engine's figures differ from the file's");
        }
    }

    void wrappedSumsAreExact()
    {
        // An Int64 sum() wraps, its high halves' sum cannot: together they
        // give the exact sum past 2^64, negative values and both ends of the
        // range included (ServerRequests::wrappedSum).
        QString why;
        QVERIFY2(ExceedanceFixtures::wrappedSumIsExact(url(QStringLiteral("mixed")), &why), qPrintable(why));
    }

    void exceedOfANarrowPeakEqualsByValue_data()
    {
        QTest::addColumn<int>("variant");
        const auto variants = ExceedanceFixtures::variants();
        for (size_t i = 0; i < variants.size(); ++i)
            QTest::addRow("%s", variants[i].name) << int(i);
    }

    void exceedOfANarrowPeakEqualsByValue()
    {
        // As on 18.16 (tst_clickhouseread): equal and nearly equal values
        // around the threshold, both of the server's paths equal the file.
        QFETCH(int, variant);
        const auto which = ExceedanceFixtures::variants()[size_t(variant)];
        const QString table = QStringLiteral("peak");
        if (!m_files.contains(table)) {
            QVERIFY(m_scratch.isValid());
            const QString file = m_scratch.filePath(QStringLiteral("peak.jsonl"));
            QVERIFY(ExceedanceFixtures::writeNarrowPeak(file));
            auto run = runCli({QStringLiteral("clickhouse"), QStringLiteral("init"), url(table)});
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            run = runCli({QStringLiteral("clickhouse"), QStringLiteral("push"), file, url(table)});
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            m_files[table] = file;
        }
        const auto fromFile
            = runCli(QStringList{QStringLiteral("exceed"), m_files[table], QStringLiteral("--json")} + which.arguments);
        QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
        const auto expected = parsed(fromFile.out);
        const auto fromServer
            = runCli(QStringList{QStringLiteral("exceed"), url(table), QStringLiteral("--json")} + which.arguments);
        QVERIFY2(fromServer.exitCode == 0, qPrintable(fromServer.err));
        QVERIFY(ExceedanceFixtures::sameFigures(expected, parsed(fromServer.out)));
        const QString differ = ExceedanceFixtures::serverPathsDiffer(expected, url(table), which.spec);
        QVERIFY2(differ.isEmpty(), qPrintable(differ));
    }

    void exceedWithStampsMissingInSomeRowsEqualsTheRows_data() { exceedOfANarrowPeakEqualsByValue_data(); }

    void exceedWithStampsMissingInSomeRowsEqualsTheRows()
    {
        // The mixed trace with stamps absent in some rows: every figure
        // equals the analysis of the rows the table holds.
        QFETCH(int, variant);
        const auto which = ExceedanceFixtures::variants()[size_t(variant)];
        const QString table = QStringLiteral("holes");
        ClickHouseSource source;
        QString error;
        QVERIFY2(ClickHouseSource::parse(url(table), &source, &error), qPrintable(error));
        if (!m_files.contains(table)) {
            const auto run = runCli({QStringLiteral("clickhouse"), QStringLiteral("init"), url(table)});
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            QVERIFY2(ClickHouseClient(source).run(QStringLiteral("INSERT INTO tracelane.holes SELECT %1 FROM "
                                                                 "tracelane.mixed")
                                                      .arg(ExceedanceFixtures::withStampsMissing()),
                                                  nullptr, &error),
                     qPrintable(error));
            m_files[table] = table;
        }
        LoadControl control;
        const LoadResult rows = TracelaneTableLoader::load(source, {}, &control);
        QVERIFY2(rows.ok(), qPrintable(rows.fatalError));
        QVERIFY(rows.store->rejected.empty());
        const auto expected = ExceedanceFixtures::analysisOf(rows.store, which.spec, 20);
        QVERIFY(expected["set_size"].get<qint64>() > 0);
        const auto fromServer
            = runCli(QStringList{QStringLiteral("exceed"), url(table), QStringLiteral("--json")} + which.arguments);
        QVERIFY2(fromServer.exitCode == 0, qPrintable(fromServer.err));
        QVERIFY(ExceedanceFixtures::sameFigures(expected, parsed(fromServer.out)));
        const QString differ = ExceedanceFixtures::serverPathsDiffer(expected, url(table), which.spec);
        QVERIFY2(differ.isEmpty(), qPrintable(differ));
    }

    void aFilterIsForSpanTablesOnly()
    {
        // Every command that computes on the server refuses it alike.
        for (const QString &command : {QStringLiteral("slice"), QStringLiteral("exceed"), QStringLiteral("analyse"),
                                       QStringLiteral("goodput")}) {
            const auto run = runCli({command, url(QStringLiteral("mixed")) + QStringLiteral("&where=1")});
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.startsWith(QStringLiteral("tracelane-cli %1: ").arg(command)), qPrintable(run.err));
            QVERIFY2(run.err.contains(QStringLiteral("where= filters span tables (otel_traces)")), qPrintable(run.err));
        }
    }

    void aMissingTableIsNamed()
    {
        const auto run = runCli(
            {QStringLiteral("slice"), url(QStringLiteral("nosuch")), QStringLiteral("--by"), QStringLiteral("region")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("UNKNOWN_TABLE")), qPrintable(run.err));
    }

private:
    ChdbServer m_chdb;
    int m_port = 0;
    QMap<QString, QString> m_files;
    QTemporaryDir m_scratch;
};

QTEST_GUILESS_MAIN(TestClickHouseCurrent)
#include "tst_clickhousecurrent.moc"
