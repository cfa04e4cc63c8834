#include "DecimalTime.h"

#include <array>
#include <limits>

namespace DecimalTime {

namespace {

__extension__ typedef unsigned __int128 UInt128;

int decimalExponentOf(qint64 nsPerUnit)
{
    // Called for every stamp of every record: the units in use answer at once.
    switch (nsPerUnit) {
    case 1'000'000:
        return 6;
    case 1'000:
        return 3;
    case 1'000'000'000:
        return 9;
    case 1:
        return 0;
    default:
        break;
    }
    int exponent = 0;
    while (nsPerUnit > 1 && nsPerUnit % 10 == 0) {
        nsPerUnit /= 10;
        ++exponent;
    }
    return nsPerUnit == 1 ? exponent : -1;
}

} // namespace

namespace {

constexpr std::array<qint64, 19> kPowersOfTen = {
    1LL,
    10LL,
    100LL,
    1000LL,
    10000LL,
    100000LL,
    1000000LL,
    10000000LL,
    100000000LL,
    1000000000LL,
    10000000000LL,
    100000000000LL,
    1000000000000LL,
    10000000000000LL,
    100000000000000LL,
    1000000000000000LL,
    10000000000000000LL,
    100000000000000000LL,
    1000000000000000000LL,
};

// The common case, "1700000000123.456": at most 18 digits, no exponent, so
// everything fits 64-bit arithmetic. Returns false to defer to the general path.
bool fastToNanoseconds(std::string_view text, int unitExponent, qint64 *ns)
{
    size_t pos = 0;
    const bool negative = !text.empty() && text[0] == '-';
    if (negative)
        ++pos;
    qint64 mantissa = 0;
    int digits = 0;
    int fractionDigits = 0;
    bool inFraction = false;
    for (; pos < text.size(); ++pos) {
        const char c = text[pos];
        if (c >= '0' && c <= '9') {
            if (++digits > 18)
                return false;
            mantissa = mantissa * 10 + (c - '0');
            fractionDigits += inFraction ? 1 : 0;
        } else if (c == '.' && !inFraction) {
            inFraction = true;
        } else {
            return false; // exponent or something unexpected
        }
    }
    if (digits == 0)
        return false;
    return scaleToNanoseconds(mantissa, fractionDigits, negative, unitExponent, ns);
}

} // namespace

bool scaleToNanoseconds(qint64 mantissa, int fractionDigits, bool negative, int unitExponent, qint64 *ns)
{
    if (mantissa < 0 || fractionDigits < 0 || fractionDigits > 18 || unitExponent < 0 || unitExponent > 18)
        return false;
    qint64 value = 0;
    if (fractionDigits <= unitExponent) {
        if (__builtin_mul_overflow(mantissa, kPowersOfTen[size_t(unitExponent - fractionDigits)], &value))
            return false;
    } else {
        const qint64 divisor = kPowersOfTen[size_t(fractionDigits - unitExponent)];
        value = mantissa / divisor;
        if ((mantissa % divisor) * 2 >= divisor)
            ++value; // half away from zero
    }
    *ns = negative ? -value : value;
    return true;
}

Status toNanoseconds(std::string_view text, qint64 nsPerUnit, qint64 *ns)
{
    const int unitExponentForFastPath = decimalExponentOf(nsPerUnit);
    if (unitExponentForFastPath >= 0 && fastToNanoseconds(text, unitExponentForFastPath, ns))
        return Status::Ok;

    size_t pos = 0;
    bool negative = false;
    if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
        negative = text[pos] == '-';
        ++pos;
    }
    // Mantissa digits without the point, and how many of them follow it.
    UInt128 mantissa = 0;
    int significantDigits = 0;
    int fractionDigits = 0;
    int droppedIntegerDigits = 0;
    bool sawDigit = false;
    bool inFraction = false;
    bool roundUp = false;
    for (; pos < text.size(); ++pos) {
        const char c = text[pos];
        if (c == '.') {
            if (inFraction)
                return Status::NotANumber;
            inFraction = true;
            continue;
        }
        if (c < '0' || c > '9')
            break;
        sawDigit = true;
        if (significantDigits < 36) {
            mantissa = mantissa * 10 + unsigned(c - '0');
            if (mantissa != 0)
                ++significantDigits;
            if (inFraction)
                ++fractionDigits;
        } else {
            // Beyond 36 digits only rounding and magnitude matter.
            if (!inFraction)
                ++droppedIntegerDigits;
        }
    }
    if (!sawDigit)
        return Status::NotANumber;
    int exponent = 0;
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
        ++pos;
        bool expNegative = false;
        if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
            expNegative = text[pos] == '-';
            ++pos;
        }
        if (pos >= text.size())
            return Status::NotANumber;
        for (; pos < text.size(); ++pos) {
            const char c = text[pos];
            if (c < '0' || c > '9')
                return Status::NotANumber;
            if (exponent > 100000)
                return Status::OutOfRange;
            exponent = exponent * 10 + (c - '0');
        }
        if (expNegative)
            exponent = -exponent;
    }
    if (pos != text.size())
        return Status::NotANumber;

    const int unitExponent = decimalExponentOf(nsPerUnit);
    if (unitExponent < 0)
        return Status::NotANumber;
    // value in ns = mantissa * 10^(scale)
    const int scale = exponent - fractionDigits + droppedIntegerDigits + unitExponent;
    if (mantissa == 0) {
        *ns = 0;
        return Status::Ok;
    }
    constexpr auto limit = static_cast<UInt128>(std::numeric_limits<qint64>::max());
    for (int k = scale; k > 0; --k) {
        if (mantissa > limit)
            return Status::OutOfRange;
        mantissa *= 10;
    }
    if (scale < 0) {
        // Divide by 10^-scale, rounding half away from zero on the first
        // removed digit.
        for (int k = -scale; k > 1 && mantissa != 0; --k)
            mantissa /= 10;
        roundUp = mantissa % 10 >= 5;
        mantissa /= 10;
    }
    if (roundUp)
        ++mantissa;
    if (mantissa > limit)
        return Status::OutOfRange;
    const auto magnitude = static_cast<qint64>(mantissa);
    *ns = negative ? -magnitude : magnitude;
    return Status::Ok;
}

} // namespace DecimalTime
