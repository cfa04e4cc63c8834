#include "QuantileInterval.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

// The binomial probabilities that matter, computed outward from the mode by
// the ratio recurrence and stopped where they become negligible, so n in
// the millions costs a few thousand steps and never underflows.
class BinomialTails
{
public:
    BinomialTails(qint64 n, double q)
    {
        const double logQ = std::log(q);
        const double logP = std::log1p(-q);
        m_mode = std::clamp(qint64(std::floor(double(n + 1) * q)), qint64(0), n);
        const double logMode = std::lgamma(double(n) + 1.0) - std::lgamma(double(m_mode) + 1.0)
            - std::lgamma(double(n - m_mode) + 1.0) + double(m_mode) * logQ + double(n - m_mode) * logP;
        const double peak = std::exp(logMode);
        const double odds = q / (1.0 - q);
        constexpr double kNegligible = 1e-20;

        // Below the mode: pmf(k - 1) = pmf(k) * k / (n - k + 1) / odds.
        std::vector<double> down{peak};
        for (qint64 k = m_mode; k > 0 && down.back() > peak * kNegligible; --k)
            down.push_back(down.back() * double(k) / double(n - k + 1) / odds);
        m_low = m_mode - qint64(down.size()) + 1;
        // Above: pmf(k + 1) = pmf(k) * (n - k) / (k + 1) * odds.
        std::vector<double> up{peak};
        for (qint64 k = m_mode; k < n && up.back() > peak * kNegligible; ++k)
            up.push_back(up.back() * double(n - k) / double(k + 1) * odds);
        m_high = m_mode + qint64(up.size()) - 1;

        // Cumulative sums from each end inward, smallest terms first.
        m_below.assign(size_t(m_mode - m_low + 1), 0.0);
        double sum = 0.0;
        for (qint64 k = m_low; k <= m_mode; ++k) {
            sum += down[size_t(m_mode - k)];
            m_below[size_t(k - m_low)] = sum;
        }
        m_above.assign(size_t(m_high - m_mode + 1), 0.0);
        sum = 0.0;
        for (qint64 k = m_high; k >= m_mode; --k) {
            sum += up[size_t(k - m_mode)];
            m_above[size_t(k - m_mode)] = sum;
        }
    }

    // P(B <= k)
    double atMost(qint64 k) const
    {
        if (k < m_low)
            return 0.0;
        if (k <= m_mode)
            return m_below[size_t(k - m_low)];
        return 1.0 - atLeast(k + 1);
    }

    // P(B >= k)
    double atLeast(qint64 k) const
    {
        if (k > m_high)
            return 0.0;
        if (k >= m_mode)
            return m_above[size_t(k - m_mode)];
        return 1.0 - atMost(k - 1);
    }

    qint64 mode() const { return m_mode; }

private:
    qint64 m_mode = 0;
    qint64 m_low = 0;
    qint64 m_high = 0;
    std::vector<double> m_below; // P(B <= k) for k in [m_low, m_mode]
    std::vector<double> m_above; // P(B >= k) for k in [m_mode, m_high]
};

} // namespace

QuantileInterval QuantileInterval::forSample(qint64 n, double q, double confidence)
{
    QuantileInterval interval;
    interval.q = q;
    interval.n = n;
    interval.confidence = confidence;
    if (n <= 0 || !(q > 0.0 && q < 1.0) || !(confidence > 0.0 && confidence < 1.0))
        return interval;
    const double tail = (1.0 - confidence) / 2.0;
    const BinomialTails binomial(n, q);
    if (binomial.atMost(0) > tail || binomial.atLeast(n) > tail)
        return interval;

    // P(B <= l - 1) rises with l: step down from the mode to the last l that
    // keeps the lower tail within bounds.
    qint64 lower = std::min(binomial.mode() + 1, n);
    while (lower > 1 && binomial.atMost(lower - 1) > tail)
        --lower;
    while (lower < n && binomial.atMost(lower) <= tail)
        ++lower;
    // P(B >= u) falls with u: step up from the mode to the first u within bounds.
    qint64 upper = std::max(binomial.mode(), qint64(1));
    while (upper < n && binomial.atLeast(upper) > tail)
        ++upper;
    while (upper > 1 && binomial.atLeast(upper - 1) <= tail)
        --upper;

    interval.formed = true;
    interval.lowerRank = lower;
    interval.upperRank = upper;
    interval.coverage = 1.0 - binomial.atMost(lower - 1) - binomial.atLeast(upper);
    return interval;
}

qint64 QuantileInterval::minimumSampleSize(double q, double confidence)
{
    if (!(q > 0.0 && q < 1.0) || !(confidence > 0.0 && confidence < 1.0))
        return 0;
    // Both extreme tails, (1 - q)^n and q^n, must fit in (1 - c) / 2.
    const double tail = std::log((1.0 - confidence) / 2.0);
    const double worst = std::max(std::log(q), std::log1p(-q));
    qint64 n = qint64(std::ceil(tail / worst));
    // Guard the boundary against rounding in the logarithms.
    while (n > 1 && forSample(n - 1, q, confidence).formed)
        --n;
    while (!forSample(n, q, confidence).formed)
        ++n;
    return n;
}
