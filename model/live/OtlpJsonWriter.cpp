#include "OtlpJsonWriter.h"

#include <nlohmann/json.hpp>

#include <cmath>

using Json = nlohmann::ordered_json;

namespace {

// An array or kvlist value is kept as its JSON rendering; turn it back into
// OTLP AnyValues (strings, integers, doubles, booleans, nested arrays and
// kvlists in their order).
Json anyValueOf(const Json &value)
{
    switch (value.type()) {
    case Json::value_t::string:
        return {{"stringValue", value}};
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
        return {{"intValue", value.dump()}};
    case Json::value_t::number_float:
        return {{"doubleValue", value}};
    case Json::value_t::boolean:
        return {{"boolValue", value}};
    case Json::value_t::array: {
        Json values = Json::array();
        for (const auto &element : value)
            values.push_back(anyValueOf(element));
        return {{"arrayValue", {{"values", values}}}};
    }
    case Json::value_t::object: {
        Json values = Json::array();
        for (const auto &[key, element] : value.items()) {
            Json entry = {{"key", key}};
            if (!element.is_null())
                entry["value"] = anyValueOf(element);
            values.push_back(entry);
        }
        return {{"kvlistValue", {{"values", values}}}};
    }
    default:
        return Json::object();
    }
}

Json valueOf(const AttributeValue &value)
{
    using Type = AttributeValue::Type;
    switch (value.type) {
    case Type::String:
        return {{"stringValue", value.text}};
    case Type::Int:
        return {{"intValue", value.text}};
    case Type::Double:
        if (std::isfinite(value.number))
            return {{"doubleValue", value.number}};
        return {{"doubleValue", value.text}}; // "NaN", "Infinity"
    case Type::Bool:
        return {{"boolValue", value.text == "true"}};
    case Type::Bytes:
        return {{"bytesValue", value.text}};
    case Type::Array:
    case Type::Kvlist: {
        Json parsed = Json::parse(value.text, nullptr, false);
        if (parsed.is_discarded())
            return {{"stringValue", value.text}};
        return anyValueOf(parsed);
    }
    case Type::Empty:
        break;
    }
    return Json();
}

Json attributesOf(const RecycledList<SpanAttribute> &attributes)
{
    Json out = Json::array();
    for (const auto &attribute : attributes) {
        Json entry = {{"key", attribute.key}};
        Json value = valueOf(attribute.value);
        if (!value.is_null())
            entry["value"] = std::move(value);
        out.push_back(std::move(entry));
    }
    return out;
}

Json spanOf(const SpanRecord &span)
{
    Json out = {{"traceId", span.traceId}, {"spanId", span.spanId}};
    if (!span.parentSpanId.empty())
        out["parentSpanId"] = span.parentSpanId;
    out["name"] = span.name;
    out["kind"] = int(span.kind);
    out["startTimeUnixNano"] = std::to_string(span.start);
    out["endTimeUnixNano"] = std::to_string(span.end);
    if (!span.attributes.empty())
        out["attributes"] = attributesOf(span.attributes);
    if (!span.events.empty()) {
        Json events = Json::array();
        for (const auto &event : span.events) {
            Json entry = Json::object();
            if (event.time != kNoTime)
                entry["timeUnixNano"] = std::to_string(event.time);
            entry["name"] = event.name;
            if (!event.attributes.empty())
                entry["attributes"] = attributesOf(event.attributes);
            events.push_back(std::move(entry));
        }
        out["events"] = std::move(events);
    }
    if (!span.links.empty()) {
        Json links = Json::array();
        for (const auto &link : span.links) {
            Json entry = Json::object();
            if (!link.traceId.empty())
                entry["traceId"] = link.traceId;
            entry["spanId"] = link.spanId;
            if (!link.attributes.empty())
                entry["attributes"] = attributesOf(link.attributes);
            links.push_back(std::move(entry));
        }
        out["links"] = std::move(links);
    }
    if (span.status != SpanStatus::Unset || !span.statusMessage.empty()) {
        Json status = {{"code", int(span.status)}};
        if (!span.statusMessage.empty())
            status["message"] = span.statusMessage;
        out["status"] = std::move(status);
    }
    return out;
}

} // namespace

namespace OtlpJsonWriter {

std::string line(const ExportBatch &batch)
{
    Json resourceSpans = Json::array();
    qint32 resource = -2;
    qint32 scope = -2;
    for (const auto &span : batch.spans) {
        if (span.resource != resource || resourceSpans.empty()) {
            Json entry = Json::object();
            if (span.resource >= 0 && size_t(span.resource) < batch.resources.size())
                entry["resource"] = {{"attributes", attributesOf(batch.resources[size_t(span.resource)])}};
            entry["scopeSpans"] = Json::array();
            resourceSpans.push_back(std::move(entry));
            resource = span.resource;
            scope = -2;
        }
        Json &scopes = resourceSpans.back()["scopeSpans"];
        if (span.scope != scope || scopes.empty()) {
            Json entry = Json::object();
            if (span.scope >= 0 && size_t(span.scope) < batch.scopes.size()) {
                const auto &s = batch.scopes[size_t(span.scope)];
                entry["scope"] = {{"name", s.name}, {"version", s.version}};
                if (!s.attributes.empty())
                    entry["scope"]["attributes"] = attributesOf(s.attributes);
            }
            entry["spans"] = Json::array();
            scopes.push_back(std::move(entry));
            scope = span.scope;
        }
        scopes.back()["spans"].push_back(spanOf(span));
    }
    const Json request = {{"resourceSpans", std::move(resourceSpans)}};
    return request.dump(-1, ' ', false, Json::error_handler_t::replace);
}

} // namespace OtlpJsonWriter
