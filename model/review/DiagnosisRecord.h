#pragma once

#include "analysis/requests/Boundary.h"
#include "analysis/requests/Metric.h"

#include <QString>
#include <QStringList>

#include <limits>
#include <utility>
#include <vector>

// The one page written before anyone changes hardware or code: the claim
// (objectives and the five coordinates it is measured in), what was
// measured and how (configuration, trace boundaries, workload), the
// suspect, the experiment that would discriminate, and the rule that says
// when to stop. Plain values; RecordDraft fills the measured parts from a
// trace, RecordJson saves and reads it (schema in model/review/RECORD-SCHEMA.md).
//
// Numbers that could not be measured are NaN (null in JSON).

inline constexpr double kUnmeasured = std::numeric_limits<double>::quiet_NaN();

// A user-visible objective: "p95 client TTFT < 1,200 ms".
struct Objective
{
    Metric metric = Metric::Ttft;
    Boundary boundary = Boundary::Client;
    double q = 0.95;
    double thresholdMs = 1200.0;

    bool operator==(const Objective &other) const = default;
};

// An objective checked against a trace: the percentile with its
// distribution-free 95% interval, met when the estimate is below the
// threshold. `decided` is false when the interval straddles the threshold:
// the trace cannot tell at 95% confidence.
struct ObjectiveCheck
{
    Objective objective;
    Boundary observedAt = Boundary::Client; // where the metric is really observed
    qint64 n = 0;
    double valueMs = kUnmeasured;
    double lowerMs = kUnmeasured; // interval bounds; NaN when too few requests
    double upperMs = kUnmeasured;
    bool met = false;
    bool decided = false;

    bool measured() const { return n > 0; }
    // valueMs − threshold: negative when met.
    double marginMs() const { return valueMs - objective.thresholdMs; }
    bool operator==(const ObjectiveCheck &other) const;
};

// How requests arrived: the workload coordinate.
struct ArrivalProcess
{
    qint64 requests = 0;
    double windowSeconds = kUnmeasured; // first .. last arrival
    double ratePerSecond = kUnmeasured; // mean
    double gapCv = kUnmeasured;         // coefficient of variation of inter-arrival gaps (1 = Poisson)
    double peakPerSecond = kUnmeasured; // most arrivals in one second
    qint64 peakInFlight = 0;            // client boundary
    double meanInFlight = kUnmeasured;  // λW (Little's law)

    bool operator==(const ArrivalProcess &other) const;
};

struct TokenSpread
{
    qint64 n = 0;
    double p50 = kUnmeasured;
    double p95 = kUnmeasured;
    double max = kUnmeasured;

    bool operator==(const TokenSpread &other) const;
};

// One class dimension's mix: its most common values and their shares.
struct ClassMix
{
    QString dimension;
    std::vector<std::pair<QString, double>> shares; // largest first
    qint64 otherValues = 0;                         // values left out of `shares`

    bool operator==(const ClassMix &other) const = default;
};

// The request (or workflow) shape coordinate.
struct RequestShape
{
    TokenSpread prompt;
    TokenSpread output;
    std::vector<ClassMix> classes;
    qint64 workflows = 0;
    double spansPerWorkflowP50 = kUnmeasured;
    qint64 spansPerWorkflowMax = 0;
    double modelCallsPerWorkflowP50 = kUnmeasured;

    bool operator==(const RequestShape &other) const;
};

// The five coordinates every latency claim carries.
struct Coordinates
{
    Boundary boundary = Boundary::Client;
    Metric metric = Metric::Ttft;
    double q = 0.95;
    ArrivalProcess arrival;
    RequestShape shape;
    QString arrivalNote; // the author's words beside the measured summary
    QString shapeNote;

    bool operator==(const Coordinates &other) const = default;
};

struct ManifestEntry
{
    QString key;
    QString value;
    bool fromTrace = false; // pre-filled from what the trace carries (false: typed by a person)

    bool operator==(const ManifestEntry &other) const = default;
};

struct ReasonCount
{
    QString reason;
    qint64 count = 0;

    bool operator==(const ReasonCount &other) const = default;
};

// What the trace could and could not see.
struct TraceBoundaries
{
    QString trace; // file name(s)
    QString format;
    qint64 requests = 0;
    qint64 spans = 0;
    qint64 workflows = 0;
    std::vector<std::pair<Phase, qint64>> phases; // requests that observed each phase
    qint64 rejected = 0;
    std::vector<ReasonCount> rejectedReasons; // most frequent first
    QStringList clockCaveats;
    QString note;

    QStringList observedPhases() const; // phase keys with at least one observation
    bool operator==(const TraceBoundaries &other) const = default;
};

struct SuspectedPhase
{
    enum class Source { None, PhaseAttribution, CriticalPath, Person };

    Source source = Source::None;
    QString phase;    // a phase key ("queue") or, from a critical path, a span's name
    QString evidence; // the numbers behind the suspicion

    static QString sourceKey(Source source);
    static bool sourceFromKey(const QString &key, Source *source);
    bool operator==(const SuspectedPhase &other) const = default;
};

// Symptom -> the experiment that would confirm or clear the suspect.
struct Experiment
{
    QString symptom;
    QString test;

    bool operator==(const Experiment &other) const = default;
};

// When optimising the suspect is worth it: it contributes materially to the
// target percentile, the change moves it under representative load, and no
// guardrail (quality, cost, fairness) regresses beyond its bound.
struct StopRule
{
    double materialShare = 0.20; // of the target percentile's excess (or the critical path)
    double minimumGainMs = 0.0;  // the target percentile must improve by at least this much
    QString representativeLoad;
    QStringList guardrails;

    bool operator==(const StopRule &other) const = default;
};

// The stop rule judged on a baseline/candidate comparison
// (analysis/compare: the target percentile moved beyond its interval, the
// suspected phase moved, no guardrail regressed).
struct StopVerdict
{
    enum class Outcome { NotJudged, Worked, DidNotWork, Inconclusive };

    Outcome outcome = Outcome::NotJudged;
    QString candidate;               // candidate trace
    double baselineMs = kUnmeasured; // target percentile, baseline
    double candidateMs = kUnmeasured;
    QString detail;

    static QString outcomeKey(Outcome outcome);
    static bool outcomeFromKey(const QString &key, Outcome *outcome);
    bool operator==(const StopVerdict &other) const;
};

struct DiagnosisRecord
{
    QString title;
    QString author;
    QString date;  // as typed (ISO date suggested)
    QString claim; // the claim in one sentence
    std::vector<Objective> objectives;
    std::vector<ObjectiveCheck> checks; // objectives as last checked against `measuredOn`
    QString measuredOn;                 // trace the measured parts come from
    Coordinates coordinates;
    std::vector<ManifestEntry> configuration;
    TraceBoundaries boundaries;
    QString workloadNote; // what the workload figures show, in words
    SuspectedPhase suspect;
    Experiment experiment;
    StopRule stopRule;
    StopVerdict verdict;

    bool operator==(const DiagnosisRecord &other) const;
};
