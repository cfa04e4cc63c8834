#include "ReceiveCommand.h"

#include "CliContext.h"

#include "analysis/requests/ProfileReport.h"
#include "io/SpanTraceBuilder.h"
#include "live/BatchIngest.h"
#include "live/ListenAddress.h"
#include "live/LiveQueue.h"
#include "live/OtlpGrpcServer.h"
#include "live/OtlpHttpServer.h"
#include "live/OtlpJsonWriter.h"
#include "live/SlicedDrain.h"
#include "report/ReportJson.h"
#include "report/ReportText.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSaveFile>
#include <QThread>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <atomic>
#include <csignal>

namespace {

std::atomic<int> g_stopSignal{0};

void onStopSignal(int signal)
{
    g_stopSignal.store(signal);
}

QString hostText(const QHostAddress &address)
{
    return address.protocol() == QAbstractSocket::IPv6Protocol ? QStringLiteral("[%1]").arg(address.toString())
                                                               : address.toString();
}

} // namespace

int runReceive(const CliContext &context)
{
    const QCommandLineParser &parser = context.parser;
    if (!context.arguments.isEmpty()) {
        context.err << QStringLiteral("tracelane-cli receive: takes no FILE (use --out for the capture)\n");
        return ExitUsage;
    }
    QHostAddress address;
    quint16 port = 0;
    QString error;
    if (!parseListenAddress(parser.value(QStringLiteral("http")), &address, &port, &error)) {
        context.err << QStringLiteral("tracelane-cli receive: --http: %1\n").arg(error);
        return ExitUsage;
    }
    const bool grpc = parser.isSet(QStringLiteral("grpc"));
    QHostAddress grpcAddress;
    quint16 grpcPort = 0;
    if (grpc && !parseListenAddress(parser.value(QStringLiteral("grpc")), &grpcAddress, &grpcPort, &error)) {
        context.err << QStringLiteral("tracelane-cli receive: --grpc: %1\n").arg(error);
        return ExitUsage;
    }
    double duration = 0;
    if (parser.isSet(QStringLiteral("duration"))) {
        bool ok = false;
        duration = parser.value(QStringLiteral("duration")).toDouble(&ok);
        if (!ok || duration <= 0) {
            context.err << QStringLiteral("tracelane-cli receive: --duration must be a positive number of seconds\n");
            return ExitUsage;
        }
    }
    qint64 maxSpans = 0;
    if (parser.isSet(QStringLiteral("max-spans"))) {
        bool ok = false;
        maxSpans = parser.value(QStringLiteral("max-spans")).toLongLong(&ok);
        if (!ok || maxSpans <= 0) {
            context.err << QStringLiteral("tracelane-cli receive: --max-spans must be a positive count\n");
            return ExitUsage;
        }
    }
    const QString capturePath = parser.value(QStringLiteral("out"));
    QFile capture(capturePath);
    if (!capturePath.isEmpty() && !capture.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        context.err
            << QStringLiteral("tracelane-cli receive: cannot write %1: %2\n").arg(capturePath, capture.errorString());
        return ExitFailure;
    }

    OtlpHttpServer::Options options;
    options.bearerToken = parser.value(QStringLiteral("token")).toUtf8();
    LiveQueue queue(options.limits.maxBufferedSpans);
    ReceiveStats stats;

    // The receiver answers on its own thread; this one stores.
    QThread receiverThread;
    receiverThread.setObjectName(QStringLiteral("otlp-http"));
    auto *server = new OtlpHttpServer(options, queue, stats);
    server->moveToThread(&receiverThread);
    QObject::connect(&receiverThread, &QThread::finished, server, &QObject::deleteLater);
    receiverThread.start();
    bool listening = false;
    quint16 boundPort = 0;
    QMetaObject::invokeMethod(
        server,
        [&] {
            listening = server->listen(address, port, &error);
            boundPort = server->port();
        },
        Qt::BlockingQueuedConnection);
    if (!listening) {
        receiverThread.quit();
        receiverThread.wait();
        context.err << QStringLiteral("tracelane-cli receive: cannot listen on %1:%2: %3\n")
                           .arg(hostText(address))
                           .arg(port)
                           .arg(error);
        return ExitFailure;
    }
    const QString endpoint = QStringLiteral("http://%1:%2/v1/traces").arg(hostText(address)).arg(boundPort);

    // OTLP/gRPC answers on gRPC's own threads, into the same queue and stats.
    OtlpGrpcServer::Options grpcOptions;
    grpcOptions.limits = options.limits;
    grpcOptions.bearerToken = options.bearerToken;
    grpcOptions.retryAfterSeconds = options.retryAfterSeconds;
    OtlpGrpcServer grpcServer(grpcOptions, queue, stats);
    QString grpcEndpoint;
    if (grpc) {
        if (!grpcServer.listen(grpcAddress, grpcPort, &error)) {
            QMetaObject::invokeMethod(
                server, [server] { server->close(); }, Qt::BlockingQueuedConnection);
            receiverThread.quit();
            receiverThread.wait();
            context.err << QStringLiteral("tracelane-cli receive: cannot listen for OTLP/gRPC: %1\n").arg(error);
            return ExitFailure;
        }
        grpcEndpoint = QStringLiteral("%1:%2").arg(hostText(grpcAddress)).arg(grpcServer.port());
    }
    for (const QHostAddress &bound : grpc ? QList<QHostAddress>{address, grpcAddress} : QList<QHostAddress>{address}) {
        if (bound.isLoopback())
            continue;
        context.err << QStringLiteral("tracelane-cli receive: warning: listening on %1, beyond this machine: anyone "
                                      "who can reach it can send spans%2\n")
                           .arg(hostText(bound),
                                options.bearerToken.isEmpty()
                                    ? QStringLiteral(" (set --token to require a bearer token)")
                                    : QString());
    }
    context.err << QStringLiteral("tracelane-cli receive: listening for OTLP/HTTP on %1\n").arg(endpoint);
    if (grpc)
        context.err << QStringLiteral("tracelane-cli receive: listening for OTLP/gRPC on %1\n").arg(grpcEndpoint);
    context.err.flush();

    TraceStore store;
    store.format = QStringLiteral("otlp-live");
    SpanTraceBuilder builder(store, QStringLiteral("otlp-http"));
    qint64 stored = 0;
    QElapsedTimer clock;
    clock.start();
    QString stopReason;
    g_stopSignal.store(0);
    const auto previousInt = std::signal(SIGINT, onStopSignal);
    const auto previousTerm = std::signal(SIGTERM, onStopSignal);

    QEventLoop loop;
    // Stored in bounded steps (SlicedDrain): after a burst the loop comes
    // back between steps (Ctrl-C, --duration) instead of storing it at once.
    SlicedDrain drain(queue);
    const SlicedDrain::Store storeBatch = [&](ExportBatch &batch) {
        if (capture.isOpen())
            capture.write(QByteArray::fromStdString(OtlpJsonWriter::line(batch)) + '\n');
        BatchIngest::feed(batch, builder);
        stored += qint64(batch.spans.size());
    };
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, &loop, [&] {
        const bool more = drain.step(storeBatch);
        if (capture.isOpen())
            capture.flush();
        // More waiting: the next step as soon as the loop is idle.
        tick.setInterval(more ? 0 : 50);
        if (const int signal = g_stopSignal.load(); signal != 0)
            stopReason = signal == SIGINT ? QStringLiteral("interrupted") : QStringLiteral("terminated");
        else if (maxSpans > 0 && stored >= maxSpans)
            stopReason = QStringLiteral("%1 spans stored (--max-spans)").arg(stored);
        else if (duration > 0 && double(clock.elapsed()) >= duration * 1000.0)
            stopReason = QStringLiteral("%1 s elapsed (--duration)").arg(duration);
        if (!stopReason.isEmpty())
            loop.quit();
    });
    tick.start(50);
    loop.exec();

    QMetaObject::invokeMethod(
        server, [server] { server->close(); }, Qt::BlockingQueuedConnection);
    receiverThread.quit();
    receiverThread.wait();
    grpcServer.close();
    drain.drainAll(storeBatch);
    if (capture.isOpen())
        capture.flush();
    std::signal(SIGINT, previousInt);
    std::signal(SIGTERM, previousTerm);
    capture.close();
    builder.finish();

    const ReceiveStats::Snapshot summary = stats.snapshot();
    const double seconds = double(clock.elapsed()) / 1000.0;
    const bool hasRequests = !store.requests.isEmpty();
    ProfileReport report;
    if (hasRequests) {
        report = profileRequests(store.requests, context.boundary, QStringLiteral("received live"),
                                 QStringLiteral("live OTLP"));
        report.rejected = qint64(store.rejected.size());
    }
    if (context.json) {
        nlohmann::json document;
        document["endpoint"] = endpoint.toStdString();
        document["stopped"] = stopReason.toStdString();
        document["seconds"] = seconds;
        document["requests"] = summary.requests;
        nlohmann::json byStatus = nlohmann::json::object();
        for (const auto &[status, count] : summary.byStatus)
            byStatus[std::to_string(status)] = count;
        document["requests_by_status"] = byStatus;
        if (grpc) {
            document["grpc_endpoint"] = grpcEndpoint.toStdString();
            nlohmann::json byCode = nlohmann::json::object();
            for (const auto &[code, count] : summary.byGrpcCode)
                byCode[ReceiveStats::grpcCodeName(code).toStdString()] = count;
            document["grpc_calls_by_code"] = byCode;
        }
        document["bytes"] = summary.bytes;
        document["spans_accepted"] = summary.acceptedSpans;
        document["spans_rejected"] = summary.rejectedSpans;
        document["spans_stored"] = store.spans.rowCount();
        document["workflows"] = store.workflows.rowCount();
        nlohmann::json rejections = nlohmann::json::array();
        for (const auto &[field, group] : summary.rejectionsByField)
            rejections.push_back(
                {{"field", field.toStdString()}, {"count", group.count}, {"example", group.example.toStdString()}});
        document["rejections"] = rejections;
        nlohmann::json refusals = nlohmann::json::array();
        for (const auto &[status, group] : summary.refusals) {
            nlohmann::json refusal = {{"count", group.count}, {"example", group.example.toStdString()}};
            if (status.startsWith(QLatin1String("gRPC ")))
                refusal["grpc_code"] = status.mid(5).toStdString();
            else
                refusal["status"] = status.toInt();
            refusals.push_back(refusal);
        }
        document["refused_requests"] = refusals;
        nlohmann::json services = nlohmann::json::object();
        for (const auto &[service, count] : summary.spansByService)
            services[service.empty() ? "(no service.name)" : service] = count;
        document["spans_by_service"] = services;
        if (!capturePath.isEmpty())
            document["capture"] = capturePath.toStdString();
        document["store_rejected_records"] = ReportJson::rejected(store.rejected);
        if (hasRequests)
            document["analysis"] = ReportJson::profile(report);
        context.out << QString::fromStdString(document.dump(2)) << '\n';
        return ExitOk;
    }
    QTextStream &out = context.out;
    out << QStringLiteral("Received on %1 for %2 s (stopped: %3)\n")
               .arg(grpc ? endpoint + QStringLiteral(" and gRPC ") + grpcEndpoint : endpoint)
               .arg(seconds, 0, 'f', 1)
               .arg(stopReason);
    out << QStringLiteral("  requests: %1").arg(summary.requests);
    for (const auto &[status, count] : summary.byStatus)
        out << QStringLiteral("  [%1: %2]").arg(status).arg(count);
    for (const auto &[code, count] : summary.byGrpcCode)
        out << QStringLiteral("  [gRPC %1: %2]").arg(ReceiveStats::grpcCodeName(code)).arg(count);
    out << '\n';
    out << QStringLiteral("  spans: %1 accepted, %2 rejected; %3 stored in %4 workflows\n")
               .arg(summary.acceptedSpans)
               .arg(summary.rejectedSpans)
               .arg(store.spans.rowCount())
               .arg(store.workflows.rowCount());
    for (const auto &[field, group] : summary.rejectionsByField)
        out << QStringLiteral("    rejected %1 × %2: %3\n").arg(group.count).arg(field, group.example);
    for (const auto &[status, group] : summary.refusals)
        out << QStringLiteral("    refused %1 request(s) with %2: %3\n").arg(group.count).arg(status, group.example);
    if (!summary.spansByService.empty()) {
        out << QStringLiteral("  spans by service:\n");
        for (const auto &[service, count] : summary.spansByService)
            out << QStringLiteral("    %1: %2\n")
                       .arg(service.empty() ? QStringLiteral("(no service.name)") : QString::fromStdString(service))
                       .arg(count);
    }
    if (!capturePath.isEmpty())
        out << QStringLiteral("  capture: %1 (OTLP JSON Lines; open it with tracelane or tracelane-cli analyse)\n")
                   .arg(capturePath);
    if (hasRequests)
        out << '\n' << ReportText::profile(report) << '\n';
    if (!store.rejected.empty())
        out << ReportText::rejectedSummary(store.rejected) << '\n';
    return ExitOk;
}
