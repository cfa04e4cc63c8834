#pragma once

#include <QtGlobal>

#include <array>
#include <span>

// The exact sum of doubles, whatever their order: a mean that is the same
// whether a file's rows are added in file order, in sorted order, or by two
// database shards in parallel. Each value is cut into five signed 32-bit
// limbs of a fixed-point number (units of 2^-112, top limb 2^16): every
// finite double below 2^48 in magnitude whose lowest set bit is at least
// 2^-112 is held exactly (all latencies: whole ns over 1e6, divided by a
// token count under 2^31). The limbs of the values are added as integers,
// so the total is exact and order-free; it is rounded to double once.
// A database computes the same limbs (limbsSql in model/clickhouse) and sums
// them with plain integer sums; fromLimbSums gives the same total.
class ExactSum
{
public:
    static constexpr int kLimbs = 5;
    using Limbs = std::array<qint64, kLimbs>;

    void add(double value);
    void add(std::span<const double> values)
    {
        for (const double value : values)
            add(value);
    }

    // A sum from limb sums (each the integer sum of one limb over the values).
    static ExactSum fromLimbSums(const Limbs &sums);
    // The five limbs of one value, most significant first: value =
    // Σ limbs[k] · 2^(16 − 32k). All limbs carry the value's sign.
    static Limbs limbs(double value);

    // The total rounded to the nearest double (ties to even).
    double value() const;
    // value() / n, NaN for n == 0.
    double mean(qint64 n) const;
    // A value outside the range above (infinite, NaN, |v| >= 2^48, or bits
    // below 2^-112) was added: value() is then NaN rather than wrong.
    bool overflowed() const { return m_outOfRange; }

private:
    // The total in units of 2^-112 as a 192-bit two's-complement integer,
    // least significant word first.
    std::array<quint64, 3> m_words{};
    bool m_outOfRange = false;

    void addShifted(qint64 limbSum, int shift);
};
