#include "ReportComparison.h"

#include "analysis/compare/ComparisonSamples.h"
#include "analysis/compare/TraceComparison.h"
#include "store/TraceStore.h"

namespace ReportComparison {

void attach(DiagnosisRecord &record, DesignReport::Options &options, std::shared_ptr<const TraceStore> baseline,
            std::shared_ptr<const TraceStore> candidate, const QString &candidateName)
{
    ComparisonSpec spec;
    spec.metric = record.coordinates.metric;
    spec.boundary = record.coordinates.boundary;
    spec.q = record.coordinates.q;
    spec.by = options.classDimensions;
    spec.bands = options.bands;
    Phase suspect = Phase::Queue;
    if (phaseFromKey(record.suspect.phase, &suspect))
        spec.suspect = suspect;
    const qsizetype rows = baseline->requests.rowCount();
    ComparisonSide base = ComparisonSide::whole(std::move(baseline), QStringLiteral("baseline %1").arg(options.trace));
    if (!options.rows.empty())
        base.rows = RequestSlice::fromRows(rows, options.rows);
    const ComparisonSide side
        = ComparisonSide::whole(std::move(candidate), QStringLiteral("candidate %1").arg(candidateName));
    const auto samples = ComparisonSamples::prepare(base, side, spec);
    auto comparison = std::make_shared<TraceComparison>(TraceComparison::evaluate(*samples, spec));
    options.candidate = candidateName;
    DesignReport::judge(record, *comparison, options.candidate);
    options.comparison = std::move(comparison);
}

} // namespace ReportComparison
