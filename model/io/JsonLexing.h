#pragma once

#include <QtGlobal>

#include <array>
#include <cstddef>
#include <cstring>
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

// A number in its common shape, -?int(.frac)? with at most 18 digits in
// all, read and converted in one pass: its digits as one integer and how
// many of them follow the point ("-12.50": 1250, 2, negative).
struct FixedPoint
{
    quint64 digits = 0;
    int fractionDigits = 0;
    bool negative = false;
    bool integral = true; // no point
};

namespace detail {

// How many of the eight bytes in `word` (first byte lowest), from the
// first, are ASCII digits. Per byte, without carries between bytes.
inline int leadingDigits(quint64 word)
{
    constexpr quint64 kOnes = 0x0101010101010101ull;
    const quint64 x = word ^ (kOnes * 0x30);                         // a digit becomes 0..9
    const quint64 over9 = ((x & (kOnes * 0x7F)) + kOnes * 0x76) | x; // high bit: not 0..9
    const quint64 stops = over9 & (kOnes * 0x80);
    return stops == 0 ? 8 : __builtin_ctzll(stops) / 8;
}

// The value of eight ASCII digits, first byte lowest (most significant).
inline quint64 eightDigits(quint64 word)
{
    word -= 0x3030303030303030ull;
    word = word * 10 + (word >> 8);
    word = (((word & 0x000000FF000000FFull) * 0x000F424000000064ull)
            + (((word >> 16) & 0x000000FF000000FFull) * 0x0000271000000001ull))
        >> 32;
    return word;
}

// Reads the run of digits at s[pos] into `value`; false past 18 digits in all.
inline bool readDigits(std::string_view s, size_t &pos, quint64 &value, int &count)
{
    while (pos + 8 <= s.size()) {
        quint64 word = 0;
        std::memcpy(&word, s.data() + pos, 8);
        const int n = leadingDigits(word);
        if (n == 0)
            return true;
        if ((count += n) > 18)
            return false;
        // Keep the n digits as the high bytes and pad the front with '0'.
        const quint64 digits = n == 8 ? word : (word << (8 * (8 - n))) | (0x3030303030303030ull >> (8 * n));
        constexpr std::array<quint64, 9> kScale = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
        value = value * kScale[size_t(n)] + eightDigits(digits);
        pos += size_t(n);
        if (n < 8)
            return true;
    }
    for (; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos) {
        if (++count > 18)
            return false;
        value = value * 10 + quint64(s[pos] - '0');
    }
    return true;
}

} // namespace detail

// On success `lexeme` is the number's text, as scanNumber gives it. Returns
// false with `pos` unchanged for every other shape (an exponent, more
// digits, and invalid numbers): scanNumber decides about those.
inline bool scanFixedPoint(std::string_view s, size_t &pos, std::string_view *lexeme, FixedPoint *number)
{
    size_t at = pos;
    FixedPoint read;
    read.negative = at < s.size() && s[at] == '-';
    at += read.negative ? 1 : 0;
    const size_t integerBegin = at;
    int count = 0;
    if (!detail::readDigits(s, at, read.digits, count) || at == integerBegin
        || (s[integerBegin] == '0' && at - integerBegin > 1))
        return false;
    if (at < s.size() && s[at] == '.') {
        const size_t fractionBegin = ++at;
        if (!detail::readDigits(s, at, read.digits, count) || at == fractionBegin)
            return false;
        read.fractionDigits = int(at - fractionBegin);
        read.integral = false;
    }
    if (at < s.size() && (s[at] == 'e' || s[at] == 'E'))
        return false;
    *lexeme = s.substr(pos, at - pos);
    *number = read;
    pos = at;
    return true;
}

} // namespace JsonLexing
