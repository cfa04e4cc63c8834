// Critical-path benchmark: one generated workflow of 1,000,000 spans (an
// agent-like tree of sequential steps and parallel branches, some children
// overflowing their parent), analysed by Tracelane's event schedule and by a
// reference run in the same process: a straightforward port of Jaeger UI's
// published algorithm (span objects in a hash map keyed by id, a linear scan
// for the last-finishing child on every step). Prints times, memory and the
// ratio; checks that both find the same path. Never part of ctest.
//
//   bench_criticalpath [SPANS] [SEED] [--no-reference]

#include "analysis/workflows/WhatIf.h"
#include "analysis/workflows/WorkflowSchedule.h"

#include <QCoreApplication>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Process CPU seconds: less inflated than wall time when other jobs share the cores.
double cpuSeconds()
{
    return double(std::clock()) / CLOCKS_PER_SEC;
}

// Resident set size in MB from /proc (VmRSS, or VmHWM for the peak).
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

// A workflow as plain arrays, the input both implementations read.
struct GeneratedWorkflow
{
    std::vector<std::string> ids;
    std::vector<qint32> parent;
    std::vector<qint64> start;
    std::vector<qint64> end;
};

GeneratedWorkflow generate(qint32 count, quint64 seed)
{
    std::mt19937_64 random(seed);
    const auto uniform = [&random](qint64 lo, qint64 hi) {
        return lo >= hi ? lo : std::uniform_int_distribution<qint64>(lo, hi)(random);
    };
    GeneratedWorkflow workflow;
    const auto add = [&workflow](qint32 parent, qint64 start, qint64 end) {
        char id[17];
        std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(workflow.ids.size() * 2654435761ULL));
        workflow.ids.emplace_back(id);
        workflow.parent.push_back(parent);
        workflow.start.push_back(start);
        workflow.end.push_back(end);
        return qint32(workflow.ids.size() - 1);
    };
    add(-1, 1'000, 1'000'000'000'000); // 1,000 s of agent work
    // Breadth first: each span gets 0-8 children, either one after another
    // (steps) or side by side (parallel branches); 3% overflow their parent.
    for (qint32 next = 0; next < qint32(workflow.ids.size()) && qint32(workflow.ids.size()) < count; ++next) {
        const qint64 ps = workflow.start[size_t(next)];
        const qint64 pe = workflow.end[size_t(next)];
        const qint64 length = pe - ps;
        const qint32 fanOut = qint32(std::min<qint64>(uniform(0, 8), count - qint32(workflow.ids.size())));
        if (length < 64 * (fanOut + 1))
            continue;
        const bool sequential = uniform(0, 1) == 0;
        for (qint32 k = 0; k < fanOut; ++k) {
            qint64 start = 0;
            qint64 end = 0;
            if (sequential) {
                const qint64 slot = length / fanOut;
                start = ps + k * slot + uniform(1, slot / 8) * 2;
                end = ps + (k + 1) * slot - uniform(1, slot / 8) * 2 - 1;
            } else {
                start = ps + uniform(1, length / 8) * 2;
                end = start + uniform(length / 16, 5 * length / 16) * 2 + 1;
            }
            if (uniform(0, 99) < 3)
                end += length / 10; // clock skew: overflows the parent
            add(next, start, end);
        }
    }
    return workflow;
}

// --- Reference: Jaeger UI's algorithm, ported plainly --------------------
struct ReferenceSpan
{
    std::string id;
    std::string parentId;
    qint64 start = 0;
    qint64 end = 0;
    std::vector<std::string> children;
};

struct ReferenceSection
{
    std::string id;
    qint64 start;
    qint64 end;
};

std::vector<ReferenceSection> referenceCriticalPath(const GeneratedWorkflow &workflow, double *buildSeconds)
{
    const auto began = Clock::now();
    std::unordered_map<std::string, ReferenceSpan> spans;
    std::vector<std::string> order; // preorder, as the map is built by a tree walk
    for (size_t i = 0; i < workflow.ids.size(); ++i) {
        ReferenceSpan span;
        span.id = workflow.ids[i];
        span.parentId = workflow.parent[i] < 0 ? std::string() : workflow.ids[size_t(workflow.parent[i])];
        span.start = workflow.start[i];
        span.end = workflow.end[i];
        spans.emplace(span.id, span);
    }
    for (size_t i = 1; i < workflow.ids.size(); ++i)
        spans[workflow.ids[size_t(workflow.parent[i])]].children.push_back(workflow.ids[i]);
    std::vector<std::string> stack{workflow.ids.front()};
    while (!stack.empty()) {
        const std::string id = stack.back();
        stack.pop_back();
        order.push_back(id);
        const auto &children = spans[id].children;
        stack.insert(stack.end(), children.rbegin(), children.rend());
    }
    // Clip overflowing children, drop those outside their parent.
    for (const std::string &id : order) {
        const auto it = spans.find(id);
        if (it == spans.end() || it->second.parentId.empty())
            continue;
        ReferenceSpan &span = it->second;
        const auto parentIt = spans.find(span.parentId);
        if (parentIt == spans.end()) {
            spans.erase(it);
            continue;
        }
        ReferenceSpan &parent = parentIt->second;
        const bool outside = span.start >= parent.end || (span.start < parent.start && span.end <= parent.start);
        if (outside) {
            auto &siblings = parent.children;
            siblings.erase(std::remove(siblings.begin(), siblings.end(), id), siblings.end());
            spans.erase(it);
            continue;
        }
        span.start = std::max(span.start, parent.start);
        span.end = std::min(span.end, parent.end);
    }
    *buildSeconds = secondsSince(began);
    // The walk: from a span's end (or a returning child's start) back to
    // the last child that finished before; a tail-recursive walk, as a loop.
    std::vector<ReferenceSection> path;
    std::string current = workflow.ids.front();
    std::optional<qint64> bound;
    while (true) {
        const ReferenceSpan &span = spans.at(current);
        const ReferenceSpan *last = nullptr;
        for (const std::string &childId : span.children) {
            const auto childIt = spans.find(childId);
            if (childIt == spans.end())
                continue;
            const ReferenceSpan &child = childIt->second;
            if (bound && child.end >= *bound)
                continue;
            if (!last || child.end > last->end)
                last = &child;
        }
        const qint64 sectionEnd = bound ? *bound : span.end;
        if (last) {
            if (last->end != sectionEnd)
                path.push_back({span.id, last->end, sectionEnd});
            current = last->id;
            bound.reset();
            continue;
        }
        if (span.start != sectionEnd)
            path.push_back({span.id, span.start, sectionEnd});
        if (span.parentId.empty())
            break;
        bound = span.start;
        current = span.parentId;
    }
    return path;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const qint32 count = argc > 1 ? qint32(std::stol(argv[1])) : 1'000'000;
    const quint64 seed = argc > 2 ? std::stoull(argv[2]) : 42;

    const GeneratedWorkflow workflow = generate(count, seed);
    std::printf("critical path of one generated workflow: %zu spans (seed %llu)\n", workflow.ids.size(),
                static_cast<unsigned long long>(seed));
    const double rssStart = residentMb("VmRSS");

    // Tracelane ------------------------------------------------------------
    auto began = Clock::now();
    auto graph = std::make_shared<SpanGraph>();
    graph->reserve(qint32(workflow.ids.size()), qint64(workflow.ids.size() * 16));
    for (size_t i = 0; i < workflow.ids.size(); ++i) {
        SpanGraph::Span span;
        span.id = workflow.ids[i];
        span.parent = workflow.parent[i];
        span.start = workflow.start[i];
        span.end = workflow.end[i];
        graph->appendSpan(span);
    }
    const double fillSeconds = secondsSince(began);
    {
        // The stages of WorkflowSchedule::build, timed apart.
        QString stageError;
        QStringList notices;
        auto stage = Clock::now();
        const auto tree = SpanTree::build(*graph, &stageError);
        const double treeSeconds = secondsSince(stage);
        stage = Clock::now();
        const auto clipped = clipToParents(*graph, *tree);
        const double clipSeconds = secondsSince(stage);
        stage = Clock::now();
        const auto events = ScheduleGraph::build(*graph, *tree, clipped, &stageError, &notices);
        std::printf("stages: tree %.3f s, clip %.3f s, event graph %.3f s (%d events)\n", treeSeconds, clipSeconds,
                    secondsSince(stage), events->nodeCount());
    }
    began = Clock::now();
    const double cpuBuild = cpuSeconds();
    QString error;
    const auto schedule = WorkflowSchedule::build(graph, &error);
    if (!schedule) {
        std::fprintf(stderr, "schedule failed: %s\n", qPrintable(error));
        return 1;
    }
    const double buildSeconds = secondsSince(began);
    began = Clock::now();
    const auto path = schedule->criticalPath();
    const double pathSeconds = secondsSince(began);
    const double oursCpu = cpuSeconds() - cpuBuild;
    began = Clock::now();
    const auto slack = schedule->slack();
    const double slackSeconds = secondsSince(began);
    began = Clock::now();
    // Halve the longest span section on the path (other than the root's own time).
    qint32 target = 0;
    qint64 longest = -1;
    for (const auto &section : path) {
        if (section.span > 0 && section.duration() > longest) {
            longest = section.duration();
            target = section.span;
        }
    }
    WhatIfEdit edit;
    edit.target.text = QString::fromStdString(workflow.ids[size_t(target)]);
    edit.factor = 0.5;
    const auto outcome = WhatIf::run(*schedule, std::span(&edit, 1));
    const double whatIfSeconds = secondsSince(began);
    const double rssTracelane = residentMb("VmRSS") - rssStart;
    const double ours = buildSeconds + pathSeconds;
    const double perSpan = double(schedule->memoryBytes()) / double(workflow.ids.size());
    std::printf("tracelane: fill graph %.3f s, build schedule %.3f s, critical path %.4f s, slack %.3f s, "
                "what-if %.3f s\n",
                fillSeconds, buildSeconds, pathSeconds, slackSeconds, whatIfSeconds);
    std::printf("tracelane: graph to path %.3f s (%.3f s CPU); %zu sections; schedule %.1f MB (%.0f bytes/span), "
                "RSS +%.0f MB\n",
                ours, oursCpu, path.size(), double(schedule->memoryBytes()) / 1e6, perSpan, rssTracelane);
    std::printf("           what-if (longest span on the path x0.5) saves %.3f ms of %.3f ms\n",
                double(outcome.e2eSaving()) / 1e6, double(outcome.before.e2e()) / 1e6);

    if (argc > 3 && std::string(argv[3]) == "--no-reference")
        return 0;

    // Reference ------------------------------------------------------------
    const double rssBeforeReference = residentMb("VmRSS");
    began = Clock::now();
    const double cpuReference = cpuSeconds();
    double referenceBuild = 0.0;
    const auto reference = referenceCriticalPath(workflow, &referenceBuild);
    const double referenceSeconds = secondsSince(began);
    const double referenceCpu = cpuSeconds() - cpuReference;
    const double rssReference = residentMb("VmRSS") - rssBeforeReference;
    std::printf("reference (Jaeger UI's algorithm, span map by id): map + clip %.3f s, walk %.4f s, total %.3f s "
                "(%.3f s CPU), RSS +%.0f MB\n",
                referenceBuild, referenceSeconds - referenceBuild, referenceSeconds, referenceCpu, rssReference);

    bool agree = reference.size() == path.size();
    for (size_t i = 0; agree && i < path.size(); ++i) {
        const auto &mine = path[path.size() - 1 - i];
        agree = reference[i].id == graph->id(mine.span) && reference[i].start == mine.start
            && reference[i].end == mine.end;
    }
    std::printf("ratio: reference / tracelane = %.1fx wall, %.1fx CPU (graph to path); paths agree: %s; "
                "peak RSS %.0f MB\n",
                referenceSeconds / ours, referenceCpu / oursCpu, agree ? "yes" : "NO", residentMb("VmHWM"));
    return agree ? 0 : 1;
}
