#pragma once

#include <QtGlobal>

#include <string_view>

// Exact conversion of a JSON number lexeme in some unit to integer
// nanoseconds, without a detour through double: "1024.125" ms becomes
// 1024125000 ns exactly. Sub-nanosecond digits round half away from zero.
namespace DecimalTime {

enum class Status { Ok, NotANumber, OutOfRange };

// `nsPerUnit` is 1'000'000 for milliseconds, 1'000 for microseconds,
// 1'000'000'000 for seconds, 1 for nanoseconds.
Status toNanoseconds(std::string_view lexeme, qint64 nsPerUnit, qint64 *ns);

// The same for a number already split into its digits and how many follow
// the point (mantissa 1024125, 3 fraction digits, unit 10^6 ns): false when
// the result leaves 64 bits (the lexeme's general path then says why).
bool scaleToNanoseconds(qint64 mantissa, int fractionDigits, bool negative, int unitExponent, qint64 *ns);

} // namespace DecimalTime
