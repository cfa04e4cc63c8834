#pragma once

#include "proto/otlp_trace.pb.h"

#include <QByteArray>
#include <QDateTime>

#include <string>

// Builders of OTLP export requests for the live tests: a vLLM-shaped trace
// (an HTTP server span and its llm_request child with gen_ai.* attributes)
// in protobuf, and the same trace in OTLP/JSON.
namespace OtlpRequests {

namespace otlp = opentelemetry::proto::collector::trace::v1;

inline std::string bytesOfHex(const char *hex)
{
    return QByteArray::fromHex(QByteArray(hex)).toStdString();
}

inline void setString(otlp::KeyValue *kv, const std::string &key, const std::string &value)
{
    kv->set_key(key);
    kv->mutable_value()->set_string_value(value);
}

inline void setInt(otlp::KeyValue *kv, const std::string &key, qint64 value)
{
    kv->set_key(key);
    kv->mutable_value()->set_int_value(value);
}

inline void setDouble(otlp::KeyValue *kv, const std::string &key, double value)
{
    kv->set_key(key);
    kv->mutable_value()->set_double_value(value);
}

// Trace `traceHex` (32 hex digits) with a root server span ...01 and its
// llm_request child ...02, starting at `start` ns; the child's ids end in
// `childHex` (16 hex digits).
inline void addTrace(otlp::ExportTraceServiceRequest &request, const char *traceHex, const char *rootHex,
                     const char *childHex, qint64 start)
{
    auto *resourceSpans = request.add_resource_spans();
    setString(resourceSpans->mutable_resource()->add_attributes(), "service.name", "vllm");
    auto *scopeSpans = resourceSpans->add_scope_spans();
    scopeSpans->mutable_scope()->set_name("vllm.llm_engine");
    scopeSpans->mutable_scope()->set_version("0.6.0");
    auto *root = scopeSpans->add_spans();
    root->set_trace_id(bytesOfHex(traceHex));
    root->set_span_id(bytesOfHex(rootHex));
    root->set_name("POST /v1/chat/completions");
    root->set_kind(2);
    root->set_start_time_unix_nano(quint64(start));
    root->set_end_time_unix_nano(quint64(start + 1'500'000'000));
    auto *child = scopeSpans->add_spans();
    child->set_trace_id(bytesOfHex(traceHex));
    child->set_span_id(bytesOfHex(childHex));
    child->set_parent_span_id(bytesOfHex(rootHex));
    child->set_name("llm_request");
    child->set_kind(2);
    child->set_start_time_unix_nano(quint64(start + 10'000'000));
    child->set_end_time_unix_nano(quint64(start + 1'450'000'000));
    setString(child->add_attributes(), "gen_ai.request.model", "meta-llama/Llama-3.1-8B");
    setInt(child->add_attributes(), "gen_ai.usage.prompt_tokens", 512);
    setInt(child->add_attributes(), "gen_ai.usage.completion_tokens", 64);
    setDouble(child->add_attributes(), "gen_ai.latency.time_in_queue", 0.25);
    setDouble(child->add_attributes(), "gen_ai.latency.time_to_first_token", 0.4);
    setDouble(child->add_attributes(), "gen_ai.latency.e2e", 1.44);
    auto *tags = child->add_attributes();
    tags->set_key("tags");
    tags->mutable_value()->mutable_array_value()->add_values()->set_string_value("a");
    tags->mutable_value()->mutable_array_value()->add_values()->set_int_value(7);
    auto *event = child->add_events();
    event->set_name("first_token");
    event->set_time_unix_nano(quint64(start + 410'000'000));
    child->mutable_status()->set_code(1);
}

inline std::string jsonTrace(const char *traceHex, const char *rootHex, const char *childHex, qint64 start)
{
    const auto ns = [](qint64 v) { return std::string("\"") + std::to_string(v) + "\""; };
    return std::string(
               R"({"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"vllm"}}]},)")
        + R"("scopeSpans":[{"scope":{"name":"vllm.llm_engine","version":"0.6.0"},"spans":[)" + R"({"traceId":")"
        + traceHex + R"(","spanId":")" + rootHex
        + R"(","name":"POST /v1/chat/completions","kind":2,"startTimeUnixNano":)" + ns(start) + R"(,"endTimeUnixNano":)"
        + ns(start + 1'500'000'000) + "}," + R"({"traceId":")" + traceHex + R"(","spanId":")" + childHex
        + R"(","parentSpanId":")" + rootHex + R"(","name":"llm_request","kind":2,"startTimeUnixNano":)"
        + ns(start + 10'000'000) + R"(,"endTimeUnixNano":)" + ns(start + 1'450'000'000) + R"(,"attributes":[)"
        + R"({"key":"gen_ai.request.model","value":{"stringValue":"meta-llama/Llama-3.1-8B"}},)"
        + R"({"key":"gen_ai.usage.prompt_tokens","value":{"intValue":"512"}},)"
        + R"({"key":"gen_ai.usage.completion_tokens","value":{"intValue":"64"}},)"
        + R"({"key":"gen_ai.latency.time_in_queue","value":{"doubleValue":0.25}},)"
        + R"({"key":"gen_ai.latency.time_to_first_token","value":{"doubleValue":0.4}},)"
        + R"({"key":"gen_ai.latency.e2e","value":{"doubleValue":1.44}},)"
        + R"({"key":"tags","value":{"arrayValue":{"values":[{"stringValue":"a"},{"intValue":"7"}]}}}],)"
        + R"("events":[{"timeUnixNano":)" + ns(start + 410'000'000) + R"(,"name":"first_token"}],)"
        + R"("status":{"code":1}}]}]}]})";
}

inline qint64 nowNs()
{
    return QDateTime::currentMSecsSinceEpoch() * 1'000'000LL;
}

} // namespace OtlpRequests
