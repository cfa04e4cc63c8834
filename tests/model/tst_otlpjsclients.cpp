// Real OpenTelemetry JS exporters (npm: @opentelemetry/exporter-trace-otlp-http,
// -otlp-proto and -otlp-grpc, pinned by tests/live/package-lock.json) send vLLM-shaped
// llm_request spans and agent workflows to `tracelane-cli receive`: every
// span id sent arrives exactly once, and the analysis of what arrived equals
// the analysis of the same spans loaded from a file.
//
// Needs node and `npm ci` in tests/live (.ci/bootstrap does both); skipped
// without them unless TRACELANE_REQUIRE_JS_CLIENTS is set (CI sets it).

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>

namespace {

using Json = nlohmann::json;

const QString kLiveDir = QStringLiteral(TRACELANE_SOURCE_DIR "/tests/live");

// Span ids in an OTLP/JSON document, counted.
void countSpanIds(const Json &document, std::map<std::string, int> &ids)
{
    for (const auto &resourceSpans : document.value("resourceSpans", Json::array()))
        for (const auto &scopeSpans : resourceSpans.value("scopeSpans", Json::array()))
            for (const auto &span : scopeSpans.value("spans", Json::array()))
                ++ids[span["spanId"].get<std::string>()];
}

// Equal up to the last bits of a double (sums taken in another order).
bool sameJson(const Json &a, const Json &b, QString *where, const QString &path = {})
{
    if (a.is_number() && b.is_number()) {
        const double x = a.get<double>();
        const double y = b.get<double>();
        if (std::abs(x - y) <= 1e-9 * std::max({1.0, std::abs(x), std::abs(y)}))
            return true;
        *where = QStringLiteral("%1: %2 vs %3").arg(path).arg(x, 0, 'g', 17).arg(y, 0, 'g', 17);
        return false;
    }
    if (a.type() != b.type() || a.size() != b.size()) {
        *where = QStringLiteral("%1: %2 vs %3")
                     .arg(path, QString::fromStdString(a.dump()), QString::fromStdString(b.dump()));
        return false;
    }
    if (a.is_object()) {
        for (const auto &[key, value] : a.items()) {
            if (!b.contains(key)
                || !sameJson(value, b[key], where, path + QLatin1Char('.') + QString::fromStdString(key)))
                return where->isEmpty() ? (*where = path + QStringLiteral(".") + QString::fromStdString(key), false)
                                        : false;
        }
        return true;
    }
    if (a.is_array()) {
        for (size_t i = 0; i < a.size(); ++i) {
            if (!sameJson(a[i], b[i], where, path + QStringLiteral("[%1]").arg(i)))
                return false;
        }
        return true;
    }
    if (a != b) {
        *where = path;
        return false;
    }
    return true;
}

} // namespace

class TestOtlpJsClients : public QObject
{
    Q_OBJECT

private slots:
    void exportersDeliverEverySpanOnce()
    {
        const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
        const bool required = qEnvironmentVariableIsSet("TRACELANE_REQUIRE_JS_CLIENTS");
        if (node.isEmpty() || !QDir(kLiveDir + QStringLiteral("/node_modules/@opentelemetry")).exists()) {
            if (required)
                QFAIL("node or tests/live/node_modules is missing: run `npm ci` in tests/live (.ci/bootstrap does)");
            QSKIP("node or tests/live/node_modules missing (npm ci in tests/live, as .ci/bootstrap does)");
        }
        QTemporaryDir dir;
        const QString capture = dir.filePath(QStringLiteral("capture.otlp.jsonl"));
        // 40 llm_request spans + 10 workflows of 5 spans, per protocol
        // (OTLP/HTTP JSON, OTLP/HTTP protobuf, OTLP/gRPC), with a bearer token.
        const int perRun = 40 + 10 * 5;
        const int runs = 3;
        QProcess cli;
        cli.start(QStringLiteral(TRACELANE_CLI_PATH),
                  {QStringLiteral("receive"), QStringLiteral("--http"), QStringLiteral("127.0.0.1:0"),
                   QStringLiteral("--grpc"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--token"),
                   QStringLiteral("s3cret"), QStringLiteral("--out"), capture, QStringLiteral("--max-spans"),
                   QString::number(runs * perRun), QStringLiteral("--duration"), QStringLiteral("120"),
                   QStringLiteral("--json")});
        QVERIFY(cli.waitForStarted());
        cli.setReadChannel(QProcess::StandardError);
        QByteArray err;
        while (!err.contains("OTLP/gRPC on") && cli.waitForReadyRead(10'000))
            err += cli.readAllStandardError();
        const qsizetype at = err.indexOf("http://");
        QVERIFY2(at >= 0, err.constData());
        const QString endpoint = QString::fromLatin1(err.mid(at).split('\n').first().trimmed());
        const qsizetype grpcAt = err.indexOf("OTLP/gRPC on ");
        QVERIFY2(grpcAt >= 0, err.constData());
        const QString grpcEndpoint
            = QStringLiteral("http://") + QString::fromLatin1(err.mid(grpcAt + 13).split('\n').first().trimmed());

        std::map<std::string, int> sent;
        QByteArray sentLines;
        int seed = 1;
        for (const QString &protocol : {QStringLiteral("json"), QStringLiteral("proto"), QStringLiteral("grpc")}) {
            const QString out = dir.filePath(protocol + QStringLiteral("-sent.json"));
            QProcess exporter;
            exporter.setWorkingDirectory(kLiveDir);
            exporter.start(node,
                           {QStringLiteral("emit.mjs"), QStringLiteral("--endpoint"),
                            protocol == QLatin1String("grpc") ? grpcEndpoint : endpoint, QStringLiteral("--protocol"),
                            protocol, QStringLiteral("--out"), out, QStringLiteral("--seed"), QString::number(seed++),
                            QStringLiteral("--token"), QStringLiteral("s3cret")});
            QVERIFY(exporter.waitForFinished(60'000));
            QVERIFY2(exporter.exitCode() == 0, exporter.readAllStandardError().constData());
            QFile file(out);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const Json document = Json::parse(file.readAll().toStdString());
            countSpanIds(document, sent);
            sentLines += QByteArray::fromStdString(document.dump()) + '\n';
        }
        QCOMPARE(int(sent.size()), runs * perRun);

        QVERIFY(cli.waitForFinished(60'000));
        QCOMPARE(cli.exitCode(), 0);
        const Json summary = Json::parse(cli.readAllStandardOutput().toStdString());
        QCOMPARE(summary["spans_accepted"].get<int>(), runs * perRun);
        QCOMPARE(summary["spans_rejected"].get<int>(), 0);
        QCOMPARE(summary["workflows"].get<int>(), runs * (40 + 10));
        QCOMPARE(summary["spans_by_service"]["vllm"].get<int>(), runs * 40);
        QCOMPARE(summary["spans_by_service"]["adviser-agent"].get<int>(), runs * 50);
        // Every call answered OK on both transports; the gRPC ones were some.
        QCOMPARE(summary["refused_requests"].size(), size_t(0));
        QCOMPARE(summary["grpc_calls_by_code"].size(), size_t(1));
        QVERIFY(summary["grpc_calls_by_code"]["OK"].get<int>() >= 2); // one exporter per service

        // Every span id sent is in the capture exactly once.
        QFile file(capture);
        QVERIFY(file.open(QIODevice::ReadOnly));
        std::map<std::string, int> received;
        for (const QByteArray &line : file.readAll().split('\n')) {
            if (!line.trimmed().isEmpty())
                countSpanIds(Json::parse(line.toStdString()), received);
        }
        QCOMPARE(received.size(), sent.size());
        for (const auto &[id, count] : received) {
            QVERIFY2(count == 1, id.c_str());
            QVERIFY2(sent.count(id) == 1, id.c_str());
        }

        // The analysis of what arrived equals the same spans loaded from a file.
        const QString sentPath = dir.filePath(QStringLiteral("sent.otlp.jsonl"));
        QFile sentFile(sentPath);
        QVERIFY(sentFile.open(QIODevice::WriteOnly));
        sentFile.write(sentLines);
        sentFile.close();
        QProcess analyse;
        analyse.start(QStringLiteral(TRACELANE_CLI_PATH),
                      {QStringLiteral("analyse"), sentPath, QStringLiteral("--json")});
        QVERIFY(analyse.waitForFinished(60'000));
        QCOMPARE(analyse.exitCode(), 0);
        const Json fromFile = Json::parse(analyse.readAllStandardOutput().toStdString());
        const Json &live = summary["analysis"];
        for (const char *key : {"ttft", "itl", "e2e", "dominant_ttft_phase", "dominant_e2e_phase", "phase_means_ms",
                                "requests", "shape", "ttft_residual_mean_ms"}) {
            QString where;
            QVERIFY2(sameJson(live[key], fromFile[key], &where, QString::fromLatin1(key)), qPrintable(where));
        }
        QCOMPARE(live["e2e"]["n"].get<int>(), runs * (40 + 10));
    }
};

QTEST_GUILESS_MAIN(TestOtlpJsClients)
#include "tst_otlpjsclients.moc"
