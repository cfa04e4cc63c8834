#pragma once

#include <limits>
#include <span>

// Two-sample Kolmogorov–Smirnov distance: D = sup over x of
// |F_a(x) - F_b(x)|, with F the right-continuous empirical distribution
// functions. 0 when the samples coincide, 1 when they do not overlap.
struct KolmogorovSmirnov
{
    double d = 0.0;
    double at = std::numeric_limits<double>::quiet_NaN(); // an x where D is reached

    // Both samples ascending and free of NaN; D is 0 when either is empty.
    static KolmogorovSmirnov of(std::span<const double> a, std::span<const double> b);
};
