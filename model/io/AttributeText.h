#pragma once

#include <QtGlobal>

#include <string>
#include <string_view>

// Small text helpers shared by the span loaders: JSON quoting for rendering
// array and kvlist attribute values, and exact number parsing.
namespace AttributeText {

// Appends `text` as a JSON string literal (quoted, escaped).
void appendQuoted(std::string &out, std::string_view text);

// A JSON number or a protobuf-JSON special ("NaN", "Infinity", "-Infinity").
bool parseDouble(std::string_view text, double *value);

// A whole number, optionally written as text ("77") or with a zero fraction
// ("16.0"), as Langfuse and some SDKs stringify counts.
bool parseCount(std::string_view text, qint64 *value);

// Shortest text that reads back as the same double.
std::string formatDouble(double value);

} // namespace AttributeText
