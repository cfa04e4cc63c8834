// tracelane-cli exceed and critical-path --aggregate on workflow traces,
// run the way a script would: the slow set's excess split over
// critical-path time, and the paths merged into one tree.

#include "support/CliRun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <cmath>

namespace {

QString demo()
{
    return QStringLiteral(TRACELANE_REALDATA_DIR "/otel-tui/test_data.json");
}

QJsonObject keyRow(const QJsonObject &attribution, const QString &label)
{
    for (const auto &value : attribution.value(QStringLiteral("keys")).toArray()) {
        if (value.toObject().value(QStringLiteral("label")).toString() == label)
            return value.toObject();
    }
    return {};
}

} // namespace

class tst_PathCli : public QObject
{
    Q_OBJECT
private slots:
    void exceedSplitsWorkflowsOverTheirPaths();
    void exceedJson();
    void flatRequestsKeepTheirPhases();
    void aggregateText();
    void aggregateJsonAndWhere();
    void usageErrors_data();
    void usageErrors();
};

void tst_PathCli::exceedSplitsWorkflowsOverTheirPaths()
{
    // The demo's 7 slowest requests (E2E above p95 = 419.7 ms): 19,049.8 ms
    // more than the rest on average, 87% of it feature-flag streams (flagd).
    const CliRun run = runCli({QStringLiteral("exceed"), demo(), QStringLiteral("--metric"), QStringLiteral("e2e"),
                               QStringLiteral("--by-key"), QStringLiteral("service")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(
        run.out.contains(QStringLiteral("Critical-path attribution: mean E2E of the set minus the rest, split over "
                                        "critical-path time by service (set n=7, rest n=134)\n"
                                        "  19066.1 - 16.4 = 19049.8 ms\n")),
        qPrintable(run.out));
    QVERIFY(run.out.contains(QStringLiteral("Suspect: flagd (16586.5 of the 19049.8 ms excess)\n")));
    QVERIFY(run.out.contains(QRegularExpression(QStringLiteral(
        "\nflagd +16586\\.5 +0\\.0 +16586\\.5 +87\\.1% +42\\.9% / 3\\.7% +38701\\.8 / 0\\.6 +n/a / 2\\.6\n"))));
    QVERIFY(run.out.contains(QRegularExpression(QStringLiteral("\noutside the span tree +0\\.0 +0\\.0 +0\\.0 +0%\n"))));
    QVERIFY(run.out.contains(QRegularExpression(QStringLiteral("\ntotal +19066\\.1 +16\\.4 +19049\\.8 +100%\n"))));
    // The phase table is gone: a span tree has no request phases to split.
    QVERIFY(!run.out.contains(QStringLiteral("residual (unobserved)")));
}

void tst_PathCli::exceedJson()
{
    const CliRun run = runCli({QStringLiteral("exceed"), demo(), QStringLiteral("--metric"), QStringLiteral("e2e"),
                               QStringLiteral("--by-key"), QStringLiteral("name"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject attribution = jsonOf(run).value(QStringLiteral("critical_path_attribution")).toObject();
    QCOMPARE(attribution.value(QStringLiteral("total")).toString(), QStringLiteral("e2e"));
    QCOMPARE(attribution.value(QStringLiteral("by")).toString(), QStringLiteral("name"));
    QCOMPARE(attribution.value(QStringLiteral("set_n")).toInt(), 7);
    QCOMPARE(attribution.value(QStringLiteral("rest_n")).toInt(), 134);
    QCOMPARE(attribution.value(QStringLiteral("suspect")).toString(), QStringLiteral("schema.v1.Service/EventStream"));
    QVERIFY(attribution.value(QStringLiteral("exact_in_ns")).toBool());
    const double difference = attribution.value(QStringLiteral("difference_ms")).toDouble();
    QVERIFY(std::abs(attribution.value(QStringLiteral("sum_of_contributions_ms")).toDouble() - difference) < 1e-9);
    QCOMPARE(qRound64(difference * 1000), 19'049'769LL);
    const QJsonObject stream = keyRow(attribution, QStringLiteral("schema.v1.Service/EventStream"));
    QCOMPARE(stream.value(QStringLiteral("set_on_path")).toInt(), 2);
    QCOMPARE(qRound64(stream.value(QStringLiteral("difference_ms")).toDouble() * 1000), 12'280'751LL);
    QCOMPARE(attribution.value(QStringLiteral("outside_span_tree"))
                 .toObject()
                 .value(QStringLiteral("difference_ms"))
                 .toDouble(),
             0.0);
    // The demo's frontend returns before its gRPC client calls finish: that
    // time is the call's, past its parent's end, not an unexplained residual.
    const QJsonObject overrun = keyRow(attribution, QStringLiteral("GET (past its parent's end)"));
    QVERIFY(overrun.value(QStringLiteral("past_parent_end")).toBool());
    QCOMPARE(overrun.value(QStringLiteral("rest_on_path")).toInt(), 2);
}

void tst_PathCli::flatRequestsKeepTheirPhases()
{
    const CliRun run = runCli({QStringLiteral("exceed"),
                               QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/mixed-classes.jsonl"),
                               QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject document = jsonOf(run);
    QVERIFY(!document.contains(QStringLiteral("critical_path_attribution")));
    QVERIFY(document.contains(QStringLiteral("attribution")));
    const CliRun text = runCli(
        {QStringLiteral("exceed"), QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/mixed-classes.jsonl")});
    QVERIFY(text.out.contains(QStringLiteral("Phase attribution: mean TTFT")));
    QVERIFY(!text.out.contains(QStringLiteral("Critical-path attribution")));
}

void tst_PathCli::aggregateText()
{
    const CliRun run = runCli({QStringLiteral("critical-path"), demo(), QStringLiteral("--aggregate"),
                               QStringLiteral("--by-key"), QStringLiteral("service")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.startsWith(QStringLiteral("Slow workflows: E2E above its p95 (419.7 ms) in all requests: 7 of 141 "
                                               "workflows; rest 134\n\n")),
             qPrintable(run.out));
    QVERIFY(run.out.contains(QStringLiteral("Critical paths merged by service path: mean E2E path time per node "
                                            "(subtree total, own time) in the set (n=7) and the rest (n=134)\n")));
    // The merged tree: the load generator's requests go through the proxy
    // to the frontend, where the set spends 1,239.8 ms of its own time.
    QVERIFY2(run.out.contains(QRegularExpression(
                 QStringLiteral("\nloadgenerator +1240\\.5 +12\\.7 +1227\\.8 +0\\.6 +2\\.7 +28\\.6% / 60\\.4%\n"
                                "  frontend-proxy +1240\\.0 +10\\.0 +1230\\.0 +0\\.1 +0\\.1 +28\\.6% / 46\\.3%\n"
                                "    frontend-proxy +1239\\.9 +9\\.9 +1230\\.0 +0\\.2 +1\\.0 +28\\.6% / 46\\.3%\n"
                                "      frontend +1239\\.8 +8\\.8 +1230\\.9 +1239\\.8 +8\\.8 +28\\.6% / 46\\.3%\n"))),
             qPrintable(run.out));
}

void tst_PathCli::aggregateJsonAndWhere()
{
    const CliRun run = runCli({QStringLiteral("critical-path"), demo(), QStringLiteral("--aggregate"),
                               QStringLiteral("--where"), QStringLiteral("workflow_type=POST"),
                               QStringLiteral("--by-key"), QStringLiteral("name"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject document = jsonOf(run);
    QCOMPARE(document.value(QStringLiteral("slice")).toString(), QStringLiteral("workflow_type = POST"));
    QCOMPARE(document.value(QStringLiteral("set_size")).toInt(), 1);
    QCOMPARE(document.value(QStringLiteral("rest_size")).toInt(), 20);
    const QJsonObject attribution = document.value(QStringLiteral("critical_path_attribution")).toObject();
    QCOMPARE(attribution.value(QStringLiteral("suspect")).toString(), QStringLiteral("POST"));
    const QJsonObject tree = document.value(QStringLiteral("path_tree")).toObject();
    QCOMPARE(tree.value(QStringLiteral("set_n")).toInt(), 1);
    QCOMPARE(tree.value(QStringLiteral("rest_n")).toInt(), 20);
    const QJsonArray nodes = tree.value(QStringLiteral("nodes")).toArray();
    QVERIFY(!nodes.isEmpty());
    // Roots' subtree means add up to the groups' mean path lengths.
    double setRoots = 0.0;
    double restRoots = 0.0;
    for (const auto &value : nodes) {
        const QJsonObject node = value.toObject();
        if (node.value(QStringLiteral("depth")).toInt() == 0) {
            setRoots += node.value(QStringLiteral("set_mean_ms")).toDouble();
            restRoots += node.value(QStringLiteral("rest_mean_ms")).toDouble();
        }
        QCOMPARE(node.value(QStringLiteral("path")).toString().count(QStringLiteral(" > ")),
                 node.value(QStringLiteral("depth")).toInt());
    }
    QCOMPARE(qRound64(setRoots * 1e6), qRound64(attribution.value(QStringLiteral("set_mean_ms")).toDouble() * 1e6));
    QCOMPARE(qRound64(restRoots * 1e6), qRound64(attribution.value(QStringLiteral("rest_mean_ms")).toDouble() * 1e6));
}

void tst_PathCli::usageErrors_data()
{
    addCliErrorColumns();
    QTest::newRow("unknown key") << QStringList{QStringLiteral("exceed"), demo(), QStringLiteral("--by-key"),
                                                QStringLiteral("colour")}
                                 << 2 << QStringLiteral("--by-key 'colour': use kind, service, operation or name");
    QTest::newRow("aggregate of a flat trace") << QStringList{
        QStringLiteral("critical-path"), QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/mixed-classes.jsonl"),
        QStringLiteral("--aggregate")} << 1 << QStringLiteral("no workflows; critical-path needs span traces");
    QTest::newRow("bad where") << QStringList{QStringLiteral("critical-path"), demo(), QStringLiteral("--aggregate"),
                                              QStringLiteral("--where"), QStringLiteral("colour")}
                               << 2 << QStringLiteral("--where");
}

void tst_PathCli::usageErrors()
{
    runCliErrorRow();
}

QTEST_GUILESS_MAIN(tst_PathCli)
#include "tst_pathcli.moc"
