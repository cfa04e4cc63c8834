#pragma once

#include "analysis/classes/ClassTable.h"

#include <QString>

#include <limits>
#include <span>

// The change of one percentile between a baseline and a candidate sample,
// with a 95% interval for the difference and a verdict.
//
// Method (documented in model/README.md, coverage shown by
// tests/model/tst_percentiledifference.cpp): each side's percentile has its
// distribution-free order-statistic interval [X(l), X(u)] (QuantileInterval,
// as the class table shows it) with exact coverage c. Its width estimates the
// standard error of that side's percentile without assuming a distribution,
//     se = (X(u) - X(l)) / (2 z),   z = the normal quantile of (1 + c) / 2,
// and the two independent sides combine in quadrature:
//     difference = candidate - baseline,
//     interval   = difference -/+ z95 * sqrt(se_b^2 + se_c^2).
// This is Price and Bonett's construction for a difference of medians,
// applied to any percentile. It needs no resampling, so it is exact to
// recompute and costs O(1) once both sides are sorted. The half-width is the
// smallest change the two samples could have told from noise.
//
// Latency falls when a change works, so an interval wholly below 0 means
// improved and one wholly above means regressed. When either side is too
// small for its order-statistic interval, there is no verdict: "too few
// requests", as in the class table.
struct PercentileDifference
{
    enum class Verdict { TooFew, Improved, Regressed, NoDetectableChange };

    double q = 0.95;
    double confidence = 0.95;
    QuantileEstimate baseline;
    QuantileEstimate candidate;
    double differenceMs = std::numeric_limits<double>::quiet_NaN();      // candidate - baseline
    double differencePercent = std::numeric_limits<double>::quiet_NaN(); // of the baseline value
    double lowerMs = std::numeric_limits<double>::quiet_NaN();
    double upperMs = std::numeric_limits<double>::quiet_NaN();
    double detectableMs = std::numeric_limits<double>::quiet_NaN(); // half-width of the interval
    Verdict verdict = Verdict::TooFew;

    // Both samples ascending and free of NaN.
    static PercentileDifference of(std::span<const double> baseline, std::span<const double> candidate, double q,
                                   double confidence = 0.95);

    static QString verdictKey(Verdict verdict);   // "improved", "regressed", "no_detectable_change", "too_few_requests"
    static QString verdictLabel(Verdict verdict); // "improved", "no detectable change", "too few requests"
};

// The seed's percentile of a sorted sample with its distribution-free
// interval, as ClassTable computes it for a cell.
QuantileEstimate estimateQuantile(std::span<const double> sorted, double q, double confidence = 0.95);

// z with P(|Z| <= z) = coverage for a standard normal Z.
double normalQuantileTwoSided(double coverage);
