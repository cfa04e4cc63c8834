// Writes a synthetic mixed-class request trace in the seed JSONL format:
// interactive chat and long-document classes across regions and priorities,
// bursty arrivals feeding a single queue, so the tail has a cause to find.
//
//   tracelane-gen OUT.jsonl [REQUESTS] [SEED]

#include <QtGlobal>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

int main(int argc, char *argv[])
{
    // An option where the output belongs (--help) would name a file after it.
    if (argc < 2 || argv[1][0] == '-') {
        std::fprintf(stderr, "usage: tracelane-gen OUT.jsonl [REQUESTS] [SEED]\n");
        return 2;
    }
    const long long requests = argc > 2 ? std::atoll(argv[2]) : 1'000'000;
    const unsigned seed = argc > 3 ? unsigned(std::atoi(argv[3])) : 42u;
    FILE *out = std::fopen(argv[1], "w");
    if (!out) {
        std::perror(argv[1]);
        return 1;
    }
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::lognormal_distribution<double> chatPrompt(6.0, 0.6); // ~400 tokens
    std::lognormal_distribution<double> docPrompt(8.8, 0.5);  // ~6.6k tokens
    std::lognormal_distribution<double> chatOutput(5.0, 0.7); // ~150 tokens
    std::lognormal_distribution<double> docOutput(5.8, 0.6);  // ~330 tokens
    std::exponential_distribution<double> gap(1.0 / 8.0);     // ~125 req/s mean
    const std::array<const char *, 3> regions = {"eu-west", "us-east", "ap-south"};
    const std::array<double, 3> regionRttMs = {12.0, 28.0, 85.0};
    const std::array<const char *, 2> priorities = {"interactive", "batch"};

    double clock = 1'700'000'000'000.0; // epoch ms, like real exports
    double serverFreeAt = clock;
    char line[768];
    for (long long i = 0; i < requests; ++i) {
        // Bursts: every ~2000 requests a tight cluster arrives.
        const bool burst = (i / 200) % 10 == 0;
        clock += burst ? gap(rng) * 0.08 : gap(rng);
        const bool document = unit(rng) < 0.1;
        const size_t region = unit(rng) < 0.5 ? 0 : (unit(rng) < 0.7 ? 1 : 2);
        const bool cached = unit(rng) < (document ? 0.2 : 0.6);
        const int prompt = qMax(1, int(document ? docPrompt(rng) : chatPrompt(rng)));
        const int output = qMax(1, int(document ? docOutput(rng) : chatOutput(rng)));
        const double rtt = regionRttMs[region] * (0.8 + 0.4 * unit(rng));
        const double send = clock;
        const double gateway = send + rtt / 2.0;
        const double queueEnter = gateway + 3.0 + 4.0 * unit(rng);
        const double prefillMs = (cached ? 0.25 : 1.0) * prompt * 0.05 + 8.0;
        // Shared server: a request waits until the previous one's prefill is done.
        const double prefillStart = qMax(queueEnter, serverFreeAt);
        const double prefillEnd = prefillStart + prefillMs;
        serverFreeAt = prefillStart + prefillMs * 0.08; // batching overlaps most of it
        const double firstServer = prefillEnd + 9.0 + 3.0 * unit(rng);
        const double firstClient = firstServer + rtt / 2.0;
        const double perToken = 18.0 + 8.0 * unit(rng);
        const double last = firstClient + (output - 1) * perToken;
        const int written = std::snprintf(
            line, sizeof line,
            "{\"request_id\":\"req-%07lld\",\"prompt_tokens\":%d,\"output_tokens\":%d,"
            "\"client_send_ms\":%.3f,\"gateway_arrival_ms\":%.3f,\"queue_enter_ms\":%.3f,"
            "\"prefill_start_ms\":%.3f,\"prefill_end_ms\":%.3f,\"first_token_server_ms\":%.3f,"
            "\"first_token_client_ms\":%.3f,\"last_token_client_ms\":%.3f,"
            "\"region\":\"%s\",\"priority\":\"%s\",\"cached_prefix\":%s,\"workload_class\":\"%s\"}\n",
            i, prompt, output, send, gateway, queueEnter, prefillStart, prefillEnd, firstServer, firstClient, last,
            regions[region], priorities[document ? 1 : 0], cached ? "true" : "false", document ? "document" : "chat");
        std::fwrite(line, 1, size_t(written), out);
    }
    return std::fclose(out) == 0 ? 0 : 1;
}
