// The OpenTelemetry Collector's otel_traces table, created from the ClickHouse
// exporter's own DDL (tests/data/realdata/opentelemetry-collector-contrib) on a
// current ClickHouse (npm chdb), filled with OTLP files' spans written the way
// the exporter writes them (every attribute value a string, hex ids, kind and
// status names), and read back by tracelane-cli as spans: every command's JSON
// equals the same file's.

#include "clickhouse/ClickHouseClient.h"
#include "io/LoadControl.h"
#include "io/TraceFileLoader.h"
#include "remote/OtelTracesLoader.h"
#include "remote/TraceSource.h"
#include "store/TraceStore.h"
#include "support/ChdbServer.h"
#include "support/CliRun.h"
#include "support/OtelTracesTable.h"
#include "support/TestData.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <limits>
#include <map>
#include <set>

namespace {

using nlohmann::json;
using OtelTracesTable::rowsOf;

json comparable(const QString &text)
{
    json document = json::parse(text.toStdString(), nullptr, false);
    if (document.is_object()) {
        for (const char *key : {"file", "label", "format", "source", "sources"})
            document.erase(key);
        // A notice or rejection names the file and line, or the URL and the
        // row of the fetch; what it says must be the same.
        for (const char *list : {"notices", "rejected_records"}) {
            if (!document.contains(list))
                continue;
            json kept = json::array();
            for (json entry : document[list]) {
                entry.erase("file");
                entry.erase("line");
                // A file's own notice: its lines of other signals.
                if (entry.value("message", std::string()).find("hold metrics or logs") == std::string::npos)
                    kept.push_back(entry);
            }
            document[list] = kept;
        }
        // A file lists workflows in the order their traces first appear; a
        // table has no order of its own (rows come by trace id).
        if (document.contains("workflows") && document["workflows"].is_array()) {
            auto &workflows = document["workflows"];
            for (json &workflow : workflows) {
                // A span's index is its place in the source; its id names it.
                for (const char *list : {"critical_path", "slack", "spans"}) {
                    if (!workflow.contains(list) || !workflow[list].is_array())
                        continue;
                    for (json &span : workflow[list])
                        span.erase("span");
                    if (std::string(list) != "critical_path")
                        std::sort(workflow[list].begin(), workflow[list].end(), [](const json &a, const json &b) {
                            return a.value("span_id", std::string()) < b.value("span_id", std::string());
                        });
                }
            }
            std::sort(workflows.begin(), workflows.end(), [](const json &a, const json &b) {
                return a.value("workflow", std::string()) < b.value("workflow", std::string());
            });
        }
    }
    return document;
}

} // namespace

class TestClickHouseOtel : public QObject
{
    Q_OBJECT

private:
    QString url(const QString &table, const QString &extra = {}) const
    {
        return QStringLiteral("clickhouse://127.0.0.1:%1/tracelane?table=%2&timeout=60%3")
            .arg(m_chdb.port())
            .arg(table, extra);
    }

    bool run(const QString &sql) { return OtelTracesTable::run(m_chdb.port(), sql); }
    bool createTable(const QString &name, const std::string &rows)
    {
        return OtelTracesTable::create(m_chdb.port(), name, rows);
    }

private slots:
    void initTestCase()
    {
        m_chdb.start();
        if (QTest::currentTestFailed())
            return;
        QVERIFY(run(QStringLiteral("CREATE DATABASE IF NOT EXISTS tracelane")));
        m_files = {
            {QStringLiteral("adviser"), TestData::source(QStringLiteral("resources/examples/adviser.otlp.json"))},
            {QStringLiteral("kinds"), TestData::fixture(QStringLiteral("otlp/workflow-kinds.json"))},
            {QStringLiteral("otel_tui"), TestData::realdata(QStringLiteral("otel-tui/test_data.json"))},
            {QStringLiteral("jaeger_fixture"), TestData::realdata(QStringLiteral("jaeger/otel_traces_01.json"))},
        };
        for (auto it = m_files.cbegin(); it != m_files.cend(); ++it)
            QVERIFY2(createTable(it.key(), rowsOf(it.value())), qPrintable(it.key()));
        // The adviser's spans and three rows no span can be made of.
        std::string rows = rowsOf(m_files[QStringLiteral("adviser")]);
        json bad = json::parse(rows.substr(0, rows.find('\n')));
        bad["SpanAttributes"] = json::object();
        bad["TraceId"] = "zz-not-hex";
        bad["SpanId"] = "00000000000bad01";
        rows += bad.dump() + '\n';
        bad = json::parse(rows.substr(0, rows.find('\n')));
        bad["SpanAttributes"] = json::object();
        bad["SpanId"] = "00000000000bad02";
        bad["Duration"] = std::numeric_limits<quint64>::max();
        rows += bad.dump() + '\n';
        bad = json::parse(rows.substr(0, rows.find('\n')));
        bad["SpanAttributes"] = json::object();
        bad["SpanId"] = "00000000000bad03";
        bad["ParentSpanId"] = "0000000000ad0001";
        bad["Timestamp"] = qint64{7'258'118'400'000'000'000}; // 2200-01-01, in a 2025 trace
        bad["Duration"] = 1'000'000;
        rows += bad.dump() + '\n';
        QVERIFY(createTable(QStringLiteral("hostile"), rows));
        QVERIFY(run(QStringLiteral("CREATE TABLE tracelane.not_spans (x UInt8) ENGINE = Memory")));
    }

    void cleanupTestCase() { m_chdb.stop(); }

    void equalsTheFile_data()
    {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QStringList>("arguments");
        for (const QString &table : {QStringLiteral("adviser"), QStringLiteral("kinds"), QStringLiteral("otel_tui"),
                                     QStringLiteral("jaeger_fixture")}) {
            QTest::addRow("%s analyse", qPrintable(table)) << table << QStringList{QStringLiteral("analyse")};
            QTest::addRow("%s critical-path", qPrintable(table))
                << table << QStringList{QStringLiteral("critical-path")};
        }
        QTest::addRow("adviser whatif") << QStringLiteral("adviser")
                                        << QStringList{QStringLiteral("whatif"), QStringLiteral("--scale-phase"),
                                                       QStringLiteral("chat@1:prefill=-25%")};
        QTest::addRow("otel_tui slice") << QStringLiteral("otel_tui")
                                        << QStringList{QStringLiteral("slice"), QStringLiteral("--by"),
                                                       QStringLiteral("workflow_type")};
        QTest::addRow("otel_tui exceed") << QStringLiteral("otel_tui") << QStringList{QStringLiteral("exceed")};
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
        const json expected = comparable(fromFile.out);
        const json actual = comparable(fromServer.out);
        QVERIFY(!expected.is_discarded());
        if (actual != expected) {
            qWarning("file:\n%s\nserver:\n%s", expected.dump(1).c_str(), actual.dump(1).c_str());
            QFAIL("otel_traces read as spans differs from the file");
        }
    }

    void badRowsAreRejectedAndTheRestLoads()
    {
        const auto run = runCli({QStringLiteral("analyse"), url(QStringLiteral("hostile")), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const json report = json::parse(run.out.toStdString());
        const auto clean
            = runCli({QStringLiteral("analyse"), m_files[QStringLiteral("adviser")], QStringLiteral("--json")});
        const json file = json::parse(clean.out.toStdString());
        QCOMPARE(report["requests"], file["requests"]);
        QCOMPARE(report["e2e"], file["e2e"]);
        QVERIFY2(report["rejected"] == json(3), report["rejected_records"].dump(1).c_str());
        QStringList reasons; // "field: reason"
        for (const json &record : report["rejected_records"]) {
            reasons << QString::fromStdString(record.value("field", std::string()) + ": "
                                              + record.value("reason", std::string()));
            QVERIFY(record.value("line", 0) > 0); // the row of the fetch
        }
        const QString all = reasons.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("TraceId: 'zz-not-hex' is neither 32 hex digits")), qPrintable(all));
        QVERIFY2(
            all.contains(QStringLiteral("Duration: 18446744073709551615 ns from the start passes the largest time")),
            qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("days after the middle of its trace, more than the 30-day limit")),
                 qPrintable(all));
    }

    // trace= (or --trace on a URL) fetches that trace's spans alone.
    void oneTraceIsFetchedAlone()
    {
        const LoadResult file = TraceFileLoader::load(m_files[QStringLiteral("otel_tui")], {});
        QVERIFY(file.ok());
        const WorkflowTable &workflows = file.store->workflows;
        const QString id = workflows.traceIdText(0);
        const LoadResult one = TraceSource::load(url(QStringLiteral("otel_tui"), QStringLiteral("&trace=") + id), {});
        QVERIFY2(one.ok(), qPrintable(one.fatalError));
        QCOMPARE(one.store->workflows.rowCount(), qsizetype(1));
        QCOMPARE(one.store->spans.rowCount(), qsizetype(workflows.spanCount[0]));
        const auto missing = runCli({QStringLiteral("critical-path"), url(QStringLiteral("otel_tui")),
                                     QStringLiteral("--trace"), QStringLiteral("0123456789abcdef")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains(QStringLiteral("no trace with id '0123456789abcdef' in the time range")),
                 qPrintable(missing.err));
    }

    void aTimeRangeFetchesWholeTraces()
    {
        // Every trace with a span starting in [from, to), with all its spans.
        std::map<std::string, std::pair<qint64, int>> traces; // id -> (first start in range?, spans)
        std::vector<qint64> starts;
        const std::string rows = rowsOf(m_files[QStringLiteral("otel_tui")]);
        std::vector<json> spans;
        for (size_t begin = 0; begin < rows.size();) {
            const size_t end = rows.find('\n', begin);
            spans.push_back(json::parse(rows.substr(begin, end - begin)));
            starts.push_back(spans.back()["Timestamp"].get<qint64>());
            begin = end + 1;
        }
        std::sort(starts.begin(), starts.end());
        const qint64 from = starts[starts.size() / 3];
        const qint64 to = starts[starts.size() / 2];
        std::set<std::string> inRange;
        std::map<std::string, int> spanCount;
        for (const json &span : spans) {
            const qint64 start = span["Timestamp"].get<qint64>();
            ++spanCount[span["TraceId"].get<std::string>()];
            if (start >= from && start < to)
                inRange.insert(span["TraceId"].get<std::string>());
        }
        QVERIFY(inRange.size() > 5 && inRange.size() < spanCount.size());
        const auto run = runCli({QStringLiteral("critical-path"),
                                 url(QStringLiteral("otel_tui"), QStringLiteral("&from=%1&to=%2").arg(from).arg(to)),
                                 QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const json report = json::parse(run.out.toStdString());
        std::set<std::string> fetched;
        for (const json &workflow : report["workflows"]) {
            const std::string id = workflow["workflow"].get<std::string>();
            fetched.insert(id);
            QCOMPARE(workflow["spans"].get<int>(), spanCount[id]);
        }
        QCOMPARE(fetched, inRange);
    }

    void aFilterKeepsTheTracesItMatchesWhole()
    {
        std::set<std::string> matching;
        std::map<std::string, int> spanCount;
        const std::string rows = rowsOf(m_files[QStringLiteral("otel_tui")]);
        for (size_t begin = 0; begin < rows.size();) {
            const size_t end = rows.find('\n', begin);
            const json span = json::parse(rows.substr(begin, end - begin));
            ++spanCount[span["TraceId"].get<std::string>()];
            if (span["ServiceName"] == json("frontend") && span["SpanName"] != json("GET"))
                matching.insert(span["TraceId"].get<std::string>());
            begin = end + 1;
        }
        QVERIFY(matching.size() > 3 && matching.size() < spanCount.size());
        const QString where = QString::fromLatin1(
            QUrl::toPercentEncoding(QStringLiteral("ServiceName = 'frontend' AND SpanName != 'GET'")));
        const auto run
            = runCli({QStringLiteral("critical-path"),
                      url(QStringLiteral("otel_tui"), QStringLiteral("&where=") + where), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        std::set<std::string> fetched;
        const json report = json::parse(run.out.toStdString());
        for (const json &workflow : report["workflows"]) {
            const std::string id = workflow["workflow"].get<std::string>();
            fetched.insert(id);
            QCOMPARE(workflow["spans"].get<int>(), spanCount[id]);
        }
        std::string differ;
        for (const std::string &id : matching)
            if (!fetched.count(id))
                differ += "missing " + id + "\n";
        for (const std::string &id : fetched)
            if (!matching.count(id))
                differ += "extra " + id + "\n";
        QVERIFY2(differ.empty(), differ.c_str());
        // A filter the server cannot parse: its message, exit 1.
        const auto bad = runCli(
            {QStringLiteral("analyse"), url(QStringLiteral("otel_tui"), QStringLiteral("&where=NoSuchColumn%3D1"))});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains(QStringLiteral("NoSuchColumn")), qPrintable(bad.err));
    }

    void aSampleKeepsOneTraceInNWhole()
    {
        // The traces the server's hash keeps, each with all its spans.
        QByteArray answer;
        QVERIFY(OtelTracesTable::run(m_chdb.port(),
                                     QStringLiteral("SELECT TraceId, count() FROM tracelane.otel_tui WHERE "
                                                    "sipHash64(TraceId) % 2 = 0 GROUP BY TraceId FORMAT TabSeparated"),
                                     {}, &answer));
        std::map<std::string, int> kept;
        for (const QByteArray &line : answer.split('\n')) {
            if (const QList<QByteArray> fields = line.split('\t'); fields.size() == 2)
                kept[fields[0].toStdString()] = fields[1].toInt();
        }
        QVERIFY(kept.size() > 3);
        const auto run
            = runCli({QStringLiteral("critical-path"), url(QStringLiteral("otel_tui"), QStringLiteral("&sample=2")),
                      QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        std::map<std::string, int> fetched;
        const json report = json::parse(run.out.toStdString());
        for (const json &workflow : report["workflows"])
            fetched[workflow["workflow"].get<std::string>()] = workflow["spans"].get<int>();
        if (fetched != kept) {
            for (const auto &[trace, count] : kept)
                qWarning("kept %s %d, fetched %d", trace.c_str(), count, fetched.contains(trace) ? fetched[trace] : -1);
            QCOMPARE(fetched.size(), kept.size());
            QFAIL("the sample's traces are not the ones the server's hash keeps");
        }
        // Fewer than all of them (547 spans in all).
        int spans = 0;
        for (const auto &[trace, count] : kept)
            spans += count;
        QVERIFY(spans > 0 && spans < 547);

        // With a filter: the sampled traces among those it keeps, whole.
        QVERIFY(OtelTracesTable::run(
            m_chdb.port(),
            QStringLiteral("SELECT TraceId, count() FROM tracelane.otel_tui WHERE TraceId IN (SELECT TraceId FROM "
                           "tracelane.otel_tui WHERE ServiceName = 'frontend') GROUP BY TraceId FORMAT TabSeparated"),
            {}, &answer));
        std::map<std::string, int> both;
        for (const QByteArray &line : answer.split('\n')) {
            if (const QList<QByteArray> fields = line.split('\t');
                fields.size() == 2 && kept.contains(fields[0].toStdString()))
                both[fields[0].toStdString()] = fields[1].toInt();
        }
        QVERIFY(!both.empty() && both.size() < kept.size());
        const QString where = QString::fromLatin1(QUrl::toPercentEncoding(QStringLiteral("ServiceName = 'frontend'")));
        const auto filtered = runCli({QStringLiteral("critical-path"),
                                      url(QStringLiteral("otel_tui"), QStringLiteral("&sample=2&where=") + where),
                                      QStringLiteral("--json")});
        QVERIFY2(filtered.exitCode == 0, qPrintable(filtered.err));
        const json filteredReport = json::parse(filtered.out.toStdString());
        std::map<std::string, int> fetchedBoth;
        for (const json &workflow : filteredReport["workflows"])
            fetchedBoth[workflow["workflow"].get<std::string>()] = workflow["spans"].get<int>();
        QVERIFY(fetchedBoth == both);
    }

    void tooManySpansAreRefusedBeforeFetching()
    {
        const auto run
            = runCli({QStringLiteral("analyse"), url(QStringLiteral("otel_tui"), QStringLiteral("&max_spans=100"))});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("547 spans in the time range, more than max_spans=100; keep one trace "
                                                 "in 8 with sample=8")),
                 qPrintable(run.err));
        // A sample still too large: counted against the range it is drawn
        // from, and a sparser one offered.
        const auto sampled = runCli(
            {QStringLiteral("analyse"), url(QStringLiteral("otel_tui"), QStringLiteral("&max_spans=100&sample=2"))});
        QCOMPARE(sampled.exitCode, 1);
        QVERIFY2(sampled.err.contains(QStringLiteral("spans in the 1-in-2 sample of the time range's 547, more than "
                                                     "max_spans=100; keep one trace in 8 with sample=8")),
                 qPrintable(sampled.err));
    }

    void partsGiveTheSameSpans()
    {
        ClickHouseSource source;
        QString error;
        QVERIFY(ClickHouseSource::parse(url(QStringLiteral("otel_tui")), &source, &error));
        const LoadResult whole = OtelTracesLoader::load(source, LoadOptions{});
        LoadControl control;
        const LoadResult parts = OtelTracesLoader::load(source, LoadOptions{}, &control, 100);
        QVERIFY2(whole.ok() && parts.ok(), qPrintable(whole.fatalError + parts.fatalError));
        QCOMPARE(whole.store->spans.rowCount(), 547);
        QCOMPARE(parts.store->spans.rowCount(), 547);
        QCOMPARE(parts.store->workflows.rowCount(), whole.store->workflows.rowCount());
        QCOMPARE(parts.store->requests.rowCount(), whole.store->requests.rowCount());
        QCOMPARE(control.processedRecords(), 547);
        QCOMPARE(control.totalBytes(), 547);
    }

    void cancelStopsTheLoad()
    {
        ClickHouseSource source;
        QString error;
        QVERIFY(ClickHouseSource::parse(url(QStringLiteral("otel_tui")), &source, &error));
        LoadControl control;
        control.cancel();
        const LoadResult result = OtelTracesLoader::load(source, LoadOptions{}, &control);
        QVERIFY(result.cancelled);
        QVERIFY(result.fatalError.isEmpty());
    }

    void otherTablesSayWhatTheyAre()
    {
        const auto missing = runCli({QStringLiteral("critical-path"), url(QStringLiteral("nosuch"))});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains(QStringLiteral("no table tracelane.nosuch on that server")),
                 qPrintable(missing.err));
        LoadResult result = TraceSource::load(url(QStringLiteral("nosuch")), LoadOptions{});
        QVERIFY2(result.fatalError.contains(QStringLiteral("no table tracelane.nosuch")),
                 qPrintable(result.fatalError));
        result = TraceSource::load(url(QStringLiteral("not_spans")), LoadOptions{});
        QVERIFY2(result.fatalError.contains(QStringLiteral("neither Tracelane's requests table nor")),
                 qPrintable(result.fatalError));
        result = TraceSource::load(
            QStringLiteral("clickhouse://127.0.0.1:%1/tracelane?table=x&bogus=1").arg(m_chdb.port()), LoadOptions{});
        QVERIFY2(result.fatalError.contains(QStringLiteral("unknown URL parameter 'bogus'")),
                 qPrintable(result.fatalError));
    }

    void sqlNamesTheExporterColumns()
    {
        ClickHouseSource source;
        QString error;
        QVERIFY(ClickHouseSource::parse(url(QStringLiteral("otel_traces")), &source, &error));
        const QString sql = OtelTracesLoader::partSql(source, 1, 4);
        QVERIFY2(sql.contains(QStringLiteral("cityHash64(TraceId) % 4 = 1")), qPrintable(sql));
        QVERIFY2(sql.contains(QStringLiteral("FROM `tracelane`.`otel_traces` WHERE 1")), qPrintable(sql));
    }

private:
    ChdbServer m_chdb;
    QMap<QString, QString> m_files;
};

QTEST_GUILESS_MAIN(TestClickHouseOtel)
#include "tst_clickhouseotel.moc"
