// exceed on a clickhouse:// URL where the data is hard for the server: ns
// sums past 2^64 (wrapped sums and the trace scaled 10^8 times), a narrow
// peak of equal values at the threshold, stamps absent in some rows. Every
// figure must equal the file's, or the analysis of the rows themselves.

#include "clickhouse/ClickHouseSource.h"
#include "clickhouse/TracelaneSchema.h"
#include "io/LoadControl.h"
#include "remote/TracelaneTableLoader.h"
#include "store/TraceStore.h"
#include "support/CliRun.h"
#include "support/ClickHouseCluster.h"
#include "support/ExceedanceFixtures.h"
#include "support/TestData.h"
#include "support/TracelaneTables.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

class TestClickHouseExceed : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
        const QString failure
            = TracelaneTables::initAndPush(m_cluster, QStringLiteral("mixed"),
                                           TestData::source(QStringLiteral("resources/examples/mixed-classes.jsonl")));
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
    }

    void wrappedSumsAreExact()
    {
        // An Int64 sum() wraps, its high halves' sum cannot: together they
        // give the exact sum past 2^64, negative values and both ends of the
        // range included (ServerRequests::wrappedSum).
        QString why;
        QVERIFY2(ExceedanceFixtures::wrappedSumIsExact(m_cluster.tracelaneUrl(QStringLiteral("mixed")), &why),
                 qPrintable(why));
    }

    void exceedSumsPastInt64AreExact()
    {
        // The mixed trace with every stamp moved away from the first request's
        // send 10^8 times as far: each phase and E2E grows exactly 10^8 times
        // (years a request, the last stamp still an Int64 of ns: 51 s of
        // trace become 5.1e18 ns), and the set's and the rest's ns sums pass
        // 2^64 several times over (1900 requests of ~3e17 ns), where a plain
        // sum() of Int64 wraps and no difference of two wrapped sums can
        // stand for them.
        constexpr qint64 kScale = 100'000'000;
        QString error;
        const QByteArray first
            = m_cluster.query(0, QStringLiteral("SELECT min(client_send_ns) FROM tracelane.mixed"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const qint64 base = first.trimmed().toLongLong();
        QVERIFY(base > 0);
        QStringList select;
        for (const QString &column : TracelaneSchema::requestColumns()) {
            select << (column.endsWith(QLatin1String("_ns"))
                           ? QStringLiteral("if(%1 = %2, %1, %3 + (%1 - %3) * %4) AS %1")
                                 .arg(column, TracelaneSchema::absentSql())
                                 .arg(base)
                                 .arg(kScale)
                           : column);
        }
        for (int shard = 0; shard < 2; ++shard) {
            const auto init = runCli({QStringLiteral("clickhouse"), QStringLiteral("init"),
                                      m_cluster.tracelaneUrl(QStringLiteral("scaled"), shard),
                                      QStringLiteral("--cluster"), QLatin1String(ClickHouseCluster::kCluster)});
            QVERIFY2(init.exitCode == 0, qPrintable(init.err));
            m_cluster.query(shard,
                            QStringLiteral("INSERT INTO tracelane.scaled_local SELECT %1 FROM tracelane.mixed_local")
                                .arg(select.join(QStringLiteral(", "))),
                            &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
        }
        const QStringList arguments = {QStringLiteral("--json"), QStringLiteral("--metric"), QStringLiteral("e2e")};
        const auto original = runCli(
            QStringList{QStringLiteral("exceed"), m_cluster.tracelaneUrl(QStringLiteral("mixed"))} + arguments);
        const auto scaled = runCli(
            QStringList{QStringLiteral("exceed"), m_cluster.tracelaneUrl(QStringLiteral("scaled"))} + arguments);
        QVERIFY2(original.exitCode == 0, qPrintable(original.err));
        QVERIFY2(scaled.exitCode == 0, qPrintable(scaled.err));
        const auto expected = TracelaneTables::comparable(original.out);
        const auto actual = TracelaneTables::comparable(scaled.out);
        // Values this large share the server's top bucket, where the rows
        // are grouped one value at a time; with the threshold taken first
        // the set and the rest are each one group whose sums pass 2^64.
        ExceedanceSpec spec;
        spec.metric = Metric::E2e;
        const auto exactFirst = ExceedanceFixtures::computeOnServer(m_cluster.tracelaneUrl(QStringLiteral("scaled")),
                                                                    spec, 20, 0, 0, &error);
        QVERIFY2(exactFirst, qPrintable(error));
        QVERIFY(ExceedanceFixtures::sameFigures(actual, *exactFirst));
        QCOMPARE(actual["set_size"], expected["set_size"]);
        QCOMPARE(actual["rest_size"], expected["rest_size"]);
        const auto scaledBy = [&](const nlohmann::json &bigger, const nlohmann::json &smaller, const char *what) {
            const double want = smaller.get<double>() * double(kScale);
            const double got = bigger.get<double>();
            if (std::abs(got - want) > 1e-9 * std::abs(want)) {
                qWarning("%s: %.17g, expected %.17g", what, got, want);
                return false;
            }
            return true;
        };
        const auto &from = expected["attribution"];
        const auto &to = actual["attribution"];
        // The sums really pass 2^64 ns twice over: n × mean in ns.
        QVERIFY(to["rest_n"].get<double>() * to["rest_mean_ms"].get<double>() * 1e6 > 3.7e19);
        QVERIFY(scaledBy(actual["threshold"], expected["threshold"], "threshold"));
        QVERIFY(scaledBy(to["set_mean_ms"], from["set_mean_ms"], "set mean"));
        QVERIFY(scaledBy(to["rest_mean_ms"], from["rest_mean_ms"], "rest mean"));
        QCOMPARE(to["phases"].size(), from["phases"].size());
        QVERIFY(!from["phases"].empty());
        for (size_t i = 0; i < from["phases"].size(); ++i) {
            const auto &phase = from["phases"][i];
            QCOMPARE(to["phases"][i]["phase"], phase["phase"]);
            QCOMPARE(to["phases"][i]["set_observed"], phase["set_observed"]);
            QVERIFY(scaledBy(to["phases"][i]["set_mean_ms"], phase["set_mean_ms"], "phase set mean"));
            QVERIFY(scaledBy(to["phases"][i]["rest_mean_ms"], phase["rest_mean_ms"], "phase rest mean"));
        }
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
        // 150 equal TTFTs and 50 one ns apart above them around p90-p95:
        // the server splits the threshold's bucket by value (and, with no
        // bucket small enough, takes the exact threshold first), and every
        // figure equals the file's.
        QFETCH(int, variant);
        const auto which = ExceedanceFixtures::variants()[size_t(variant)];
        const QString table = QStringLiteral("peak");
        if (!m_pushed.contains(table)) {
            QVERIFY(m_scratch.isValid());
            const QString file = m_scratch.filePath(QStringLiteral("peak.jsonl"));
            QVERIFY(ExceedanceFixtures::writeNarrowPeak(file));
            for (int shard = 0; shard < 2; ++shard) {
                const auto run = runCli({QStringLiteral("clickhouse"), QStringLiteral("init"),
                                         m_cluster.tracelaneUrl(table, shard), QStringLiteral("--cluster"),
                                         QLatin1String(ClickHouseCluster::kCluster)});
                QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            }
            const auto run
                = runCli({QStringLiteral("clickhouse"), QStringLiteral("push"), file, m_cluster.tracelaneUrl(table),
                          QStringLiteral("--batch-rows"), QStringLiteral("37")});
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            m_pushed[table] = file;
        }
        const auto fromFile = runCli(QStringList{QStringLiteral("exceed"), m_pushed[table], QStringLiteral("--json")}
                                     + which.arguments);
        QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
        const auto expected = TracelaneTables::comparable(fromFile.out);
        // The fixture is the peak it means to be.
        if (which.name == std::string_view("p90 ttft arrival")) {
            QCOMPARE(expected["threshold"].get<double>(), 650.0);
            QCOMPARE(expected["set_size"].get<qint64>(), 50);
        } else if (which.name == std::string_view("p95 ttft")) {
            QVERIFY(expected["threshold"].get<double>() > 650.0 && expected["threshold"].get<double>() < 650.000001);
            QCOMPARE(expected["set_size"].get<qint64>(), 50);
        } else if (which.name == std::string_view("p95 itl")) {
            QCOMPARE(expected["threshold"].get<double>(), 20.0);
            QCOMPARE(expected["set_size"].get<qint64>(), 0);
        }
        const auto fromServer
            = runCli(QStringList{QStringLiteral("exceed"), m_cluster.tracelaneUrl(table, 1), QStringLiteral("--json")}
                     + which.arguments);
        QVERIFY2(fromServer.exitCode == 0, qPrintable(fromServer.err));
        QVERIFY(ExceedanceFixtures::sameFigures(expected, TracelaneTables::comparable(fromServer.out)));
        const QString differ
            = ExceedanceFixtures::serverPathsDiffer(expected, m_cluster.tracelaneUrl(table), which.spec);
        QVERIFY2(differ.isEmpty(), qPrintable(differ));
    }

    void exceedWithStampsMissingInSomeRowsEqualsTheRows_data() { exceedOfANarrowPeakEqualsByValue_data(); }

    void exceedWithStampsMissingInSomeRowsEqualsTheRows()
    {
        // The mixed trace with stamps absent in some rows (a phase, TTFT,
        // E2E unobserved there): sizes, threshold, members and attribution
        // (phase sums over the rows that observe each phase, the residual)
        // equal the analysis of the rows themselves.
        QFETCH(int, variant);
        const auto which = ExceedanceFixtures::variants()[size_t(variant)];
        const QString table = QStringLiteral("holes");
        QString error;
        if (!m_pushed.contains(table)) {
            for (int shard = 0; shard < 2; ++shard) {
                const auto run = runCli({QStringLiteral("clickhouse"), QStringLiteral("init"),
                                         m_cluster.tracelaneUrl(table, shard), QStringLiteral("--cluster"),
                                         QLatin1String(ClickHouseCluster::kCluster)});
                QVERIFY2(run.exitCode == 0, qPrintable(run.err));
                m_cluster.query(shard,
                                QStringLiteral("INSERT INTO tracelane.holes_local SELECT %1 FROM tracelane.mixed_local")
                                    .arg(ExceedanceFixtures::withStampsMissing()),
                                &error);
                QVERIFY2(error.isEmpty(), qPrintable(error));
            }
            m_pushed[table] = table;
        }
        ClickHouseSource source;
        QVERIFY2(ClickHouseSource::parse(m_cluster.tracelaneUrl(table), &source, &error), qPrintable(error));
        LoadControl control;
        const LoadResult rows = TracelaneTableLoader::load(source, {}, &control);
        QVERIFY2(rows.ok(), qPrintable(rows.fatalError));
        QVERIFY(rows.store->rejected.empty());
        const RequestTable &requests = rows.store->requests;
        for (const Stamp stamp : {Stamp::ClientSend, Stamp::GatewayArrival, Stamp::PrefillStart, Stamp::PrefillEnd,
                                  Stamp::FirstTokenServer, Stamp::FirstTokenClient, Stamp::LastTokenClient}) {
            qsizetype absent = 0;
            for (qsizetype row = 0; row < requests.rowCount(); ++row)
                absent += requests.stamp(row, stamp) == kNoTime ? 1 : 0;
            QVERIFY(absent > 0 && absent < requests.rowCount() / 3);
        }
        const auto expected = ExceedanceFixtures::analysisOf(rows.store, which.spec, 20);
        QVERIFY(expected["set_size"].get<qint64>() > 0);
        // Some phase goes unobserved in some of the set's rows.
        bool partly = false;
        for (const auto &phase : expected["attribution"]["phases"])
            partly = partly || phase["set_observed"].get<qint64>() < expected["attribution"]["set_n"].get<qint64>();
        QVERIFY(partly);
        const auto fromServer
            = runCli(QStringList{QStringLiteral("exceed"), m_cluster.tracelaneUrl(table, 1), QStringLiteral("--json")}
                     + which.arguments);
        QVERIFY2(fromServer.exitCode == 0, qPrintable(fromServer.err));
        QVERIFY(ExceedanceFixtures::sameFigures(expected, TracelaneTables::comparable(fromServer.out)));
        const QString differ
            = ExceedanceFixtures::serverPathsDiffer(expected, m_cluster.tracelaneUrl(table), which.spec);
        QVERIFY2(differ.isEmpty(), qPrintable(differ));
    }

    // Two files pushed into one table with a request id in both, on rows of
    // different timings: each member is its own row (fetched by its file and
    // position there, not by its id), so stepping to either compares that
    // row's figures with the rest.
    void membersSharingAnIdAreTheirOwnRows()
    {
        QVERIFY(m_scratch.isValid());
        const QString table = QStringLiteral("sharedid");
        const QString original = TestData::source(QStringLiteral("resources/examples/burst.jsonl"));
        QString failure = TracelaneTables::initAndPush(m_cluster, table, original);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        // burst-10 (the slowest first token, 718 ms) again, queued 100 ms longer.
        const QString again = m_scratch.filePath(QStringLiteral("burst-10-again.jsonl"));
        QFile file(again);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            R"({"request_id": "burst-10", "prompt_tokens": 2048, "output_tokens": 65, "client_send_ms": 10000.0, )"
            R"("gateway_arrival_ms": 10018.0, "queue_enter_ms": 10024.0, "prefill_start_ms": 10644.0, )"
            R"("prefill_end_ms": 10789.0, "first_token_server_ms": 10800.0, "first_token_client_ms": 10818.0, )"
            R"("last_token_client_ms": 12226.0})"
            "\n");
        file.close();
        const auto pushed
            = runCli({QStringLiteral("clickhouse"), QStringLiteral("push"), again, m_cluster.tracelaneUrl(table)});
        QVERIFY2(pushed.exitCode == 0, qPrintable(pushed.err));
        const QStringList median = {QStringLiteral("--json"), QStringLiteral("--percentile"), QStringLiteral("0.5")};
        for (const int member : {1, 2}) {
            const auto run = runCli(QStringList{QStringLiteral("exceed"), m_cluster.tracelaneUrl(table, member - 1),
                                                QStringLiteral("--member"), QString::number(member)}
                                    + median);
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            const auto document = nlohmann::json::parse(run.out.toStdString());
            QCOMPARE(document["set_size"].get<qint64>(), 5); // of 11 rows
            const auto &listed = document["members"];
            QVERIFY(listed.size() >= 2);
            QCOMPARE(listed[0]["request_id"], "burst-10");
            QCOMPARE(listed[1]["request_id"], "burst-10");
            QCOMPARE(listed[0]["value"].get<double>(), 818.0); // the second file's row 0
            QCOMPARE(listed[0]["row"].get<qint64>(), 0);
            QCOMPARE(listed[1]["value"].get<double>(), 718.0); // the first file's row 9
            QCOMPARE(listed[1]["row"].get<qint64>(), 9);
            const auto &compared = document["member"];
            QVERIFY2(compared.is_object(), run.out.toUtf8().constData());
            QCOMPARE(compared["position"].get<int>(), member);
            QCOMPARE(compared["row"], listed[member - 1]["row"]);
            const auto &ttft = compared["features"][0];
            QCOMPARE(ttft["feature"], "ttft");
            QCOMPARE(ttft["value"].get<double>(), listed[member - 1]["value"].get<double>());
            QCOMPARE(ttft["rest_n"].get<qint64>(), 6);
            // Queue time tells the rows apart too: 100 ms more in the second's.
            const auto queue = std::find_if(compared["features"].begin(), compared["features"].end(),
                                            [](const auto &row) { return row["feature"] == "queue"; });
            QVERIFY(queue != compared["features"].end());
            QCOMPARE((*queue)["value"].get<double>(), member == 1 ? 620.0 : 520.0);
        }
    }

    // The text from a URL is the file's, figure for figure: the heading,
    // the phase attribution, the rankings, the members (their arrivals
    // counted from the first send) and the member compared.
    void exceedTextFromAUrlReadsAsTheFiles()
    {
        const QString file = TestData::source(QStringLiteral("resources/examples/mixed-classes.jsonl"));
        const QStringList asked = {QStringLiteral("--percentile"), QStringLiteral("90")};
        const auto fromFile = runCli(QStringList{QStringLiteral("exceed"), file} + asked);
        QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
        const auto fromServer
            = runCli(QStringList{QStringLiteral("exceed"), m_cluster.tracelaneUrl(QStringLiteral("mixed"), 1)} + asked);
        QVERIFY2(fromServer.exitCode == 0, qPrintable(fromServer.err));
        const QStringList expected = fromFile.out.trimmed().split(QStringLiteral("\n\n"));
        const QStringList shown = fromServer.out.trimmed().split(QStringLiteral("\n\n"));
        QVERIFY(expected.size() >= 6);
        QVERIFY2(expected.first().startsWith(QStringLiteral("Exceedance set: TTFT above its p90")),
                 qPrintable(expected.first()));
        const auto members = std::find_if(expected.begin(), expected.end(), [](const QString &block) {
            return block.startsWith(QStringLiteral("Members (TTFT descending; 20 of "));
        });
        QVERIFY(members != expected.end());
        QVERIFY2(members->section(QLatin1Char('\n'), 1, 1).endsWith(QStringLiteral("arrival s")), qPrintable(*members));
        QCOMPARE(shown.size(), expected.size());
        for (qsizetype block = 0; block < expected.size(); ++block)
            QCOMPARE(shown[block], expected[block]);
    }

private:
    ClickHouseCluster m_cluster{2};
    QTemporaryDir m_scratch;
    QMap<QString, QString> m_pushed; // tables made by a test: their file
};

QTEST_GUILESS_MAIN(TestClickHouseExceed)
#include "tst_clickhouseexceed.moc"
