#include "DiagnosisRecord.h"

#include <array>
#include <cmath>

namespace {

// Equal, with NaN equal to NaN: an unmeasured figure stays unmeasured
// through a save and a read.
bool same(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

template<typename Enum, size_t N>
bool fromKey(const std::array<std::pair<Enum, const char *>, N> &keys, const QString &key, Enum *value)
{
    for (const auto &[candidate, text] : keys) {
        if (key == QLatin1String(text)) {
            *value = candidate;
            return true;
        }
    }
    return false;
}

template<typename Enum, size_t N> QString toKey(const std::array<std::pair<Enum, const char *>, N> &keys, Enum value)
{
    for (const auto &[candidate, text] : keys) {
        if (candidate == value)
            return QLatin1String(text);
    }
    return {};
}

constexpr std::array<std::pair<SuspectedPhase::Source, const char *>, 4> kSources = {{
    {SuspectedPhase::Source::None, "none"},
    {SuspectedPhase::Source::PhaseAttribution, "phase-attribution"},
    {SuspectedPhase::Source::CriticalPath, "critical-path"},
    {SuspectedPhase::Source::Person, "person"},
}};

constexpr std::array<std::pair<StopVerdict::Outcome, const char *>, 4> kOutcomes = {{
    {StopVerdict::Outcome::NotJudged, "not-judged"},
    {StopVerdict::Outcome::Worked, "worked"},
    {StopVerdict::Outcome::DidNotWork, "did-not-work"},
    {StopVerdict::Outcome::Inconclusive, "inconclusive"},
}};

} // namespace

bool ObjectiveCheck::operator==(const ObjectiveCheck &other) const
{
    return objective == other.objective && observedAt == other.observedAt && n == other.n
        && same(valueMs, other.valueMs) && same(lowerMs, other.lowerMs) && same(upperMs, other.upperMs)
        && met == other.met && decided == other.decided;
}

bool ArrivalProcess::operator==(const ArrivalProcess &other) const
{
    return requests == other.requests && same(windowSeconds, other.windowSeconds)
        && same(ratePerSecond, other.ratePerSecond) && same(gapCv, other.gapCv)
        && same(peakPerSecond, other.peakPerSecond) && peakInFlight == other.peakInFlight
        && same(meanInFlight, other.meanInFlight);
}

bool TokenSpread::operator==(const TokenSpread &other) const
{
    return n == other.n && same(p50, other.p50) && same(p95, other.p95) && same(max, other.max);
}

bool RequestShape::operator==(const RequestShape &other) const
{
    return prompt == other.prompt && output == other.output && classes == other.classes && workflows == other.workflows
        && same(spansPerWorkflowP50, other.spansPerWorkflowP50) && spansPerWorkflowMax == other.spansPerWorkflowMax
        && same(modelCallsPerWorkflowP50, other.modelCallsPerWorkflowP50);
}

QStringList TraceBoundaries::observedPhases() const
{
    QStringList keys;
    for (const auto &[phase, observed] : phases) {
        if (observed > 0)
            keys.append(phaseKey(phase));
    }
    return keys;
}

QString SuspectedPhase::sourceKey(Source source)
{
    return toKey(kSources, source);
}

bool SuspectedPhase::sourceFromKey(const QString &key, Source *source)
{
    return fromKey(kSources, key, source);
}

QString StopVerdict::outcomeKey(Outcome outcome)
{
    return toKey(kOutcomes, outcome);
}

bool StopVerdict::outcomeFromKey(const QString &key, Outcome *outcome)
{
    return fromKey(kOutcomes, key, outcome);
}

bool StopVerdict::operator==(const StopVerdict &other) const
{
    return outcome == other.outcome && candidate == other.candidate && same(baselineMs, other.baselineMs)
        && same(candidateMs, other.candidateMs) && detail == other.detail;
}

bool DiagnosisRecord::operator==(const DiagnosisRecord &other) const
{
    return title == other.title && author == other.author && date == other.date && claim == other.claim
        && objectives == other.objectives && checks == other.checks && measuredOn == other.measuredOn
        && coordinates == other.coordinates && configuration == other.configuration && boundaries == other.boundaries
        && workloadNote == other.workloadNote && suspect == other.suspect && experiment == other.experiment
        && stopRule == other.stopRule && verdict == other.verdict;
}
