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

// Several percentiles of one sample without sorting it all: selection in
// O(n) per quantile, same results as ofSorted(). `values` is reordered and
// must be free of NaN; `qs` must be ascending.
std::vector<double> selectMany(std::vector<double> &values, std::span<const double> qs);

// Copies the finite values of `values` (NaN means undefined for that request).
std::vector<double> finiteValues(std::span<const double> values);

} // namespace Percentile
