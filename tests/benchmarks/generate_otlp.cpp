// Writes a synthetic OTLP/JSON Lines file the way the collector's file
// exporter does: one ExportTraceServiceRequest per line, agent workflows
// (invoke_agent -> retrieval -> chat -> execute_tool -> chat) with GenAI
// attributes, every tenth trace split across two lines, and a metrics line
// now and then that a loader must skip.
//
//   tracelane-gen-otlp OUT.jsonl [SPANS] [SEED]

#include <QtGlobal>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

struct Writer
{
    std::string line;

    void hex(std::mt19937_64 &rng, int digits)
    {
        static constexpr char kDigits[] = "0123456789abcdef";
        for (int i = 0; i < digits; ++i)
            line += kDigits[rng() & 15u];
    }
    void text(const char *key, const std::string &value)
    {
        line += "{\"key\":\"";
        line += key;
        line += "\",\"value\":{\"stringValue\":\"";
        line += value;
        line += "\"}}";
    }
    void integer(const char *key, long long value)
    {
        line += "{\"key\":\"";
        line += key;
        line += "\",\"value\":{\"intValue\":\"";
        line += std::to_string(value);
        line += "\"}}";
    }
    void real(const char *key, double value)
    {
        char buffer[256];
        std::snprintf(buffer, sizeof buffer, "{\"key\":\"%s\",\"value\":{\"doubleValue\":%.6f}}", key, value);
        line += buffer;
    }
};

struct SpanPlan
{
    std::string id;
    std::string parent;
    const char *name = "";
    const char *operation = "";
    int kind = 1;
    long long start = 0;
    long long end = 0;
    int inputTokens = 0;
    int outputTokens = 0;
    bool error = false;
};

void writeResourceHeader(Writer &w, const char *service)
{
    w.line += "{\"resourceSpans\":[{\"resource\":{\"attributes\":[";
    w.text("service.name", service);
    w.line += ',';
    w.text("telemetry.sdk.language", "python");
    w.line += ',';
    w.text("deployment.environment", "bench");
    w.line += "]},\"scopeSpans\":[{\"scope\":{\"name\":\"tracelane.bench\",\"version\":\"1.0.0\"},\"spans\":[";
}

void writeSpan(Writer &w, const std::string &traceId, const SpanPlan &span, const char *model, int user)
{
    w.line += "{\"traceId\":\"" + traceId + "\",\"spanId\":\"" + span.id + "\",\"parentSpanId\":\"" + span.parent
        + "\",\"name\":\"" + span.name + "\",\"kind\":" + std::to_string(span.kind) + ",\"startTimeUnixNano\":\""
        + std::to_string(span.start) + "\",\"endTimeUnixNano\":\"" + std::to_string(span.end) + "\",\"attributes\":[";
    w.text("gen_ai.operation.name", span.operation);
    w.line += ',';
    w.text("gen_ai.system", "openai");
    w.line += ',';
    w.text("gen_ai.request.model", model);
    w.line += ',';
    w.text("enduser.id", "user-" + std::to_string(user));
    w.line += ',';
    w.integer("thread.id", 1000 + user % 16);
    w.line += ',';
    w.real("gen_ai.request.temperature", 0.7);
    if (span.inputTokens > 0) {
        w.line += ',';
        w.integer("gen_ai.usage.input_tokens", span.inputTokens);
        w.line += ',';
        w.integer("gen_ai.usage.output_tokens", span.outputTokens);
        w.line += ',';
        w.text("gen_ai.response.finish_reasons", "stop");
    }
    w.line += "],\"events\":[],\"links\":[],\"status\":";
    w.line += span.error ? "{\"code\":2,\"message\":\"upstream timeout\"}" : "{}";
    w.line += "}";
}

} // namespace

int main(int argc, char *argv[])
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: tracelane-gen-otlp OUT.jsonl [SPANS] [SEED]\n");
        return 2;
    }
    const long long wantedSpans = argc > 2 ? std::atoll(argv[2]) : 100'000;
    const unsigned seed = argc > 3 ? unsigned(std::atoi(argv[3])) : 42u;
    FILE *out = std::fopen(argv[1], "w");
    if (!out) {
        std::perror(argv[1]);
        return 1;
    }
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const std::array<const char *, 3> models = {"gpt-4o-mini", "llama-3.1-70b", "mistral-small"};
    const std::array<const char *, 4> tools
        = {"execute_tool search_web", "execute_tool get_weather", "execute_tool run_sql", "execute_tool read_file"};
    long long clock = 1'736'935'200'000'000'000LL; // 2025-01-15, ns
    long long written = 0;
    long long traces = 0;
    Writer w;
    w.line.reserve(64 * 1024);
    while (written < wantedSpans) {
        const std::string traceId = [&] {
            Writer id;
            id.hex(rng, 32);
            return id.line;
        }();
        std::vector<SpanPlan> spans;
        const auto newId = [&] {
            Writer id;
            id.hex(rng, 16);
            return id.line;
        };
        const long long ms = 1'000'000;
        SpanPlan root{newId(), "", "invoke_agent planner", "invoke_agent", 2, clock, 0, 0, 0, false};
        long long at = clock + 2 * ms;
        SpanPlan retrieval{newId(), root.id, "retrieval vector-search", "retrieval", 3, at, 0, 0, 0, false};
        retrieval.end = at + (20 + static_cast<long long>(unit(rng) * 200)) * ms;
        at = retrieval.end + ms;
        spans.push_back(retrieval);
        const int rounds = 1 + int(unit(rng) * 4);
        for (int r = 0; r < rounds; ++r) {
            SpanPlan chat{newId(), root.id, "chat", "chat", 3, at, 0, 0, 0, false};
            chat.inputTokens = 200 + int(unit(rng) * 3000);
            chat.outputTokens = 10 + int(unit(rng) * 300);
            chat.end = at + (150 + static_cast<long long>(chat.outputTokens) * 20) * ms;
            chat.error = unit(rng) < 0.01;
            at = chat.end + ms;
            spans.push_back(chat);
            if (r + 1 < rounds) {
                SpanPlan tool{newId(), root.id, tools[size_t(rng() % tools.size())], "execute_tool", 1, at, 0, 0,
                              0,       false};
                tool.end = at + (5 + static_cast<long long>(unit(rng) * 800)) * ms;
                at = tool.end + ms;
                spans.push_back(tool);
            }
        }
        root.end = at + ms;
        spans.insert(spans.begin(), root);
        clock += static_cast<long long>(unit(rng) * 50) * ms;
        const char *model = models[size_t(rng() % models.size())];
        const int user = int(rng() % 5000);
        // Every tenth trace arrives in two export batches, as the collector
        // flushes a trace whose spans end far apart.
        const size_t split = traces % 10 == 3 ? spans.size() / 2 : spans.size();
        for (size_t part = 0; part < 2; ++part) {
            const size_t begin = part == 0 ? 0 : split;
            const size_t end = part == 0 ? split : spans.size();
            if (begin == end)
                continue;
            w.line.clear();
            writeResourceHeader(w, part == 0 ? "agent-service" : "agent-worker");
            for (size_t i = begin; i < end; ++i) {
                if (i > begin)
                    w.line += ',';
                writeSpan(w, traceId, spans[i], model, user);
            }
            w.line += "]}]}]}\n";
            std::fwrite(w.line.data(), 1, w.line.size(), out);
        }
        written += qint64(spans.size());
        ++traces;
        if (traces % 500 == 0) {
            const std::string metrics
                = "{\"resourceMetrics\":[{\"resource\":{},\"scopeMetrics\":[{\"metrics\":[{"
                  "\"name\":\"queue.depth\",\"gauge\":{\"dataPoints\":[{\"asInt\":\"7\"}]}}]}]}]}\n";
            std::fwrite(metrics.data(), 1, metrics.size(), out);
        }
    }
    std::fprintf(stderr, "%lld spans in %lld traces\n", written, traces);
    return std::fclose(out) == 0 ? 0 : 1;
}
