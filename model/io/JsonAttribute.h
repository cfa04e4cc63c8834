#pragma once

#include "SpanRecord.h"

#include <nlohmann/json.hpp>

// Attribute values written as plain JSON (any-agent's and Langfuse's
// {"key": value} maps) as AttributeValues: numbers stay numbers, arrays keep
// their scalar elements, objects become their JSON text.
namespace JsonAttribute {

void read(const nlohmann::json &value, AttributeValue &out);

// Langfuse stringifies every OTel attribute ("77"); a string that is exactly
// a number is read back as that number, keeping its text.
void readStringified(const nlohmann::json &value, AttributeValue &out);

// Appends every member of `object` as an attribute.
void readAll(const nlohmann::json &object, RecycledList<SpanAttribute> &attributes, bool stringified = false);

} // namespace JsonAttribute
