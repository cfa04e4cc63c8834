#pragma once

#include <cstddef>
#include <string_view>

// Lexical pieces shared by the hand-written JSON scanners (FlatJsonScanner,
// JsonEventScanner) and the id parsers: one definition of the grammar's
// terminals, so the fast paths cannot drift apart on what a number is.
namespace JsonLexing {

inline bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

inline void skipSpace(std::string_view s, size_t &pos)
{
    while (pos < s.size() && isSpace(s[pos]))
        ++pos;
}

// The value of one hexadecimal digit of either case, or -1.
inline int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Strict JSON number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
// On success `lexeme` is the number's text and `integral` says whether it has
// neither a fraction nor an exponent.
inline bool scanNumber(std::string_view s, size_t &pos, std::string_view *lexeme, bool *integral)
{
    const size_t begin = pos;
    const auto digit = [&](size_t at) { return at < s.size() && s[at] >= '0' && s[at] <= '9'; };
    if (pos < s.size() && s[pos] == '-')
        ++pos;
    if (!digit(pos))
        return false;
    if (s[pos] == '0') {
        ++pos;
    } else {
        while (digit(pos))
            ++pos;
    }
    *integral = true;
    if (pos < s.size() && s[pos] == '.') {
        ++pos;
        if (!digit(pos))
            return false;
        while (digit(pos))
            ++pos;
        *integral = false;
    }
    if (pos < s.size() && (s[pos] == 'e' || s[pos] == 'E')) {
        ++pos;
        if (pos < s.size() && (s[pos] == '+' || s[pos] == '-'))
            ++pos;
        if (!digit(pos))
            return false;
        while (digit(pos))
            ++pos;
        *integral = false;
    }
    *lexeme = s.substr(begin, pos - begin);
    return true;
}

} // namespace JsonLexing
