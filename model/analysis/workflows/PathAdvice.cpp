#include "PathAdvice.h"

QString nextPathTestFor(SpanCategory category, bool gap, bool idle, bool overrun)
{
    if (overrun)
        return QStringLiteral("this span ends after its parent: either its caller does not wait for it (async work "
                              "that still holds the workflow open) or the two services' clocks disagree; compare "
                              "both services' clocks, then check whether the caller should wait for it");
    if (idle)
        return QStringLiteral("no span was open: the workflow waited on something untraced (client think time, a "
                              "queue before the agent); trace that wait or start the root span earlier");
    if (gap && category == SpanCategory::Agent)
        return QStringLiteral("the agent's own time between its steps: log what it does there (parsing output, "
                              "building the next prompt, waiting on an untraced call) and give each a span");
    if (gap)
        return QStringLiteral("time inside this span but outside its children: instrument what it does there "
                              "(child spans or events) before optimising its children");
    switch (category) {
    case SpanCategory::ModelCall:
        return QStringLiteral("split the slow model calls into their phases (queue, prefill, decode, stream) with "
                              "the request analysis: record the phase stamps on these calls and compare prompt "
                              "and output lengths of the slow calls with the rest");
    case SpanCategory::Tool:
        return QStringLiteral("time the tool alone with the same arguments; if it is slow, cache its results for "
                              "repeated arguments or run it in parallel with the steps that do not need its output");
    case SpanCategory::Retrieval:
        return QStringLiteral("replay the slow queries against the retrieval service alone (top-k, filters, cold "
                              "cache); then cache hot queries or run independent retrievals in parallel");
    case SpanCategory::Embeddings:
        return QStringLiteral("time the embedding calls alone and batch them; check input length on the slow ones");
    case SpanCategory::Network:
        return QStringLiteral("measure the same transfer from a client next to the service; look at connection "
                              "reuse, TLS set-up and payload size");
    case SpanCategory::Gateway:
        return QStringLiteral("time each gateway step (authentication, policy, rate limiting) on the slow "
                              "workflows and remove them one at a time");
    case SpanCategory::Preparation:
        return QStringLiteral("profile the preparation step on the slow workflows (prompt assembly, templating, "
                              "serialisation) and compare input sizes with the rest");
    case SpanCategory::Agent:
    case SpanCategory::Other:
        break;
    }
    return QStringLiteral("compare the slow spans of this key with the rest (arguments, payload size, which "
                          "instance served them) and trace inside them if they have no children");
}
