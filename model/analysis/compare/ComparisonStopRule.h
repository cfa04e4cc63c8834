#pragma once

#include "PercentileDifference.h"
#include "store/Phase.h"

#include <QString>
#include <QStringList>

#include <limits>
#include <optional>
#include <vector>

// A figure that must not get worse while the target improves.
struct Guardrail
{
    static constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

    QString key;   // "itl_p95", "e2e_p95", "goodput", "failed_share"
    QString label; // "ITL p95"
    QString unit;  // "ms/token", "ms", "%"
    double baseline = kNan;
    double candidate = kNan;
    bool judged = false;
    bool regressed = false;
    QString note; // why not judged, or how it regressed
};

// The seed's stop rule, checked on the comparison: the change worked only if
// (1) the target percentile moved beyond its interval (improved),
// (2) the suspected phase moved: its mean fell beyond its 95% interval, and
// (3) no guardrail regressed beyond the tolerance (default 5%):
//     ITL p95 and E2E p95 regress when they rise by more than the tolerance
//     (relative) and their own interval excludes no change; goodput (share
//     of requests meeting both SLOs) and the failed share (rejected records
//     over all records) regress when they move the wrong way by more than
//     the tolerance in percentage points.
// A condition that cannot be checked (no phases observed, rejected records
// not attributable) is said and does not fail the rule; a target with too
// few requests leaves the verdict inconclusive.
struct ComparisonStopRule
{
    enum class Outcome { Worked, DidNotWork, Inconclusive };
    enum class Check { Passed, Failed, NotJudged };

    Outcome outcome = Outcome::Inconclusive;
    double tolerance = 0.05;
    Check target = Check::NotJudged;
    Check phase = Check::NotJudged;
    Check guardrailsCheck = Check::NotJudged;
    std::optional<Phase> suspect;
    QString suspectSource; // "named by the user", "the metric itself", "carries the baseline's tail above its p95"
    std::vector<Guardrail> guardrails;
    QStringList reasons; // one line per condition, in order

    static QString outcomeKey(Outcome outcome);   // "worked", "did_not_work", "inconclusive"
    static QString outcomeLabel(Outcome outcome); // "the change worked", ...
    static QString checkKey(Check check);         // "passed", "failed", "not_judged"

    // Fills outcome and reasons from the three checks already set.
    void decide();
};
