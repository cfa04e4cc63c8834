#pragma once

#include <QString>

#include <nlohmann/json.hpp>

#include <string_view>

// Parses JSON into nlohmann's DOM but keeps every integer too large for 64
// bits as its exact decimal text (a JSON string) instead of rounding it
// through double: any-agent writes 128-bit trace ids as bare numbers.
namespace LosslessJson {

bool parse(std::string_view text, nlohmann::json *root, QString *error, std::size_t *errorByte);

} // namespace LosslessJson
