#pragma once

#include <nlohmann/json_fwd.hpp>

#include <QString>

class RequestTable;
struct ExceedanceAnalysis;
struct MemberComparison;
struct PhaseAttribution;
struct SetComparison;

// The exceedance analysis for scripts: set, attribution, ranked
// separations with their shares and binned distributions, members, and
// member comparisons.
namespace ExceedanceJson {

nlohmann::json analysis(const ExceedanceAnalysis &analysis, const RequestTable &table, const QString &slice,
                        int listedMembers, qsizetype member);
nlohmann::json member(const MemberComparison &member);
// The set-vs-rest phase attribution alone (also what a ClickHouse source reports).
nlohmann::json attribution(const PhaseAttribution &attribution);
// The ranked separations: `attribute_ranking` and `phase_ranking`, to be
// merged into an analysis (also what a ClickHouse source reports).
nlohmann::json rankings(const SetComparison &comparison);

} // namespace ExceedanceJson
