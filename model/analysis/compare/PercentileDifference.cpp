#include "PercentileDifference.h"

#include "analysis/stats/Percentile.h"

#include <cmath>

double normalQuantileTwoSided(double coverage)
{
    if (!(coverage > 0.0 && coverage < 1.0))
        return std::numeric_limits<double>::quiet_NaN();
    // erf is monotonic: bisect erf(z / sqrt 2) = coverage to double precision.
    double lo = 0.0;
    double hi = 40.0;
    for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) {
        const double mid = (lo + hi) / 2.0;
        if (std::erf(mid / std::sqrt(2.0)) < coverage)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2.0;
}

QuantileEstimate estimateQuantile(std::span<const double> sorted, double q, double confidence)
{
    QuantileEstimate estimate;
    estimate.q = q;
    estimate.value = Percentile::ofSorted(sorted, q);
    estimate.interval = QuantileInterval::forSample(qint64(sorted.size()), q, confidence);
    if (estimate.interval.formed) {
        estimate.lower = sorted[size_t(estimate.interval.lowerRank - 1)];
        estimate.upper = sorted[size_t(estimate.interval.upperRank - 1)];
    }
    return estimate;
}

PercentileDifference PercentileDifference::of(std::span<const double> baseline, std::span<const double> candidate,
                                              double q, double confidence)
{
    PercentileDifference result;
    result.q = q;
    result.confidence = confidence;
    result.baseline = estimateQuantile(baseline, q, confidence);
    result.candidate = estimateQuantile(candidate, q, confidence);
    if (!baseline.empty() && !candidate.empty()) {
        result.differenceMs = result.candidate.value - result.baseline.value;
        if (result.baseline.value != 0.0)
            result.differencePercent = 100.0 * result.differenceMs / result.baseline.value;
    }
    if (result.baseline.tooFew() || result.candidate.tooFew())
        return result;
    const auto standardError = [](const QuantileEstimate &estimate) {
        return (estimate.upper - estimate.lower) / (2.0 * normalQuantileTwoSided(estimate.interval.coverage));
    };
    const double seBaseline = standardError(result.baseline);
    const double seCandidate = standardError(result.candidate);
    result.detectableMs = normalQuantileTwoSided(confidence) * std::hypot(seBaseline, seCandidate);
    result.lowerMs = result.differenceMs - result.detectableMs;
    result.upperMs = result.differenceMs + result.detectableMs;
    if (result.upperMs < 0.0)
        result.verdict = Verdict::Improved;
    else if (result.lowerMs > 0.0)
        result.verdict = Verdict::Regressed;
    else
        result.verdict = Verdict::NoDetectableChange;
    return result;
}

QString PercentileDifference::verdictKey(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Improved:
        return QStringLiteral("improved");
    case Verdict::Regressed:
        return QStringLiteral("regressed");
    case Verdict::NoDetectableChange:
        return QStringLiteral("no_detectable_change");
    case Verdict::TooFew:
        break;
    }
    return QStringLiteral("too_few_requests");
}

QString PercentileDifference::verdictLabel(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Improved:
        return QStringLiteral("improved");
    case Verdict::Regressed:
        return QStringLiteral("regressed");
    case Verdict::NoDetectableChange:
        return QStringLiteral("no detectable change");
    case Verdict::TooFew:
        break;
    }
    return QStringLiteral("too few requests");
}
