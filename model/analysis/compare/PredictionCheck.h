#pragma once

#include "PercentileDifference.h"

#include <QString>

#include <limits>

// A predicted saving (from a what-if, or typed) beside the saving the
// comparison observed at the target percentile. The observed saving is
// baseline - candidate with the difference's 95% interval turned around; a
// prediction inside that interval is consistent with what happened.
struct PredictionCheck
{
    enum class Agreement { Consistent, SmallerThanPredicted, LargerThanPredicted, NotJudged };

    double predictedMs = std::numeric_limits<double>::quiet_NaN();
    double observedMs = std::numeric_limits<double>::quiet_NaN();
    double observedLowerMs = std::numeric_limits<double>::quiet_NaN();
    double observedUpperMs = std::numeric_limits<double>::quiet_NaN();
    double realisedShare = std::numeric_limits<double>::quiet_NaN(); // observed / predicted
    Agreement agreement = Agreement::NotJudged;

    static PredictionCheck of(double predictedSavingMs, const PercentileDifference &difference);

    static QString agreementKey(Agreement agreement);
    QString sentence() const; // "predicted 305.0 ms, observed 290.1 ms [250.3, 329.9]: consistent"
};
