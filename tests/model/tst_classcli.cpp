#include "support/CliRun.h"

#include <QFile>
#include <QProcess>
#include <QTest>

#include <nlohmann/json.hpp>

namespace {

QString fixture(const QString &name)
{
    return QStringLiteral(TRACELANE_TEST_DATA_DIR "/classes/") + name;
}

nlohmann::json runJson(QStringList arguments)
{
    arguments << QStringLiteral("--json");
    const CliRun run = runCli(arguments);
    if (run.exitCode != 0)
        qWarning("%s", qPrintable(run.err));
    return nlohmann::json::parse(run.out.toStdString());
}

QString readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

} // namespace

// The class commands end to end on constructed traces (see
// tests/data/classes/make_fixtures.py for what each one holds).
class tst_ClassCli : public QObject
{
    Q_OBJECT
private slots:
    void sliceTextIsExact();
    void sliceJsonFigures();
    void sliceTwoDimensionsWithAFilter();
    void exceedTextIsExact();
    void exceedJsonFigures();
    void exceedByArrivalWithinASlice();
    void usageErrors_data();
    void usageErrors();
};

void tst_ClassCli::sliceTextIsExact()
{
    const CliRun run = runCli({QStringLiteral("slice"), fixture(QStringLiteral("mixture.jsonl")),
                               QStringLiteral("--by"), QStringLiteral("workload")});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, readText(fixture(QStringLiteral("mixture-by-workload.txt"))));
    // The figures that matter, spelled out so a changed golden file cannot hide them.
    QVERIFY(run.out.contains(QStringLiteral("Exceedance set: 10 requests above the overall p95 of 1452.5 ms")));
    QVERIFY(
        run.out.contains(QStringLiteral("Warning: Mixture: the overall p95 TTFT is carried by workload = document.")));
}

void tst_ClassCli::sliceJsonFigures()
{
    const auto document = runJson({QStringLiteral("slice"), fixture(QStringLiteral("mixture.jsonl")),
                                   QStringLiteral("--by"), QStringLiteral("workload")});
    QCOMPARE(document["metric"].get<std::string>(), std::string("ttft"));
    QCOMPARE(document["boundary"].get<std::string>(), std::string("client"));
    QCOMPARE(document["slice_requests"].get<qint64>(), qint64(200));
    const auto &overall = document["overall"];
    // n=200, p95: ranks 184 and 197 of 180 chats then documents 1000..1950.
    QCOMPARE(overall["p95"]["value"].get<double>(), 1452.5);
    QCOMPARE(overall["p95"]["ci_low"].get<double>(), 1150.0);
    QCOMPARE(overall["p95"]["ci_high"].get<double>(), 1800.0);
    QCOMPARE(overall["p95"]["ci_ranks"][0].get<qint64>(), qint64(184));
    QCOMPARE(overall["p95"]["ci_ranks"][1].get<qint64>(), qint64(197));
    QCOMPARE(overall["p99"]["status"].get<std::string>(), std::string("too_few_requests"));
    QCOMPARE(overall["p99"]["n_needed"].get<qint64>(), qint64(368));
    const auto &documents = document["cells"][1];
    QCOMPARE(documents["label"].get<std::string>(), std::string("document"));
    QCOMPARE(documents["p50"]["value"].get<double>(), 1475.0);
    QVERIFY(documents["p95"]["value"].is_null());
    QCOMPARE(documents["small"].get<bool>(), true);
    QCOMPARE(documents["exceedance_share"].get<double>(), 1.0);
    QCOMPARE(document["mixture"]["class"].get<std::string>(), std::string("workload = document"));
    QCOMPARE(document["mixture"]["lift"].get<double>(), 10.0);
    QCOMPARE(document["mixture"]["request_share"].get<double>(), 0.1);
}

void tst_ClassCli::sliceTwoDimensionsWithAFilter()
{
    const auto document
        = runJson({QStringLiteral("slice"), fixture(QStringLiteral("mixture.jsonl")), QStringLiteral("--by"),
                   QStringLiteral("workload,prompt_band"), QStringLiteral("--where"), QStringLiteral("region=eu"),
                   QStringLiteral("--metric"), QStringLiteral("e2e")});
    QCOMPARE(document["metric"].get<std::string>(), std::string("e2e"));
    QCOMPARE(document["slice"].get<std::string>(), std::string("region = eu"));
    QCOMPARE(document["slice_requests"].get<qint64>(), qint64(100));
    QCOMPARE(document["cells"].size(), size_t(2));
    QCOMPARE(document["cells"][0]["label"].get<std::string>(), std::string("chat \u00b7 <512"));
    QCOMPARE(document["cells"][1]["label"].get<std::string>(), std::string("document \u00b7 2k\u20138k"));
    QCOMPARE(document["cells"][1]["requests"].get<qint64>(), qint64(20));
}

void tst_ClassCli::exceedTextIsExact()
{
    const CliRun run = runCli({QStringLiteral("exceed"), fixture(QStringLiteral("region-queue.jsonl")),
                               QStringLiteral("--members"), QStringLiteral("3")});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, readText(fixture(QStringLiteral("region-queue-exceed.txt"))));
    QVERIFY(run.out.contains(QStringLiteral("Suspected phase: queue (463.0 of the 463.0 ms excess)")));
    QVERIFY(run.out.contains(QStringLiteral(
        "   1  region              0.800  max share difference  ap-south: 100% of set vs 20.0% of rest")));
}

void tst_ClassCli::exceedJsonFigures()
{
    const auto document = runJson({QStringLiteral("exceed"), fixture(QStringLiteral("region-queue.jsonl"))});
    QCOMPARE(document["threshold"].get<double>(), 128.8);
    QCOMPARE(document["set_size"].get<qint64>(), qint64(5));
    QCOMPARE(document["attribute_ranking"][0]["feature"].get<std::string>(), std::string("region"));
    QCOMPARE(document["attribute_ranking"][0]["separation"].get<double>(), 0.8);
    QCOMPARE(document["phase_ranking"][0]["feature"].get<std::string>(), std::string("queue"));
    const auto &attribution = document["attribution"];
    QCOMPARE(attribution["suspected_phase"].get<std::string>(), std::string("queue"));
    QCOMPARE(attribution["difference_ms"].get<double>(), 463.0);
    QCOMPARE(attribution["sum_of_contributions_ms"].get<double>(), 463.0);
    QCOMPARE(document["members"].size(), size_t(5));
    QCOMPARE(document["members"][0]["request_id"].get<std::string>(), std::string("r-031"));
    QCOMPARE(document["member"]["request_id"].get<std::string>(), std::string("r-031"));
}

void tst_ClassCli::exceedByArrivalWithinASlice()
{
    // --percentile 50 reads as 0.5, as whatif reads it.
    const auto document = runJson({QStringLiteral("exceed"), fixture(QStringLiteral("region-queue.jsonl")),
                                   QStringLiteral("--where"), QStringLiteral("region=ap-south"),
                                   QStringLiteral("--percentile"), QStringLiteral("50"), QStringLiteral("--order"),
                                   QStringLiteral("arrival"), QStringLiteral("--member"), QStringLiteral("2")});
    QCOMPARE(document["slice_requests"].get<qint64>(), qint64(24));
    QCOMPARE(document["threshold"].get<double>(), 72.5);
    QCOMPARE(document["set_size"].get<qint64>(), qint64(12));
    QCOMPARE(document["order"].get<std::string>(), std::string("arrival"));
    // Members: the five slow requests and the ap-south rest with TTFT above
    // 72.5 ms (rest slots 60..90, arriving from row 63 on). By arrival, the
    // slow rows 10 and 30 come first.
    QCOMPARE(document["members"][0]["request_id"].get<std::string>(), std::string("r-011"));
    QCOMPARE(document["member"]["position"].get<qint64>(), qint64(2));
    QCOMPARE(document["member"]["request_id"].get<std::string>(), std::string("r-031"));
}

void tst_ClassCli::usageErrors_data()
{
    addCliErrorColumns();
    const QString file = fixture(QStringLiteral("mixture.jsonl"));
    QTest::newRow("slice without --by")
        << QStringList{QStringLiteral("slice"), file} << 2
        << "tracelane-cli slice: --by takes one or two dimensions; this trace has: workload, region, prompt_band, "
           "output_band\n";
    QTest::newRow("unknown dimension")
        << QStringList{QStringLiteral("slice"), file, QStringLiteral("--by"), QStringLiteral("route")} << 2
        << "tracelane-cli slice: no dimension 'route'; this trace has: workload, region, prompt_band, output_band\n";
    QTest::newRow("three dimensions")
        << QStringList{QStringLiteral("slice"), file, QStringLiteral("--by"), QStringLiteral("a,b,c")} << 2
        << "tracelane-cli slice: --by takes one or two dimensions; this trace has: workload, region, prompt_band, "
           "output_band\n";
    QTest::newRow("unknown metric")
        << QStringList{QStringLiteral("exceed"), file, QStringLiteral("--metric"), QStringLiteral("speed")} << 2
        << "tracelane-cli: unknown metric 'speed'; use one of ttft, itl, e2e, network_in, gateway, queue, prefill, "
           "first_decode, network_to_first, stream, gap_p95, max_stall\n";
    QTest::newRow("percentile out of range")
        << QStringList{QStringLiteral("exceed"), file, QStringLiteral("--percentile"), QStringLiteral("100")} << 2
        << "tracelane-cli: --percentile must lie strictly between 0 and 1 (or 0 and 100), e.g. 0.95\n";
    QTest::newRow("unknown class in --where")
        << QStringList{QStringLiteral("exceed"), file, QStringLiteral("--where"), QStringLiteral("region=mars")} << 2
        << "tracelane-cli: --where: region has no class 'mars' (classes: eu, us)\n";
    QTest::newRow("bad band edges")
        << QStringList{QStringLiteral("slice"),          file,
                       QStringLiteral("--by"),           QStringLiteral("prompt_band"),
                       QStringLiteral("--prompt-bands"), QStringLiteral("8k,2k")}
        << 2 << "tracelane-cli: --prompt-bands: band edges must be strictly ascending (2048 after 8192)\n";
}

void tst_ClassCli::usageErrors()
{
    const CliRun run = runCliErrorRow();
    if (QTest::currentTestFailed())
        return;
    QFETCH(QString, message);
    QCOMPARE(run.err, message);
    QVERIFY(run.out.isEmpty());
}

QTEST_GUILESS_MAIN(tst_ClassCli)
#include "tst_classcli.moc"
