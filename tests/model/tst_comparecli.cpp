// `tracelane-cli compare` end to end: two files, one file split by class or
// at a time, the JSON every figure goes to, and the messages for what cannot
// be compared (see tests/data/compare/make_fixtures.py for the fixtures).

#include "support/CliRun.h"
#include "support/TestData.h"

#include <QProcess>
#include <QTest>

#include <nlohmann/json.hpp>

using TestData::realdata;

namespace {

QString fixture(const QString &name)
{
    return QStringLiteral(TRACELANE_TEST_DATA_DIR "/compare/") + name;
}

// tracelane-cli compare ARGUMENTS...
CliRun runCompare(const QStringList &arguments)
{
    return runCli(QStringList{QStringLiteral("compare")} + arguments);
}

nlohmann::json runJson(QStringList arguments)
{
    arguments << QStringLiteral("--json");
    const CliRun run = runCompare(arguments);
    if (run.exitCode != 0)
        qWarning("%s", qPrintable(run.err));
    return nlohmann::json::parse(run.out.toStdString());
}

} // namespace

class tst_CompareCli : public QObject
{
    Q_OBJECT
private slots:
    void twoFilesByRegion();
    void twoFilesJson();
    void oneFileSplitAtTime_data();
    void oneFileSplitAtTime();
    void oneFileSplitByClass();
    void predictionAndSlo();
    void usageErrors_data();
    void usageErrors();
    void cannotCompare_data();
    void cannotCompare();
    void mismatchedFormatsThatCanMeet();
};

void tst_CompareCli::twoFilesByRegion()
{
    const CliRun run
        = runCompare({fixture(QStringLiteral("baseline.jsonl")), fixture(QStringLiteral("candidate.jsonl")),
                      QStringLiteral("--by"), QStringLiteral("region")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.startsWith(QStringLiteral("Before and after: p95 TTFT in ms, client boundary")));
    QVERIFY(run.out.contains(QStringLiteral("Baseline:  baseline.jsonl (seed JSONL, 600 requests, 0 rejected)")));
    QVERIFY(run.out.contains(QStringLiteral("Stop rule: THE CHANGE WORKED\n")));
    QVERIFY(run.out.contains(QStringLiteral("  - suspected phase queue (carries the baseline's tail above its p95)")));
    // eu improved; us and ap did not detectably change.
    const QStringList lines = run.out.split(QLatin1Char('\n'));
    const auto row = [&](const QString &label) {
        for (const QString &line : lines) {
            if (line.startsWith(label + QLatin1Char(' ')))
                return line;
        }
        return QString();
    };
    QVERIFY(row(QStringLiteral("eu")).contains(QStringLiteral("  improved ")));
    QVERIFY(row(QStringLiteral("us")).contains(QStringLiteral("no detectable change")));
    QVERIFY(row(QStringLiteral("ap")).contains(QStringLiteral("no detectable change")));
    QVERIFY(row(QStringLiteral("overall")).contains(QStringLiteral("  improved ")));
    QVERIFY(run.out.contains(QStringLiteral("Moved most: queue")));
    QVERIFY(run.out.contains(QStringLiteral("The two sides saw a comparable workload.")));
}

void tst_CompareCli::twoFilesJson()
{
    const auto json = runJson({fixture(QStringLiteral("baseline.jsonl")), fixture(QStringLiteral("candidate.jsonl")),
                               QStringLiteral("--by"), QStringLiteral("region"), QStringLiteral("--percentile"),
                               QStringLiteral("90")});
    QVERIFY(json["coordinates"]["percentile"] == 0.9);
    QVERIFY(json["coordinates"]["metric"] == "ttft");
    QVERIFY(json["coordinates"]["boundary"] == "client");
    QVERIFY(json["classes"].size() == 3);
    QVERIFY(json["classes"][1]["label"] == "eu");
    QVERIFY(json["classes"][1]["difference"]["verdict"] == "improved");
    QVERIFY(json["classes"][1]["baseline_requests"] == 200);
    const auto &overall = json["overall"]["difference"];
    QVERIFY(overall["baseline"]["n"] == 600);
    QVERIFY(overall["baseline"]["status"] == "ok");
    QVERIFY(overall["ci_low_ms"].get<double>() < overall["difference_ms"].get<double>());
    QVERIFY(overall["difference_ms"].get<double>() < overall["ci_high_ms"].get<double>());
    QVERIFY(std::abs(overall["detectable_ms"].get<double>()
                     - (overall["ci_high_ms"].get<double>() - overall["difference_ms"].get<double>()))
            < 1e-9);
    QVERIFY(json["stop_rule"]["outcome"] == "worked");
    QVERIFY(json["stop_rule"]["guardrails"].size() == 4);
    QVERIFY(json["phase_shift"]["moved_most"] == "queue");
    qint64 sum = json["phase_shift"]["residual_change_ns"].get<qint64>();
    for (const auto &phase : json["phase_shift"]["phases"])
        sum += phase["change_ns"].get<qint64>();
    QCOMPARE(sum, json["phase_shift"]["total_change_ns"].get<qint64>());
    QVERIFY(json["workload"]["warnings"].empty());
    QVERIFY(json["workload"]["checks"].size() == 6); // rate, burstiness, peak, 2 x tokens, mix by region
}

void tst_CompareCli::oneFileSplitAtTime_data()
{
    QTest::addColumn<QString>("at");
    QTest::newRow("ms on the trace clock") << QStringLiteral("63000");
    QTest::newRow("with a unit") << QStringLiteral("63s");
    // The first send is at 3.217 ms; the old system's last at 62452.495 ms, the new one's first at 63009.151 ms.
    QTest::newRow("after the first send") << QStringLiteral("+62.8s");
}

void tst_CompareCli::oneFileSplitAtTime()
{
    QFETCH(QString, at);
    const auto json = runJson({fixture(QStringLiteral("deploy.jsonl")), QStringLiteral("--split-at"), at});
    QVERIFY2(json["baseline"].get<std::string>().find("deploy.jsonl, requests sent before t = ") == 0,
             json["baseline"].get<std::string>().c_str());
    QVERIFY(json["overall"]["baseline_requests"] == 600);
    QVERIFY(json["overall"]["candidate_requests"] == 600);
    QVERIFY(json["overall"]["difference"]["verdict"] == "improved");
    QVERIFY(json["stop_rule"]["outcome"] == "worked");
    // One file: rejected records belong to neither side.
    QVERIFY(json["stop_rule"]["guardrails"][3]["judged"] == false);
}

void tst_CompareCli::oneFileSplitByClass()
{
    const auto json = runJson({fixture(QStringLiteral("deploy.jsonl")), QStringLiteral("--baseline-where"),
                               QStringLiteral("variant=old"), QStringLiteral("--candidate-where"),
                               QStringLiteral("variant=new"), QStringLiteral("--by"), QStringLiteral("region")});
    QVERIFY(json["baseline"] == "deploy.jsonl where variant = old");
    QVERIFY(json["candidate"] == "deploy.jsonl where variant = new");
    QVERIFY(json["overall"]["baseline_requests"] == 600);
    QVERIFY(json["classes"][1]["label"] == "eu");
    QVERIFY(json["classes"][1]["difference"]["verdict"] == "improved");
    // The same split at the deploy time gives the same figures.
    const auto atTime = runJson({fixture(QStringLiteral("deploy.jsonl")), QStringLiteral("--split-at"),
                                 QStringLiteral("63000"), QStringLiteral("--by"), QStringLiteral("region")});
    QVERIFY(atTime["overall"]["difference"]["difference_ms"] == json["overall"]["difference"]["difference_ms"]);
    QVERIFY(atTime["classes"][1]["difference"]["ci_low_ms"] == json["classes"][1]["difference"]["ci_low_ms"]);
}

void tst_CompareCli::predictionAndSlo()
{
    const CliRun run = runCompare({fixture(QStringLiteral("baseline.jsonl")),
                                   fixture(QStringLiteral("candidate.jsonl")), QStringLiteral("--predicted-saving"),
                                   QStringLiteral("1000"), QStringLiteral("--slo"), QStringLiteral("400")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QStringLiteral("Prediction: predicted saving 1000.0 ms, observed ")));
    QVERIFY(run.out.contains(QStringLiteral("smaller than predicted")));
    QVERIFY(run.out.contains(QStringLiteral("misses: requests above the SLO of 400.0 ms on each side")));
    QVERIFY(run.out.contains(QStringLiteral("Goodput (TTFT \u2264 400.0 ms")));
    const auto json = runJson({fixture(QStringLiteral("baseline.jsonl")), fixture(QStringLiteral("candidate.jsonl")),
                               QStringLiteral("--predicted-saving"), QStringLiteral("1000"), QStringLiteral("--slo"),
                               QStringLiteral("400")});
    QVERIFY(json["misses_against"] == "slo");
    QVERIFY(json["overall"]["miss_threshold_ms"] == 400.0);
    QVERIFY(json["prediction"]["predicted_saving_ms"] == 1000.0);
    QVERIFY(json["prediction"]["agreement"] == "smaller_than_predicted");
}

void tst_CompareCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const QString base = fixture(QStringLiteral("baseline.jsonl"));
    const QString cand = fixture(QStringLiteral("candidate.jsonl"));
    QTest::newRow("one file, no split") << QStringList{base} << "expected BASELINE and CANDIDATE files";
    QTest::newRow("two files and a split") << QStringList{base, cand, QStringLiteral("--split-at"), QStringLiteral("5")}
                                           << "a split compares one FILE with itself";
    QTest::newRow("both kinds of split") << QStringList{base,
                                                        QStringLiteral("--split-at"),
                                                        QStringLiteral("5"),
                                                        QStringLiteral("--baseline-where"),
                                                        QStringLiteral("region=eu"),
                                                        QStringLiteral("--candidate-where"),
                                                        QStringLiteral("region=us")}
                                         << "either by class";
    QTest::newRow("half a class split") << QStringList{base, QStringLiteral("--baseline-where"),
                                                       QStringLiteral("region=eu")}
                                        << "--baseline-where and --candidate-where go together";
    QTest::newRow("bad time") << QStringList{base, QStringLiteral("--split-at"), QStringLiteral("soon")}
                              << "--split-at: 'soon' is not a time";
    QTest::newRow("unknown phase") << QStringList{base, cand, QStringLiteral("--suspect"), QStringLiteral("coffee")}
                                   << "unknown phase 'coffee'";
    QTest::newRow("negative SLO") << QStringList{base, cand, QStringLiteral("--slo"), QStringLiteral("-3")}
                                  << "--slo expects a positive number";
    QTest::newRow("unknown value") << QStringList{base, QStringLiteral("--baseline-where"), QStringLiteral("region=eu"),
                                                  QStringLiteral("--candidate-where"), QStringLiteral("region=mars")}
                                   << "candidate: ";
    QTest::newRow("three dimensions") << QStringList{base, cand, QStringLiteral("--by"),
                                                     QStringLiteral("region,variant,prompt_band")}
                                      << "--by takes at most two dimensions";
}

void tst_CompareCli::usageErrors()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const CliRun run = runCompare(arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(message), qPrintable(run.err));
}

void tst_CompareCli::cannotCompare_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const QString base = fixture(QStringLiteral("baseline.jsonl"));
    QTest::newRow("a phase the candidate lacks")
        << QStringList{base,
                       realdata(QStringLiteral("vllm-bench/serving_meta-llama-Llama-3.3-70B-Instruct_tp8_pp1_sharegpt_"
                                               "qps_01.json")),
                       QStringLiteral("--metric"), QStringLiteral("queue")}
        << "cannot compare: Queue is not observed in the candidate (vllm-bench-json); both sides observe: ttft, itl, "
           "e2e";
    QTest::newRow("a boundary the candidate lacks")
        << QStringList{base,
                       realdata(QStringLiteral("llm-d-benchmark/llm-d-70b-2replicas/LMBench_sharegpt_output_1.csv")),
                       QStringLiteral("--boundary"), QStringLiteral("server")}
        << "TTFT at the server boundary is not observed in the candidate (lmbench-csv) (try --boundary client)";
    QTest::newRow("workflows against requests")
        << QStringList{QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json"), base}
        << "the baseline holds agent workflows (otlp-json) and the candidate single requests (seed-jsonl)";
    QTest::newRow("split leaves one side empty")
        << QStringList{base, QStringLiteral("--split-at"), QStringLiteral("1h")}
        << "the candidate (baseline.jsonl, requests sent at or after t = "
           "3600000.000 ms) has no requests to compare";
    QTest::newRow("a dimension one side lacks")
        << QStringList{base,
                       realdata(QStringLiteral("llm-d-benchmark/llm-d-70b-2replicas/LMBench_sharegpt_output_1.csv")),
                       QStringLiteral("--by"), QStringLiteral("region")}
        << "no dimension 'region' in the candidate; dimensions both sides have: prompt_band, output_band";
    QTest::newRow("unreadable candidate")
        << QStringList{base, fixture(QStringLiteral("missing.jsonl"))} << "missing.jsonl: no such file";
}

void tst_CompareCli::cannotCompare()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const CliRun run = runCompare(arguments);
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(message), qPrintable(run.err));
}

void tst_CompareCli::mismatchedFormatsThatCanMeet()
{
    // An LMBench CSV against a vLLM bench JSON: both observe client TTFT, ITL and E2E.
    const CliRun run
        = runCompare({realdata(QStringLiteral("llm-d-benchmark/vllm-70b-2replicas/LMBench_sharegpt_output_1.csv")),
                      realdata(QStringLiteral(
                          "vllm-bench/serving_meta-llama-Llama-3.3-70B-Instruct_tp8_pp1_sharegpt_qps_01.json"))});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QStringLiteral("Note: formats differ (baseline lmbench-csv, candidate vllm-bench-json): "
                                            "compared on what both observe")));
    QVERIFY(run.out.contains(QStringLiteral("arrivals unknown on the candidate (no start times)")));
    QVERIFY(run.out.contains(QStringLiteral("Warning: prompt token distribution differs")));
}

QTEST_GUILESS_MAIN(tst_CompareCli)
#include "tst_comparecli.moc"
