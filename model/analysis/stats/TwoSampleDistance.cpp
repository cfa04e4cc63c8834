#include "TwoSampleDistance.h"

#include <cmath>

KolmogorovSmirnov KolmogorovSmirnov::of(std::span<const double> a, std::span<const double> b)
{
    KolmogorovSmirnov result;
    if (a.empty() || b.empty())
        return result;
    size_t i = 0;
    size_t j = 0;
    const auto n = double(a.size());
    const auto m = double(b.size());
    while (i < a.size() || j < b.size()) {
        // Step past every copy of the next distinct value in both samples,
        // so ties never open a gap that the CDFs do not have.
        const double x = j == b.size() || (i < a.size() && a[i] <= b[j]) ? a[i] : b[j];
        while (i < a.size() && a[i] == x)
            ++i;
        while (j < b.size() && b[j] == x)
            ++j;
        const double gap = std::abs(double(i) / n - double(j) / m);
        if (gap > result.d) {
            result.d = gap;
            result.at = x;
        }
    }
    return result;
}
