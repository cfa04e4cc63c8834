#include "GenAiSemantics.h"

#include "AttributeText.h"

#include <cmath>
#include <initializer_list>

namespace {

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char &c : out) {
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    }
    return out;
}

const SpanAttribute *firstOf(const SpanRecord &record, std::initializer_list<std::string_view> keys)
{
    for (const auto key : keys) {
        if (const auto *attribute = record.findAttribute(key))
            return attribute;
    }
    return nullptr;
}

qint32 readCount(const SpanRecord &record, std::initializer_list<std::string_view> keys)
{
    for (const auto key : keys) {
        const auto *attribute = record.findAttribute(key);
        if (!attribute)
            continue;
        qint64 value = 0;
        if (attribute->value.type == AttributeValue::Type::Int)
            value = attribute->value.integer;
        else if (!AttributeText::parseCount(attribute->value.text, &value))
            continue;
        if (value >= 0 && value <= std::numeric_limits<qint32>::max())
            return qint32(value);
    }
    return -1;
}

bool readSeconds(const SpanRecord &record, std::string_view key, qint64 *ns)
{
    const auto *attribute = record.findAttribute(key);
    if (!attribute)
        return false;
    double seconds = attribute->value.number;
    if (std::isnan(seconds) && !AttributeText::parseDouble(attribute->value.text, &seconds))
        return false;
    if (!std::isfinite(seconds) || seconds < 0.0 || seconds > 1.0e6)
        return false;
    *ns = std::llround(seconds * 1e9);
    return true;
}

} // namespace

namespace GenAiSemantics {

SpanCategory categoryOfOperation(std::string_view operation)
{
    const std::string name = lower(operation);
    static const std::initializer_list<std::pair<std::string_view, SpanCategory>> kNames = {
        {"chat", SpanCategory::ModelCall},
        {"text_completion", SpanCategory::ModelCall},
        {"generate_content", SpanCategory::ModelCall},
        {"call_llm", SpanCategory::ModelCall},
        {"completion", SpanCategory::ModelCall},
        {"llm", SpanCategory::ModelCall},
        {"generation", SpanCategory::ModelCall},
        {"execute_tool", SpanCategory::Tool},
        {"tool", SpanCategory::Tool},
        {"invoke_agent", SpanCategory::Agent},
        {"create_agent", SpanCategory::Agent},
        {"agent", SpanCategory::Agent},
        {"retrieval", SpanCategory::Retrieval},
        {"retriever", SpanCategory::Retrieval},
        {"retrieve", SpanCategory::Retrieval},
        {"embeddings", SpanCategory::Embeddings},
        {"embedding", SpanCategory::Embeddings},
        {"create_embeddings", SpanCategory::Embeddings},
    };
    for (const auto &[known, category] : kNames) {
        if (name == known)
            return category;
    }
    return SpanCategory::Other;
}

qint32 readInputTokens(const SpanRecord &record)
{
    return readCount(record,
                     {"gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.usage.prompt_tokens",
                      "llm.token_count.prompt"});
}

qint32 readOutputTokens(const SpanRecord &record)
{
    return readCount(record,
                     {"gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "llm.usage.completion_tokens",
                      "llm.token_count.completion"});
}

SpanMeaning interpret(const SpanRecord &record)
{
    SpanMeaning meaning;
    meaning.inputTokens = readInputTokens(record);
    meaning.outputTokens = readOutputTokens(record);
    if (meaning.inputTokens < 0)
        meaning.inputTokens = record.inputTokens;
    if (meaning.outputTokens < 0)
        meaning.outputTokens = record.outputTokens;

    if (const auto *operation = record.findAttribute("gen_ai.operation.name")) {
        meaning.operation = operation->value.text;
        meaning.category = categoryOfOperation(meaning.operation);
        if (meaning.category != SpanCategory::Other)
            return meaning;
    }
    // Older conventions that name the role directly.
    if (const auto *kind = firstOf(record, {"openinference.span.kind", "traceloop.span.kind", "llm.request.type"})) {
        const SpanCategory category = categoryOfOperation(kind->value.text);
        if (category != SpanCategory::Other) {
            meaning.category = category;
            if (meaning.operation.empty())
                meaning.operation = lower(kind->value.text);
            return meaning;
        }
    }
    // The format's own type (Langfuse GENERATION, TOOL, AGENT, ...).
    if (!record.operation.empty()) {
        const SpanCategory category = categoryOfOperation(record.operation);
        if (category != SpanCategory::Other) {
            meaning.category = category;
            if (meaning.operation.empty())
                meaning.operation = lower(record.operation);
            return meaning;
        }
    }
    if (record.findAttribute("gen_ai.latency.time_to_first_token") || record.findAttribute("gen_ai.latency.e2e")) {
        meaning.category = SpanCategory::ModelCall;
        return meaning;
    }
    // any-agent and many SDKs name spans "<operation> <target>".
    const std::string_view name = record.name;
    const std::string_view firstWord = name.substr(0, name.find(' '));
    const SpanCategory byName = categoryOfOperation(firstWord);
    if (byName != SpanCategory::Other) {
        meaning.category = byName;
        if (meaning.operation.empty())
            meaning.operation = lower(firstWord);
        return meaning;
    }
    if (meaning.outputTokens >= 0 && meaning.category == SpanCategory::Other && meaning.operation.empty())
        meaning.category = SpanCategory::ModelCall; // only model calls report output usage
    return meaning;
}

bool readVllmLatency(const SpanRecord &record, SpanTable::ModelCall *call)
{
    qint64 queue = 0;
    qint64 prefill = 0;
    qint64 firstToken = 0;
    qint64 e2e = 0;
    const bool hasQueue = readSeconds(record, "gen_ai.latency.time_in_queue", &queue);
    const bool hasPrefill = readSeconds(record, "gen_ai.latency.time_in_model_prefill", &prefill);
    const bool hasFirst = readSeconds(record, "gen_ai.latency.time_to_first_token", &firstToken);
    const bool hasE2e = readSeconds(record, "gen_ai.latency.e2e", &e2e);
    if (!hasQueue && !hasPrefill && !hasFirst && !hasE2e)
        return false;
    // vLLM measures every duration from the request's arrival, the span start.
    const qint64 arrival = record.start;
    auto &stamps = call->stamps;
    stamps[size_t(Stamp::QueueEnter)] = arrival;
    if (hasQueue) {
        stamps[size_t(Stamp::PrefillStart)] = arrival + queue;
        if (hasPrefill)
            stamps[size_t(Stamp::PrefillEnd)] = arrival + queue + prefill;
    }
    if (hasFirst)
        stamps[size_t(Stamp::FirstTokenServer)] = arrival + firstToken;
    if (hasE2e)
        call->lastTokenServer = arrival + e2e;
    return true;
}

} // namespace GenAiSemantics
