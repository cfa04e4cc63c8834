#pragma once

#include "JsonLexing.h"

#include <QtGlobal>

#include <charconv>
#include <cstring>
#include <limits>
#include <string_view>

// Fast path for the common case of a JSON Lines record: one flat object whose
// strings are plain ASCII without escapes. It hands each key and scalar value
// to `handler` and gives up (NeedsFullParser) on anything else: escapes,
// non-ASCII text, nested values, or any syntax it does not accept. The caller
// then reparses the line with nlohmann's SAX parser, which is the authority on
// what is valid JSON and says precisely what is wrong.
//
// Handler: key(sv), text(sv), integer(qint64), decimal(sv lexeme of a valid
// non-integer JSON number), boolean(bool), null(), and optionally
// array(s, pos) -> bool, which consumes an array at s[pos] or declines it,
// and fixedPoint(sv lexeme, JsonLexing::FixedPoint), which receives the
// common decimals already split into digits (decimal() otherwise).
namespace FlatJsonScanner {

enum class Result { Ok, NeedsFullParser };

namespace detail {

using JsonLexing::scanNumber;
using JsonLexing::skipSpace;

// A plain string: no escapes, no control characters, ASCII only.
inline bool scanString(std::string_view s, size_t &pos, std::string_view *out)
{
    const size_t begin = ++pos; // past the opening quote
    // Eight bytes at a time while none is a quote, a backslash, a control
    // character or non-ASCII (the test may only err towards "maybe": the
    // byte loop below then decides).
    constexpr quint64 kOnes = 0x0101010101010101ull;
    constexpr quint64 kHighs = 0x8080808080808080ull;
    while (pos + 8 <= s.size()) {
        quint64 word = 0;
        std::memcpy(&word, s.data() + pos, 8);
        const quint64 quote = word ^ (kOnes * '"');
        const quint64 backslash = word ^ (kOnes * '\\');
        const quint64 special
            = ((quote - kOnes) & ~quote) | ((backslash - kOnes) & ~backslash) | ((word - kOnes * 0x20) & ~word) | word;
        if ((special & kHighs) != 0)
            break;
        pos += 8;
    }
    while (pos < s.size()) {
        const auto c = static_cast<unsigned char>(s[pos]);
        if (c == '"') {
            *out = s.substr(begin, pos - begin);
            ++pos;
            return true;
        }
        if (c == '\\' || c < 0x20 || c >= 0x80)
            return false;
        ++pos;
    }
    return false;
}

inline bool scanLiteral(std::string_view s, size_t &pos, std::string_view word)
{
    if (s.substr(pos, word.size()) != word)
        return false;
    pos += word.size();
    return true;
}

// A number value: the common shapes converted as they are read, the rest
// lexed and handed over (false: not a valid number, or an integer beyond 64
// bits).
template<typename Handler> bool readNumber(std::string_view s, size_t &pos, Handler &handler)
{
    std::string_view lexeme;
    JsonLexing::FixedPoint number;
    if (JsonLexing::scanFixedPoint(s, pos, &lexeme, &number)) {
        if (number.integral) {
            const auto value = qint64(number.digits);
            handler.integer(number.negative ? -value : value);
        } else if constexpr (requires { handler.fixedPoint(lexeme, number); }) {
            handler.fixedPoint(lexeme, number);
        } else {
            handler.decimal(lexeme);
        }
        return true;
    }
    bool integral = false;
    if (!scanNumber(s, pos, &lexeme, &integral))
        return false;
    const char *first = lexeme.data();
    const char *last = lexeme.data() + lexeme.size();
    if (integral) {
        qint64 value = 0;
        const auto parsed = std::from_chars(first, last, value);
        if (parsed.ec != std::errc() || parsed.ptr != last)
            return false; // beyond 64 bits
        handler.integer(value);
    } else {
        handler.decimal(lexeme); // converted only if the field needs a double
    }
    return true;
}

} // namespace detail

template<typename Handler> Result scan(std::string_view s, Handler &handler)
{
    using namespace detail;
    size_t pos = 0;
    skipSpace(s, pos);
    if (pos >= s.size() || s[pos] != '{')
        return Result::NeedsFullParser;
    ++pos;
    skipSpace(s, pos);
    if (pos < s.size() && s[pos] == '}') {
        ++pos;
    } else {
        for (;;) {
            std::string_view key;
            if (pos >= s.size() || s[pos] != '"' || !scanString(s, pos, &key))
                return Result::NeedsFullParser;
            skipSpace(s, pos);
            if (pos >= s.size() || s[pos] != ':')
                return Result::NeedsFullParser;
            ++pos;
            skipSpace(s, pos);
            if (pos >= s.size())
                return Result::NeedsFullParser;
            handler.key(key);
            const char c = s[pos];
            if (c == '"') {
                std::string_view text;
                if (!scanString(s, pos, &text))
                    return Result::NeedsFullParser;
                handler.text(text);
            } else if (c == '-' || (c >= '0' && c <= '9')) {
                if (!readNumber(s, pos, handler))
                    return Result::NeedsFullParser;
            } else if (c == 't') {
                if (!scanLiteral(s, pos, "true"))
                    return Result::NeedsFullParser;
                handler.boolean(true);
            } else if (c == 'f') {
                if (!scanLiteral(s, pos, "false"))
                    return Result::NeedsFullParser;
                handler.boolean(false);
            } else if (c == 'n') {
                if (!scanLiteral(s, pos, "null"))
                    return Result::NeedsFullParser;
                handler.null();
            } else if constexpr (requires { handler.array(s, pos); }) {
                // A handler may read some arrays itself (the seed format's
                // per-token times); it leaves the rest to the full parser.
                if (c != '[' || !handler.array(s, pos))
                    return Result::NeedsFullParser;
            } else {
                return Result::NeedsFullParser; // nested value or invalid
            }
            skipSpace(s, pos);
            if (pos < s.size() && s[pos] == ',') {
                ++pos;
                skipSpace(s, pos);
                continue;
            }
            if (pos < s.size() && s[pos] == '}') {
                ++pos;
                break;
            }
            return Result::NeedsFullParser;
        }
    }
    skipSpace(s, pos);
    return pos == s.size() ? Result::Ok : Result::NeedsFullParser;
}

} // namespace FlatJsonScanner
