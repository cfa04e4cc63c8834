#pragma once

#include "JsonLexing.h"

#include <QtGlobal>

#include <string>
#include <string_view>
#include <vector>

// A fast, iterative JSON tokenizer over one contiguous buffer (a JSON Lines
// record) that hands events to `handler`, the same events the nlohmann SAX
// adapter (JsonSaxAdapter) produces, so one state machine serves both. It
// stops at the first thing it does not accept; the caller then asks
// nlohmann's parser, the authority on JSON validity, what exactly is wrong.
// Strings are unescaped into a scratch buffer: a view passed to the handler
// is valid only during the call. Text is not checked for valid UTF-8.
//
// Handler: bool startObject(), endObject(), startArray(), endArray(),
// key(sv), string(sv), number(sv lexeme, bool integral), boolean(bool),
// null(). Returning false stops the scan (Result::Stopped).
namespace JsonEventScanner {

enum class Result { Ok, Invalid, Stopped };

namespace detail {

using JsonLexing::hexDigit;
using JsonLexing::isSpace;
using JsonLexing::scanNumber;

inline void appendUtf8(std::string &out, quint32 code)
{
    if (code < 0x80) {
        out.push_back(char(code));
    } else if (code < 0x800) {
        out.push_back(char(0xC0 | (code >> 6)));
        out.push_back(char(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
        out.push_back(char(0xE0 | (code >> 12)));
        out.push_back(char(0x80 | ((code >> 6) & 0x3F)));
        out.push_back(char(0x80 | (code & 0x3F)));
    } else {
        out.push_back(char(0xF0 | (code >> 18)));
        out.push_back(char(0x80 | ((code >> 12) & 0x3F)));
        out.push_back(char(0x80 | ((code >> 6) & 0x3F)));
        out.push_back(char(0x80 | (code & 0x3F)));
    }
}

inline bool readHex4(std::string_view s, size_t pos, quint32 *value)
{
    if (pos + 4 > s.size())
        return false;
    quint32 v = 0;
    for (size_t i = 0; i < 4; ++i) {
        const int d = hexDigit(s[pos + i]);
        if (d < 0)
            return false;
        v = (v << 4) | quint32(d);
    }
    *value = v;
    return true;
}

// `pos` is at the opening quote. Plain strings are returned as a view into
// `s`; strings with escapes are decoded into `scratch`.
inline bool scanString(std::string_view s, size_t &pos, std::string &scratch, std::string_view *out)
{
    const size_t begin = ++pos;
    while (pos < s.size()) {
        const auto c = static_cast<unsigned char>(s[pos]);
        if (c == '"') {
            *out = s.substr(begin, pos - begin);
            ++pos;
            return true;
        }
        if (c == '\\')
            break;
        if (c < 0x20)
            return false;
        ++pos;
    }
    if (pos >= s.size())
        return false;
    scratch.assign(s.data() + begin, pos - begin);
    while (pos < s.size()) {
        const auto c = static_cast<unsigned char>(s[pos]);
        if (c == '"') {
            *out = scratch;
            ++pos;
            return true;
        }
        if (c < 0x20)
            return false;
        if (c != '\\') {
            scratch.push_back(char(c));
            ++pos;
            continue;
        }
        if (++pos >= s.size())
            return false;
        switch (s[pos]) {
        case '"':
            scratch.push_back('"');
            break;
        case '\\':
            scratch.push_back('\\');
            break;
        case '/':
            scratch.push_back('/');
            break;
        case 'b':
            scratch.push_back('\b');
            break;
        case 'f':
            scratch.push_back('\f');
            break;
        case 'n':
            scratch.push_back('\n');
            break;
        case 'r':
            scratch.push_back('\r');
            break;
        case 't':
            scratch.push_back('\t');
            break;
        case 'u': {
            quint32 code = 0;
            if (!readHex4(s, pos + 1, &code))
                return false;
            pos += 4;
            if (code >= 0xD800 && code <= 0xDBFF) {
                quint32 low = 0;
                if (pos + 2 >= s.size() || s[pos + 1] != '\\' || s[pos + 2] != 'u' || !readHex4(s, pos + 3, &low)
                    || low < 0xDC00 || low > 0xDFFF) {
                    return false;
                }
                pos += 6;
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            } else if (code >= 0xDC00 && code <= 0xDFFF) {
                return false;
            }
            appendUtf8(scratch, code);
            break;
        }
        default:
            return false;
        }
        ++pos;
    }
    return false;
}

} // namespace detail

// Scans exactly one JSON value (plus surrounding whitespace) from `s`.
template<typename Handler> Result scan(std::string_view s, Handler &handler, std::string &scratch)
{
    using namespace detail;
    constexpr size_t kMaxDepth = 512;
    std::vector<char> stack; // '{' or '[' per open container
    stack.reserve(32);
    size_t pos = 0;
    const auto skip = [&] {
        while (pos < s.size() && isSpace(s[pos]))
            ++pos;
    };
    bool expectValue = true; // else: expect ',' or a closing bracket
    for (;;) {
        skip();
        if (pos >= s.size())
            return Result::Invalid;
        if (!expectValue) {
            const char c = s[pos];
            const char open = stack.back();
            if (c == ',') {
                ++pos;
                skip();
                if (open == '{') {
                    std::string_view key;
                    if (pos >= s.size() || s[pos] != '"' || !scanString(s, pos, scratch, &key))
                        return Result::Invalid;
                    skip();
                    if (pos >= s.size() || s[pos] != ':')
                        return Result::Invalid;
                    ++pos;
                    if (!handler.key(key))
                        return Result::Stopped;
                }
                expectValue = true;
                continue;
            }
            if ((c == '}' && open == '{') || (c == ']' && open == '[')) {
                ++pos;
                stack.pop_back();
                if (!(open == '{' ? handler.endObject() : handler.endArray()))
                    return Result::Stopped;
                if (stack.empty())
                    break;
                continue;
            }
            return Result::Invalid;
        }
        const char c = s[pos];
        bool ok = true;
        if (c == '{' || c == '[') {
            if (stack.size() >= kMaxDepth)
                return Result::Invalid;
            ++pos;
            stack.push_back(c);
            if (!(c == '{' ? handler.startObject() : handler.startArray()))
                return Result::Stopped;
            skip();
            if (pos < s.size() && s[pos] == (c == '{' ? '}' : ']')) {
                expectValue = false; // the closing bracket is handled above
                continue;
            }
            if (c == '{') {
                std::string_view key;
                if (pos >= s.size() || s[pos] != '"' || !scanString(s, pos, scratch, &key))
                    return Result::Invalid;
                skip();
                if (pos >= s.size() || s[pos] != ':')
                    return Result::Invalid;
                ++pos;
                if (!handler.key(key))
                    return Result::Stopped;
            }
            continue;
        }
        if (c == '"') {
            std::string_view text;
            if (!scanString(s, pos, scratch, &text))
                return Result::Invalid;
            ok = handler.string(text);
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            std::string_view lexeme;
            bool integral = false;
            if (!scanNumber(s, pos, &lexeme, &integral))
                return Result::Invalid;
            ok = handler.number(lexeme, integral);
        } else if (s.substr(pos, 4) == "true") {
            pos += 4;
            ok = handler.boolean(true);
        } else if (s.substr(pos, 5) == "false") {
            pos += 5;
            ok = handler.boolean(false);
        } else if (s.substr(pos, 4) == "null") {
            pos += 4;
            ok = handler.null();
        } else {
            return Result::Invalid;
        }
        if (!ok)
            return Result::Stopped;
        if (stack.empty())
            break;
        expectValue = false;
    }
    skip();
    return pos == s.size() ? Result::Ok : Result::Invalid;
}

} // namespace JsonEventScanner
