#pragma once

#include <QtGlobal>

#include <string>
#include <string_view>
#include <vector>

// Reading ClickHouse's TabSeparated answers: a row's fields, escaped text,
// whole numbers and the arrays as the server writes them ([1,2],
// ['a','b\'c'], [0.5,nan]). Each reader is false when the text is not what
// it reads, so a loader rejects the row instead of guessing.
namespace TabSeparated {

// The row's fields, split at tabs (escaped tabs inside fields are \t).
void split(std::string_view row, std::vector<std::string_view> *fields);
// A field's text with its escapes (\t \n \\ \' ...) undone.
void unescapeInto(std::string_view field, std::string *out);
bool integer(std::string_view field, qint64 *out);
// ['a','b\'c'] (an Array(String)).
bool stringArray(std::string_view field, std::vector<std::string> *out);
// [0.5,1,nan] (an Array(Float64)); each number read exactly.
bool numberArray(std::string_view field, std::vector<double> *out);
// [1,-2,3] (an Array of an integer type).
bool integerArray(std::string_view field, std::vector<qint64> *out);

} // namespace TabSeparated
