#pragma once

#include <QString>

#include <string>
#include <string_view>

// Trace and span ids in one canonical form, so the same span matches across
// formats: lower-case hex, left-padded with zeros to 32 (trace) or 16 (span)
// digits. Jaeger drops leading zeros, OTLP writes either case or (protobuf
// JSON mapping) base64, any-agent writes decimal integers; all end up equal.
namespace SpanId {

inline constexpr int kTraceIdDigits = 32;
inline constexpr int kSpanIdDigits = 16;

enum class Status { Ok, Empty, Invalid };

// Hex of either case, at most `digits` long, padded on the left.
Status fromHex(std::string_view text, int digits, std::string *out);

// OTLP: exact-width hex, base64 of the id's bytes (padded or not), or
// shorter hex (padded). `error` says what the text is not.
Status fromOtlp(std::string_view text, int digits, std::string *out, QString *error);

// A non-negative decimal integer of up to digits*4 bits, converted exactly;
// `error` says why when it is not Ok (empty text included).
Status fromDecimal(std::string_view text, int digits, std::string *out, QString *error);

// Hex when it is hex; anything else is kept verbatim (hand-written fixtures
// use ids such as "span-A"), since only equality matters for linking.
void fromAnyText(std::string_view text, int digits, std::string *out);

bool isAllZero(std::string_view normalised);

QString describe(std::string_view text); // quoted and shortened for messages

} // namespace SpanId
