// The OTLP/HTTP receiver over real sockets: answers by the OTLP/HTTP
// specification, limits enforced before a body is read, back-pressure,
// bearer token, keep-alive and chunked bodies, a flood of small requests,
// and `tracelane-cli receive` end to end (capture reopens with the same
// analysis).

#include "support/OtlpRequests.h"

#include "live/LiveQueue.h"
#include "live/OtlpHttpServer.h"

#include <QProcess>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <nlohmann/json.hpp>

#include <memory>

using namespace OtlpRequests;

namespace {

struct Answer
{
    int status = 0;
    QByteArray head;
    QByteArray body;
    QByteArray header(const QByteArray &name) const
    {
        for (const QByteArray &line : head.split('\n')) {
            if (line.toLower().startsWith(QByteArray(name.toLower() + ':')))
                return line.mid(name.size() + 1).trimmed();
        }
        return {};
    }
};

// Reads one HTTP response (head and Content-Length body) from `socket`.
Answer readAnswer(QTcpSocket &socket, QByteArray &pending)
{
    Answer answer;
    while (true) {
        const qsizetype end = pending.indexOf("\r\n\r\n");
        if (end >= 0) {
            answer.head = pending.left(end);
            const int length = answer.header("Content-Length").toInt();
            if (pending.size() >= end + 4 + length) {
                answer.body = pending.mid(end + 4, length);
                pending.remove(0, end + 4 + length);
                answer.status = answer.head.mid(9, 3).toInt();
                if (answer.status == 100) { // interim: the real answer follows
                    answer = {};
                    continue;
                }
                return answer;
            }
        }
        if (!socket.waitForReadyRead(10'000))
            return answer;
        pending += socket.readAll();
    }
}

QByteArray post(const QByteArray &body, const QByteArray &type = "application/x-protobuf",
                const QByteArray &extraHeaders = {})
{
    return "POST /v1/traces HTTP/1.1\r\nHost: localhost\r\nContent-Type: " + type
        + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n" + extraHeaders + "\r\n" + body;
}

QByteArray traceBody(const char *trace = "5b8efff798038103d269b633813fc60c")
{
    otlp::ExportTraceServiceRequest request;
    addTrace(request, trace, "eee19b7ec3c1b174", "eee19b7ec3c1b175", nowNs() - 10'000'000'000LL);
    return QByteArray::fromStdString(request.SerializeAsString());
}

// A server on its own thread, so the test's blocking socket calls do not
// stall it.
struct Receiver
{
    explicit Receiver(OtlpHttpServer::Options options = {}, qint64 queueSpans = 500'000)
        : queue(queueSpans)
    {
        server = new OtlpHttpServer(std::move(options), queue, stats);
        server->moveToThread(&thread);
        QObject::connect(&thread, &QThread::finished, server, &QObject::deleteLater);
        thread.start();
        QString error;
        QMetaObject::invokeMethod(
            server,
            [&] {
                server->listen(QHostAddress::LocalHost, 0, &error);
                port = server->port();
            },
            Qt::BlockingQueuedConnection);
    }
    ~Receiver()
    {
        QMetaObject::invokeMethod(
            server, [this] { server->close(); }, Qt::BlockingQueuedConnection);
        thread.quit();
        thread.wait();
    }
    Answer exchange(const QByteArray &raw)
    {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, port);
        if (!socket.waitForConnected(5000))
            return {};
        socket.write(raw);
        QByteArray pending;
        return readAnswer(socket, pending);
    }

    LiveQueue queue;
    ReceiveStats stats;
    QThread thread;
    OtlpHttpServer *server = nullptr;
    quint16 port = 0;
};

} // namespace

class TestOtlpReceive : public QObject
{
    Q_OBJECT

private slots:
    void acceptsProtobufAndJson()
    {
        Receiver receiver;
        Answer answer = receiver.exchange(post(traceBody()));
        QCOMPARE(answer.status, 200);
        QCOMPARE(answer.header("Content-Type"), QByteArray("application/x-protobuf"));
        otlp::ExportTraceServiceResponse response;
        QVERIFY(response.ParseFromString(answer.body.toStdString()));
        QVERIFY(!response.has_partial_success());

        const std::string json = jsonTrace("00000000000000000000000000000002", "0000000000000001", "0000000000000002",
                                           nowNs() - 1'000'000'000);
        answer = receiver.exchange(post(QByteArray::fromStdString(json), "application/json"));
        QCOMPARE(answer.status, 200);
        QCOMPARE(answer.body, QByteArray("{}"));
        const auto batches = receiver.queue.takeAll();
        QCOMPARE(batches.size(), size_t(2));
        QCOMPARE(batches[0].spans.size(), size_t(2));
        QCOMPARE(batches[1].spans[1].spanId, std::string("0000000000000002"));
        const auto stats = receiver.stats.snapshot();
        QCOMPARE(stats.acceptedSpans, 4);
        QCOMPARE(stats.spansByService.at("vllm"), 4);
    }

    void keepAliveChunkedAndContinue()
    {
        Receiver receiver;
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, receiver.port);
        QVERIFY(socket.waitForConnected(5000));
        // Two requests in one write (pipelined), the second chunked.
        const QByteArray body = traceBody();
        const QByteArray chunked = "POST /v1/traces HTTP/1.1\r\nContent-Type: application/x-protobuf\r\n"
                                   "Transfer-Encoding: chunked\r\n\r\n"
            + QByteArray::number(10, 16) + "\r\n" + body.left(10) + "\r\n" + QByteArray::number(body.size() - 10, 16)
            + "\r\n" + body.mid(10) + "\r\n0\r\n\r\n";
        socket.write(post(body) + chunked);
        QByteArray pending;
        QCOMPARE(readAnswer(socket, pending).status, 200);
        const Answer second = readAnswer(socket, pending);
        QCOMPARE(second.status, 200);
        QCOMPARE(second.header("Connection"), QByteArray("keep-alive"));
        // Expect: 100-continue: the interim answer, then the real one.
        socket.write("POST /v1/traces HTTP/1.1\r\nContent-Type: application/x-protobuf\r\nExpect: 100-continue\r\n"
                     "Content-Length: "
                     + QByteArray::number(body.size()) + "\r\n\r\n");
        QVERIFY(socket.waitForReadyRead(5000));
        pending += socket.readAll();
        QVERIFY2(pending.startsWith("HTTP/1.1 100 Continue\r\n\r\n"), pending.constData());
        pending.clear();
        socket.write(body);
        QCOMPARE(readAnswer(socket, pending).status, 200);
        QCOMPARE(receiver.stats.snapshot().acceptedSpans, 6);
    }

    void refusesBeforeReading_data()
    {
        QTest::addColumn<QByteArray>("raw");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        QTest::newRow("100 MB body by its Content-Length")
            << QByteArray("POST /v1/traces HTTP/1.1\r\nContent-Type: application/x-protobuf\r\nContent-Length: "
                          "104857600\r\n\r\n")
                + QByteArray(1024 * 1024, 'x')
            << 413 << QStringLiteral("the body is 100.0 MiB, over the 16.0 MiB limit");
        QTest::newRow("wrong path") << post(traceBody()).replace("/v1/traces", "/v1/metrics") << 404
                                    << QStringLiteral("no such path '/v1/metrics'; OTLP traces go to POST /v1/traces");
        QTest::newRow("GET") << QByteArray("GET /v1/traces HTTP/1.1\r\n\r\n") << 405
                             << QStringLiteral("OTLP traces are sent with POST");
        QTest::newRow("wrong content type") << post(traceBody(), "text/plain") << 415
                                            << QStringLiteral("unsupported Content-Type 'text/plain'; send "
                                                              "application/x-protobuf or application/json");
        QTest::newRow("truncated protobuf") << post(traceBody().left(50)) << 400
                                            << QStringLiteral("the body is not a valid protobuf "
                                                              "ExportTraceServiceRequest (truncated, corrupt or not "
                                                              "protobuf)");
        QTest::newRow("headers of 70 KiB")
            << QByteArray("POST /v1/traces HTTP/1.1\r\nX-Junk: ") + QByteArray(70 * 1024, 'j') + "\r\n\r\n"
            << 431 << QStringLiteral("the request headers are longer than 64 KiB");
        QTest::newRow("not HTTP") << QByteArray("\x16\x03\x01 hello\r\n\r\n") << 400
                                  << QStringLiteral("not an HTTP/1.x request line");
    }

    void refusesBeforeReading()
    {
        QFETCH(QByteArray, raw);
        QFETCH(int, status);
        QFETCH(QString, message);
        Receiver receiver;
        const Answer answer = receiver.exchange(raw);
        QCOMPARE(answer.status, status);
        const auto document = nlohmann::json::parse(answer.body.toStdString(), nullptr, false);
        QString text;
        if (document.is_object()) {
            text = QString::fromStdString(document.value("message", std::string()));
        } else {
            otlp::RpcStatus rpc;
            QVERIFY(rpc.ParseFromString(answer.body.toStdString()));
            text = QString::fromStdString(rpc.message());
        }
        QCOMPARE(text, message);
        // The receiver keeps serving.
        QCOMPARE(receiver.exchange(post(traceBody())).status, 200);
        const auto stats = receiver.stats.snapshot();
        QCOMPARE(stats.byStatus.at(status), 1);
        QCOMPARE(stats.acceptedSpans, 2);
    }

    void bearerToken()
    {
        OtlpHttpServer::Options options;
        options.bearerToken = "s3cret";
        Receiver receiver(options);
        Answer answer = receiver.exchange(post(traceBody()));
        QCOMPARE(answer.status, 401);
        QCOMPARE(answer.header("WWW-Authenticate"), QByteArray("Bearer"));
        QCOMPARE(
            receiver.exchange(post(traceBody(), "application/x-protobuf", "Authorization: Bearer nope\r\n")).status,
            401);
        QCOMPARE(
            receiver.exchange(post(traceBody(), "application/x-protobuf", "Authorization: Bearer s3cret\r\n")).status,
            200);
        QCOMPARE(receiver.stats.snapshot().acceptedSpans, 2);
    }

    void backPressure()
    {
        // Room for 2 spans: the first request fills it, the next is told to retry.
        Receiver receiver({}, 2);
        QCOMPARE(receiver.exchange(post(traceBody())).status, 200);
        const Answer answer = receiver.exchange(post(traceBody("00000000000000000000000000000009")));
        QCOMPARE(answer.status, 429);
        QCOMPARE(answer.header("Retry-After"), QByteArray("1"));
        otlp::RpcStatus rpc;
        QVERIFY(rpc.ParseFromString(answer.body.toStdString()));
        QCOMPARE(QString::fromStdString(rpc.message()),
                 QStringLiteral("the receiver holds 2 spans not yet stored; retry after 1 s"));
        QCOMPARE(rpc.code(), 8);
        QCOMPARE(receiver.queue.takeAll().size(), size_t(1));
        QCOMPARE(receiver.exchange(post(traceBody("00000000000000000000000000000009"))).status, 200);
    }

    void floodOfTinyRequests()
    {
        Receiver receiver;
        // 2,000 empty requests over 10 keep-alive connections, written at once.
        std::vector<std::unique_ptr<QTcpSocket>> sockets;
        const QByteArray tiny = post("{}", "application/json");
        for (int c = 0; c < 10; ++c) {
            auto socket = std::make_unique<QTcpSocket>();
            socket->connectToHost(QHostAddress::LocalHost, receiver.port);
            QVERIFY(socket->waitForConnected(5000));
            socket->write(tiny.repeated(200));
            sockets.push_back(std::move(socket));
        }
        int ok = 0;
        for (auto &socket : sockets) {
            QByteArray pending;
            for (int i = 0; i < 200; ++i)
                ok += readAnswer(*socket, pending).status == 200 ? 1 : 0;
        }
        QCOMPARE(ok, 2000);
        QCOMPARE(receiver.stats.snapshot().requests, 2000);
        // Past the connection limit: 503 with Retry-After, and the rest still served.
        OtlpHttpServer::Options options;
        options.maxConnections = 4;
        Receiver small(options);
        std::vector<std::unique_ptr<QTcpSocket>> held;
        for (int c = 0; c < 4; ++c) {
            held.push_back(std::make_unique<QTcpSocket>());
            held.back()->connectToHost(QHostAddress::LocalHost, small.port);
            QVERIFY(held.back()->waitForConnected(5000));
        }
        QTest::qWait(200);
        const Answer refused = small.exchange(post(traceBody()));
        QCOMPARE(refused.status, 503);
        QCOMPARE(refused.header("Retry-After"), QByteArray("1"));
        held.front()->write(post(traceBody()));
        QByteArray pending;
        QCOMPARE(readAnswer(*held.front(), pending).status, 200);
    }

    void cliReceivesAndSummarises()
    {
        QTemporaryDir dir;
        const QString capture = dir.filePath(QStringLiteral("capture.otlp.jsonl"));
        QProcess cli;
        cli.start(QStringLiteral(TRACELANE_CLI_PATH),
                  {QStringLiteral("receive"), QStringLiteral("--http"), QStringLiteral("127.0.0.1:0"),
                   QStringLiteral("--out"), capture, QStringLiteral("--max-spans"), QStringLiteral("6"),
                   QStringLiteral("--duration"), QStringLiteral("60"), QStringLiteral("--json")});
        QVERIFY(cli.waitForStarted());
        cli.setReadChannel(QProcess::StandardError);
        QByteArray err;
        while (!err.contains("listening") && cli.waitForReadyRead(10'000))
            err += cli.readAllStandardError();
        const qsizetype at = err.indexOf("127.0.0.1:");
        QVERIFY2(at >= 0, err.constData());
        const quint16 port = quint16(err.mid(at + 10).split('/').first().toUInt());
        const auto send = [&](const QByteArray &raw) {
            QTcpSocket socket;
            socket.connectToHost(QHostAddress::LocalHost, port);
            socket.waitForConnected(5000);
            socket.write(raw);
            QByteArray pending;
            return readAnswer(socket, pending).status;
        };
        // Three traces in two requests; one more span refused.
        otlp::ExportTraceServiceRequest first;
        const qint64 start = nowNs() - 30'000'000'000LL;
        addTrace(first, "00000000000000000000000000000a01", "00000000000000a1", "00000000000000a2", start);
        addTrace(first, "00000000000000000000000000000b01", "00000000000000b1", "00000000000000b2",
                 start + 1'000'000'000);
        auto *bad = first.mutable_resource_spans(1)->mutable_scope_spans(0)->add_spans();
        bad->set_trace_id(std::string(16, '\x01'));
        bad->set_span_id(std::string(7, '\x01'));
        QCOMPARE(send(post(QByteArray::fromStdString(first.SerializeAsString()))), 200);
        QCOMPARE(send(post("nonsense", "text/plain")), 415);
        const std::string json = jsonTrace("00000000000000000000000000000c01", "00000000000000c1", "00000000000000c2",
                                           start + 2'000'000'000);
        QCOMPARE(send(post(QByteArray::fromStdString(json), "application/json")), 200);
        QVERIFY(cli.waitForFinished(30'000));
        QCOMPARE(cli.exitCode(), 0);
        const auto summary = nlohmann::json::parse(cli.readAllStandardOutput().toStdString());
        QCOMPARE(summary["spans_accepted"].get<int>(), 6);
        QCOMPARE(summary["spans_rejected"].get<int>(), 1);
        QCOMPARE(summary["spans_stored"].get<int>(), 6);
        QCOMPARE(summary["workflows"].get<int>(), 3);
        QCOMPARE(summary["requests_by_status"]["200"].get<int>(), 2);
        QCOMPARE(summary["requests_by_status"]["415"].get<int>(), 1);
        QCOMPARE(summary["rejections"][0]["field"].get<std::string>(), std::string("spanId"));
        QCOMPARE(summary["rejections"][0]["example"].get<std::string>(), std::string("must be 8 bytes, got 7"));
        QCOMPARE(summary["spans_by_service"]["vllm"].get<int>(), 6);
        QCOMPARE(summary["stopped"].get<std::string>(), std::string("6 spans stored (--max-spans)"));

        // The capture reopens with the same analysis.
        QProcess analyse;
        analyse.start(QStringLiteral(TRACELANE_CLI_PATH),
                      {QStringLiteral("analyse"), capture, QStringLiteral("--json")});
        QVERIFY(analyse.waitForFinished(30'000));
        QCOMPARE(analyse.exitCode(), 0);
        const auto fromFile = nlohmann::json::parse(analyse.readAllStandardOutput().toStdString());
        const auto &live = summary["analysis"];
        for (const char *key : {"ttft", "itl", "e2e", "dominant_ttft_phase", "dominant_e2e_phase", "phase_means_ms",
                                "requests", "shape", "ttft_residual_mean_ms"}) {
            QVERIFY2(live.contains(key), key);
            QCOMPARE(QString::fromStdString(live[key].dump()), QString::fromStdString(fromFile[key].dump()));
        }
        QCOMPARE(live["e2e"]["n"].get<int>(), 3);
        QCOMPARE(live["e2e"]["p50"].get<double>(), 1500.0);
    }
};

QTEST_GUILESS_MAIN(TestOtlpReceive)
#include "tst_otlpreceive.moc"
