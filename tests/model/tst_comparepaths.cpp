// Baseline vs candidate for workflow traces: the candidate's mean E2E (or
// TTFT) minus the baseline's, split exactly over critical-path time by key
// (issue 17, "baseline vs candidate from the comparison"). Constructed
// populations where the candidate differs by one tool on the path (named,
// exact split) and by a key off the path (not blamed), in the model and
// through `tracelane-cli compare` (text and JSON).

#include "support/CliRun.h"
#include "support/PathFixtures.h"
#include "support/WorkflowPopulation.h"

#include "analysis/compare/ComparisonSamples.h"
#include "analysis/compare/TraceComparison.h"
#include "report/ComparisonText.h"
#include "report/ReportDocument.h"
#include "review/DesignReport.h"
#include "review/ReportComparison.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace {

using namespace PathFixtures;

TraceComparison compare(const WorkflowPopulation &baseline, const WorkflowPopulation &candidate, Metric metric,
                        SpanKeyKind key)
{
    ComparisonSpec spec;
    spec.metric = metric;
    spec.pathKey = key;
    const auto samples
        = ComparisonSamples::prepare(ComparisonSide::whole(baseline.store(), QStringLiteral("baseline")),
                                     ComparisonSide::whole(candidate.store(), QStringLiteral("candidate")), spec);
    return TraceComparison::evaluate(*samples, spec);
}

// The population as OTLP/JSON Lines (one workflow a line, a resource per
// span for its service), for the CLI.
QString writeOtlp(const QTemporaryDir &dir, const QString &name, const std::vector<std::vector<PopulationSpan>> &flows)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    for (size_t w = 0; w < flows.size(); ++w) {
        const qint64 origin = 1'700'000'000'000'000'000LL + qint64(w) * 10'000'000'000LL;
        const auto &spans = flows[w];
        const auto idOf = [&](const std::string &local) {
            for (size_t i = 0; i < spans.size(); ++i) {
                if (spans[i].id == local)
                    return QStringLiteral("%1").arg(qulonglong(w * 100 + i + 1), 16, 16, QLatin1Char('0'));
            }
            return QString();
        };
        QStringList resources;
        for (const auto &span : spans) {
            const QString json
                = QStringLiteral(
                      "{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"%1\"}}]},"
                      "\"scopeSpans\":[{\"spans\":[{\"traceId\":\"%2\",\"spanId\":\"%3\",\"parentSpanId\":\"%4\","
                      "\"name\":\"%5\",\"startTimeUnixNano\":\"%6\",\"endTimeUnixNano\":\"%7\",\"attributes\":[{"
                      "\"key\":\"gen_ai.operation.name\",\"value\":{\"stringValue\":\"%8\"}}]}]}]}")
                      .arg(QString::fromStdString(span.service),
                           QStringLiteral("%1").arg(qulonglong(w + 1), 32, 16, QLatin1Char('0')), idOf(span.id),
                           span.parent.empty() ? QString() : idOf(span.parent), QString::fromStdString(span.name),
                           QString::number(origin + std::llround(span.startMs * 1e6)),
                           QString::number(origin + std::llround(span.endMs * 1e6)),
                           QString::fromStdString(span.operation));
            resources << json;
        }
        file.write(QStringLiteral("{\"resourceSpans\":[%1]}\n").arg(resources.join(QLatin1Char(','))).toUtf8());
    }
    return path;
}

} // namespace

class tst_ComparePaths : public QObject
{
    Q_OBJECT
private slots:
    void slowerToolOnThePathIsNamed();
    void slowerKeyOffThePathIsNotBlamed();
    void fasterCandidateHasNoSuspect();
    void cliTextAndJson();
    void reportSection();
};

void tst_ComparePaths::slowerToolOnThePathIsNamed()
{
    // 60 workflows on each side; the candidate's tool takes 100 -> 400 ms,
    // nothing else differs (the retrieval's 0-2 ms jitter is the same).
    WorkflowPopulation baseline;
    WorkflowPopulation candidate;
    for (int i = 0; i < 60; ++i) {
        baseline.add(agentWorkflow(i, 100.0 + i % 3, 100.0), i * 10'000.0);
        candidate.add(agentWorkflow(i, 100.0 + i % 3, 400.0), i * 10'000.0);
    }
    const TraceComparison comparison = compare(baseline, candidate, Metric::E2e, SpanKeyKind::Kind);
    QVERIFY2(comparison.ok(), qPrintable(comparison.error));
    QVERIFY(comparison.workflows);
    QVERIFY(comparison.workflows->paths);
    const PathAttribution &byKind = *comparison.workflows->paths;
    QCOMPARE(byKind.setName, QStringLiteral("candidate"));
    QCOMPARE(byKind.restName, QStringLiteral("baseline"));
    QCOMPARE(byKind.setN, 60);
    QCOMPARE(byKind.restN, 60);
    QCOMPARE(byKind.target, WorkflowPaths::Target::End);
    // Baseline: 2 + retrieval (101 on average) + 2 + 300 + 2 + 100 + 2 + 500 + 2 = 1,011 ms.
    QCOMPARE(byKind.restMeanMs, 1011.0);
    QCOMPARE(byKind.setMeanMs, 1311.0);
    QCOMPARE(byKind.differenceMs, 300.0);
    QCOMPARE(differences(byKind), QStringLiteral("tool=300.000"));
    checkExact(byKind);
    QCOMPARE(byKind.outsideDifferenceMs, 0.0);
    QVERIFY(byKind.suspect);
    QCOMPARE(byKind.keys[*byKind.suspect].key, QStringLiteral("tool"));
    QVERIFY2(byKind.nextTest.contains(QStringLiteral("cache its results")), qPrintable(byKind.nextTest));
    const auto *tool = byKind.find(QStringLiteral("tool"));
    QVERIFY(tool);
    QCOMPARE(tool->setSumNs, 60 * 400'000'000LL);
    QCOMPARE(tool->restSumNs, 60 * 100'000'000LL);
    QCOMPARE(tool->setShareOnPath, 1.0);
    QCOMPARE(tool->restShareOnPath, 1.0);
    // The agent's own time: 5 x 2 ms on both sides.
    const auto *gap = byKind.find(QStringLiteral("agent"), true);
    QVERIFY(gap);
    QCOMPARE(gap->setMeanMs, 10.0);
    QCOMPARE(gap->restMeanMs, 10.0);

    // By name: the order ids in the tool's name do not split it.
    const TraceComparison byName = compare(baseline, candidate, Metric::E2e, SpanKeyKind::Name);
    const PathAttribution &names = *byName.workflows->paths;
    QCOMPARE(differences(names), QStringLiteral("lookup_order {n}=300.000"));
    QCOMPARE(names.keys[*names.suspect].key, QStringLiteral("lookup_order {n}"));
    checkExact(names);
    // By service.
    const PathAttribution services = *compare(baseline, candidate, Metric::E2e, SpanKeyKind::Service).workflows->paths;
    QCOMPARE(differences(services), QStringLiteral("orders=300.000"));
    checkExact(services);
    // The text the CLI prints names both sides and the suspect.
    const QString text = ComparisonText::report(comparison);
    QVERIFY2(text.contains(QStringLiteral("Critical-path attribution: mean E2E of the candidate minus the baseline, "
                                          "split over critical-path time by kind (candidate n=60, baseline n=60)")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("1311.0 - 1011.0 = 300.0 ms")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Suspect: tool (300.0 of the 300.0 ms excess)")), qPrintable(text));
}

void tst_ComparePaths::slowerKeyOffThePathIsNotBlamed()
{
    // The candidate's account retrieval slows 280 -> 400 ms, still inside
    // the 430 ms policy retrieval it runs beside: off the path, not blamed,
    // its slack 150 -> 30 ms. Its answer takes 100 ms longer: that is named.
    WorkflowPopulation baseline;
    WorkflowPopulation candidate;
    for (int i = 0; i < 30; ++i) {
        baseline.add(adviserWorkflow(280.0, 500.0), i * 10'000.0);
        candidate.add(adviserWorkflow(400.0, 600.0), i * 10'000.0);
    }
    const TraceComparison comparison = compare(baseline, candidate, Metric::E2e, SpanKeyKind::Name);
    QVERIFY2(comparison.ok(), qPrintable(comparison.error));
    const PathAttribution &a = *comparison.workflows->paths;
    QCOMPARE(a.differenceMs, 100.0);
    QCOMPARE(differences(a), QStringLiteral("chat answer=100.000"));
    QCOMPARE(a.keys[*a.suspect].key, QStringLiteral("chat answer"));
    checkExact(a);
    const auto *account = a.find(QStringLiteral("account retrieval"));
    QVERIFY(account);
    QCOMPARE(account->differenceMs, 0.0);
    QCOMPARE(account->setOnPath, 0);
    QCOMPARE(account->restOnPath, 0);
    QCOMPARE(account->setOffPath, 30);
    QCOMPARE(account->restOffPath, 30);
    QCOMPARE(account->setSlackMedianMs, 30.0);
    QCOMPARE(account->restSlackMedianMs, 150.0);
}

void tst_ComparePaths::fasterCandidateHasNoSuspect()
{
    // The candidate's tool got faster: every difference is a saving, so no
    // key is blamed; the split still adds up. Also at TTFT: without token
    // times no workflow has a first token, so there is nothing to attribute.
    WorkflowPopulation baseline;
    WorkflowPopulation candidate;
    for (int i = 0; i < 20; ++i) {
        baseline.add(agentWorkflow(i, 100.0 + i % 3, 400.0), i * 10'000.0);
        candidate.add(agentWorkflow(i, 100.0 + i % 3, 150.0), i * 10'000.0);
    }
    const TraceComparison comparison = compare(baseline, candidate, Metric::E2e, SpanKeyKind::Kind);
    const PathAttribution a = *comparison.workflows->paths;
    const QString text = ComparisonText::report(comparison);
    QVERIFY2(text.contains(QStringLiteral("Suspect: none; the candidate is faster by 250.0 ms on average, most of all "
                                          "in tool (-250.0 ms)")),
             qPrintable(text));
    QCOMPARE(a.differenceMs, -250.0);
    QCOMPARE(differences(a), QStringLiteral("tool=-250.000"));
    QVERIFY(!a.suspect);
    QVERIFY(a.largestSaving());
    QCOMPARE(a.largestSaving()->key, QStringLiteral("tool"));
    checkExact(a);
    const auto ttft = compare(baseline, candidate, Metric::Ttft, SpanKeyKind::Kind);
    if (ttft.workflows && ttft.workflows->paths) {
        QVERIFY(ttft.workflows->paths->isEmpty());
        QCOMPARE(ttft.workflows->paths->target, WorkflowPaths::Target::FirstToken);
    }
}

void tst_ComparePaths::cliTextAndJson()
{
    QTemporaryDir dir;
    std::vector<std::vector<PopulationSpan>> before;
    std::vector<std::vector<PopulationSpan>> after;
    for (int i = 0; i < 42; ++i) {
        before.push_back(agentWorkflow(i, 100.0 + i % 3, 100.0));
        after.push_back(agentWorkflow(i, 100.0 + i % 3, 400.0));
    }
    const QString base = writeOtlp(dir, QStringLiteral("before.otlp.jsonl"), before);
    const QString cand = writeOtlp(dir, QStringLiteral("after.otlp.jsonl"), after);

    const CliRun text = runCli({QStringLiteral("compare"), base, cand, QStringLiteral("--metric"),
                                QStringLiteral("e2e"), QStringLiteral("--by-key"), QStringLiteral("service")});
    QVERIFY2(text.exitCode == 0, qPrintable(text.err));
    QVERIFY2(text.out.contains(QStringLiteral("mean E2E of the candidate minus the baseline, split over "
                                              "critical-path time by service (candidate n=42, baseline n=42)")),
             qPrintable(text.out));
    QVERIFY2(text.out.contains(QStringLiteral("Suspect: orders (300.0 of the 300.0 ms excess)")), qPrintable(text.out));

    const CliRun json
        = runCli({QStringLiteral("compare"), base, cand, QStringLiteral("--metric"), QStringLiteral("e2e"),
                  QStringLiteral("--by-key"), QStringLiteral("name"), QStringLiteral("--json")});
    QVERIFY2(json.exitCode == 0, qPrintable(json.err));
    const auto document = nlohmann::json::parse(json.out.toStdString());
    const auto &paths = document.at("workflows").at("critical_path_attribution");
    QCOMPARE(paths.at("set").get<std::string>(), std::string("candidate"));
    QCOMPARE(paths.at("rest").get<std::string>(), std::string("baseline"));
    QCOMPARE(paths.at("by").get<std::string>(), std::string("name"));
    QCOMPARE(paths.at("set_n").get<int>(), 42);
    QCOMPARE(paths.at("difference_ms").get<double>(), 300.0);
    QCOMPARE(paths.at("suspect").get<std::string>(), std::string("lookup_order {n}"));
    QVERIFY(paths.at("exact_in_ns").get<bool>());
    QCOMPARE(paths.at("sum_of_contributions_ms").get<double>(), 300.0);
    qint64 candidateNs = 0;
    qint64 baselineNs = 0;
    for (const auto &key : paths.at("keys")) {
        candidateNs += key.at("set_sum_ns").get<qint64>();
        baselineNs += key.at("rest_sum_ns").get<qint64>();
        if (key.at("key") == "lookup_order {n}") {
            QCOMPARE(key.at("set_sum_ns").get<qint64>(), 42 * 400'000'000LL);
            QCOMPARE(key.at("rest_sum_ns").get<qint64>(), 42 * 100'000'000LL);
        }
    }
    // 42 x 1,311 ms and 42 x 1,011 ms of path, to the ns.
    QCOMPARE(candidateNs, 42 * 1'311'000'000LL);
    QCOMPARE(baselineNs, 42 * 1'011'000'000LL);
}

// The exported report's comparison section lists the split and the suspect.
void tst_ComparePaths::reportSection()
{
    WorkflowPopulation baseline;
    WorkflowPopulation candidate;
    for (int i = 0; i < 30; ++i) {
        baseline.add(agentWorkflow(i, 100.0 + i % 3, 100.0), i * 10'000.0);
        candidate.add(agentWorkflow(i, 100.0 + i % 3, 400.0), i * 10'000.0);
    }
    DiagnosisRecord record;
    record.coordinates.metric = Metric::E2e;
    DesignReport::Options options;
    options.trace = QStringLiteral("before.jsonl");
    const auto store = baseline.store();
    ReportComparison::attach(record, options, store, candidate.store(), QStringLiteral("after.jsonl"));
    const ReportDocument document = DesignReport::build(record, store, options);
    const auto heading = std::find_if(document.blocks.begin(), document.blocks.end(), [](const ReportBlock &block) {
        return block.kind == ReportBlock::Kind::Heading
            && block.text == QStringLiteral("Critical path: candidate against baseline");
    });
    QVERIFY(heading != document.blocks.end());
    const auto table = std::find_if(heading, document.blocks.end(),
                                    [](const ReportBlock &block) { return block.kind == ReportBlock::Kind::Table; });
    QVERIFY(table != document.blocks.end());
    QCOMPARE(table->table.rows.front(),
             (QStringList{QStringLiteral("tool"), QStringLiteral("100.0"), QStringLiteral("400.0"),
                          QStringLiteral("300.0"), QStringLiteral("100% / 100%")}));
    QCOMPARE(table->table.rows.back().at(3), QStringLiteral("300.0")); // total
    const auto bullets = std::find_if(table, document.blocks.end(), [](const ReportBlock &block) {
        return block.kind == ReportBlock::Kind::Bullets;
    });
    QVERIFY(bullets != document.blocks.end());
    QVERIFY2(bullets->items.first().startsWith(QStringLiteral("Suspect: tool")), qPrintable(bullets->items.first()));
}

QTEST_GUILESS_MAIN(tst_ComparePaths)
#include "tst_comparepaths.moc"
