// Span traces pushed to Tracelane's own tables on a two-shard cluster and
// read back: the spans table (schema version 3) gives back the store the
// file's load made, so every command's JSON from the clickhouse:// URL equals
// its JSON from the file (critical paths, slack, what-if, the workflows'
// request lanes), a time range or a sample keeps whole workflows, and rows
// that are not spans are rejected with their line and column.

#include "clickhouse/ClickHouseClient.h"
#include "clickhouse/ClickHouseSource.h"
#include "io/TraceFileLoader.h"
#include "remote/TraceSource.h"
#include "store/TraceStore.h"
#include "support/CliRun.h"
#include "support/ClickHouseCluster.h"
#include "support/TestData.h"
#include "support/TracelaneTables.h"

#include <QLocale>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace {

using nlohmann::json;

// The command's JSON without what names its input.
json comparable(const QString &text)
{
    json document = TracelaneTables::comparable(text, {"format", "source", "sources", "label"});
    if (document.is_object()) {
        for (const char *list : {"notices", "rejected_records"}) {
            if (!document.contains(list))
                continue;
            for (json &entry : document[list])
                entry.erase("file");
        }
    }
    return document;
}

struct Trace
{
    const char *table;
    QString file;
};

} // namespace

class TestClickHouseSpans : public QObject
{
    Q_OBJECT

private:
    QString url(const QString &table, const QString &extra = {}) const { return m_cluster.tracelaneUrl(table) + extra; }

    QString ask(int shard, const QString &sql)
    {
        QString error;
        const QByteArray answer = m_cluster.query(shard, sql, &error);
        if (!error.isEmpty())
            qWarning("%s: %s", qPrintable(sql), qPrintable(error));
        return QString::fromUtf8(answer).trimmed();
    }

    // The file's store and the table's, span for span and workflow for workflow.
    static QString sameStore(const TraceStore &file, const TraceStore &table)
    {
        const SpanTable &a = file.spans;
        const SpanTable &b = table.spans;
        if (a.rowCount() != b.rowCount())
            return QStringLiteral("%1 spans, %2 from the table").arg(a.rowCount()).arg(b.rowCount());
        for (qsizetype row = 0; row < a.rowCount(); ++row) {
            if (a.spanId(row) != b.spanId(row) || a.parent(row) != b.parent(row) || a.workflow(row) != b.workflow(row)
                || a.start(row) != b.start(row) || a.end(row) != b.end(row) || a.kind(row) != b.kind(row)
                || a.category(row) != b.category(row) || a.flags(row) != b.flags(row)
                || a.service(row) != b.service(row) || a.attributeRange(row) != b.attributeRange(row)
                || a.events(row).size() != b.events(row).size()
                || (a.modelCall(row) == nullptr) != (b.modelCall(row) == nullptr))
                return QStringLiteral("span row %1 (%2) differs").arg(row).arg(a.spanIdText(row));
        }
        if (a.edges().size() != b.edges().size() || a.externalLinks().size() != b.externalLinks().size()
            || a.resources().size() != b.resources().size() || a.scopes().size() != b.scopes().size())
            return QStringLiteral("edges %1/%2, links %3/%4, resources %5/%6, scopes %7/%8")
                .arg(a.edges().size())
                .arg(b.edges().size())
                .arg(a.externalLinks().size())
                .arg(b.externalLinks().size())
                .arg(a.resources().size())
                .arg(b.resources().size())
                .arg(a.scopes().size())
                .arg(b.scopes().size());
        for (size_t i = 0; i < a.edges().size(); ++i) {
            if (a.edges()[i].from != b.edges()[i].from || a.edges()[i].to != b.edges()[i].to
                || a.edges()[i].kind != b.edges()[i].kind)
                return QStringLiteral("edge %1 differs").arg(i);
        }
        if (file.workflows.rowCount() != table.workflows.rowCount()
            || file.workflows.rootSpan != table.workflows.rootSpan
            || file.workflows.requestRow != table.workflows.requestRow)
            return QStringLiteral("workflows differ");
        if (file.requests.rowCount() != table.requests.rowCount())
            return QStringLiteral("%1 requests, %2 from the table")
                .arg(file.requests.rowCount())
                .arg(table.requests.rowCount());
        return {};
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
        for (const Trace &trace : m_traces) {
            // Small batches: the spans of one workflow land on both shards.
            const QString failure
                = TracelaneTables::initAndPush(m_cluster, QString::fromLatin1(trace.table), trace.file, {}, 7);
            QVERIFY2(failure.isEmpty(), qPrintable(failure));
        }
    }

    void theStoreIsTheFiles_data()
    {
        QTest::addColumn<int>("trace");
        for (int i = 0; i < int(m_traces.size()); ++i)
            QTest::addRow("%s", m_traces[size_t(i)].table) << i;
    }

    void theStoreIsTheFiles()
    {
        QFETCH(int, trace);
        const Trace &chosen = m_traces[size_t(trace)];
        const LoadResult file = TraceFileLoader::load(chosen.file, {});
        QVERIFY2(file.ok(), qPrintable(file.fatalError));
        QVERIFY(file.store->spans.rowCount() > 0);
        const LoadResult table = TraceSource::load(url(QString::fromLatin1(chosen.table)), {});
        QVERIFY2(table.ok(), qPrintable(table.fatalError));
        const QString difference = sameStore(*file.store, *table.store);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
        QVERIFY(table.store->rejected.empty());
    }

    void equalsTheFile_data()
    {
        QTest::addColumn<int>("trace");
        QTest::addColumn<QStringList>("arguments");
        for (int i = 0; i < int(m_traces.size()); ++i) {
            const char *name = m_traces[size_t(i)].table;
            QTest::addRow("%s critical-path", name) << i << QStringList{QStringLiteral("critical-path")};
            QTest::addRow("%s analyse", name) << i << QStringList{QStringLiteral("analyse")};
            QTest::addRow("%s load", name) << i << QStringList{QStringLiteral("load")};
        }
        QTest::addRow("adviser whatif") << 0
                                        << QStringList{QStringLiteral("whatif"), QStringLiteral("--scale-phase"),
                                                       QStringLiteral("chat@1:prefill=-25%")};
        QTest::addRow("adviser slice") << 0
                                       << QStringList{QStringLiteral("slice"), QStringLiteral("--by"),
                                                      QStringLiteral("workflow_type")};
        QTest::addRow("adviser exceed") << 0 << QStringList{QStringLiteral("exceed")};
    }

    void equalsTheFile()
    {
        QFETCH(int, trace);
        QFETCH(QStringList, arguments);
        const Trace &chosen = m_traces[size_t(trace)];
        const QString command = arguments.takeFirst();
        const auto fromFile = runCli(QStringList{command, chosen.file, QStringLiteral("--json")} + arguments);
        QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
        const auto fromServer = runCli(
            QStringList{command, url(QString::fromLatin1(chosen.table)), QStringLiteral("--json")} + arguments);
        QVERIFY2(fromServer.exitCode == 0, qPrintable(fromServer.err));
        json expected = comparable(fromFile.out);
        json actual = comparable(fromServer.out);
        QVERIFY(!expected.is_discarded());
        if (command == QLatin1String("analyse") || command == QLatin1String("exceed")) {
            // Computed on the server: nothing is loaded, so there are no
            // load notices, and what the server does not compute is named.
            expected.erase("notices");
            actual.erase("notices");
            if (command == QLatin1String("exceed")) {
                const json skipped = actual["not_computed_on_server"];
                QCOMPARE(skipped, json({"critical_path_attribution"}));
                actual.erase("not_computed_on_server");
                for (const json &key : skipped)
                    expected.erase(key.get<std::string>());
            }
        }
        if (actual != expected) {
            qWarning("file:\n%s\nserver:\n%s", expected.dump(1).c_str(), actual.dump(1).c_str());
            QFAIL("Tracelane's spans table read back differs from the file");
        }
    }

    // compare and report load the table as they load the file.
    void compareAndReportAreTheFiles()
    {
        const QString file = m_traces[0].file;
        const QString table = url(QString::fromLatin1(m_traces[0].table));
        const auto fromFiles = runCli({QStringLiteral("compare"), file, file, QStringLiteral("--json")});
        QVERIFY2(fromFiles.exitCode == 0, qPrintable(fromFiles.err));
        const auto fromTables = runCli({QStringLiteral("compare"), table, table, QStringLiteral("--json")});
        QVERIFY2(fromTables.exitCode == 0, qPrintable(fromTables.err));
        json expected = json::parse(fromFiles.out.toStdString());
        json actual = json::parse(fromTables.out.toStdString());
        for (const char *side : {"baseline", "candidate"}) {
            expected.erase(side);
            actual.erase(side);
        }
        QVERIFY(expected.contains("workflows"));
        if (actual != expected) {
            qWarning("file:\n%s\nserver:\n%s", expected.dump(1).c_str(), actual.dump(1).c_str());
            QFAIL("compare of the table differs from compare of the file");
        }

        // The report's workflow figures: the slowest workflow's critical path
        // and what each change would save, captioned as for the file.
        QTemporaryDir folder;
        const QString fileReport = folder.filePath(QStringLiteral("file.md"));
        const QString tableReport = folder.filePath(QStringLiteral("table.md"));
        QCOMPARE(runCli({QStringLiteral("report"), file, QStringLiteral("--out"), fileReport}).exitCode, 0);
        QCOMPARE(runCli({QStringLiteral("report"), table, QStringLiteral("--out"), tableReport}).exitCode, 0);
        const auto captions = [](const QString &path) {
            QFile markdown(path);
            markdown.open(QIODevice::ReadOnly);
            QStringList found;
            for (const QString &line : QString::fromUtf8(markdown.readAll()).split(QLatin1Char('\n'))) {
                if (line.startsWith(QStringLiteral("_Figure 4.")) || line.startsWith(QStringLiteral("_Figure 5.")))
                    found << line.section(QStringLiteral(" · trace: "), 0, 0);
            }
            return found;
        };
        const QStringList expectedCaptions = captions(fileReport);
        QCOMPARE(expectedCaptions.size(), 2);
        QVERIFY2(expectedCaptions.first().contains(QStringLiteral("Critical path of the slowest workflow")),
                 qPrintable(expectedCaptions.first()));
        QCOMPARE(captions(tableReport), expectedCaptions);
    }

    // from= and to= keep the workflows whose request lane starts in range,
    // each with every one of its spans.
    void aTimeRangeKeepsWholeWorkflows()
    {
        const Trace &chosen = m_traces[2]; // otel_tui: 141 workflows
        const LoadResult file = TraceFileLoader::load(chosen.file, {});
        QVERIFY(file.ok());
        const TraceStore &all = *file.store;
        std::vector<qint64> starts;
        for (qsizetype w = 0; w < all.workflows.rowCount(); ++w)
            starts.push_back(all.requests.stamp(all.workflows.requestRow[size_t(w)], Stamp::ClientSend));
        std::vector<qint64> sorted = starts;
        std::sort(sorted.begin(), sorted.end());
        const qint64 from = sorted[sorted.size() / 4];
        const qint64 to = sorted[sorted.size() * 3 / 4];
        std::map<std::string, qint32> expected; // trace id -> spans
        for (qsizetype w = 0; w < all.workflows.rowCount(); ++w) {
            if (starts[size_t(w)] >= from && starts[size_t(w)] < to)
                expected[std::string(all.workflows.traceIds.view(w))] = all.workflows.spanCount[size_t(w)];
        }
        QVERIFY(expected.size() > 10 && qsizetype(expected.size()) < all.workflows.rowCount());
        const LoadResult cut = TraceSource::load(
            url(QString::fromLatin1(chosen.table), QStringLiteral("&from=%1&to=%2").arg(from).arg(to)), {});
        QVERIFY2(cut.ok(), qPrintable(cut.fatalError));
        std::map<std::string, qint32> loaded;
        for (qsizetype w = 0; w < cut.store->workflows.rowCount(); ++w)
            loaded[std::string(cut.store->workflows.traceIds.view(w))] = cut.store->workflows.spanCount[size_t(w)];
        QVERIFY(loaded == expected);
        QCOMPARE(cut.store->requests.rowCount(), qsizetype(expected.size()));
    }

    // One workflow alone: trace= (or --trace on a URL) fetches its request
    // lane and its spans, nothing else, and its critical path is the file's.
    void oneWorkflowIsFetchedAlone()
    {
        const Trace &chosen = m_traces[2];
        const LoadResult file = TraceFileLoader::load(chosen.file, {});
        QVERIFY(file.ok());
        const WorkflowTable &workflows = file.store->workflows;
        qint32 largest = 0;
        for (qint32 w = 1; w < qint32(workflows.rowCount()); ++w) {
            if (workflows.spanCount[size_t(w)] > workflows.spanCount[size_t(largest)])
                largest = w;
        }
        const QString id = workflows.traceIdText(largest);
        const QString table = url(QString::fromLatin1(chosen.table));
        const LoadResult one = TraceSource::load(ClickHouseSource::withTrace(table, id), {});
        QVERIFY2(one.ok(), qPrintable(one.fatalError));
        QCOMPARE(one.store->workflows.rowCount(), qsizetype(1));
        QCOMPARE(one.store->requests.rowCount(), qsizetype(1));
        QCOMPARE(one.store->spans.rowCount(), qsizetype(workflows.spanCount[size_t(largest)]));
        QVERIFY(one.store->sourceFiles.first().endsWith(QStringLiteral("&trace=") + id));

        const QStringList arguments = {QStringLiteral("--trace"), id, QStringLiteral("--json")};
        const auto fromFile = runCli(QStringList{QStringLiteral("critical-path"), chosen.file} + arguments);
        const auto fromServer = runCli(QStringList{QStringLiteral("critical-path"), table} + arguments);
        QVERIFY2(fromServer.exitCode == 0, qPrintable(fromServer.err));
        const json expected = comparable(fromFile.out);
        QCOMPARE(expected["workflows"].size(), size_t(1));
        QVERIFY(comparable(fromServer.out) == expected);

        const auto missing = runCli(
            {QStringLiteral("critical-path"), table, QStringLiteral("--trace"), QStringLiteral("0123456789abcdef")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains(QStringLiteral("no request or workflow with id '0123456789abcdef' in the time "
                                                     "range")),
                 qPrintable(missing.err));
    }

    // A sample keeps whole workflows: those whose trace id the server's hash keeps.
    void aSampleKeepsWholeWorkflows()
    {
        const Trace &chosen = m_traces[2];
        const LoadResult file = TraceFileLoader::load(chosen.file, {});
        QVERIFY(file.ok());
        const QStringList kept = ask(0,
                                     QStringLiteral("SELECT request_id FROM tracelane.%1 WHERE sipHash64(request_id) "
                                                    "% 2 = 0 ORDER BY request_id")
                                         .arg(QString::fromLatin1(chosen.table)))
                                     .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(kept.size() > 10 && kept.size() < file.store->workflows.rowCount());
        const LoadResult sample
            = TraceSource::load(url(QString::fromLatin1(chosen.table), QStringLiteral("&sample=2")), {});
        QVERIFY2(sample.ok(), qPrintable(sample.fatalError));
        const TraceStore &store = *sample.store;
        QStringList loaded;
        for (qsizetype w = 0; w < store.workflows.rowCount(); ++w) {
            loaded << store.workflows.traceIdText(w);
            const qint32 inFile = file.store->workflows.indexOf(store.workflows.traceIds.view(w));
            QVERIFY(inFile >= 0);
            QCOMPARE(store.workflows.spanCount[size_t(w)], file.store->workflows.spanCount[size_t(inFile)]);
        }
        loaded.sort();
        QCOMPARE(loaded, kept);
        QCOMPARE(store.sampleOneIn, qint64(2));
    }

    // Spans pushed by a build before schema version 3 lack what the store
    // needs: the workflows load as request lanes, and a notice says why
    // their spans did not.
    void olderSpansStayOnTheServerAndAreNamed()
    {
        const QString failure = TracelaneTables::init(m_cluster, QStringLiteral("older"));
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY(ask(0, QStringLiteral("INSERT INTO tracelane.older SELECT * FROM tracelane.adviser")).isEmpty());
        QVERIFY(ask(0,
                    QStringLiteral("INSERT INTO tracelane.older_spans (schema_version, source, batch, row, "
                                   "trace_id, span_id, parent_span_id, name, operation, service, start_ns, end_ns, "
                                   "status, input_tokens, output_tokens, source_line, attr_keys, attr_values) "
                                   "SELECT 2, source, batch, row, trace_id, span_id, parent_span_id, name, "
                                   "operation, service, start_ns, end_ns, status, input_tokens, output_tokens, "
                                   "source_line, attr_keys, attr_values FROM tracelane.adviser_spans"))
                    .isEmpty());
        const LoadResult load = TraceSource::load(url(QStringLiteral("older")), {});
        QVERIFY2(load.ok(), qPrintable(load.fatalError));
        const LoadResult file = TraceFileLoader::load(m_traces[0].file, {});
        QCOMPARE(load.store->requests.rowCount(), file.store->requests.rowCount());
        QCOMPARE(load.store->spans.rowCount(), 0);
        QCOMPARE(load.store->notices.size(), size_t(1));
        QCOMPARE(load.store->notices.front().message,
                 QStringLiteral("%1 spans of these requests' workflows in `tracelane`.`older_spans` were pushed before "
                                "Tracelane schema version 3 and were not loaded: the window shows their workflows as "
                                "requests; delete their rows and push the file again for the workflows")
                     .arg(file.store->spans.rowCount()));
    }

    // Tables made by an older init lack version 3's span columns: a push
    // says to run init again, which adds them; then the spans load whole.
    void anOlderInitIsBroughtUpToDate()
    {
        QString failure = TracelaneTables::init(m_cluster, QStringLiteral("legacy"));
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        for (int shard = 0; shard < m_cluster.shardCount(); ++shard) {
            QVERIFY(ask(shard, QStringLiteral("DROP TABLE tracelane.legacy_spans")).isEmpty());
            QVERIFY(
                ask(shard, QStringLiteral("ALTER TABLE tracelane.legacy_spans_local DROP COLUMN detail")).isEmpty());
            QVERIFY(ask(shard,
                        QStringLiteral("CREATE TABLE tracelane.legacy_spans AS tracelane.legacy_spans_local "
                                       "ENGINE = Distributed(%1, tracelane, legacy_spans_local, "
                                       "cityHash64(source, batch))")
                            .arg(QLatin1String(ClickHouseCluster::kCluster)))
                        .isEmpty());
        }
        const QString file = m_traces[0].file;
        const auto refused
            = runCli({QStringLiteral("clickhouse"), QStringLiteral("push"), file, url(QStringLiteral("legacy"))});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(
            refused.err.contains(QStringLiteral("`tracelane`.`legacy_spans` was made by an older `clickhouse init` "
                                                "and cannot hold this file's spans whole: run `tracelane-cli "
                                                "clickhouse init` on it again")),
            qPrintable(refused.err));
        failure = TracelaneTables::initAndPush(m_cluster, QStringLiteral("legacy"), file);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        const LoadResult load = TraceSource::load(url(QStringLiteral("legacy")), {});
        QVERIFY2(load.ok(), qPrintable(load.fatalError));
        const LoadResult expected = TraceFileLoader::load(file, {});
        const QString difference = sameStore(*expected.store, *load.store);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
    }

    // Rows the server accepts but that are no span: each rejected with its
    // line in the pushed file and the column; the rest loads.
    // More spans than max_spans: refused with the count and a sample of
    // workflows that fits, before any span is fetched.
    void tooManySpansAreRefusedWithASample()
    {
        const Trace &chosen = m_traces[2];
        const LoadResult file = TraceFileLoader::load(chosen.file, {});
        QVERIFY(file.ok());
        const qsizetype spans = file.store->spans.rowCount();
        const qsizetype workflows = file.store->workflows.rowCount();
        QVERIFY(spans > workflows); // the spans, not the request lanes, are too many
        const qint64 most = qint64(workflows) + 10;
        const LoadResult refused
            = TraceSource::load(url(QString::fromLatin1(chosen.table), QStringLiteral("&max_spans=%1").arg(most)), {});
        QVERIFY(!refused.ok());
        QVERIFY2(
            refused.fatalError.contains(QStringLiteral("%1 spans in the workflows of the time range's %2 requests, "
                                                       "more than max_spans=%3; open a sample of them with sample=")
                                            .arg(QLocale(QLocale::English).toString(qint64(spans)),
                                                 QLocale(QLocale::English).toString(qint64(workflows)))
                                            .arg(most)),
            qPrintable(refused.fatalError));
        QVERIFY(refused.sampleThatFits > 1);
        // The sample it names fits.
        const LoadResult sample
            = TraceSource::load(url(QString::fromLatin1(chosen.table),
                                    QStringLiteral("&max_spans=%1&sample=%2").arg(most).arg(refused.sampleThatFits)),
                                {});
        QVERIFY2(sample.ok(), qPrintable(sample.fatalError));
        QVERIFY(sample.store->spans.rowCount() <= most);
    }

    // A table holding a flat trace and a span trace: the flat requests, then
    // the workflows' lanes and their spans, each as its own file gives them.
    void flatRequestsAndWorkflowsShareATable()
    {
        QString failure = TracelaneTables::initAndPush(
            m_cluster, QStringLiteral("both"), TestData::source(QStringLiteral("resources/examples/burst.jsonl")));
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        const auto push = runCli({QStringLiteral("clickhouse"), QStringLiteral("push"), m_traces[0].file,
                                  url(QStringLiteral("both")), QStringLiteral("--batch-rows"), QStringLiteral("7")});
        QVERIFY2(push.exitCode == 0, qPrintable(push.err));
        const LoadResult flat
            = TraceFileLoader::load(TestData::source(QStringLiteral("resources/examples/burst.jsonl")), {});
        const LoadResult agents = TraceFileLoader::load(m_traces[0].file, {});
        const LoadResult both = TraceSource::load(url(QStringLiteral("both")), {});
        QVERIFY2(both.ok(), qPrintable(both.fatalError));
        const TraceStore &store = *both.store;
        QCOMPARE(store.requests.rowCount(), flat.store->requests.rowCount() + agents.store->requests.rowCount());
        QCOMPARE(store.spans.rowCount(), agents.store->spans.rowCount());
        QCOMPARE(store.workflows.rowCount(), qsizetype(1));
        const qint32 lane = store.workflows.requestRow[0];
        QVERIFY(lane >= 0);
        QCOMPARE(store.requests.idText(lane), agents.store->workflows.traceIdText(0));
        QCOMPARE(store.requests.stamp(lane, Stamp::LastTokenClient),
                 agents.store->requests.stamp(agents.store->workflows.requestRow[0], Stamp::LastTokenClient));
        // The workflow's critical path is the file's.
        const auto fromFile = runCli({QStringLiteral("critical-path"), m_traces[0].file, QStringLiteral("--json")});
        const auto fromTable
            = runCli({QStringLiteral("critical-path"), url(QStringLiteral("both")), QStringLiteral("--json")});
        QVERIFY2(fromTable.exitCode == 0, qPrintable(fromTable.err));
        QVERIFY(comparable(fromTable.out)["workflows"] == comparable(fromFile.out)["workflows"]);
    }

    void rowsThatAreNoSpanAreRejected()
    {
        QString failure = TracelaneTables::initAndPush(m_cluster, QStringLiteral("hostile"), m_traces[0].file);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        const QString source = ask(0, QStringLiteral("SELECT any(source) FROM tracelane.hostile"));
        const auto row = [&](int line, const QString &trace, const QString &changes) {
            json record = {{"schema_version", 3},
                           {"source", source.toStdString()},
                           {"batch", 999},
                           {"row", 9000 + line},
                           {"trace_id", trace.toStdString()},
                           {"span_id", "00000000000000" + std::to_string(10 + line)},
                           {"parent_span_id", ""},
                           {"name", "hostile"},
                           {"operation", ""},
                           {"service", "s"},
                           {"start_ns", 1000},
                           {"end_ns", 2000},
                           {"status", 0},
                           {"input_tokens", -1},
                           {"output_tokens", -1},
                           {"source_line", 9000 + line},
                           {"kind", 1},
                           {"category", 0},
                           {"flags", 0},
                           {"parent_row", -1},
                           {"resource", -1},
                           {"scope", -1},
                           {"attr_keys", json::array()},
                           {"attr_values", json::array()},
                           {"attr_numeric", json::array()},
                           {"detail", "{}"}};
            record.update(json::parse(changes.toStdString()));
            return QString::fromStdString(record.dump());
        };
        const QString bad = QStringLiteral("bad00000000000000000000000000000");
        const QStringList rows = {
            row(1, bad, QStringLiteral("{\"detail\": \"{not json\"}")),
            row(2, bad, QStringLiteral("{\"kind\": 9}")),
            row(3, bad, QStringLiteral("{\"end_ns\": 500}")),
            row(4, bad, QStringLiteral("{\"attr_keys\": [\"a\"]}")),
            row(5, bad, QStringLiteral("{\"detail\": \"{\\\"edges\\\": [[0, 1]]}\"}")),
            // A span whose parent row is not there: it loads, without it.
            row(6, bad, QStringLiteral("{\"parent_row\": 123456}")),
            // A resource and a scope whose arrays differ in length: their
            // spans load without them.
            row(7, bad,
                QStringLiteral("{\"resource\": 50, \"resource_keys\": [\"a\"], \"resource_values\": [], "
                               "\"resource_numeric\": []}")),
            row(8, bad,
                QStringLiteral("{\"scope\": 51, \"scope_name\": \"n\", \"scope_keys\": [\"b\"], "
                               "\"scope_values\": [\"x\", \"y\"], \"scope_numeric\": [0]}")),
        };
        const QByteArray inserted = m_cluster.query(
            0,
            QStringLiteral("INSERT INTO tracelane.hostile_spans FORMAT JSONEachRow\n") + rows.join(QLatin1Char('\n')));
        QVERIFY2(inserted.isEmpty(), inserted.constData());
        const LoadResult load = TraceSource::load(url(QStringLiteral("hostile")), {});
        QVERIFY2(load.ok(), qPrintable(load.fatalError));
        QStringList rejected;
        for (const RejectedRecord &record : load.store->rejected)
            rejected << QStringLiteral("%1 %2: %3").arg(record.line).arg(record.field, record.reason);
        QCOMPARE(rejected,
                 (QStringList{
                     QStringLiteral("0 resource_keys: a resource that is not parallel key, value and numeric arrays; "
                                    "its spans load without it"),
                     QStringLiteral("0 scope_keys: a scope that is not a name, a version and parallel key, value and "
                                    "numeric arrays; its spans load without it"),
                     QStringLiteral("9001 detail: not a JSON object"),
                     QStringLiteral("9002 kind: not a span kind (0 to 5)"),
                     QStringLiteral("9003 end_ns: not a time in ns at or after start_ns"),
                     QStringLiteral("9004 attr_values: attr_keys, attr_values and attr_numeric must be arrays "
                                    "of one length"),
                     QStringLiteral("9005 detail: an edge is not [order, row, kind]"),
                 }));
        const LoadResult file = TraceFileLoader::load(m_traces[0].file, {});
        QCOMPARE(load.store->spans.rowCount(), file.store->spans.rowCount() + 3);
        bool said = false;
        for (const LoadNotice &notice : load.store->notices)
            said = said
                || notice.message.startsWith(
                    QStringLiteral("1 parents and 0 dependencies name spans that did not load"));
        QVERIFY(said);
    }

private:
    ClickHouseCluster m_cluster{2};
    const std::vector<Trace> m_traces = {
        {"adviser", TestData::source(QStringLiteral("resources/examples/adviser.otlp.json"))},
        {"kinds", TestData::fixture(QStringLiteral("otlp/workflow-kinds.json"))},
        {"otel_tui", TestData::realdata(QStringLiteral("otel-tui/test_data.json"))},
        {"jaeger", TestData::realdata(QStringLiteral("jaeger/otel_traces_01.json"))},
        {"any_agent", TestData::realdata(QStringLiteral("any-agent/GOOGLE_trace.json"))},
        {"langfuse", TestData::realdata(QStringLiteral("langfuse/microsoft-agent-2025-12-17.trace.json"))},
    };
};

QTEST_GUILESS_MAIN(TestClickHouseSpans)
#include "tst_clickhousespans.moc"
