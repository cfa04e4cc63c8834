// Load test of the live OTLP receiver over loopback: 4 concurrent exporters
// (2 OTLP/HTTP protobuf, 2 OTLP/gRPC by default) send agent-shaped traces at
// a combined rate for a bounded time into one receiver (OtlpHttpServer on its
// thread, OtlpGrpcServer on gRPC's), while this thread stores what arrives
// through BatchIngest into a SpanTraceBuilder in bounded steps (SlicedDrain:
// slices of 2,048 spans, 10 ms per step), as `tracelane-cli receive` does.
// Then the same at 10x the rate (overload): the receiver answers 429 /
// RESOURCE_EXHAUSTED while its queue is full and the exporters retry after
// the delay it names (never dropping a batch), until every span has been
// accepted.
//
// Reported per phase: spans sent and received, checked span id by span id
// (missing, duplicated), the rate reached, each exporter's round-trip
// latency per export (p50/p99/max, by transport), back-pressure answers and
// retries, the longest store step (the time the consumer thread is held at
// once), the most spans buffered, and the peak RSS of the phase
// (VmHWM, reset between phases). The reference: OtlpExport::handle on the
// same request bodies in this process, no sockets, one thread (the decode
// ceiling); throughput is printed as a ratio of it.
//
//   tracelane-bench-receive [--seconds S] [--overload-seconds S] [--rate SPANS_PER_S]
//                           [--batch N] [--transport mixed|http|grpc] [--max-buffered N] [--full]
//
// Defaults: 10 s at 20,000 spans/s, then 5 s at 200,000 spans/s; --full runs
// 60 s and 20 s. Loopback only.

#include "OtlpBenchExport.h"
#include "io/SpanTraceBuilder.h"

#include "live/BatchIngest.h"
#include "live/LiveQueue.h"
#include "live/OtlpExport.h"
#include "live/OtlpGrpcServer.h"
#include "live/OtlpHttpServer.h"
#include "live/SlicedDrain.h"
#include "live/SpanAdmission.h"
#include "proto/otlp_trace.grpc.pb.h"
#include "proto/otlp_trace.pb.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QTcpSocket>
#include <QThread>

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

using namespace OtlpBench;
using Clock = std::chrono::steady_clock;

namespace {

struct Settings
{
    double seconds = 10;
    double overloadSeconds = 5;
    double rate = 20'000;
    int batch = 512; // the OpenTelemetry SDKs' default maxExportBatchSize
    QString transport = QStringLiteral("mixed");
    qint64 maxBuffered = ReceiveLimits().maxBufferedSpans;
};

struct ExporterResult
{
    std::vector<quint64> sentIds;
    std::vector<double> latencyMs; // round trip of each accepted export
    qint64 exports = 0;
    qint64 backPressure = 0; // 429, 503 or RESOURCE_EXHAUSTED answers
    qint64 otherErrors = 0;
    QString firstError;
    double finishedAt = 0; // seconds after the phase began
};

struct Phase
{
    double seconds = 0;
    double rate = 0;
};

// Sends rate/4 spans/s for `seconds` (each batch as soon as it is due and
// the previous one is answered; a late exporter catches up), then whatever
// is still due, retrying refused batches after the delay the receiver names.
void runExporter(int index, bool grpc, quint16 httpPort, quint16 grpcPort, const Phase &phase, int batch,
                 Clock::time_point begin, ExporterResult &result)
{
    const double perExporter = phase.rate / 4.0;
    const qint64 total = qint64(perExporter * phase.seconds) / batch * batch;
    std::unique_ptr<HttpExporter> http;
    std::unique_ptr<otlp::TraceService::Stub> stub;
    if (grpc)
        stub = otlp::TraceService::NewStub(
            grpc::CreateChannel("127.0.0.1:" + std::to_string(grpcPort), grpc::InsecureChannelCredentials()));
    else
        http = std::make_unique<HttpExporter>(httpPort);
    const char *service = grpc ? "bench-grpc" : "bench-http";
    quint64 nextSpan = 0;
    result.sentIds.reserve(size_t(total));
    for (qint64 sent = 0; sent < total; sent += batch) {
        const auto due = begin + std::chrono::nanoseconds(qint64(double(sent) / perExporter * 1e9));
        std::this_thread::sleep_until(due);
        const quint64 first = nextSpan;
        const std::string body = exportBody(index, nextSpan, batch, service);
        otlp::ExportTraceServiceRequest request;
        if (grpc)
            request.ParseFromString(body);
        while (true) {
            const auto start = Clock::now();
            int retryAfter = 1;
            bool accepted = false;
            bool refused = false;
            QString error;
            if (grpc) {
                grpc::ClientContext context;
                context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
                otlp::ExportTraceServiceResponse response;
                const grpc::Status status = stub->Export(&context, request, &response);
                accepted = status.ok();
                if (status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED
                    || status.error_code() == grpc::StatusCode::UNAVAILABLE) {
                    refused = true;
                    otlp::RpcStatus details;
                    if (details.ParseFromString(status.error_details()) && details.details_size() > 0) {
                        otlp::RpcRetryInfo retry;
                        if (retry.ParseFromString(details.details(0).value()))
                            retryAfter = int(retry.retry_delay().seconds());
                    }
                } else if (!accepted) {
                    error = QString::fromStdString(status.error_message());
                }
            } else {
                const int status = http->post(body, &retryAfter);
                accepted = status == 200;
                refused = status == 429 || status == 503 || status == 0;
                if (!accepted && !refused)
                    error = QStringLiteral("HTTP %1").arg(status);
            }
            const double ms
                = double(std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count()) / 1000.0;
            ++result.exports;
            if (accepted) {
                result.latencyMs.push_back(ms);
                break;
            }
            if (refused) {
                ++result.backPressure;
                std::this_thread::sleep_for(std::chrono::milliseconds(1000 * std::max(1, retryAfter)));
                continue;
            }
            ++result.otherErrors;
            if (result.firstError.isEmpty())
                result.firstError = error;
            break; // not retryable: the batch is lost, and the id check will say so
        }
        for (quint64 id = first; id < nextSpan; ++id)
            result.sentIds.push_back((quint64(index + 1) << 48) | id);
    }
    result.finishedAt = std::chrono::duration<double>(Clock::now() - begin).count();
}

double percentile(std::vector<double> values, double q)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const double rank = q * double(values.size() - 1);
    const size_t low = size_t(rank);
    const size_t high = std::min(low + 1, values.size() - 1);
    return values[low] + (values[high] - values[low]) * (rank - double(low));
}

// Peak RSS since the last reset, MiB (VmHWM); reset writes 5 to clear_refs.
double peakRssMib(bool reset)
{
    QFile status(QStringLiteral("/proc/self/status"));
    double mib = 0;
    if (status.open(QIODevice::ReadOnly)) {
        for (const QByteArray &line : status.readAll().split('\n')) {
            if (line.startsWith("VmHWM:"))
                mib = line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
        }
    }
    if (reset) {
        QFile clear(QStringLiteral("/proc/self/clear_refs"));
        if (clear.open(QIODevice::WriteOnly))
            clear.write("5");
    }
    return mib;
}

QString loadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QList<QByteArray> parts = file.readAll().split(' ');
    return QString::fromLatin1(parts.value(0) + ' ' + parts.value(1) + ' ' + parts.value(2));
}

// The decode ceiling: OtlpExport::handle on the benchmark's own bodies.
double referenceSpansPerSecond(int batch)
{
    std::vector<std::string> bodies;
    quint64 next = 0;
    for (int i = 0; i < 40; ++i)
        bodies.push_back(exportBody(9, next, batch, "reference"));
    QElapsedTimer timer;
    timer.start();
    qint64 spans = 0;
    int round = 0;
    while (timer.elapsed() < 2000 || round < 2) {
        for (const std::string &body : bodies) {
            const OtlpExport::Reply reply = OtlpExport::handle(
                {QByteArrayLiteral("application/x-protobuf"), {}, QByteArray::fromStdString(body), 1},
                SpanAdmission(ReceiveLimits(), nowNs()));
            spans += qint64(reply.batch.spans.size());
        }
        ++round;
    }
    return double(spans) / (double(timer.nsecsElapsed()) / 1e9);
}

bool runPhase(const char *name, const Phase &phase, const Settings &settings, double reference)
{
    peakRssMib(true);
    LiveQueue queue(settings.maxBuffered);
    ReceiveStats stats;
    OtlpHttpServer::Options httpOptions;
    httpOptions.limits.maxBufferedSpans = settings.maxBuffered;
    QThread receiverThread;
    auto *server = new OtlpHttpServer(httpOptions, queue, stats);
    server->moveToThread(&receiverThread);
    QObject::connect(&receiverThread, &QThread::finished, server, &QObject::deleteLater);
    receiverThread.start();
    quint16 httpPort = 0;
    QString error;
    QMetaObject::invokeMethod(
        server,
        [&] {
            if (server->listen(QHostAddress::LocalHost, 0, &error))
                httpPort = server->port();
        },
        Qt::BlockingQueuedConnection);
    OtlpGrpcServer grpcServer({}, queue, stats);
    if (httpPort == 0 || !grpcServer.listen(QHostAddress::LocalHost, 0, &error)) {
        std::fprintf(stderr, "cannot listen: %s\n", qPrintable(error));
        return false;
    }

    TraceStore store;
    SpanTraceBuilder builder(store, QStringLiteral("bench"));
    std::vector<quint64> received;
    std::vector<ExporterResult> results(4);
    std::vector<std::thread> exporters;
    const auto begin = Clock::now();
    for (int i = 0; i < 4; ++i) {
        const bool grpc = settings.transport == QLatin1String("grpc")
            || (settings.transport == QLatin1String("mixed") && i % 2 == 1);
        exporters.emplace_back(runExporter, i, grpc, httpPort, grpcServer.port(), std::cref(phase), settings.batch,
                               begin, std::ref(results[size_t(i)]));
    }
    std::atomic<int> running{4};
    std::thread watcher([&] {
        for (auto &exporter : exporters)
            exporter.join();
        running = 0;
    });
    qint64 mostBuffered = 0;
    // Stored as the live consumers store: in bounded steps (SlicedDrain), the
    // next step at once while more waits, else after 50 ms.
    SlicedDrain drain(queue);
    const SlicedDrain::Store storeBatch = [&](ExportBatch &batch) {
        for (const SpanRecord &span : batch.spans)
            received.push_back(span.spanId.size() == 16 ? std::strtoull(span.spanId.c_str(), nullptr, 16) : 0);
        BatchIngest::feed(batch, builder);
    };
    const auto deadline = begin + std::chrono::duration<double>(phase.seconds + 180.0);
    bool more = false;
    while (running.load() != 0 && Clock::now() < deadline) {
        if (!more)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        mostBuffered = std::max(mostBuffered, queue.bufferedSpans());
        more = drain.step(storeBatch);
    }
    const bool drained = running.load() == 0;
    if (!drained)
        std::fprintf(stderr, "exporters still sending 180 s after the phase: stopping\n");
    watcher.join(); // the exporters' own 30 s deadlines end them
    QMetaObject::invokeMethod(
        server, [server] { server->close(); }, Qt::BlockingQueuedConnection);
    receiverThread.quit();
    receiverThread.wait();
    grpcServer.close();
    mostBuffered = std::max(mostBuffered, queue.bufferedSpans());
    drain.drainAll(storeBatch);
    const double elapsed = std::chrono::duration<double>(Clock::now() - begin).count();
    QElapsedTimer finishTimer;
    finishTimer.start();
    builder.finish();
    const double finishMs = double(finishTimer.nsecsElapsed()) / 1e6;
    const double peak = peakRssMib(false);

    std::vector<quint64> sent;
    std::vector<double> httpMs;
    std::vector<double> grpcMs;
    qint64 exports = 0;
    qint64 backPressure = 0;
    qint64 otherErrors = 0;
    double lastFinish = 0;
    for (size_t i = 0; i < results.size(); ++i) {
        const ExporterResult &r = results[i];
        sent.insert(sent.end(), r.sentIds.begin(), r.sentIds.end());
        const bool grpc = settings.transport == QLatin1String("grpc")
            || (settings.transport == QLatin1String("mixed") && i % 2 == 1);
        (grpc ? grpcMs : httpMs).insert((grpc ? grpcMs : httpMs).end(), r.latencyMs.begin(), r.latencyMs.end());
        exports += r.exports;
        backPressure += r.backPressure;
        otherErrors += r.otherErrors;
        lastFinish = std::max(lastFinish, r.finishedAt);
        if (!r.firstError.isEmpty())
            std::fprintf(stderr, "exporter %zu: %s\n", i, qPrintable(r.firstError));
    }
    std::sort(sent.begin(), sent.end());
    std::sort(received.begin(), received.end());
    const qint64 duplicates
        = qint64(received.size()) - qint64(std::unique(received.begin(), received.end()) - received.begin());
    received.erase(std::unique(received.begin(), received.end()), received.end());
    std::vector<quint64> missing;
    std::set_difference(sent.begin(), sent.end(), received.begin(), received.end(), std::back_inserter(missing));
    std::vector<quint64> unexpected;
    std::set_difference(received.begin(), received.end(), sent.begin(), sent.end(), std::back_inserter(unexpected));
    const double achieved = double(sent.size()) / lastFinish;
    const auto snapshot = stats.snapshot();

    std::printf("%s: %.0f spans/s offered for %.0f s by 4 exporters (%s, %d spans per export)\n", name, phase.rate,
                phase.seconds, qPrintable(settings.transport), settings.batch);
    std::printf("  sent %zu, received %zu distinct (missing %zu, duplicated %lld, unknown %zu): %s\n", sent.size(),
                received.size(), missing.size(), static_cast<long long>(duplicates), unexpected.size(),
                missing.empty() && duplicates == 0 && unexpected.empty() ? "sent = received" : "MISMATCH");
    std::printf("  all accepted after %.1f s: %.0f spans/s delivered (%.2fx the offered rate; %.2fx the decode "
                "reference of %.0f spans/s)\n",
                lastFinish, achieved, achieved / phase.rate, achieved / reference, reference);
    std::printf("  exports %lld, back-pressure answers %lld (HTTP 429: %lld, gRPC RESOURCE_EXHAUSTED: %lld), other "
                "errors %lld\n",
                static_cast<long long>(exports), static_cast<long long>(backPressure),
                static_cast<long long>(snapshot.byStatus.count(429) ? snapshot.byStatus.at(429) : 0),
                static_cast<long long>(snapshot.byGrpcCode.count(8) ? snapshot.byGrpcCode.at(8) : 0),
                static_cast<long long>(otherErrors));
    std::printf("  round trip per accepted export, HTTP: p50 %.1f ms, p99 %.1f ms, max %.1f ms (n=%zu); gRPC: p50 %.1f "
                "ms, p99 %.1f ms, max %.1f ms (n=%zu)\n",
                percentile(httpMs, 0.5), percentile(httpMs, 0.99), percentile(httpMs, 1.0), httpMs.size(),
                percentile(grpcMs, 0.5), percentile(grpcMs, 0.99), percentile(grpcMs, 1.0), grpcMs.size());
    std::printf("  store: %lld spans in %lld workflows, in %lld steps of at most %lld spans per slice and %.0f ms "
                "budget: longest step %.1f ms (largest slice %lld spans); finish %.0f ms; most buffered "
                "%lld of %lld; peak RSS %.0f MiB (the store: %.0f MiB); wall %.1f s\n",
                static_cast<long long>(store.spans.rowCount()), static_cast<long long>(store.workflows.rowCount()),
                static_cast<long long>(drain.steps()), static_cast<long long>(SlicedDrain::Limits{}.sliceSpans),
                double(SlicedDrain::Limits{}.stepBudgetNs) / 1e6, double(drain.longestStepNs()) / 1e6,
                static_cast<long long>(drain.longestSliceSpans()), finishMs, static_cast<long long>(mostBuffered),
                static_cast<long long>(settings.maxBuffered), peak, double(store.memoryBytes()) / (1024.0 * 1024.0),
                elapsed);
    std::fflush(stdout);
    return drained && missing.empty() && duplicates == 0 && unexpected.empty();
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    Settings settings;
    const QStringList args = app.arguments();
    for (qsizetype i = 1; i < args.size(); ++i) {
        const QString &arg = args[i];
        const QString value = args.value(i + 1);
        if (arg == QLatin1String("--full")) {
            settings.seconds = 60;
            settings.overloadSeconds = 20;
            continue;
        }
        ++i;
        if (arg == QLatin1String("--seconds"))
            settings.seconds = value.toDouble();
        else if (arg == QLatin1String("--overload-seconds"))
            settings.overloadSeconds = value.toDouble();
        else if (arg == QLatin1String("--rate"))
            settings.rate = value.toDouble();
        else if (arg == QLatin1String("--batch"))
            settings.batch = std::max(4, value.toInt() / 4 * 4);
        else if (arg == QLatin1String("--transport"))
            settings.transport = value;
        else if (arg == QLatin1String("--max-buffered"))
            settings.maxBuffered = value.toLongLong();
        else {
            std::fprintf(stderr,
                         "usage: tracelane-bench-receive [--seconds S] [--overload-seconds S] [--rate SPANS_PER_S] "
                         "[--batch N] [--transport mixed|http|grpc] [--max-buffered N] [--full]\n");
            return 2;
        }
    }
    std::printf("%s, load average %s, %u cores\n", qPrintable(QDateTime::currentDateTime().toString(Qt::ISODate)),
                qPrintable(loadAverage()), std::thread::hardware_concurrency());
    const double reference = referenceSpansPerSecond(settings.batch);
    std::printf("reference: OtlpExport::handle on the same bodies, one thread, no sockets: %.0f spans/s\n", reference);
    bool ok = runPhase("steady", {settings.seconds, settings.rate}, settings, reference);
    if (settings.overloadSeconds > 0)
        ok = runPhase("overload 10x", {settings.overloadSeconds, settings.rate * 10}, settings, reference) && ok;
    std::printf("load average after: %s\n", qPrintable(loadAverage()));
    return ok ? 0 : 1;
}
