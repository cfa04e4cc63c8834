#pragma once

#include "store/Phase.h"
#include "store/SpanCategory.h"
#include "store/SpanKind.h"

#include <QString>

#include <array>

// What a workflow is doing at one moment: the span kinds of the Gantt,
// with a model call split into the phases its stamps reveal. The workflow
// lanes colour time by the kind on the critical path, and the Gantt colours
// bars by the same kinds, so one legend serves both.
enum class WorkKind : quint8 {
    Queue,      // model call waiting for the engine
    Prefill,    // model call reading the prompt
    FirstToken, // after prefill until the first token is out (first decode, return)
    Decode,     // after the first token: the answer streams
    ModelCall,  // model time the span's stamps do not split
    Tool,
    Retrieval,
    Embeddings,
    Coordination, // an agent's or a parent's own time between its children
    Network,      // transit, and client calls to an uninstrumented service
    Gateway,
    Preparation,
    Other,
    Idle, // no span at all: a gap between root spans (not observed)
};
inline constexpr int kWorkKindCount = 14;

inline QString workKindKey(WorkKind kind)
{
    static const std::array<QString, kWorkKindCount> keys = {
        QStringLiteral("queue"),     QStringLiteral("prefill"),    QStringLiteral("first_token"),
        QStringLiteral("decode"),    QStringLiteral("model_call"), QStringLiteral("tool"),
        QStringLiteral("retrieval"), QStringLiteral("embeddings"), QStringLiteral("coordination"),
        QStringLiteral("network"),   QStringLiteral("gateway"),    QStringLiteral("preparation"),
        QStringLiteral("other"),     QStringLiteral("idle"),
    };
    return keys[size_t(kind)];
}

inline QString workKindLabel(WorkKind kind)
{
    static const std::array<QString, kWorkKindCount> labels = {
        QStringLiteral("Model: queue"),
        QStringLiteral("Model: prefill"),
        QStringLiteral("Model: first token"),
        QStringLiteral("Model: decode"),
        QStringLiteral("Model call (no phase stamps)"),
        QStringLiteral("Tool"),
        QStringLiteral("Retrieval"),
        QStringLiteral("Embeddings"),
        QStringLiteral("Agent / coordination"),
        QStringLiteral("Network / remote call"),
        QStringLiteral("Gateway"),
        QStringLiteral("Preparation"),
        QStringLiteral("Other"),
        QStringLiteral("Idle (no span)"),
    };
    return labels[size_t(kind)];
}

// The kind a model call's phase is shown as: the request phases of the
// flat profiler, folded onto the four a workflow reader asks about.
inline WorkKind workKindOfPhase(Phase phase)
{
    switch (phase) {
    case Phase::NetworkIn:
        return WorkKind::Network;
    case Phase::Gateway:
        return WorkKind::Gateway;
    case Phase::Queue:
        return WorkKind::Queue;
    case Phase::Prefill:
        return WorkKind::Prefill;
    case Phase::FirstDecode:
    case Phase::NetworkToFirst:
        return WorkKind::FirstToken;
    case Phase::Stream:
        return WorkKind::Decode;
    }
    return WorkKind::ModelCall;
}

// The kind of a span's own time as a whole (a model call is refined by its
// phases, see WorkKinds). A span the conventions do not name takes its
// shape: a client call's own time is transit or an uninstrumented remote
// service, a parent's own time is coordination, anything else is other.
inline WorkKind workKindOfSpan(SpanCategory category, SpanKind kind, bool hasChildren)
{
    switch (category) {
    case SpanCategory::ModelCall:
        return WorkKind::ModelCall;
    case SpanCategory::Agent:
        return WorkKind::Coordination;
    case SpanCategory::Tool:
        return WorkKind::Tool;
    case SpanCategory::Retrieval:
        return WorkKind::Retrieval;
    case SpanCategory::Embeddings:
        return WorkKind::Embeddings;
    case SpanCategory::Network:
        return WorkKind::Network;
    case SpanCategory::Gateway:
        return WorkKind::Gateway;
    case SpanCategory::Preparation:
        return WorkKind::Preparation;
    case SpanCategory::Other:
        break;
    }
    if (kind == SpanKind::Client)
        return WorkKind::Network;
    return hasChildren ? WorkKind::Coordination : WorkKind::Other;
}
