#include "ExactSum.h"

#include <bit>
#include <cmath>
#include <limits>

namespace {

using Words = std::array<quint64, 3>;

constexpr int kUnitExponent = -112; // the fixed point's unit is 2^-112
constexpr int kTopBits = 160;       // |value| < 2^48 = 2^(160 - 112)

// |value| · 2^112 as a 160-bit integer; false when it is not a whole number
// of units or does not fit (or the value is not finite).
bool fixedPoint(double value, Words *magnitude, bool *negative)
{
    *magnitude = {};
    const auto bits = std::bit_cast<quint64>(value);
    *negative = (bits >> 63) != 0;
    const int exponentField = int((bits >> 52) & 0x7ff);
    quint64 mantissa = bits & ((quint64(1) << 52) - 1);
    if (exponentField == 0 && mantissa == 0)
        return true; // ±0
    if (exponentField == 0 || exponentField == 0x7ff)
        return false; // subnormal (far below 2^-112), infinite or NaN
    mantissa |= quint64(1) << 52;
    int shift = exponentField - 1075 - kUnitExponent; // value = mantissa · 2^(shift - 112)
    if (shift < 0) {
        if (shift <= -53 || (mantissa & ((quint64(1) << -shift) - 1)) != 0)
            return false;
        mantissa >>= -shift;
        shift = 0;
    }
    if (shift + 53 > kTopBits)
        return false;
    const int word = shift / 64;
    const int bit = shift % 64;
    (*magnitude)[size_t(word)] = mantissa << bit;
    if (bit != 0 && word + 1 < 3)
        (*magnitude)[size_t(word) + 1] = mantissa >> (64 - bit);
    return true;
}

void addWords(Words *into, const Words &add)
{
    quint64 carry = 0;
    for (size_t i = 0; i < 3; ++i) {
        const quint64 sum = (*into)[i] + add[i];
        const quint64 carried = sum + carry;
        carry = (sum < add[i] ? 1 : 0) + (carried < sum ? 1 : 0);
        (*into)[i] = carried;
    }
}

Words negated(const Words &words)
{
    Words result = {~words[0], ~words[1], ~words[2]};
    addWords(&result, {1, 0, 0});
    return result;
}

} // namespace

void ExactSum::add(double value)
{
    Words magnitude;
    bool negative = false;
    if (!fixedPoint(value, &magnitude, &negative)) {
        m_outOfRange = true;
        return;
    }
    addWords(&m_words, negative ? negated(magnitude) : magnitude);
}

ExactSum::Limbs ExactSum::limbs(double value)
{
    Limbs result{};
    Words magnitude;
    bool negative = false;
    if (!fixedPoint(value, &magnitude, &negative))
        return result;
    for (int k = 0; k < kLimbs; ++k) {
        // Limb k holds bits [32·(4 − k), 32·(5 − k)) of the fixed point.
        const int low = 32 * (kLimbs - 1 - k);
        const quint64 word = magnitude[size_t(low / 64)] >> (low % 64);
        const auto limb = qint64(word & 0xffffffffu);
        result[size_t(k)] = negative ? -limb : limb;
    }
    return result;
}

void ExactSum::addShifted(qint64 limbSum, int shift)
{
    const quint64 extension = limbSum < 0 ? ~quint64(0) : 0;
    Words value = {quint64(limbSum), extension, extension};
    // Shift left by whole words, then by the remaining bits.
    while (shift >= 64) {
        value = {0, value[0], value[1]};
        shift -= 64;
    }
    if (shift > 0) {
        value = {value[0] << shift, (value[1] << shift) | (value[0] >> (64 - shift)),
                 (value[2] << shift) | (value[1] >> (64 - shift))};
    }
    addWords(&m_words, value);
}

ExactSum ExactSum::fromLimbSums(const Limbs &sums)
{
    ExactSum sum;
    for (int k = 0; k < kLimbs; ++k)
        sum.addShifted(sums[size_t(k)], 32 * (kLimbs - 1 - k));
    return sum;
}

double ExactSum::value() const
{
    if (m_outOfRange)
        return std::numeric_limits<double>::quiet_NaN();
    const bool negative = (m_words[2] >> 63) != 0;
    const Words magnitude = negative ? negated(m_words) : m_words;
    int top = -1; // the highest set bit
    for (int word = 2; word >= 0 && top < 0; --word) {
        if (magnitude[size_t(word)] != 0)
            top = word * 64 + 63 - std::countl_zero(magnitude[size_t(word)]);
    }
    if (top < 0)
        return 0.0;
    // The 64 bits from the top down; any lower bit set becomes a sticky bit
    // in the lowest place, below the double's rounding bit, so one conversion
    // rounds to nearest, ties to even, exactly as from the whole number.
    const int low = top >= 63 ? top - 63 : 0;
    quint64 head = 0;
    bool sticky = false;
    for (int i = 0; i < 64 && low + i <= top; ++i) {
        const int bit = low + i;
        if ((magnitude[size_t(bit / 64)] >> (bit % 64)) & 1u)
            head |= quint64(1) << i;
    }
    for (int bit = 0; bit < low && !sticky; ++bit)
        sticky = ((magnitude[size_t(bit / 64)] >> (bit % 64)) & 1u) != 0;
    if (sticky)
        head |= 1u;
    const double result = std::ldexp(double(head), low + kUnitExponent);
    return negative ? -result : result;
}

double ExactSum::mean(qint64 n) const
{
    return n > 0 ? value() / double(n) : std::numeric_limits<double>::quiet_NaN();
}
