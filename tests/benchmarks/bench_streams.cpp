// Per-token times at scale: loads a seed JSONL file whose records carry
// client_token_ms lists through the app's loader, then computes the pooled
// inter-token gap percentiles (p50/p90/p95/p99 with their intervals), and
// reports wall time, bytes per token and peak RSS. The reference in the same
// process is the plain way: every record parsed as a JSON DOM, token times
// kept as one std::vector<qint64> per request, every gap copied into one
// array and sorted (what np.percentile(np.concatenate(gaps)) does).
//
//   tracelane-bench-streams generate FILE [REQUESTS] [TOKENS] [SEED]
//   tracelane-bench-streams FILE [--threads N] [--reference-requests N]
//
// The reference runs on the first N requests (default all); its time and
// memory are reported per token so the ratio holds for any N.

#include "analysis/stats/Percentile.h"
#include "analysis/streams/PooledGaps.h"
#include "io/TraceFileLoader.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <sys/resource.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace {

double peakRssMb()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

double seconds(const QElapsedTimer &timer)
{
    return double(timer.nsecsElapsed()) / 1e9;
}

// One request every 7.3 ms over about two hours; tokens 12-60 ms apart
// (lognormal around 25 ms, µs resolution), one stall in fifty requests.
int generate(const char *path, long long requests, int tokens, unsigned seed)
{
    std::FILE *out = std::fopen(path, "wb");
    if (!out) {
        std::perror(path);
        return 1;
    }
    std::mt19937_64 random(seed);
    std::lognormal_distribution<double> gapMs(std::log(25.0), 0.35);
    std::vector<char> line;
    line.reserve(size_t(tokens) * 16 + 512);
    char number[64];
    for (long long i = 0; i < requests; ++i) {
        const long long sendUs = i * 7300 + static_cast<long long>(random() % 2000);
        const long long firstUs = sendUs + 120000 + static_cast<long long>(random() % 200000);
        std::vector<long long> times(static_cast<size_t>(tokens));
        long long t = firstUs;
        for (int k = 0; k < tokens; ++k) {
            times[size_t(k)] = t;
            double gap = gapMs(random);
            if (k == tokens / 2 && i % 50 == 0)
                gap += 900.0;
            t += std::max(1LL, std::llround(gap * 1000.0));
        }
        const auto ms = [&](long long us) {
            std::snprintf(number, sizeof number, "%lld.%03lld", us / 1000, us % 1000);
            return std::string(number);
        };
        std::string text = "{\"request_id\":\"r" + std::to_string(i) + "\",\"prompt_tokens\":"
            + std::to_string(100 + random() % 4000) + ",\"output_tokens\":" + std::to_string(tokens)
            + ",\"client_send_ms\":" + ms(sendUs) + ",\"gateway_arrival_ms\":" + ms(sendUs + 3000)
            + ",\"queue_enter_ms\":" + ms(sendUs + 8000) + ",\"prefill_start_ms\":" + ms(sendUs + 60'000)
            + ",\"prefill_end_ms\":" + ms(firstUs - 30'000) + ",\"first_token_server_ms\":" + ms(firstUs - 5000)
            + ",\"first_token_client_ms\":" + ms(firstUs) + ",\"last_token_client_ms\":" + ms(times.back())
            + ",\"region\":\"" + (i % 3 == 0 ? "eu" : "us") + "\",\"client_token_ms\":[";
        for (int k = 0; k < tokens; ++k) {
            text += ms(times[size_t(k)]);
            text += k + 1 < tokens ? ',' : ']';
        }
        text += "}\n";
        std::fwrite(text.data(), 1, text.size(), out);
    }
    std::fclose(out);
    return 0;
}

struct Reference
{
    long long requests = 0;
    long long tokens = 0;
    double loadSeconds = 0.0;
    double percentileSeconds = 0.0;
    double storeBytes = 0.0; // vectors of qint64 per request
    double gapBytes = 0.0;   // the array of every gap
    std::array<double, 4> values{};
};

Reference runReference(const QString &path, long long limit, std::span<const double> qs)
{
    Reference reference;
    QElapsedTimer timer;
    timer.start();
    std::ifstream in(path.toStdString());
    std::string line;
    std::vector<std::vector<qint64>> perRequest;
    while ((limit <= 0 || reference.requests < limit) && std::getline(in, line)) {
        const auto record = nlohmann::json::parse(line);
        std::vector<qint64> times;
        for (const auto &value : record["client_token_ms"])
            times.push_back(std::llround(value.get<double>() * 1e6));
        reference.tokens += qint64(times.size());
        reference.storeBytes += double(times.capacity() * sizeof(qint64) + sizeof(times));
        perRequest.push_back(std::move(times));
        ++reference.requests;
    }
    reference.loadSeconds = seconds(timer);
    timer.restart();
    std::vector<double> gaps;
    for (const auto &times : perRequest) {
        for (size_t k = 1; k < times.size(); ++k)
            gaps.push_back(double(times[k] - times[k - 1]) / 1e6);
    }
    reference.gapBytes = double(gaps.capacity() * sizeof(double));
    std::sort(gaps.begin(), gaps.end());
    for (size_t i = 0; i < qs.size(); ++i)
        reference.values[i] = Percentile::ofSorted(gaps, qs[i]);
    reference.percentileSeconds = seconds(timer);
    return reference;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (argc >= 3 && std::strcmp(argv[1], "generate") == 0) {
        return generate(argv[2], argc > 3 ? std::atoll(argv[3]) : 1'000'000, argc > 4 ? std::atoi(argv[4]) : 200,
                        argc > 5 ? unsigned(std::atoi(argv[5])) : 13u);
    }
    if (argc < 2) {
        std::fprintf(stderr,
                     "usage: tracelane-bench-streams generate FILE [REQUESTS] [TOKENS] [SEED]\n"
                     "       tracelane-bench-streams FILE [--threads N] [--reference-requests N]\n");
        return 2;
    }
    const QString path = QString::fromLocal8Bit(argv[1]);
    int threads = 2;
    long long referenceRequests = 0;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--threads") == 0)
            threads = std::atoi(argv[i + 1]);
        else if (std::strcmp(argv[i], "--reference-requests") == 0)
            referenceRequests = std::atoll(argv[i + 1]);
    }
    constexpr std::array<double, 4> qs = {0.50, 0.90, 0.95, 0.99};

    QElapsedTimer timer;
    timer.start();
    LoadOptions options;
    options.threads = threads;
    const LoadResult result = TraceFileLoader::load(path, options);
    const double loadSeconds = seconds(timer);
    if (!result.ok()) {
        std::fprintf(stderr, "load failed: %s\n", qPrintable(result.fatalError));
        return 1;
    }
    const auto &table = result.store->requests;
    const TokenTimeline &client = table.clientTokens();
    timer.restart();
    const PooledGaps pooled = PooledGapStats::compute(client, StreamSide::Client, nullptr, qs, threads);
    const double percentileSeconds = seconds(timer);
    const double tokens = double(client.tokenTotal());
    const double rssAfterOurs = peakRssMb();

    const Reference reference = runReference(path, referenceRequests, qs);
    const double referencePerToken = (reference.loadSeconds + reference.percentileSeconds) / double(reference.tokens);
    const double oursPerToken = (loadSeconds + percentileSeconds) / tokens;
    bool same = referenceRequests <= 0 || referenceRequests >= table.rowCount();
    if (same) {
        for (size_t i = 0; i < qs.size(); ++i)
            same = same && std::abs(pooled.quantiles[i].valueMs - reference.values[i]) < 1e-9;
    }
    std::printf("{\"file_mb\": %.1f, \"requests\": %lld, \"tokens\": %.0f, \"threads\": %d,\n"
                " \"load_s\": %.3f, \"percentiles_s\": %.3f, \"total_s\": %.3f, \"mb_per_s\": %.1f,\n"
                " \"p50_ms\": %.6f, \"p90_ms\": %.6f, \"p95_ms\": %.6f, \"p95_interval_ms\": [%.6f, %.6f], "
                "\"p99_ms\": %.6f, \"max_ms\": %.6f,\n"
                " \"timeline_bytes_per_token\": %.3f, \"encoded_bytes_per_token\": %.3f, "
                "\"store_bytes_per_token\": %.3f, \"peak_rss_mb\": %.1f,\n"
                " \"reference\": {\"requests\": %lld, \"load_s\": %.3f, \"percentiles_s\": %.3f, "
                "\"bytes_per_token\": %.2f, \"same_percentiles\": %s},\n"
                " \"speedup_per_token\": %.1f, \"memory_ratio\": %.2f}\n",
                double(QFileInfo(path).size()) / 1e6, static_cast<long long>(table.rowCount()), tokens, threads,
                loadSeconds, percentileSeconds, loadSeconds + percentileSeconds,
                double(QFileInfo(path).size()) / 1e6 / loadSeconds, pooled.quantiles[0].valueMs,
                pooled.quantiles[1].valueMs, pooled.quantiles[2].valueMs, pooled.quantiles[2].lowerMs,
                pooled.quantiles[2].upperMs, pooled.quantiles[3].valueMs, pooled.maxMs,
                double(client.memoryBytes()) / tokens, double(client.encodedBytes()) / tokens,
                double(result.store->memoryBytes()) / tokens, rssAfterOurs, reference.requests, reference.loadSeconds,
                reference.percentileSeconds, (reference.storeBytes + reference.gapBytes) / double(reference.tokens),
                same ? "true" : "false", referencePerToken / oursPerToken,
                ((reference.storeBytes + reference.gapBytes) / double(reference.tokens))
                    / (double(client.memoryBytes()) / tokens));
    return 0;
}
