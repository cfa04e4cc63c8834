#include "AttributeText.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace AttributeText {

void appendQuoted(std::string &out, std::string_view text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out += '"';
    for (const char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                out += "\\u00";
                out += kHex[(static_cast<unsigned char>(c) >> 4) & 15];
                out += kHex[static_cast<unsigned char>(c) & 15];
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

bool parseDouble(std::string_view text, double *value)
{
    if (text == "NaN") {
        *value = std::numeric_limits<double>::quiet_NaN();
        return true;
    }
    if (text == "Infinity" || text == "-Infinity") {
        *value
            = text.front() == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
        return true;
    }
    const auto result = std::from_chars(text.data(), text.data() + text.size(), *value);
    return result.ec == std::errc() && result.ptr == text.data() + text.size() && !text.empty();
}

bool parseCount(std::string_view text, qint64 *value)
{
    const auto result = std::from_chars(text.data(), text.data() + text.size(), *value);
    if (result.ec == std::errc() && result.ptr == text.data() + text.size() && !text.empty())
        return true;
    double number = 0.0;
    if (!parseDouble(text, &number) || !std::isfinite(number) || number != std::floor(number)
        || std::fabs(number) > 9.0e15) {
        return false;
    }
    *value = static_cast<qint64>(number);
    return true;
}

std::string formatDouble(double value)
{
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

} // namespace AttributeText
