#pragma once

#include <QString>

#include <array>

// What a span does in an agent workflow, coarse and closed so views can
// colour it and what-ifs can scale "every tool call". The open-ended
// operation name (gen_ai.operation.name) is kept beside it in SpanTable.
enum class SpanCategory : quint8 {
    Other,
    Agent,     // invoke_agent, create_agent
    ModelCall, // chat, text_completion, generate_content, call_llm
    Tool,      // execute_tool
    Retrieval, // retrieval, vector search
    Embeddings,
    Network,     // transit the contract names explicitly (inbound, return)
    Gateway,     // gateway, policy, admission
    Preparation, // prompt assembly and other local work before a call
};
inline constexpr int kSpanCategoryCount = 9;

inline QString spanCategoryKey(SpanCategory category)
{
    static const std::array<QString, kSpanCategoryCount> keys = {
        QStringLiteral("other"),   QStringLiteral("agent"),     QStringLiteral("model_call"),
        QStringLiteral("tool"),    QStringLiteral("retrieval"), QStringLiteral("embeddings"),
        QStringLiteral("network"), QStringLiteral("gateway"),   QStringLiteral("preparation"),
    };
    return keys[static_cast<size_t>(category)];
}

inline QString spanCategoryLabel(SpanCategory category)
{
    static const std::array<QString, kSpanCategoryCount> labels = {
        QStringLiteral("Other"),   QStringLiteral("Agent"),     QStringLiteral("Model call"),
        QStringLiteral("Tool"),    QStringLiteral("Retrieval"), QStringLiteral("Embeddings"),
        QStringLiteral("Network"), QStringLiteral("Gateway"),   QStringLiteral("Preparation"),
    };
    return labels[static_cast<size_t>(category)];
}

inline bool spanCategoryFromKey(const QString &key, SpanCategory *category)
{
    for (int i = 0; i < kSpanCategoryCount; ++i) {
        if (spanCategoryKey(static_cast<SpanCategory>(i)) == key) {
            *category = static_cast<SpanCategory>(i);
            return true;
        }
    }
    return false;
}
