// Critical-path attribution benchmark: a generated population of agent
// workflows (default 100,000 of 29 spans: an agent with retrieval fan-outs,
// model calls, tools named with order ids and nested sub-agents; 5% with a
// slow tool) loaded through the span builder, then the slow set (E2E above
// p95) attributed over critical-path time by normalised span name, with the
// merged path tree. The reference in the same process is the naive way:
// every workflow rebuilt as a full span graph, scheduled, its path walked
// and grouped by normalising each section's name into a string-keyed map.
// Prints times, memory and the ratio, and checks both agree. Never part of
// ctest.
//
//   bench_pathattribution [WORKFLOWS] [SEED] [--no-reference]

#include "analysis/exceedance/ExceedanceSet.h"
#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/ColumnCache.h"
#include "analysis/workflows/PathAttribution.h"
#include "analysis/workflows/PathTree.h"
#include "analysis/workflows/SpanGraphBuilder.h"
#include "analysis/workflows/WorkflowSchedule.h"
#include "io/SpanTraceBuilder.h"

#include <QCoreApplication>
#include <QHash>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <random>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

double cpuSeconds()
{
    return double(std::clock()) / CLOCKS_PER_SEC;
}

double residentMb(const char *field)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    const std::string prefix = std::string(field) + ":";
    while (std::getline(status, line)) {
        if (line.rfind(prefix, 0) == 0)
            return std::stod(line.substr(prefix.size())) / 1024.0;
    }
    return 0.0;
}

// Writes one workflow's spans into the builder as a loader would.
class Generator
{
public:
    Generator(SpanTraceBuilder &builder, unsigned seed)
        : m_builder(builder)
        , m_rng(seed)
    { }

    void workflow(qint64 index)
    {
        m_trace = hex(quint64(index) + 1, 32);
        m_spans = 0;
        const qint64 origin = index * 50'000'000LL; // one every 50 ms
        const bool slowTool = m_rng() % 100 < 5;
        const std::string root = nextId();
        qint64 t = origin + ms(1.0);
        for (int round = 0; round < 3; ++round) {
            t = leaf(root, "chat plan", "chat", "llm", t, ms(lognormal(250.0))) + ms(2.0);
            t = leaf(root, "lookup_order " + std::to_string(100'000 + (m_rng() % 900'000)), "execute_tool", "orders", t,
                     ms(lognormal(slowTool && round == 1 ? 4000.0 : 80.0)))
                + ms(2.0);
            // A retrieval fanned out to three shards in parallel.
            const std::string retrieve = nextId();
            qint64 slowest = 0;
            std::vector<qint64> shard(3);
            for (auto &length : shard) {
                length = ms(lognormal(60.0));
                slowest = std::max(slowest, length);
            }
            const qint64 retrieveStart = t;
            for (int k = 0; k < 3; ++k)
                leaf(retrieve, "vector-search shard-" + std::to_string(k), "retrieval", "vector-db",
                     retrieveStart + ms(0.5), shard[size_t(k)]);
            t = span(retrieve, root, "retrieve documents", "retrieval", "rag", retrieveStart,
                     retrieveStart + slowest + ms(1.0))
                + ms(2.0);
            // A sub-agent: a model call, then a tool.
            const std::string sub = nextId();
            const qint64 subStart = t;
            qint64 s = leaf(sub, "chat sub-agent", "chat", "llm", subStart + ms(1.0), ms(lognormal(150.0)));
            s = leaf(sub, "calculator", "execute_tool", "tools", s + ms(1.0), ms(lognormal(20.0)));
            t = span(sub, root, "invoke_agent helper", "invoke_agent", "agent", subStart, s + ms(1.0)) + ms(2.0);
        }
        t = leaf(root, "chat answer", "chat", "llm", t, ms(lognormal(600.0))) + ms(1.0);
        span(root, "", "invoke_agent support", "invoke_agent", "agent", origin, t);
    }

    qint64 spans() const { return m_total; }

private:
    static qint64 ms(double value) { return std::llround(value * 1e6); }
    double lognormal(double median)
    {
        return median * std::exp(0.5 * std::normal_distribution<double>(0.0, 1.0)(m_rng));
    }
    static std::string hex(quint64 value, int digits)
    {
        char buffer[40];
        std::snprintf(buffer, sizeof buffer, "%0*llx", digits, static_cast<unsigned long long>(value));
        return buffer;
    }
    std::string nextId() { return hex((quint64(m_total) << 8) + quint64(++m_spans), 16); }

    qint64 leaf(const std::string &parent, const std::string &name, const char *operation, const char *service,
                qint64 start, qint64 length)
    {
        return span(nextId(), parent, name, operation, service, start, start + length);
    }

    qint64 span(const std::string &id, const std::string &parent, const std::string &name, const char *operation,
                const char *service, qint64 start, qint64 end)
    {
        m_record.clear();
        m_record.traceId = m_trace;
        m_record.spanId = id;
        m_record.parentSpanId = parent;
        m_record.name = name;
        m_record.service = service;
        m_record.start = start;
        m_record.end = end;
        m_record.line = ++m_total;
        auto &attribute = m_record.attributes.add();
        attribute.key = "gen_ai.operation.name";
        attribute.value.type = AttributeValue::Type::String;
        attribute.value.text = operation;
        m_builder.addSpan(m_record);
        return end;
    }

    SpanTraceBuilder &m_builder;
    std::mt19937_64 m_rng;
    SpanRecord m_record;
    std::string m_trace;
    qint64 m_spans = 0;
    qint64 m_total = 0;
};

// The naive way: each workflow's full graph rebuilt and scheduled, path
// sections grouped by normalised name in a string-keyed map.
QHash<QString, double> naiveAttribution(const TraceStore &store, const std::vector<qint32> &workflowOfRow,
                                        const std::vector<qint32> &rows, qint64 *analysed)
{
    const SpanGraphBuilder builder(store);
    QHash<QString, double> sums;
    for (const qint32 row : rows) {
        const qint32 w = workflowOfRow[size_t(row)];
        QString error;
        const auto schedule = WorkflowSchedule::build(builder.build(w), &error);
        if (!schedule)
            continue;
        ++*analysed;
        const auto slack = schedule->slack(); // as the attribution's "slack when off the path" needs
        for (const auto &section : schedule->criticalPath()) {
            if (section.span < 0)
                continue;
            const auto &events = schedule->events();
            const bool gap = events.predecessors(events.endNode(section.span)).size() > 1;
            sums[normaliseSpanName(schedule->graph().name(section.span)) + (gap ? QStringLiteral(" (gap)") : QString())]
                += double(section.duration());
        }
    }
    return sums;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const qint64 workflows = args.size() > 1 && !args[1].startsWith(QLatin1Char('-')) ? args[1].toLongLong() : 100'000;
    const unsigned seed = args.size() > 2 && !args[2].startsWith(QLatin1Char('-')) ? args[2].toUInt() : 17u;
    const bool reference = !args.contains(QStringLiteral("--no-reference"));

    auto store = std::make_shared<TraceStore>();
    auto clock = Clock::now();
    {
        SpanTraceBuilder builder(*store, QStringLiteral("generated"));
        Generator generator(builder, seed);
        for (qint64 w = 0; w < workflows; ++w)
            generator.workflow(w);
        builder.finish();
    }
    std::printf("generated and loaded %lld workflows, %lld spans in %.2f s (not part of the figures below); "
                "RSS %.0f MB\n",
                static_cast<long long>(store->workflows.rowCount()), static_cast<long long>(store->spans.rowCount()),
                secondsSince(clock), residentMb("VmRSS"));

    // Tracelane: paths of every workflow once, then the attribution.
    const double rssBefore = residentMb("VmRSS");
    clock = Clock::now();
    double cpu = cpuSeconds();
    const WorkflowPaths paths = WorkflowPaths::compute(*store, 2);
    const double pathsSeconds = secondsSince(clock);
    auto step = Clock::now();
    const SpanKeys keys = SpanKeys::build(*store, SpanKeyKind::Name);
    const double keysSeconds = secondsSince(step);
    step = Clock::now();
    ColumnCache cache(store);
    ExceedanceSpec spec;
    spec.metric = Metric::E2e;
    const ExceedanceSet set = findExceedanceSet(store->requests, *cache.metric(Metric::E2e, Boundary::Client),
                                                RequestSlice::all(store->requests.rowCount()), spec);
    const double setSeconds = secondsSince(step);
    step = Clock::now();
    const PathAttribution attribution
        = PathAttribution::compute(*store, paths, keys, set.members, set.rest, WorkflowPaths::Target::End);
    const double attributionSeconds = secondsSince(step);
    step = Clock::now();
    const PathTree tree = PathTree::build(*store, paths, keys, set.members, set.rest, WorkflowPaths::Target::End);
    const double treeSeconds = secondsSince(step);
    const double total = secondsSince(clock);
    cpu = cpuSeconds() - cpu;
    std::printf("tracelane: %.3f s wall, %.3f s CPU (paths %.3f, keys %.3f, p95 set %.3f, attribution %.3f, "
                "tree %.3f); paths hold %.0f MB (%.0f B/span), RSS +%.0f MB\n",
                total, cpu, pathsSeconds, keysSeconds, setSeconds, attributionSeconds, treeSeconds,
                double(paths.memoryBytes()) / 1e6, double(paths.memoryBytes()) / double(store->spans.rowCount()),
                residentMb("VmRSS") - rssBefore);
    std::printf("set %lld of %lld workflows; excess %.1f ms, exact %s; suspect %s (%.1f ms); %zu keys, %zu tree "
                "nodes; %d unschedulable\n",
                static_cast<long long>(attribution.setN), static_cast<long long>(attribution.setN + attribution.restN),
                attribution.differenceMs, attribution.exact ? "yes" : "NO",
                attribution.suspect ? qPrintable(attribution.label(attribution.keys[*attribution.suspect])) : "none",
                attribution.suspect ? attribution.keys[*attribution.suspect].differenceMs : 0.0,
                attribution.keys.size(), tree.nodes().size(), paths.failedCount());
    if (!reference)
        return 0;

    // Reference: both groups recomputed workflow by workflow, one thread.
    std::vector<qint32> workflowOfRow(size_t(store->requests.rowCount()), -1);
    for (qint32 w = 0; w < qint32(store->workflows.rowCount()); ++w)
        workflowOfRow[size_t(store->workflows.requestRow[size_t(w)])] = w;
    clock = Clock::now();
    cpu = cpuSeconds();
    qint64 analysed = 0;
    const auto setSums = naiveAttribution(*store, workflowOfRow, set.members, &analysed);
    const auto restSums = naiveAttribution(*store, workflowOfRow, set.rest, &analysed);
    const double naiveSeconds = secondsSince(clock);
    cpu = cpuSeconds() - cpu;
    // Agreement: the suspect's difference from the naive sums.
    double naiveSuspect = 0.0;
    if (attribution.suspect) {
        const auto &key = attribution.keys[*attribution.suspect];
        const QString name = key.key + (key.gap ? QStringLiteral(" (gap)") : QString());
        naiveSuspect = setSums.value(name) / double(set.members.size()) / 1e6
            - restSums.value(name) / double(set.rest.size()) / 1e6;
    }
    std::printf("naive per-workflow recomputation: %.3f s wall, %.3f s CPU for %lld workflows; suspect's "
                "difference %.3f ms (tracelane %.3f ms)\n",
                naiveSeconds, cpu, static_cast<long long>(analysed), naiveSuspect,
                attribution.suspect ? attribution.keys[*attribution.suspect].differenceMs : 0.0);
    std::printf("ratio: %.1fx (wall, tracelane on 2 threads vs naive on 1); peak RSS %.0f MB\n", naiveSeconds / total,
                residentMb("VmHWM"));
    return 0;
}
