// tracelane-cli critical-path and whatif, run the way a script would, on
// the bundled adviser example, a generated population and the real traces.

#include "support/CliRun.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

namespace {

QString adviser()
{
    return QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json");
}

// Ten copies of the adviser example with trace ids ...01..0a, copy i
// stretched in time by (10 + i) / 10 about the workflow's start.
QString writePopulation(const QTemporaryDir &dir)
{
    QFile in(adviser());
    if (!in.open(QIODevice::ReadOnly))
        qFatal("cannot read the adviser example");
    const auto original = nlohmann::json::parse(in.readAll().toStdString());
    const qint64 base = 1'736'935'200'000'000'000;
    const auto stretch = [base](const std::string &text, int i) {
        const qint64 t = std::stoll(text);
        return std::to_string(base + (t - base) * (10 + i) / 10);
    };
    QByteArray lines;
    for (int i = 0; i < 10; ++i) {
        nlohmann::json copy = original;
        // Walk every value: ids get the copy's number, times are stretched.
        std::vector<nlohmann::json *> stack{&copy};
        while (!stack.empty()) {
            nlohmann::json *node = stack.back();
            stack.pop_back();
            if (node->is_object()) {
                for (auto it = node->begin(); it != node->end(); ++it) {
                    if (it.key() == "traceId") {
                        char id[33];
                        std::snprintf(id, sizeof id, "4d7f2c6a9b1e4f0a8c3d5e6f7a8b9c%02x", i + 1);
                        it.value() = id;
                    } else if (it.value().is_string() && it.value().get<std::string>().size() == 19
                               && it.value().get<std::string>().rfind("17369352", 0) == 0) {
                        it.value() = stretch(it.value().get<std::string>(), i);
                    } else {
                        stack.push_back(&it.value());
                    }
                }
            } else if (node->is_array()) {
                for (auto &element : *node)
                    stack.push_back(&element);
            }
        }
        lines += QByteArray::fromStdString(copy.dump()) + '\n';
    }
    QString path = dir.filePath(QStringLiteral("population.jsonl"));
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        qFatal("cannot write the population");
    out.write(lines);
    return path;
}

} // namespace

class tst_WorkflowCli : public QObject
{
    Q_OBJECT
private slots:
    void criticalPathText();
    void criticalPathJson();
    void whatIfSavings_data();
    void whatIfSavings();
    void whatIfText();
    void populationPercentile();
    void realTraces_data();
    void realTraces();
    void workflowsSliceAndFormExceedanceSets();
    void errors_data();
    void errors();
};

void tst_WorkflowCli::criticalPathText()
{
    const CliRun run = runCli({QStringLiteral("critical-path"), adviser()});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.err, QString());
    QCOMPARE(
        run.out,
        QStringLiteral("Workflow 4d7f2c6a9b1e4f0a8c3d5e6f7a8b9c0d: 10 spans, E2E 5986.00 ms, TTFT 1550.00 ms\n"
                       "Critical path (7 sections; ms from the workflow's start):\n"
                       "     start        end   duration  share  span\n"
                       "      0.00      70.00      70.00   1.2%  inbound transit (network)\n"
                       "     70.00     115.00      45.00   0.8%  gateway and policy (gateway)\n"
                       "    115.00     545.00     430.00   7.2%  policy retrieval (retrieval)\n"
                       "    545.00     570.00      25.00   0.4%  prompt assembly (preparation)\n"
                       "    570.00    1946.00    1376.00  23.0%  model call: tool proposal (chat)\n"
                       "   1946.00    2706.00     760.00  12.7%  calculation tool (execute_tool)\n"
                       "   2706.00    5986.00    3280.00  54.8%  model call: final answer (chat)\n"
                       "Slack (how much later a span could end without moving the workflow's end): 9 spans critical, "
                       "1 with slack\n"
                       "      150.00 ms  account retrieval (retrieval)\n"));
}

void tst_WorkflowCli::criticalPathJson()
{
    const CliRun run = runCli({QStringLiteral("critical-path"), QStringLiteral("--json"), QStringLiteral("--trace"),
                               QStringLiteral("4D7F2C6A9B1E4F0A8C3D5E6F7A8B9C0D"), adviser()});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject json = jsonOf(run);
    QCOMPARE(json.value(QStringLiteral("format")).toString(), QStringLiteral("otlp-json"));
    const QJsonArray workflows = json.value(QStringLiteral("workflows")).toArray();
    QCOMPARE(workflows.size(), 1);
    const QJsonObject workflow = workflows.first().toObject();
    QCOMPARE(workflow.value(QStringLiteral("e2e_ms")).toDouble(), 5986.0);
    QCOMPARE(workflow.value(QStringLiteral("ttft_ms")).toDouble(), 1550.0);
    const QJsonArray path = workflow.value(QStringLiteral("critical_path")).toArray();
    QCOMPARE(path.size(), 7);
    QCOMPARE(path[2].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("policy retrieval"));
    QCOMPARE(path[2].toObject().value(QStringLiteral("duration_ns")).toInteger(), qint64(430'000'000));
    QCOMPARE(path[6].toObject().value(QStringLiteral("share")).toDouble(), 3280.0 / 5986.0);
    for (const auto &entry : workflow.value(QStringLiteral("slack")).toArray()) {
        const QJsonObject span = entry.toObject();
        const bool account = span.value(QStringLiteral("name")).toString() == QStringLiteral("account retrieval");
        QCOMPARE(span.value(QStringLiteral("slack_ms")).toDouble(), account ? 150.0 : 0.0);
    }
}

void tst_WorkflowCli::whatIfSavings_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<qint64>("e2eSavingNs");
    QTest::addColumn<double>("ttftSavingMs");

    QTest::newRow("first prefill -25%") << QStringList{QStringLiteral("--scale-phase"),
                                                       QStringLiteral("chat@1:prefill=0.75")}
                                        << qint64(71'250'000) << 71.25;
    QTest::newRow("first queue -50%") << QStringList{QStringLiteral("--scale-phase"), QStringLiteral("queue=-50%")}
                                      << qint64(305'000'000) << 305.0;
    QTest::newRow("tool -1/3") << QStringList{QStringLiteral("--scale"), QStringLiteral("calculation tool=2/3")}
                               << qint64(253'333'333) << 0.0;
    QTest::newRow("final answer 30 tokens shorter at 24 ms/token")
        << QStringList{QStringLiteral("--shorten-answer"), QStringLiteral("30@24")} << qint64(720'000'000) << 0.0;
    QTest::newRow("account retrieval depends on policy retrieval")
        << QStringList{QStringLiteral("--add-dependency"), QStringLiteral("policy retrieval>account retrieval")}
        << qint64(-280'000'000) << -280.0;
    QTest::newRow("all four savings together")
        << QStringList{QStringLiteral("--scale-phase"),    QStringLiteral("chat@1:prefill=0.75"),
                       QStringLiteral("--scale-phase"),    QStringLiteral("chat@1:queue=0.5"),
                       QStringLiteral("--scale"),          QStringLiteral("execute_tool=2/3"),
                       QStringLiteral("--shorten-answer"), QStringLiteral("30@24")}
        << qint64(1'349'583'333) << 376.25;
}

void tst_WorkflowCli::whatIfSavings()
{
    QFETCH(QStringList, options);
    QFETCH(qint64, e2eSavingNs);
    QFETCH(double, ttftSavingMs);
    const CliRun run = runCli(QStringList{QStringLiteral("whatif"), adviser(), QStringLiteral("--json")} + options);
    QCOMPARE(run.exitCode, 0);
    const QJsonObject workflow = jsonOf(run).value(QStringLiteral("workflow")).toObject();
    QCOMPARE(workflow.value(QStringLiteral("e2e_saving_ns")).toInteger(), e2eSavingNs);
    QCOMPARE(workflow.value(QStringLiteral("ttft_saving_ms")).toDouble(), ttftSavingMs);
    QCOMPARE(workflow.value(QStringLiteral("not_applied")).toArray().size(), 0);
}

void tst_WorkflowCli::whatIfText()
{
    const CliRun run = runCli(
        {QStringLiteral("whatif"), adviser(), QStringLiteral("--scale-phase"), QStringLiteral("prefill=0.75")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.startsWith(QStringLiteral(
                 "What-if on workflow 4d7f2c6a9b1e4f0a8c3d5e6f7a8b9c0d: prefill of 'model call: tool proposal' ×0.75\n"
                 "           before      after     saving\n"
                 "   E2E    5986.00    5914.75      71.25 ms\n"
                 "  TTFT    1550.00    1478.75      71.25 ms\n"
                 "New critical path:\n")),
             qPrintable(run.out));
    QVERIFY(run.out.contains(
        QStringLiteral("    570.00    1874.75    1304.75  22.1%  model call: tool proposal (chat)\n")));
    QVERIFY(!run.out.contains(QStringLiteral("Population")));
}

void tst_WorkflowCli::populationPercentile()
{
    QTemporaryDir dir;
    const QString population = writePopulation(dir);
    const CliRun run
        = runCli({QStringLiteral("whatif"), population, QStringLiteral("--scale-phase"), QStringLiteral("prefill=0.75"),
                  QStringLiteral("--percentile"), QStringLiteral("95"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject summary = jsonOf(run).value(QStringLiteral("population")).toObject();
    QCOMPARE(summary.value(QStringLiteral("workflows")).toInt(), 10);
    QCOMPARE(summary.value(QStringLiteral("changed")).toInt(), 10);
    QCOMPARE(summary.value(QStringLiteral("q")).toDouble(), 0.95);
    // Totals 5986 ms × 1.0 … 1.9; p95 rank 8.55 lands on the factor 1.855.
    const auto near = [](double actual, double expected) { return std::abs(actual - expected) < 1e-6; };
    QVERIFY(near(summary.value(QStringLiteral("e2e_before_ms")).toDouble(), 5986.0 * 1.855));
    QVERIFY(near(summary.value(QStringLiteral("e2e_after_ms")).toDouble(), 5914.75 * 1.855));
    QVERIFY(near(summary.value(QStringLiteral("e2e_saving_ms")).toDouble(), 71.25 * 1.855));
    QVERIFY(near(summary.value(QStringLiteral("ttft_before_ms")).toDouble(), 1550.0 * 1.855));
    QVERIFY(!jsonOf(run).contains(QStringLiteral("workflow")));

    const CliRun text = runCli(
        {QStringLiteral("whatif"), population, QStringLiteral("--scale-phase"), QStringLiteral("prefill=0.75")});
    QCOMPARE(text.exitCode, 0);
    QCOMPARE(text.out,
             QStringLiteral("Population: 10 workflows (10 changed by the what-if, 0 could not be analysed)\n"
                            "p95 E2E  11104.03 → 10971.86 ms (saves 132.17 ms)\n"
                            "p95 TTFT 2875.25 → 2743.08 ms (saves 132.17 ms)\n"));
}

void tst_WorkflowCli::realTraces_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("workflows");
    const auto row = [](const char *file, int workflows) {
        QTest::newRow(file) << QStringLiteral(TRACELANE_REALDATA_DIR "/") + QString::fromLatin1(file) << workflows;
    };
    row("opentelemetry-proto/trace.json", 1);
    row("otel-tui/test_data.json", 141);
    row("jaeger/otel_traces_01.json", 2);
    row("jaeger-ui/otlp2jaeger-in.json", 1);
    row("jaeger-ui/otlp2jaeger-out.json", 1);
    row("jaeger-ui/genaiTestTrace.json", 1);
    row("jaeger-ui/spanAmongEachOtherGroupedAndSpans.json", 1);
    row("any-agent/OPENAI_trace.json", 1);
    row("any-agent/GOOGLE_trace.json", 1);
    row("langfuse/microsoft-agent-2025-12-17.trace.json", 1);
}

void tst_WorkflowCli::realTraces()
{
    // Every workflow analyses, and its path accounts for its whole E2E.
    QFETCH(QString, file);
    QFETCH(int, workflows);
    const CliRun run = runCli({QStringLiteral("critical-path"), QStringLiteral("--json"), file});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject json = jsonOf(run);
    QCOMPARE(json.value(QStringLiteral("errors")).toArray().size(), 0);
    const QJsonArray analysed = json.value(QStringLiteral("workflows")).toArray();
    QCOMPARE(analysed.size(), workflows);
    for (const auto &entry : analysed) {
        const QJsonObject workflow = entry.toObject();
        qint64 total = 0;
        for (const auto &section : workflow.value(QStringLiteral("critical_path")).toArray())
            total += section.toObject().value(QStringLiteral("duration_ns")).toInteger();
        QCOMPARE(total, workflow.value(QStringLiteral("e2e_ns")).toInteger());
    }
}

void tst_WorkflowCli::workflowsSliceAndFormExceedanceSets()
{
    // The OpenTelemetry demo capture: 141 workflows whose type is their root
    // span's name. Figures checked against a plain Python reading of the file
    // (E2E = last span end - root start; seed percentiles).
    const QString file = QStringLiteral(TRACELANE_REALDATA_DIR "/otel-tui/test_data.json");
    const CliRun slice = runCli({QStringLiteral("slice"), file, QStringLiteral("--by"), QStringLiteral("workflow_type"),
                                 QStringLiteral("--metric"), QStringLiteral("e2e"), QStringLiteral("--json")});
    QCOMPARE(slice.exitCode, 0);
    const QJsonObject table = jsonOf(slice);
    QCOMPARE(table.value(QStringLiteral("slice_requests")).toInt(), 141);
    const QJsonObject exceedance = table.value(QStringLiteral("exceedance")).toObject();
    QCOMPARE(exceedance.value(QStringLiteral("size")).toInt(), 7);
    QCOMPARE(exceedance.value(QStringLiteral("threshold")).toDouble(), 419.666501);
    QHash<QString, QJsonObject> cells;
    for (const auto &entry : table.value(QStringLiteral("cells")).toArray())
        cells.insert(entry.toObject().value(QStringLiteral("label")).toString(), entry.toObject());
    QCOMPARE(cells.size(), 8);
    const auto requests = [&](const char *type) {
        return cells.value(QString::fromUtf8(type)).value(QStringLiteral("requests")).toInt();
    };
    const auto inSet = [&](const char *type) {
        return cells.value(QString::fromUtf8(type)).value(QStringLiteral("exceedance_count")).toInt();
    };
    QCOMPARE(requests("GET"), 62);
    QCOMPARE(requests("HTTP GET"), 38);
    QCOMPARE(requests("POST"), 21);
    QCOMPARE(requests("HTTP POST"), 15);
    QCOMPARE(inSet("POST"), 2);
    QCOMPARE(inSet("HTTP POST"), 2);
    QCOMPARE(inSet("schema.v1.Service/EventStream"), 2);
    QCOMPARE(inSet("flagd.evaluation.v1.Service/EventStream"), 1);
    QCOMPARE(inSet("GET"), 0);
    const double getP50 = cells.value(QStringLiteral("GET"))
                              .value(QStringLiteral("p50"))
                              .toObject()
                              .value(QStringLiteral("value"))
                              .toDouble();
    QVERIFY2(std::abs(getP50 - 11.7273185) < 1e-9, qPrintable(QString::number(getP50, 'f', 9)));

    const CliRun exceed = runCli(
        {QStringLiteral("exceed"), file, QStringLiteral("--metric"), QStringLiteral("e2e"), QStringLiteral("--json")});
    QCOMPARE(exceed.exitCode, 0);
    const QJsonObject set = jsonOf(exceed);
    QCOMPARE(set.value(QStringLiteral("set_size")).toInt(), 7);
    QCOMPARE(set.value(QStringLiteral("rest_size")).toInt(), 134);
    // The workflow type is what separates the slow workflows from the rest.
    const QJsonObject top = set.value(QStringLiteral("attribute_ranking")).toArray().first().toObject();
    QCOMPARE(top.value(QStringLiteral("feature")).toString(), QStringLiteral("workflow_type"));
}

void tst_WorkflowCli::errors_data()
{
    addCliErrorColumns();

    const QString seed = QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/burst.jsonl");
    QTest::newRow("critical-path without a file") << QStringList{QStringLiteral("critical-path")} << 2
                                                  << QStringLiteral("critical-path: expected exactly one FILE");
    QTest::newRow("whatif without a change") << QStringList{QStringLiteral("whatif"), adviser()} << 2
                                             << QStringLiteral("nothing to change: give --scale, --scale-phase, "
                                                               "--shorten-answer or --add-dependency");
    QTest::newRow("bad factor") << QStringList{QStringLiteral("whatif"), adviser(), QStringLiteral("--scale"),
                                               QStringLiteral("tool=fast")}
                                << 2 << QStringLiteral("--scale 'fast' is not a factor");
    QTest::newRow("bad percentile") << QStringList{QStringLiteral("whatif"),       adviser(),
                                                   QStringLiteral("--scale"),      QStringLiteral("tool=0.5"),
                                                   QStringLiteral("--percentile"), QStringLiteral("0")}
                                    << 2 << QStringLiteral("--percentile '0': expected a value in (0, 1] or (1, 100]");
    QTest::newRow("unknown trace") << QStringList{QStringLiteral("critical-path"), adviser(), QStringLiteral("--trace"),
                                                  QStringLiteral("abc")}
                                   << 1 << QStringLiteral("no workflow with trace id 'abc' (1 workflows in the file)");
    QTest::newRow("no workflows in a flat trace") << QStringList{QStringLiteral("critical-path"), seed} << 1
                                                  << QStringLiteral("burst.jsonl: no workflows; critical-path needs "
                                                                    "span traces");
    QTest::newRow("whatif on a flat trace")
        << QStringList{QStringLiteral("whatif"), seed, QStringLiteral("--scale"), QStringLiteral("tool=0.5")} << 1
        << QStringLiteral("burst.jsonl: no workflows; whatif needs span traces");
    QTest::newRow("what-if matching nothing")
        << QStringList{QStringLiteral("whatif"), adviser(), QStringLiteral("--scale"), QStringLiteral("reranker=0.5")}
        << 1
        << QStringLiteral("the what-if changes nothing in 1 workflow(s)\n  'reranker' ×0.5: no span or kind matches");
    // Over many workflows: the kinds and names there are, to write it again.
    QTest::newRow("what-if matching nothing in a population")
        << QStringList{QStringLiteral("whatif"), QStringLiteral(TRACELANE_REALDATA_DIR "/otel-tui/test_data.json"),
                       QStringLiteral("--scale"), QStringLiteral("reranker=0.5")}
        << 1
        << QStringLiteral("the what-if changes nothing in 141 workflow(s)\n  span kinds here: none\n  span names "
                          "here: GET (122), ingress (75), router frontend egress (75), HTTP GET (38), POST (36), "
                          "grpc.oteldemo.ProductCatalogService/GetProduct (36), "
                          "oteldemo.ProductCatalogService/GetProduct (36), HTTP POST (15), 23 more\n");
    QTest::newRow("what-if closing a cycle")
        << QStringList{QStringLiteral("whatif"), adviser(), QStringLiteral("--add-dependency"),
                       QStringLiteral("calculation tool>model call: tool proposal")}
        << 1 << QStringLiteral("dependency cycle through spans");
    QTest::newRow("missing file") << QStringList{QStringLiteral("critical-path"), QStringLiteral("/nonexistent.json")}
                                  << 1 << QStringLiteral("/nonexistent.json");
}

void tst_WorkflowCli::errors()
{
    const CliRun run = runCliErrorRow();
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(run.out, QString());
}

QTEST_GUILESS_MAIN(tst_WorkflowCli)
#include "tst_workflowcli.moc"
