#include "SpanId.h"

#include "JsonLexing.h"

#include <array>

namespace {

bool isHex(std::string_view text)
{
    for (const char c : text) {
        if (JsonLexing::hexDigit(c) < 0)
            return false;
    }
    return true;
}

int base64Value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+' || c == '-')
        return 62;
    if (c == '/' || c == '_')
        return 63;
    return -1;
}

// Decodes standard or URL-safe base64 into hex; false unless it yields
// exactly `bytes` bytes.
bool base64ToHex(std::string_view text, int bytes, std::string *out)
{
    while (!text.empty() && text.back() == '=')
        text.remove_suffix(1);
    if (text.size() != size_t((bytes * 4 + 2) / 3))
        return false;
    static constexpr char kHex[] = "0123456789abcdef";
    out->clear();
    quint32 buffer = 0;
    int bits = 0;
    for (const char c : text) {
        const int value = base64Value(c);
        if (value < 0)
            return false;
        buffer = (buffer << 6) | quint32(value);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            const quint32 byte = (buffer >> bits) & 0xFFu;
            out->push_back(kHex[byte >> 4]);
            out->push_back(kHex[byte & 15u]);
        }
    }
    return int(out->size()) == bytes * 2;
}

} // namespace

namespace SpanId {

Status fromHex(std::string_view text, int digits, std::string *out)
{
    if (text.empty())
        return Status::Empty;
    if (int(text.size()) > digits || !isHex(text))
        return Status::Invalid;
    out->assign(size_t(digits) - text.size(), '0');
    for (const char c : text)
        out->push_back(c >= 'A' && c <= 'F' ? char(c - 'A' + 'a') : c);
    return Status::Ok;
}

Status fromOtlp(std::string_view text, int digits, std::string *out, QString *error)
{
    if (text.empty())
        return Status::Empty;
    if (int(text.size()) == digits && isHex(text))
        return fromHex(text, digits, out);
    if (base64ToHex(text, digits / 2, out))
        return Status::Ok;
    if (fromHex(text, digits, out) == Status::Ok)
        return Status::Ok;
    *error = QStringLiteral("%1 is neither %2 hex digits nor base64 of %3 bytes")
                 .arg(describe(text))
                 .arg(digits)
                 .arg(digits / 2);
    return Status::Invalid;
}

Status fromDecimal(std::string_view text, int digits, std::string *out, QString *error)
{
    if (text.empty()) {
        *error = QStringLiteral("empty (an id needs at least one digit)");
        return Status::Empty;
    }
    // Little-endian 32-bit limbs; enough for 128 bits.
    std::array<quint32, 4> limbs{};
    const int limbCount = digits / 8;
    for (const char c : text) {
        if (c < '0' || c > '9') {
            *error = QStringLiteral("%1 is not a non-negative decimal integer").arg(describe(text));
            return Status::Invalid;
        }
        quint64 carry = quint64(c - '0');
        for (int i = 0; i < limbCount; ++i) {
            const quint64 value = quint64(limbs[size_t(i)]) * 10u + carry;
            limbs[size_t(i)] = quint32(value & 0xFFFFFFFFu);
            carry = value >> 32;
        }
        if (carry != 0) {
            *error = QStringLiteral("%1 does not fit in %2 bits").arg(describe(text)).arg(digits * 4);
            return Status::Invalid;
        }
    }
    static constexpr char kHex[] = "0123456789abcdef";
    out->clear();
    for (int i = limbCount - 1; i >= 0; --i) {
        for (int shift = 28; shift >= 0; shift -= 4)
            out->push_back(kHex[(limbs[size_t(i)] >> shift) & 15u]);
    }
    return Status::Ok;
}

void fromAnyText(std::string_view text, int digits, std::string *out)
{
    if (fromHex(text, digits, out) != Status::Ok)
        out->assign(text);
}

bool isAllZero(std::string_view normalised)
{
    return !normalised.empty() && normalised.find_first_not_of('0') == std::string_view::npos;
}

QString describe(std::string_view text)
{
    QString shown = QString::fromUtf8(text.data(), qsizetype(qMin<size_t>(text.size(), 48)));
    if (text.size() > 48)
        shown += QStringLiteral("…");
    return QLatin1Char('\'') + shown + QLatin1Char('\'');
}

} // namespace SpanId
