#include "AdviserScenario.h"

#include <cmath>

namespace {

constexpr qint64 kMs = 1'000'000;

qint64 ns(double ms)
{
    return std::llround(ms * double(kMs));
}

SpanCategory categoryOf(const QString &operation)
{
    if (operation == QStringLiteral("invoke_agent"))
        return SpanCategory::Agent;
    if (operation == QStringLiteral("chat"))
        return SpanCategory::ModelCall;
    if (operation == QStringLiteral("execute_tool"))
        return SpanCategory::Tool;
    if (operation == QStringLiteral("retrieval"))
        return SpanCategory::Retrieval;
    if (operation == QStringLiteral("network"))
        return SpanCategory::Network;
    if (operation == QStringLiteral("gateway"))
        return SpanCategory::Gateway;
    if (operation == QStringLiteral("prompt"))
        return SpanCategory::Preparation;
    return SpanCategory::Other;
}

} // namespace

namespace AdviserScenario {

std::shared_ptr<SpanGraph> graph(const Options &options)
{
    auto graph = std::make_shared<SpanGraph>();
    const auto add = [&graph](const char *id, const QString &name, const QString &operation, qint32 parent,
                              double startMs, double endMs, double firstTokenMs = -1.0, qint32 tokens = -1) {
        SpanGraph::Span span;
        span.id = id;
        span.name = name;
        span.operation = operation;
        span.category = categoryOf(operation);
        span.parent = parent;
        span.start = ns(startMs);
        span.end = ns(endMs);
        span.firstToken = firstTokenMs < 0.0 ? kNoTime : ns(firstTokenMs);
        span.outputTokens = tokens;
        return graph->appendSpan(span);
    };
    const double queue = options.firstQueueMs;
    const double shift = options.accountAfterPolicy ? 280.0 : 0.0;
    const double callStart = 570.0 + shift;
    const double firstToken = callStart + queue + 285.0 + 85.0;
    const double toolStart = firstToken + 396.0;
    const double secondCall = toolStart + 760.0;
    const double secondToken = secondCall + 640.0;
    const double end = secondToken + 2640.0;

    const qint32 root
        = add("root", QStringLiteral("governed adviser response"), QStringLiteral("invoke_agent"), -1, 0.0, end);
    add("inbound", QStringLiteral("inbound transit"), QStringLiteral("network"), root, 0.0, 70.0);
    add("gateway", QStringLiteral("gateway and policy"), QStringLiteral("gateway"), root, 70.0, 115.0);
    const qint32 retrieval
        = add("retrieval", QStringLiteral("retrieval"), QStringLiteral("retrieval"), root, 115.0, 545.0 + shift);
    const qint32 policy
        = add("policy", QStringLiteral("policy retrieval"), QStringLiteral("retrieval"), retrieval, 115.0, 545.0);
    const double accountStart = options.accountAfterPolicy ? 545.0 : 115.0;
    const qint32 account = add("account", QStringLiteral("account retrieval"), QStringLiteral("retrieval"), retrieval,
                               accountStart, accountStart + 280.0);
    if (options.accountAfterPolicy)
        graph->addDependency({policy, account, false});
    add("assembly", QStringLiteral("prompt assembly"), QStringLiteral("prompt"), root, 545.0 + shift, callStart);

    add("call1", QStringLiteral("model call: tool proposal"), QStringLiteral("chat"), root, callStart, toolStart,
        firstToken, 18);
    graph->appendPhase({Phase::Queue, ns(callStart), ns(callStart + queue)});
    graph->appendPhase({Phase::Prefill, ns(callStart + queue), ns(callStart + queue + 285.0)});
    graph->appendPhase({Phase::FirstDecode, ns(callStart + queue + 285.0), ns(firstToken)});
    graph->appendPhase({Phase::Stream, ns(firstToken), ns(toolStart)});

    add("tool", QStringLiteral("calculation tool"), QStringLiteral("execute_tool"), root, toolStart, secondCall);

    // The source gives the second call 640 ms to its first token without a
    // split by phase.
    add("call2", QStringLiteral("model call: final answer"), QStringLiteral("chat"), root, secondCall, end, secondToken,
        110);
    graph->appendPhase({Phase::Stream, ns(secondToken), ns(end)});
    return graph;
}

} // namespace AdviserScenario
