#pragma once

#include <QtGlobal>

// A distribution-free confidence interval for the q-quantile of a sample of
// n, formed from two of its order statistics X(l) <= X(u) (1-based ranks).
//
// Method: the number B of observations at or below the true q-quantile is
// Binomial(n, q), so P(X(l) <= x_q < X(u)) = P(l <= B < u). We take the
// equal-tailed choice
//     l = the largest rank with P(B <= l - 1) <= (1 - c) / 2,
//     u = the smallest rank with P(B >= u) <= (1 - c) / 2,
// which guarantees coverage >= c (reported exactly in `coverage`). When no
// rank in 1..n satisfies one of the two conditions, n is too small to hold
// that quantile at that confidence, and the interval is not formed.
//
// The bounds are the order statistics themselves, never interpolated; only
// the point estimate uses the seed's interpolation (Percentile::ofSorted).
struct QuantileInterval
{
    double q = 0.5;
    qint64 n = 0;
    double confidence = 0.95;
    bool formed = false;
    qint64 lowerRank = 0;  // 1-based; 0 when not formed
    qint64 upperRank = 0;  // 1-based; 0 when not formed
    double coverage = 0.0; // exact P(l <= B < u)

    static QuantileInterval forSample(qint64 n, double q, double confidence = 0.95);

    // Smallest n for which the interval can be formed: below it the quantile
    // is reported as "too few requests".
    static qint64 minimumSampleSize(double q, double confidence = 0.95);
};
