#include "SpanKindText.h"

#include <charconv>

namespace SpanKindText {

namespace {

bool sameLetters(char a, char b)
{
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    return lower(a) == lower(b);
}

// Whether `text` equals `word` (lower case) in any letter case.
bool equalsWord(std::string_view text, std::string_view word)
{
    if (text.size() != word.size())
        return false;
    for (size_t i = 0; i < word.size(); ++i) {
        if (!sameLetters(text[i], word[i]))
            return false;
    }
    return true;
}

// `text` without a leading `prefix` in any letter case.
std::string_view withoutPrefix(std::string_view text, std::string_view prefix)
{
    if (text.size() >= prefix.size() && equalsWord(text.substr(0, prefix.size()), prefix))
        text.remove_prefix(prefix.size());
    return text;
}

// A whole decimal number in [0, last], or -1.
int smallNumber(std::string_view text, int last)
{
    int number = -1;
    const auto parsed = std::from_chars(text.data(), text.data() + text.size(), number);
    if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size() || number < 0 || number > last)
        return -1;
    return number;
}

} // namespace

SpanKind kind(std::string_view text)
{
    static constexpr std::string_view kWords[kSpanKindCount]
        = {"", "internal", "server", "client", "producer", "consumer"};
    if (const int number = smallNumber(text, kSpanKindCount - 1); number >= 0)
        return static_cast<SpanKind>(number);
    const std::string_view word = withoutPrefix(text, "span_kind_");
    for (int kind = 1; kind < kSpanKindCount; ++kind) {
        if (equalsWord(word, kWords[kind]))
            return static_cast<SpanKind>(kind);
    }
    return SpanKind::Unspecified;
}

SpanStatus status(std::string_view text)
{
    if (const int number = smallNumber(text, 2); number >= 0)
        return static_cast<SpanStatus>(number);
    const std::string_view word = withoutPrefix(text, "status_code_");
    if (equalsWord(word, "error"))
        return SpanStatus::Error;
    if (equalsWord(word, "ok"))
        return SpanStatus::Ok;
    return SpanStatus::Unset;
}

} // namespace SpanKindText
