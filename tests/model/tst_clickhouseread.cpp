// clickhouse:// wherever the class commands take FILE: the bundled examples
// and real captures pushed to a two-shard cluster, then `slice --json` from
// the URL must equal `slice --json` from the file, figure for figure (the
// server sorts and counts; only order statistics come back), over http and
// https. The ways a server can fail are tst_clickhousefailures'.

#include "analysis/classes/ClassDimension.h"
#include "clickhouse/ClickHouseClient.h"
#include "clickhouse/ServerRequests.h"
#include "clickhouse/TracelaneSchema.h"
#include "io/LoadControl.h"
#include "io/TraceFileLoader.h"
#include "remote/TraceSource.h"
#include "remote/TracelaneTableLoader.h"
#include "store/TraceStore.h"
#include "support/CliRun.h"
#include "support/ClickHouseCluster.h"
#include "support/TestData.h"
#include "support/TracelaneTables.h"

#include <QDir>
#include <QTemporaryFile>
#include <QtTest>

#include <cmath>

#include <nlohmann/json.hpp>

namespace {

struct Trace
{
    const char *name;
    const char *path;                // under the source tree
    std::vector<QStringList> slices; // --by ... --metric ... argument lists
};

const std::vector<Trace> &traces()
{
    static const std::vector<Trace> all = {
        {"mixed",
         "resources/examples/mixed-classes.jsonl",
         {{QStringLiteral("--by"), QStringLiteral("region")},
          {QStringLiteral("--by"), QStringLiteral("priority,prompt_band")},
          {QStringLiteral("--by"), QStringLiteral("cached_prefix"), QStringLiteral("--metric"), QStringLiteral("e2e")},
          {QStringLiteral("--by"), QStringLiteral("workload_class,region"), QStringLiteral("--metric"),
           QStringLiteral("itl"), QStringLiteral("--percentile"), QStringLiteral("0.9")},
          {QStringLiteral("--by"), QStringLiteral("output_band"), QStringLiteral("--metric"), QStringLiteral("queue"),
           QStringLiteral("--boundary"), QStringLiteral("server")},
          {QStringLiteral("--by"), QStringLiteral("region"), QStringLiteral("--boundary"), QStringLiteral("engine"),
           QStringLiteral("--prompt-bands"), QStringLiteral("300,1000")},
          // Not the attribute's own spelling: found by the full key list, as on the file.
          {QStringLiteral("--by"), QStringLiteral("Region,priority")}}},
        {"burst",
         "resources/examples/burst.jsonl",
         {{QStringLiteral("--by"), QStringLiteral("prompt_band")},
          {QStringLiteral("--by"), QStringLiteral("output_band"), QStringLiteral("--metric"), QStringLiteral("itl")}}},
        {"regionqueue",
         "tests/data/classes/region-queue.jsonl",
         {{QStringLiteral("--by"), QStringLiteral("region,tenant_tier")},
          {QStringLiteral("--by"), QStringLiteral("cached_prefix"), QStringLiteral("--metric"),
           QStringLiteral("queue")}}},
        // Many-valued numeric attributes: quartile bands found on the server.
        {"numbands",
         "tests/data/classes/numeric-bands.jsonl",
         {{QStringLiteral("--by"), QStringLiteral("budget_ms")},
          {QStringLiteral("--by"), QStringLiteral("retries,budget_ms")},
          {QStringLiteral("--by"), QStringLiteral("region,budget_ms"), QStringLiteral("--metric"),
           QStringLiteral("e2e"), QStringLiteral("--percentile"), QStringLiteral("0.9")}}},
        {"aiperf",
         "tests/data/realdata/aiperf/profile_export.jsonl",
         {{QStringLiteral("--by"), QStringLiteral("prompt_band")},
          {QStringLiteral("--by"), QStringLiteral("output_band"), QStringLiteral("--metric"), QStringLiteral("e2e")}}},
        {"vllm",
         "tests/data/realdata/vllm-bench/serving_meta-llama-Llama-3.3-70B-Instruct_tp8_pp1_sharegpt_qps_01.json",
         {{QStringLiteral("--by"), QStringLiteral("prompt_band,output_band")},
          {QStringLiteral("--by"), QStringLiteral("prompt_band"), QStringLiteral("--metric"), QStringLiteral("itl")}}},
    };
    return all;
}

} // namespace

class TestClickHouseRead : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
        // Class columns (schema version 2): "mixed" has three from its init
        // (not workload_class: a slice by it and region reads a column and
        // the arrays in one query); "regionqueue" gets two once its rows are
        // there, so the server computes them for those rows as it reads.
        for (const auto &trace : traces()) {
            const QString table = QString::fromLatin1(trace.name);
            QString failure = TracelaneTables::initAndPush(
                m_cluster, table, TestData::source(QString::fromLatin1(trace.path)),
                table == QLatin1String("mixed") ? QStringLiteral("region,priority,cached_prefix") : QString());
            QVERIFY2(failure.isEmpty(), qPrintable(failure));
            if (table == QLatin1String("regionqueue")) {
                failure = TracelaneTables::init(m_cluster, table, QStringLiteral("region,tenant_tier"));
                QVERIFY2(failure.isEmpty(), qPrintable(failure));
            }
        }
    }

    // The slices above read the class columns where a table has them, and
    // the arrays where it does not.
    void aClassColumnIsReadInsteadOfTheArrays()
    {
        const ClickHouseSource source = [&] {
            ClickHouseSource parsed;
            QString error;
            ClickHouseSource::parse(m_cluster.tracelaneUrl(QStringLiteral("mixed")), &parsed, &error);
            return parsed;
        }();
        const ClickHouseClient client(source);
        ServerRequests requests(client);
        QString error;
        QVERIFY2(requests.openFor({QStringLiteral("region"), QStringLiteral("workload_class")}, &error),
                 qPrintable(error));
        QVERIFY(requests.hasClassColumn(QStringLiteral("region")));
        QVERIFY(!requests.hasClassColumn(QStringLiteral("workload_class")));
        ClassDimension region;
        ClassDimension workload;
        QVERIFY(classDimensionFromKey(requests.attributeNames(), QStringLiteral("region"), &region));
        QVERIFY(classDimensionFromKey(requests.attributeNames(), QStringLiteral("workload_class"), &workload));
        QString raw;
        QVERIFY2(requests.rawSql(region, &raw, &error), qPrintable(error));
        QCOMPARE(raw, QStringLiteral("`class_region`"));
        QVERIFY2(requests.rawSql(workload, &raw, &error), qPrintable(error));
        QVERIFY2(raw.contains(QStringLiteral("attr_values")), qPrintable(raw));

        // Added after the push: every server's local table and the
        // Distributed ones have them.
        for (int shard = 0; shard < 2; ++shard) {
            for (const char *table : {"regionqueue_local", "regionqueue"}) {
                QString queryError;
                const QByteArray names = m_cluster.query(
                    shard,
                    QStringLiteral("SELECT name FROM system.columns WHERE database = 'tracelane' AND table = '%1' "
                                   "AND name LIKE 'class%' ORDER BY name")
                        .arg(QLatin1String(table)),
                    &queryError);
                QVERIFY2(queryError.isEmpty(), qPrintable(queryError));
                QCOMPARE(names, QByteArray("class_region\nclass_tenant_tier\n"));
            }
        }
        // A key that is no plain name gets a column named by its bytes.
        QCOMPARE(TracelaneSchema::classColumn(QStringLiteral("tenant tier")),
                 QStringLiteral("class_x_74656e616e742074696572"));
        QCOMPARE(TracelaneSchema::classColumn(QStringLiteral("x_y")), QStringLiteral("class_x_785f79"));
    }

    void sliceEqualsTheFile_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("table");
        QTest::addColumn<QStringList>("arguments");
        for (const auto &trace : traces()) {
            for (const auto &arguments : trace.slices) {
                QTest::addRow("%s %s", trace.name, qPrintable(arguments.join(QLatin1Char(' '))))
                    << TestData::source(QString::fromLatin1(trace.path)) << QString::fromLatin1(trace.name)
                    << arguments;
            }
        }
    }

    void sliceEqualsTheFile()
    {
        QFETCH(QString, file);
        QFETCH(QString, table);
        QFETCH(QStringList, arguments);
        const auto fromFile = runCli(QStringList{QStringLiteral("slice"), file, QStringLiteral("--json")} + arguments);
        QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
        // Read through the other shard's Distributed table too, there with
        // a query per cell and the exceedance set counted by the server (no
        // keys shipped).
        for (const auto &fromServer :
             throughBothShards(QStringLiteral("slice"), table, arguments, "TRACELANE_CLICKHOUSE_SHIP_AT_MOST")) {
            QVERIFY2(fromServer.exitCode == 0, qPrintable(fromServer.err));
            const auto expected = TracelaneTables::comparable(fromFile.out);
            const auto actual = TracelaneTables::comparable(fromServer.out);
            QVERIFY(expected.is_object());
            QVERIFY(!expected["cells"].empty());
            if (actual != expected) {
                qWarning("file:\n%s\nserver:\n%s", expected.dump(1).c_str(), actual.dump(1).c_str());
                QFAIL("the server's class table differs from the file's");
            }
        }
    }

    void exceedEqualsTheFile_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("table");
        QTest::addColumn<QStringList>("arguments");
        const std::vector<QStringList> variants = {
            {},
            {QStringLiteral("--metric"), QStringLiteral("e2e"), QStringLiteral("--members"), QStringLiteral("50")},
            {QStringLiteral("--metric"), QStringLiteral("itl"), QStringLiteral("--order"), QStringLiteral("arrival")},
            {QStringLiteral("--metric"), QStringLiteral("queue"), QStringLiteral("--boundary"),
             QStringLiteral("server"), QStringLiteral("--percentile"), QStringLiteral("0.9")},
            {QStringLiteral("--boundary"), QStringLiteral("engine"), QStringLiteral("--percentile"),
             QStringLiteral("0.99")},
            // A member past the listed ones (fetched, compared on the server),
            // and one past the set (none, on both sides).
            {QStringLiteral("--member"), QStringLiteral("3"), QStringLiteral("--members"), QStringLiteral("1")},
            {QStringLiteral("--metric"), QStringLiteral("e2e"), QStringLiteral("--member"), QStringLiteral("100000")},
        };
        for (const auto &trace : traces()) {
            for (const auto &arguments : variants) {
                QTest::addRow("%s %s", trace.name, qPrintable(arguments.join(QLatin1Char(' '))))
                    << TestData::source(QString::fromLatin1(trace.path)) << QString::fromLatin1(trace.name)
                    << arguments;
            }
        }
    }

    void exceedEqualsTheFile()
    {
        QFETCH(QString, file);
        QFETCH(QString, table);
        QFETCH(QStringList, arguments);
        const auto fromFile = runCli(QStringList{QStringLiteral("exceed"), file, QStringLiteral("--json")} + arguments);
        QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
        // Through the other shard's Distributed table too, there with the
        // rankings' cells split a few bits at a time instead of into their
        // values at once.
        for (const auto &fromServer :
             throughBothShards(QStringLiteral("exceed"), table, arguments, "TRACELANE_CLICKHOUSE_EXACT_UP_TO")) {
            QVERIFY2(fromServer.exitCode == 0, qPrintable(fromServer.err));
            compareExceed(TracelaneTables::comparable(fromFile.out), TracelaneTables::comparable(fromServer.out),
                          arguments);
        }
    }

    // --no-rankings skips the rankings' reads; the JSON says what it left out.
    void rankingsCanBeLeftOut()
    {
        const QString url = m_cluster.tracelaneUrl(QStringLiteral("mixed"));
        const auto json
            = runCli({QStringLiteral("exceed"), url, QStringLiteral("--json"), QStringLiteral("--no-rankings")});
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        const auto document = nlohmann::json::parse(json.out.toStdString());
        QCOMPARE(document["not_computed_on_server"], nlohmann::json({"attribute_ranking", "phase_ranking", "member"}));
        QVERIFY(!document.contains("attribute_ranking") && !document.contains("phase_ranking"));
        QVERIFY(document["set_size"].get<qint64>() > 0);
        QVERIFY(document["member"].is_null());
        const auto text = runCli({QStringLiteral("exceed"), url, QStringLiteral("--no-rankings")});
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY(text.out.contains(QStringLiteral("feature rankings and the member comparison left out")));
        QVERIFY(!text.out.contains(QStringLiteral("Member 1 of ")));
        QVERIFY(!text.out.contains(QStringLiteral("Kolmogorov")));
        const auto ranked = runCli({QStringLiteral("exceed"), url});
        QVERIFY2(ranked.exitCode == 0, qPrintable(ranked.err));
        QVERIFY(ranked.out.contains(QStringLiteral("Phases ranked by separation (Kolmogorov-Smirnov D)")));
        QVERIFY(ranked.out.contains(QStringLiteral("Member 1 of ")));
    }

    void analyseEqualsTheFile_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("boundary");
        for (const auto &trace : traces()) {
            for (const char *boundary : {"client", "server", "engine"}) {
                QTest::addRow("%s %s", trace.name, boundary)
                    << TestData::source(QString::fromLatin1(trace.path)) << QString::fromLatin1(trace.name)
                    << QString::fromLatin1(boundary);
            }
        }
    }

    void analyseEqualsTheFile()
    {
        // Every figure of `analyse --json`: shape percentiles, TTFT/ITL/E2E
        // n, mean, min, max and percentiles, phase means, the TTFT residual
        // and the dominant phases. Only what names the source differs (the
        // label, file and format) and what stays with the file (its rejected
        // records and load notices).
        QFETCH(QString, file);
        QFETCH(QString, table);
        QFETCH(QString, boundary);
        const QStringList arguments = {QStringLiteral("--json"), QStringLiteral("--boundary"), boundary};
        const auto fromFile = runCli(QStringList{QStringLiteral("analyse"), file} + arguments);
        QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
        auto expected = TracelaneTables::comparable(fromFile.out);
        QVERIFY(expected.is_object());
        QVERIFY(expected["ttft"]["n"].get<qint64>() > 0 || expected["e2e"]["n"].get<qint64>() > 0);
        for (const char *key : {"label", "format", "rejected_records", "notices"})
            expected.erase(key);
        for (int shard = 0; shard < 2; ++shard) {
            const auto fromServer
                = runCli(QStringList{QStringLiteral("analyse"), m_cluster.tracelaneUrl(table, shard)} + arguments);
            QVERIFY2(fromServer.exitCode == 0, qPrintable(fromServer.err));
            auto actual = TracelaneTables::comparable(fromServer.out);
            QVERIFY(actual.is_object());
            QCOMPARE(QString::fromStdString(actual["format"].get<std::string>()), QStringLiteral("clickhouse"));
            QVERIFY(actual["rejected_records"].empty() && actual["notices"].empty());
            for (const char *key : {"label", "format", "rejected_records", "notices"})
                actual.erase(key);
            if (actual != expected) {
                qWarning("file:\n%s\nserver:\n%s", expected.dump(1).c_str(), actual.dump(1).c_str());
                QFAIL("the server's analyse differs from the file's");
            }
        }
    }

    void analyseOfAnEmptyRangeSaysSo()
    {
        const auto run = runCli({QStringLiteral("analyse"),
                                 m_cluster.tracelaneUrl(QStringLiteral("mixed")) + QStringLiteral("&from=1&to=2")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("tracelane-cli analyse: no requests in clickhouse://")),
                 qPrintable(run.err));
    }

    void theRowsLoadAsTheFile_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("table");
        for (const auto &trace : traces())
            QTest::addRow("%s", trace.name)
                << TestData::source(QString::fromLatin1(trace.path)) << QString::fromLatin1(trace.name);
    }

    void theRowsLoadAsTheFile()
    {
        // What the window and the row-reading commands get from Tracelane's
        // table: the file's requests, column for column, in its order.
        QFETCH(QString, file);
        QFETCH(QString, table);
        const LoadResult expected = TraceFileLoader::load(file, {});
        QVERIFY(expected.ok());
        ClickHouseSource source;
        QString error;
        QVERIFY2(ClickHouseSource::parse(m_cluster.tracelaneUrl(table), &source, &error), qPrintable(error));
        LoadControl control;
        // Small parts: several round trips, each of whole push batches.
        const LoadResult loaded = TracelaneTableLoader::load(source, {}, &control, 100);
        QVERIFY2(loaded.ok(), qPrintable(loaded.fatalError));
        QCOMPARE(loaded.store->format, QStringLiteral("tracelane-clickhouse"));
        QVERIFY(loaded.store->rejected.empty());
        QVERIFY(loaded.store->notices.empty());
        const RequestTable &want = expected.store->requests;
        const RequestTable &got = loaded.store->requests;
        QCOMPARE(got.rowCount(), want.rowCount());
        QCOMPARE(control.processedRecords(), want.rowCount());
        for (qsizetype row = 0; row < want.rowCount(); ++row) {
            QCOMPARE(got.id(row), want.id(row));
            QCOMPARE(got.sourceLine(row), want.sourceLine(row));
            QCOMPARE(got.promptTokens(row), want.promptTokens(row));
            QCOMPARE(got.outputTokens(row), want.outputTokens(row));
            for (int s = 0; s < kStampCount; ++s)
                QCOMPARE(got.stamp(row, Stamp(s)), want.stamp(row, Stamp(s)));
        }
        QCOMPARE(got.attributes().size(), want.attributes().size());
        for (const AttributeColumn &column : want.attributes()) {
            const AttributeColumn *same = got.attribute(column.name());
            QVERIFY2(same, qPrintable(column.name()));
            QCOMPARE(same->isNumeric(), column.isNumeric());
            for (qsizetype row = 0; row < want.rowCount(); ++row) {
                QCOMPARE(same->isPresent(row), column.isPresent(row));
                QCOMPARE(same->text(row), column.text(row));
            }
        }
        // Through the one entry point too.
        const LoadResult opened = TraceSource::load(m_cluster.tracelaneUrl(table), {});
        QVERIFY2(opened.ok(), qPrintable(opened.fatalError));
        QCOMPARE(opened.store->requests.rowCount(), want.rowCount());
    }

    void commandsThatNeedTheRowsFetchThem_data()
    {
        QTest::addColumn<QStringList>("arguments");
        for (const char *command : {"whatif", "goodput", "load", "critical-path"})
            QTest::addRow("%s", command) << QStringList{QString::fromLatin1(command), QStringLiteral("--json")};
    }

    void commandsThatNeedTheRowsFetchThem()
    {
        // The commands that compute in memory read Tracelane's table as they
        // read the pushed file: the same JSON but for the source's name.
        QFETCH(QStringList, arguments);
        const QString file = TestData::source(QStringLiteral("resources/examples/mixed-classes.jsonl"));
        QStringList onFile = arguments;
        onFile.insert(1, file);
        QStringList onServer = arguments;
        onServer.insert(1, m_cluster.tracelaneUrl(QStringLiteral("mixed")));
        const auto fromFile = runCli(onFile);
        const auto fromServer = runCli(onServer);
        QCOMPARE(fromServer.exitCode, fromFile.exitCode);
        if (fromFile.exitCode != 0) {
            // (critical-path: a trace without workflows says so, from either.)
            QCOMPARE(fromServer.err.section(QLatin1Char(':'), -1), fromFile.err.section(QLatin1Char(':'), -1));
            return;
        }
        QVERIFY2(!fromFile.out.isEmpty(), qPrintable(fromFile.err));
        QVERIFY(TracelaneTables::comparable(fromServer.out) == TracelaneTables::comparable(fromFile.out));
    }

    void compareTakesTheTableAsEitherSide()
    {
        const QString file = TestData::source(QStringLiteral("resources/examples/mixed-classes.jsonl"));
        const auto fileFile = runCli({QStringLiteral("compare"), file, file, QStringLiteral("--json")});
        QVERIFY2(fileFile.exitCode == 0, qPrintable(fileFile.err));
        for (const QStringList &sides : {QStringList{file, m_cluster.tracelaneUrl(QStringLiteral("mixed"))},
                                         QStringList{m_cluster.tracelaneUrl(QStringLiteral("mixed")), file}}) {
            const auto run
                = runCli(QStringList{QStringLiteral("compare")} + sides + QStringList{QStringLiteral("--json")});
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            nlohmann::json got = TracelaneTables::comparable(run.out);
            nlohmann::json want = TracelaneTables::comparable(fileFile.out);
            for (auto *document : {&got, &want}) {
                document->erase("baseline");
                document->erase("candidate");
            }
            // The one difference: the table's rows are not the file's format.
            QVERIFY(got["notes"].is_array() && !got["notes"].empty());
            const std::string note = got["notes"].back().get<std::string>();
            QVERIFY2(note.starts_with("formats differ (") && note.find("tracelane-clickhouse") != std::string::npos,
                     note.c_str());
            got["notes"].erase(got["notes"].size() - 1);
            QVERIFY2(got == want, nlohmann::json::diff(want, got).dump().substr(0, 2000).c_str());
        }
    }

    void aTableLoadRefusesMoreThanMaxSpans()
    {
        const LoadResult load
            = TraceSource::load(m_cluster.tracelaneUrl(QStringLiteral("burst")) + QStringLiteral("&max_spans=5"), {});
        QVERIFY(!load.ok());
        QVERIFY2(load.fatalError.contains(QStringLiteral("requests in the time range, more than max_spans=5; open a "
                                                         "sample of them with sample=")),
                 qPrintable(load.fatalError));
    }

    void aTableLoadRefusesAFilter()
    {
        const LoadResult load = TraceSource::load(
            m_cluster.tracelaneUrl(QStringLiteral("burst")) + QStringLiteral("&where=prompt_tokens%3E10"), {});
        QVERIFY(!load.ok());
        QVERIFY2(load.fatalError.endsWith(QStringLiteral(
                     ": where= filters span tables; bound Tracelane's requests table with from= and to=")),
                 qPrintable(load.fatalError));
    }

    void badTableRowsAreRejectedAndTheRestLoads()
    {
        // Rows ClickHouse accepts but that are no request: arrays of unequal
        // length, an empty id, negative tokens, an id seen before. Each is
        // rejected with its line in the pushed file and the column.
        for (int shard = 0; shard < 2; ++shard) {
            const auto run = runCli({QStringLiteral("clickhouse"), QStringLiteral("init"),
                                     m_cluster.tracelaneUrl(QStringLiteral("hostile"), shard),
                                     QStringLiteral("--cluster"), QLatin1String(ClickHouseCluster::kCluster)});
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        }
        const auto row = [](int line, const char *id, const char *extra) {
            return QStringLiteral("{\"schema_version\":1,\"source\":\"s\",\"batch\":0,\"row\":%1,\"request_id\":\"%2\","
                                  "\"source_line\":%3,\"prompt_tokens\":10,\"output_tokens\":5,\"client_send_ns\":%4,"
                                  "\"gateway_arrival_ns\":%4,\"queue_enter_ns\":%4,\"prefill_start_ns\":%4,"
                                  "\"prefill_end_ns\":%4,\"first_token_server_ns\":%4,\"first_token_client_ns\":%5,"
                                  "\"last_token_client_ns\":%6%7}")
                .arg(line - 1)
                .arg(QLatin1String(id))
                .arg(line)
                .arg(qint64(line) * 1'000'000'000)
                .arg(qint64(line) * 1'000'000'000 + 50'000'000)
                .arg(qint64(line) * 1'000'000'000 + 900'000'000)
                .arg(QString::fromUtf8(extra));
        };
        const QStringList rows = {
            row(1, "good-1", ",\"attr_keys\":[\"region\"],\"attr_values\":[\"eu\"]"),
            row(2, "uneven", ",\"attr_keys\":[\"region\",\"tier\"],\"attr_values\":[\"eu\"]"),
            row(3, "", ""),
            row(4, "good-2", ",\"num_keys\":[\"temperature\"],\"num_values\":[0.5]"),
            row(5, "good-1", ""),
            row(6, "numbers", ",\"num_keys\":[\"a\",\"b\"],\"num_values\":[1]"),
            row(7, "negative", "")
                .replace(QStringLiteral("\"prompt_tokens\":10"), QStringLiteral("\"prompt_tokens\":-3")),
            // Text that needs every escape of ClickHouse's text formats.
            row(8, "escaped", ",\"attr_keys\":[\"note\"],\"attr_values\":[\"a'b\\\\c\\td,[e]']\\u00fc\"]"),
        };
        QString error;
        m_cluster.query(
            0, QStringLiteral("INSERT INTO tracelane.hostile FORMAT JSONEachRow ") + rows.join(QLatin1Char('\n')),
            &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const LoadResult load = TraceSource::load(m_cluster.tracelaneUrl(QStringLiteral("hostile")), {});
        QVERIFY2(load.ok(), qPrintable(load.fatalError));
        const RequestTable &requests = load.store->requests;
        QCOMPARE(requests.rowCount(), 3);
        QCOMPARE(requests.idText(0), QStringLiteral("good-1"));
        QCOMPARE(requests.idText(1), QStringLiteral("good-2"));
        QCOMPARE(requests.idText(2), QStringLiteral("escaped"));
        QCOMPARE(requests.attribute(QStringLiteral("note"))->text(2), QString::fromUtf8("a'b\\c\td,[e]']\xc3\xbc"));
        QCOMPARE(requests.attribute(QStringLiteral("region"))->text(0), QStringLiteral("eu"));
        QCOMPARE(requests.attribute(QStringLiteral("temperature"))->number(1), 0.5);
        QStringList rejected;
        for (const RejectedRecord &record : load.store->rejected)
            rejected
                << QStringLiteral("%1 %2 %3: %4").arg(record.line).arg(record.requestId, record.field, record.reason);
        QCOMPARE(rejected,
                 (QStringList{
                     QStringLiteral("2 uneven attr_values: must be an array as long as its keys (text keys and values; "
                                    "numbers for num_values)"),
                     QStringLiteral("3  request_id: missing or empty"),
                     QStringLiteral("5 good-1 request id: duplicate request id; first seen on line 1"),
                     QStringLiteral("6 numbers num_values: must be an array as long as its keys (text keys and "
                                    "values; numbers for num_values)"),
                     QStringLiteral("7 negative prompt_tokens: not a whole count of tokens"),
                 }));
        // Strict: the first one stops the load, named.
        LoadOptions strict;
        strict.strict = true;
        const LoadResult stopped = TraceSource::load(m_cluster.tracelaneUrl(QStringLiteral("hostile")), strict);
        QVERIFY(!stopped.ok());
        QVERIFY2(stopped.fatalError.startsWith(QStringLiteral("line 2, attr_values: must be an array")),
                 qPrintable(stopped.fatalError));
    }

    void theTextTableIsTheSameToo()
    {
        const QString file = TestData::source(QStringLiteral("resources/examples/mixed-classes.jsonl"));
        const auto fromFile
            = runCli({QStringLiteral("slice"), file, QStringLiteral("--by"), QStringLiteral("region,priority")});
        const auto fromServer = runCli({QStringLiteral("slice"), m_cluster.tracelaneUrl(QStringLiteral("mixed")),
                                        QStringLiteral("--by"), QStringLiteral("region,priority")});
        QCOMPARE(fromServer.exitCode, 0);
        QCOMPARE(fromServer.out, fromFile.out);
    }

    void aTimeRangeEqualsTheFileCutToIt()
    {
        // from= and to= keep the requests sent in [from, to): the same table
        // as a file holding only those lines.
        const QString file = TestData::source(QStringLiteral("resources/examples/mixed-classes.jsonl"));
        const LoadResult load = TraceFileLoader::load(file, {});
        QVERIFY(load.ok());
        const auto &requests = load.store->requests;
        const auto &column = requests.stampColumn(Stamp::ClientSend);
        std::vector<qint64> sends(column.begin(), column.end());
        std::sort(sends.begin(), sends.end());
        const qint64 from = sends[sends.size() / 4];
        const qint64 to = sends[sends.size() * 3 / 5];
        QFile source(file);
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = source.readAll().split('\n');
        QTemporaryFile cut(QDir::tempPath() + QStringLiteral("/cut-XXXXXX.jsonl"));
        QVERIFY(cut.open());
        qint64 kept = 0;
        for (qsizetype row = 0; row < requests.rowCount(); ++row) {
            const qint64 send = requests.stamp(row, Stamp::ClientSend);
            if (send >= from && send < to) {
                cut.write(lines[requests.sourceLine(row) - 1] + '\n');
                ++kept;
            }
        }
        cut.close();
        QVERIFY(kept > 100 && kept < requests.rowCount());
        const QStringList arguments
            = {QStringLiteral("--by"), QStringLiteral("region,priority"), QStringLiteral("--json")};
        const auto fromFile = runCli(QStringList{QStringLiteral("slice"), cut.fileName()} + arguments);
        QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
        const QString bounded
            = m_cluster.tracelaneUrl(QStringLiteral("mixed")) + QStringLiteral("&from=%1&to=%2").arg(from).arg(to);
        const auto fromServer = runCli(QStringList{QStringLiteral("slice"), bounded} + arguments);
        QVERIFY2(fromServer.exitCode == 0, qPrintable(fromServer.err));
        const auto expected = TracelaneTables::comparable(fromFile.out);
        QCOMPARE(qint64(expected["slice_requests"]), kept);
        QVERIFY(TracelaneTables::comparable(fromServer.out) == expected);
    }

    void httpsWithTheServersAuthorityEqualsTheFile()
    {
        // clickhouses:// with ?ca= naming the cluster's own self-signed
        // certificate: the same figures as from the file.
        const QString file = TestData::source(QStringLiteral("resources/examples/mixed-classes.jsonl"));
        const QString secure = QStringLiteral("clickhouses://127.0.0.1:%1/tracelane?table=mixed&ca=%2")
                                   .arg(m_cluster.httpsPort(1))
                                   .arg(m_cluster.certificateFile());
        for (const QStringList &command :
             {QStringList{QStringLiteral("slice"), QStringLiteral("--by"), QStringLiteral("region,priority")},
              QStringList{QStringLiteral("exceed")}}) {
            const QStringList options = command.mid(1) + QStringList{QStringLiteral("--json")};
            const auto fromFile = runCli(QStringList{command[0], file} + options);
            const auto fromServer = runCli(QStringList{command[0], secure} + options);
            QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
            QVERIFY2(fromServer.exitCode == 0, qPrintable(fromServer.err));
            auto actual = TracelaneTables::comparable(fromServer.out);
            auto expected = TracelaneTables::comparable(fromFile.out);
            QVERIFY(expected.is_object() && expected.contains("slice_requests"));
            // exceed: the member comparison the server does not compute is left out.
            if (actual.contains("not_computed_on_server")) {
                for (const auto &key : actual["not_computed_on_server"])
                    expected.erase(key.get<std::string>());
                actual.erase("not_computed_on_server");
            }
            QCOMPARE(actual.dump(), expected.dump());
        }
    }

private:
    // `command URL --json arguments` through each shard's Distributed table,
    // the second run with `variable` set to 0 (a path the defaults skip).
    std::vector<CliRun> throughBothShards(const QString &command, const QString &table, const QStringList &arguments,
                                          const char *variable) const
    {
        std::vector<CliRun> runs;
        for (int shard = 0; shard < 2; ++shard) {
            if (shard == 1)
                qputenv(variable, "0");
            runs.push_back(runCli(QStringList{command, m_cluster.tracelaneUrl(table, shard), QStringLiteral("--json")}
                                  + arguments));
            qunsetenv(variable);
        }
        return runs;
    }

    // Every key equal to the file's, the member's comparison included (but
    // for the per-token figures, which the tables do not hold); the server
    // leaves nothing out.
    static void compareExceed(nlohmann::json expected, nlohmann::json actual, const QStringList &arguments)
    {
        QVERIFY(actual.is_object() && expected.is_object());
        const auto skipped = actual["not_computed_on_server"];
        actual.erase("not_computed_on_server");
        QCOMPARE(skipped, nlohmann::json::array());
        TracelaneTables::withoutTokenFigures(&expected);
        // The default (p95 TTFT) has members in every trace; smaller files may
        // have none above p99 or no server-side phases, and then both say so.
        if (arguments.isEmpty()) {
            QVERIFY(expected["set_size"].get<qint64>() > 0);
            QVERIFY(!expected["attribute_ranking"].empty() && !expected["phase_ranking"].empty());
            QVERIFY(expected["member"].is_object() && expected["member"]["features"].size() >= 12);
        }
        for (const auto &[key, value] : expected.items()) {
            const bool isSkipped = std::find(skipped.begin(), skipped.end(), key) != skipped.end();
            QVERIFY2(isSkipped || actual.contains(key), key.c_str());
            if (isSkipped)
                continue;
            if (actual[key] != value) {
                qWarning("%s: file %s\nserver %s", key.c_str(), value.dump(1).c_str(), actual[key].dump(1).c_str());
                QFAIL("the server's exceedance figures differ from the file's");
            }
        }
        QCOMPARE(actual.size() + skipped.size(), expected.size());
    }

    ClickHouseCluster m_cluster{2, ClickHouseCluster::Tls::On};
};

QTEST_GUILESS_MAIN(TestClickHouseRead)
#include "tst_clickhouseread.moc"
