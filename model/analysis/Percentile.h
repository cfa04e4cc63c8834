#pragma once

#include <span>
#include <vector>

// Percentiles exactly as the seed profiler takes them: sort, rank =
// (n - 1) * q, linear interpolation between the two neighbouring order
// statistics. NaN for an empty sample.
namespace Percentile {

// `sorted` must be ascending and free of NaN.
double ofSorted(std::span<const double> sorted, double q);

// Sorts a copy, dropping NaN (undefined values such as ITL of a one-token
// answer are not observations).
std::vector<double> sortedFinite(std::span<const double> values);

double of(std::span<const double> values, double q);

} // namespace Percentile
