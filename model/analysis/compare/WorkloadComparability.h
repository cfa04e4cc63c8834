#pragma once

#include <QString>
#include <QStringList>

#include <limits>
#include <vector>

class RequestSlice;
class RequestTable;

// The offered load of one side, as far as the trace shows it: how fast and
// how bursty requests arrived, how many were in flight at most, and the
// prompt and output token distributions.
struct WorkloadProfile
{
    static constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

    qint64 requests = 0;
    // Arrivals are known when at least two requests have distinct send
    // times; formats without start times (LLMPerf, older vLLM bench) put every
    // request at 0, and then rate and burstiness cannot be compared.
    bool arrivalsKnown = false;
    double arrivalWindowSeconds = kNan; // first .. last client send
    double arrivalRatePerSecond = kNan; // 1 / mean inter-arrival gap
    double interArrivalCv = kNan;       // sd / mean of the gaps: 0 even, 1 Poisson, > 1 bursty
    qint64 peakInFlight = -1;           // client send .. last token; -1 when no request has both
    std::vector<double> promptTokens;   // ascending; requests that state a count
    std::vector<double> outputTokens;

    static WorkloadProfile of(const RequestTable &table, const RequestSlice &rows);
};

// One workload figure on both sides and whether the difference is beyond
// its documented threshold.
struct WorkloadCheck
{
    QString key;   // "arrival_rate", "burstiness", "peak_in_flight", "prompt_tokens", ...
    QString label; // "Arrival rate"
    QString baselineText;
    QString candidateText;
    double baseline = WorkloadProfile::kNan;
    double candidate = WorkloadProfile::kNan;
    double measure = WorkloadProfile::kNan; // the compared quantity (relative change, KS D, share gap)
    double threshold = WorkloadProfile::kNan;
    bool judged = false; // false when a side lacks the figure
    bool differs = false;
    QString note; // the warning when it differs, or why it was not judged
};

// Shares of each class of one dimension on both sides, for the class-mix check.
struct ClassMixCounts
{
    QString dimension;   // ClassDimension::key
    QStringList classes; // union of both sides' labels
    std::vector<qint64> baselineCounts;
    std::vector<qint64> candidateCounts;
};

// Whether the two sides saw the same offered load (the seed: preserve the
// input and output distributions, replay a representative load). Thresholds:
//   arrival rate         relative difference above 10% and beyond Poisson noise
//                        (|log ratio| > 2.576 sqrt(1/n_b + 1/n_c), 1% level)
//   burstiness           inter-arrival CV differs by more than 0.25
//   peak in flight       relative difference above 50% (it is one extreme and
//                        also falls when latency falls, so only a gross change counts)
//   prompt/output tokens two-sample KS D above max(0.10, 1.628 sqrt((n+m)/(nm))),
//                        i.e. both practically large and significant at 1%
//   class mix            some class's share moves by more than 5 points
// The levels keep false alarms rare: two draws of one process raise a
// warning in under 10% of pairs (tst_tracecomparison). Classes seen on one
// side only are listed. When the mix changed, the overall
// percentile compares different populations: the per-class rows are the
// honest answer.
struct WorkloadComparability
{
    static constexpr double kRateTolerance = 0.10;
    static constexpr double kCvTolerance = 0.25;
    static constexpr double kPeakTolerance = 0.50;
    static constexpr double kKsFloor = 0.10;
    static constexpr double kMixTolerance = 0.05;

    std::vector<WorkloadCheck> checks;
    QStringList oneSided; // "region = ap-south: candidate only (40 requests)"
    bool mixChanged = false;

    bool anyDifference() const;
    QStringList warnings() const; // one sentence per difference, naming it

    static WorkloadComparability compare(const WorkloadProfile &baseline, const WorkloadProfile &candidate,
                                         const std::vector<ClassMixCounts> &mixes, const QStringList &oneSidedCells);
};
