#pragma once

#include <QtGlobal>

#include <span>
#include <vector>

// Percentiles exactly as the seed profiler takes them: sort, rank =
// (n - 1) * q, linear interpolation between the two neighbouring order
// statistics. NaN for an empty sample.
namespace Percentile {

// The two order statistics (0-based ranks) a percentile of n sorted values
// lies between, and how far between: what ofSorted() reads, for a caller
// that holds only those two values (a database's order statistics). lo == hi
// when the rank is whole; {0, 0, 0} for n <= 1.
struct Neighbours
{
    qint64 lo = 0;
    qint64 hi = 0;
    double fraction = 0.0;
};
Neighbours neighbours(qint64 n, double q);

// The value between the neighbours, exactly as ofSorted() computes it.
double interpolate(double low, double high, double fraction);

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
