#pragma once

#include <QString>

#include <nlohmann/json.hpp>

#include <limits>
#include <string_view>

// The one rule for token counts, which every loader applies the same way: a
// whole number (a JSON integer, or a number with no fraction), never a
// boolean, text, null or container, from `minimum` (1 for a request's prompt
// and output, 0 for a span's usage) to 2^31 - 1. Each function returns false
// with `reason` in the words the rejected-records list shows.
namespace TokenCount {

constexpr qint64 kMax = std::numeric_limits<qint32>::max();

// A count already read as an integer.
bool check(qint64 count, qint64 minimum, QString *reason);
// A count written as a real number; `lexeme` is how the file spells it.
bool checkReal(double value, std::string_view lexeme, qint64 minimum, qint64 *count, QString *reason);
// A count as a JSON value.
bool fromJson(const nlohmann::json &value, qint64 minimum, qint32 *count, QString *reason);
// A count as text (a CSV cell): digits only, as a JSON integer would be.
bool fromText(std::string_view text, qint64 minimum, qint32 *count, QString *reason);

// "a string", "a boolean", "null", "an object or array": how a reason names
// a JSON value's kind.
QString kindName(const nlohmann::json &value);

} // namespace TokenCount
