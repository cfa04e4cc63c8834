#include "WorkloadComparability.h"

#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/TwoSampleDistance.h"
#include "analysis/stats/ValueSort.h"
#include "store/RequestTable.h"

#include <algorithm>
#include <cmath>

namespace {

QString number(double value, int decimals)
{
    return std::isfinite(value) ? QString::number(value, 'f', decimals) : QStringLiteral("n/a");
}

QString numberWithUnit(double value, int decimals, const QString &unit)
{
    return std::isfinite(value) ? QString::number(value, 'f', decimals) + unit : QStringLiteral("unknown");
}

QString percent(double fraction)
{
    return QString::number(100.0 * fraction, 'f', 1) + QLatin1Char('%');
}

QString signedPercent(double fraction)
{
    return (fraction >= 0 ? QStringLiteral("+") : QString()) + percent(fraction);
}

qint64 countPeakInFlight(const RequestTable &table, const RequestSlice &rows)
{
    std::vector<qint64> starts;
    std::vector<qint64> ends;
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        if (!rows.contains(row))
            continue;
        const qint64 send = table.stamp(row, Stamp::ClientSend);
        const qint64 last = table.stamp(row, Stamp::LastTokenClient);
        if (send != kNoTime && last != kNoTime && last >= send) {
            starts.push_back(send);
            ends.push_back(last);
        }
    }
    if (starts.empty())
        return -1;
    ValueSort::ascending(starts);
    ValueSort::ascending(ends);
    // Sweep both in time order; at equal times the end counts first, so a
    // request that leaves as another arrives is not counted twice.
    qint64 inFlight = 0;
    qint64 peak = 0;
    size_t j = 0;
    for (const qint64 start : starts) {
        while (j < ends.size() && ends[j] <= start) {
            --inFlight;
            ++j;
        }
        peak = std::max(peak, ++inFlight);
    }
    return peak;
}

WorkloadCheck relativeCheck(const QString &key, const QString &label, double baseline, double candidate,
                            double tolerance, const QString &unit, int decimals)
{
    WorkloadCheck check;
    check.key = key;
    check.label = label;
    check.baseline = baseline;
    check.candidate = candidate;
    check.threshold = tolerance;
    check.baselineText = numberWithUnit(baseline, decimals, unit);
    check.candidateText = numberWithUnit(candidate, decimals, unit);
    if (!std::isfinite(baseline) || !std::isfinite(candidate) || baseline <= 0.0)
        return check;
    check.judged = true;
    check.measure = (candidate - baseline) / baseline;
    check.differs = std::abs(check.measure) > tolerance;
    return check;
}

WorkloadCheck tokenCheck(const QString &key, const QString &label, const std::vector<double> &baseline,
                         const std::vector<double> &candidate)
{
    WorkloadCheck check;
    check.key = key;
    check.label = label;
    const auto median = [](const std::vector<double> &sorted) {
        if (sorted.empty())
            return WorkloadProfile::kNan;
        const size_t mid = sorted.size() / 2;
        return sorted.size() % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
    };
    check.baseline = median(baseline);
    check.candidate = median(candidate);
    check.baselineText = QStringLiteral("median %1").arg(number(check.baseline, 0));
    check.candidateText = QStringLiteral("median %1").arg(number(check.candidate, 0));
    if (baseline.empty() || candidate.empty()) {
        check.note = QStringLiteral("%1 states no token counts")
                         .arg(baseline.empty() && candidate.empty() ? QStringLiteral("neither side")
                                  : baseline.empty()                ? QStringLiteral("the baseline")
                                                                    : QStringLiteral("the candidate"));
        return check;
    }
    const double n = double(baseline.size());
    const double m = double(candidate.size());
    check.judged = true;
    check.measure = KolmogorovSmirnov::of(baseline, candidate).d;
    check.threshold = std::max(WorkloadComparability::kKsFloor, 1.628 * std::sqrt((n + m) / (n * m)));
    check.differs = check.measure > check.threshold;
    return check;
}

} // namespace

WorkloadProfile WorkloadProfile::of(const RequestTable &table, const RequestSlice &rows)
{
    WorkloadProfile profile;
    std::vector<qint64> sends;
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        if (!rows.contains(row))
            continue;
        ++profile.requests;
        const qint64 send = table.stamp(row, Stamp::ClientSend);
        if (send != kNoTime)
            sends.push_back(send);
        if (table.promptTokens(row) > 0)
            profile.promptTokens.push_back(double(table.promptTokens(row)));
        if (table.outputTokens(row) > 0)
            profile.outputTokens.push_back(double(table.outputTokens(row)));
    }
    ValueSort::ascending(profile.promptTokens);
    ValueSort::ascending(profile.outputTokens);
    if (!std::is_sorted(sends.begin(), sends.end()))
        ValueSort::ascending(sends);
    if (sends.size() >= 2 && sends.back() > sends.front()) {
        profile.arrivalsKnown = true;
        profile.arrivalWindowSeconds = double(sends.back() - sends.front()) / 1e9;
        // Gaps in ns, mean and variance in one pass (Welford).
        double mean = 0.0;
        double m2 = 0.0;
        qint64 count = 0;
        for (size_t i = 1; i < sends.size(); ++i) {
            const double gap = double(sends[i] - sends[i - 1]);
            ++count;
            const double delta = gap - mean;
            mean += delta / double(count);
            m2 += delta * (gap - mean);
        }
        profile.arrivalRatePerSecond = 1e9 / mean;
        profile.interArrivalCv = std::sqrt(m2 / double(count)) / mean;
    }
    profile.peakInFlight = countPeakInFlight(table, rows);
    return profile;
}

bool WorkloadComparability::anyDifference() const
{
    return mixChanged || !oneSided.isEmpty()
        || std::any_of(checks.begin(), checks.end(), [](const WorkloadCheck &check) { return check.differs; });
}

QStringList WorkloadComparability::warnings() const
{
    QStringList lines;
    for (const auto &check : checks) {
        if (check.differs)
            lines << check.note;
    }
    if (!oneSided.isEmpty())
        lines << QStringLiteral("classes on one side only: %1").arg(oneSided.join(QStringLiteral("; ")));
    if (mixChanged || !oneSided.isEmpty())
        lines << QStringLiteral("the class mix changed, so the overall percentile compares different populations: "
                                "read the per-class rows");
    return lines;
}

WorkloadComparability WorkloadComparability::compare(const WorkloadProfile &baseline, const WorkloadProfile &candidate,
                                                     const std::vector<ClassMixCounts> &mixes,
                                                     const QStringList &oneSidedCells)
{
    WorkloadComparability result;
    const QString unknownSide = !baseline.arrivalsKnown && !candidate.arrivalsKnown ? QStringLiteral("both sides")
        : !baseline.arrivalsKnown                                                   ? QStringLiteral("the baseline")
                                                                                    : QStringLiteral("the candidate");
    const bool arrivals = baseline.arrivalsKnown && candidate.arrivalsKnown;

    WorkloadCheck rate
        = relativeCheck(QStringLiteral("arrival_rate"), QStringLiteral("Arrival rate"), baseline.arrivalRatePerSecond,
                        candidate.arrivalRatePerSecond, kRateTolerance, QStringLiteral(" req/s"), 2);
    WorkloadCheck burst;
    burst.key = QStringLiteral("burstiness");
    burst.label = QStringLiteral("Burstiness (inter-arrival CV)");
    burst.baseline = baseline.interArrivalCv;
    burst.candidate = candidate.interArrivalCv;
    burst.baselineText = numberWithUnit(burst.baseline, 2, QString());
    burst.candidateText = numberWithUnit(burst.candidate, 2, QString());
    burst.threshold = kCvTolerance;
    if (arrivals) {
        burst.judged = true;
        burst.measure = burst.candidate - burst.baseline;
        burst.differs = std::abs(burst.measure) > kCvTolerance;
    }
    for (WorkloadCheck *check : {&rate, &burst}) {
        if (!arrivals) {
            check->judged = false;
            check->differs = false;
            check->note = QStringLiteral("arrivals unknown on %1 (no start times)").arg(unknownSide);
        }
    }
    if (rate.differs && baseline.requests > 1 && candidate.requests > 1) {
        // Poisson counts: the log rate ratio has a standard error of about
        // sqrt(1/n_b + 1/n_c); a gap inside twice that is sampling noise.
        const double noise
            = 2.576 * std::sqrt(1.0 / double(baseline.requests - 1) + 1.0 / double(candidate.requests - 1));
        rate.differs = std::abs(std::log1p(rate.measure)) > noise;
    }
    if (rate.differs) {
        rate.note
            = QStringLiteral("arrival rate differs: %1 vs %2 (%3); the candidate did not see the same offered load")
                  .arg(rate.baselineText, rate.candidateText, signedPercent(rate.measure));
    }
    if (burst.differs) {
        burst.note = QStringLiteral("burstiness differs: inter-arrival CV %1 vs %2 (%3 than the baseline)")
                         .arg(burst.baselineText, burst.candidateText,
                              burst.measure > 0 ? QStringLiteral("burstier") : QStringLiteral("smoother"));
    }
    result.checks.push_back(rate);
    result.checks.push_back(burst);

    WorkloadCheck peak
        = relativeCheck(QStringLiteral("peak_in_flight"), QStringLiteral("Peak requests in flight"),
                        baseline.peakInFlight >= 0 ? double(baseline.peakInFlight) : WorkloadProfile::kNan,
                        candidate.peakInFlight >= 0 ? double(candidate.peakInFlight) : WorkloadProfile::kNan,
                        kPeakTolerance, QString(), 0);
    if (!arrivals) {
        peak.judged = false;
        peak.differs = false;
        peak.note = QStringLiteral("arrivals unknown on %1 (no start times)").arg(unknownSide);
    } else if (peak.differs) {
        peak.note = QStringLiteral("peak requests in flight differ: %1 vs %2 (%3); part of this can be the change "
                                   "itself, since faster requests leave sooner")
                        .arg(peak.baselineText, peak.candidateText, signedPercent(peak.measure));
    }
    result.checks.push_back(peak);

    for (const bool prompt : {true, false}) {
        WorkloadCheck check = tokenCheck(prompt ? QStringLiteral("prompt_tokens") : QStringLiteral("output_tokens"),
                                         prompt ? QStringLiteral("Prompt tokens") : QStringLiteral("Output tokens"),
                                         prompt ? baseline.promptTokens : baseline.outputTokens,
                                         prompt ? candidate.promptTokens : candidate.outputTokens);
        if (check.differs) {
            check.note = QStringLiteral("%1 distribution differs: KS D = %2 (threshold %3), median %4 vs %5; the "
                                        "request shape was not preserved")
                             .arg(prompt ? QStringLiteral("prompt token") : QStringLiteral("output token"),
                                  number(check.measure, 3), number(check.threshold, 3), number(check.baseline, 0),
                                  number(check.candidate, 0));
        }
        result.checks.push_back(check);
    }

    for (const ClassMixCounts &mix : mixes) {
        qint64 baseTotal = 0;
        qint64 candTotal = 0;
        for (const qint64 count : mix.baselineCounts)
            baseTotal += count;
        for (const qint64 count : mix.candidateCounts)
            candTotal += count;
        WorkloadCheck check;
        check.key = QStringLiteral("class_mix:") + mix.dimension;
        check.label = QStringLiteral("Class mix by %1").arg(mix.dimension);
        check.threshold = kMixTolerance;
        if (baseTotal == 0 || candTotal == 0) {
            check.note = QStringLiteral("a side has no requests");
            result.checks.push_back(check);
            continue;
        }
        check.judged = true;
        qsizetype widest = -1;
        double widestGap = 0.0;
        for (qsizetype i = 0; i < mix.classes.size(); ++i) {
            const double gap = double(mix.candidateCounts[size_t(i)]) / double(candTotal)
                - double(mix.baselineCounts[size_t(i)]) / double(baseTotal);
            if (widest < 0 || std::abs(gap) > std::abs(widestGap)) {
                widest = i;
                widestGap = gap;
            }
        }
        check.measure = std::abs(widestGap);
        check.differs = check.measure > kMixTolerance;
        if (widest >= 0) {
            const double base = double(mix.baselineCounts[size_t(widest)]) / double(baseTotal);
            const double cand = double(mix.candidateCounts[size_t(widest)]) / double(candTotal);
            check.baseline = base;
            check.candidate = cand;
            check.baselineText = QStringLiteral("%1 = %2: %3").arg(mix.dimension, mix.classes[widest], percent(base));
            check.candidateText = percent(cand);
            if (check.differs) {
                check.note = QStringLiteral("class mix by %1 changed: %2 is %3 of the baseline and %4 of the candidate")
                                 .arg(mix.dimension, mix.classes[widest], percent(base), percent(cand));
            }
        }
        result.mixChanged = result.mixChanged || check.differs;
        result.checks.push_back(check);
    }
    result.oneSided = oneSidedCells;
    return result;
}
