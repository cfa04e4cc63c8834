// What a live refresh costs as the capture grows: LiveStore snapshots grown
// by the traces shown since the last one (the default), against the same
// snapshot built whole from every shown span (what each refresh cost
// before), measured in the same run on the same spans.
//
// Simulated time, no network: every 250 ms (a refresh) one export request's
// worth of vLLM-shaped traces arrives — a request span with its latency
// attributes and three children — at `--rate` spans per second, for
// `--seconds` seconds. Each refresh takes a grown snapshot (the one before is
// let go, as the views do); every 10 simulated seconds a store fed the same
// spans builds the whole snapshot once for comparison.
//
//   tracelane-bench-live-store [--seconds 60] [--rate 20000]

#include "live/LiveStore.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace {

constexpr qint64 kMs = 1'000'000LL;
constexpr qint64 kBase = 1'790'000'000'000LL * kMs;

std::string hexId(quint64 n, int digits)
{
    return QStringLiteral("%1").arg(n, digits, 16, QLatin1Char('0')).toStdString();
}

void addAttribute(RecycledList<SpanAttribute> &attributes, const std::string &key, AttributeValue::Type type,
                  const std::string &text)
{
    SpanAttribute &attribute = attributes.add();
    attribute.key = key;
    attribute.value.type = type;
    attribute.value.text = text;
    if (attribute.value.isNumeric())
        attribute.value.number = std::stod(text);
}

// `traces` traces of four spans (an HTTP server span, the vLLM request, a
// tokenizer and a detokenizer step), starting at `atMs`.
ExportBatch batch(quint64 firstTrace, int traces, qint64 atMs)
{
    ExportBatch out;
    addAttribute(out.resources.emplace_back(), "service.name", AttributeValue::Type::String, "vllm");
    out.spans.reserve(size_t(traces) * 4);
    for (int t = 0; t < traces; ++t) {
        const quint64 n = firstTrace + quint64(t);
        const std::string trace = hexId(n + 1, 32);
        const qint64 start = kBase + (atMs + t % 200) * kMs;
        const qint64 length = (300 + qint64(n % 97) * 7) * kMs;
        const auto add = [&](int k, int parent, const char *name, qint64 from, qint64 to) -> SpanRecord & {
            SpanRecord &span = out.spans.emplace_back();
            span.traceId = trace;
            span.spanId = hexId(n * 4 + quint64(k) + 1, 16);
            span.parentSpanId = parent < 0 ? std::string() : hexId(n * 4 + quint64(parent) + 1, 16);
            span.name = name;
            span.start = start + from;
            span.end = start + to;
            span.resource = 0;
            return span;
        };
        // Children end first, so exporters send them first.
        add(2, 1, "tokenize", 1 * kMs, 3 * kMs);
        add(3, 1, "detokenize", length - 5 * kMs, length - 2 * kMs);
        SpanRecord &request = add(1, 0, "llm_request", 0, length - kMs);
        addAttribute(request.attributes, "gen_ai.request.model", AttributeValue::Type::String,
                     n % 3 ? "llama-3-8b" : "qwen-2-7b");
        addAttribute(request.attributes, "gen_ai.latency.time_in_queue", AttributeValue::Type::Double,
                     std::to_string(0.005 + double(n % 17) / 1000));
        addAttribute(request.attributes, "gen_ai.latency.time_to_first_token", AttributeValue::Type::Double,
                     std::to_string(0.060 + double(n % 23) / 1000));
        addAttribute(request.attributes, "gen_ai.latency.e2e", AttributeValue::Type::Double,
                     std::to_string(double(length) / 1e9));
        addAttribute(request.attributes, "gen_ai.usage.output_tokens", AttributeValue::Type::Int,
                     std::to_string(50 + n % 200));
        add(0, -1, "POST /v1/chat/completions", 0, length);
    }
    return out;
}

qint64 peakRssKiB()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stoll(line.substr(6));
    }
    return -1;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int seconds = 60;
    int rate = 20'000;
    const QStringList args = app.arguments();
    for (qsizetype i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--seconds"))
            seconds = std::max(1, args[i + 1].toInt());
        else if (args[i] == QLatin1String("--rate"))
            rate = std::max(4, args[i + 1].toInt());
    }
    const int tracesPerStep = std::max(1, rate / 4 / 4); // 4 refreshes a second, 4 spans a trace
    std::printf("live store: %d simulated s at %d spans/s (%d traces of 4 spans a refresh)\n", seconds,
                tracesPerStep * 16, tracesPerStep);
    std::printf("%-10s %-11s %-15s %-24s %-12s %s\n", "simulated", "spans held", "workflows shown",
                "grown median / longest", "whole build", "whole / grown median");

    LiveStore grown;
    LiveStore::Options wholeOptions;
    wholeOptions.growSnapshots = false;
    LiveStore whole(wholeOptions);
    std::shared_ptr<TraceStore> shown;
    std::vector<double> windowMs;
    double totalMs = 0;
    double longestMs = 0;
    int snapshots = 0;
    quint64 nextTrace = 0;
    for (int step = 1; step <= seconds * 4; ++step) {
        const qint64 now = qint64(step) * 250 * kMs;
        ExportBatch forGrown = batch(nextTrace, tracesPerStep, qint64(step) * 250);
        ExportBatch forWhole = batch(nextTrace, tracesPerStep, qint64(step) * 250);
        nextTrace += quint64(tracesPerStep);
        grown.add(forGrown, now);
        whole.add(forWhole, now);

        QElapsedTimer clock;
        clock.start();
        std::shared_ptr<TraceStore> next = grown.snapshot(now, {});
        const double ms = double(clock.nsecsElapsed()) / 1e6;
        shown = std::move(next); // the views let go of the one before: it goes back to be grown
        windowMs.push_back(ms);
        longestMs = std::max(longestMs, ms);
        totalMs += ms;
        ++snapshots;

        if (step % 40 == 0) {
            clock.restart();
            const qint64 rows = whole.snapshot(now, {})->workflows.rowCount();
            const double wholeMs = double(clock.nsecsElapsed()) / 1e6;
            const double med = median(windowMs);
            std::printf("%-10s %-11lld %-15lld %-24s %-12s %.0fx\n", qPrintable(QStringLiteral("%1 s").arg(step / 4)),
                        static_cast<long long>(grown.counts(now).spansHeld), static_cast<long long>(rows),
                        qPrintable(QStringLiteral("%1 / %2 ms").arg(med, 0, 'f', 1).arg(longestMs, 0, 'f', 1)),
                        qPrintable(QStringLiteral("%1 ms").arg(wholeMs, 0, 'f', 1)), med > 0 ? wholeMs / med : 0.0);
            std::fflush(stdout);
            windowMs.clear();
            longestMs = 0;
        }
    }
    std::printf("%d grown snapshots, %.1f s building in all, %lld built whole; peak RSS %lld MiB (both stores)\n",
                snapshots, totalMs / 1000, static_cast<long long>(grown.fullBuilds()),
                static_cast<long long>(peakRssKiB() / 1024));
    return 0;
}
