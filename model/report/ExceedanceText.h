#pragma once

#include <QString>

class RequestTable;
struct ExceedanceAnalysis;
struct MemberComparison;
struct PhaseAttribution;
struct SetComparison;

// The exceedance set as the terminal shows it: coordinates and threshold,
// phase attribution with the suspect and its test, the ranked attributes
// and phases, a list of members and one member against the rest.
namespace ExceedanceText {

struct Options
{
    QString slice = QStringLiteral("all requests");
    int listedMembers = 20; // members listed, in the set's order
    qsizetype member = 0;   // position of the member compared in detail; -1 for none
    // Printed instead of the phase attribution when set: a workflow trace's
    // critical-path attribution (PathReportText).
    QString attributionText;
};

QString analysis(const ExceedanceAnalysis &analysis, const RequestTable &table, const Options &options);

QString attribution(const PhaseAttribution &attribution);
QString ranking(const SetComparison &comparison);
QString member(const MemberComparison &member, qsizetype setSize);

} // namespace ExceedanceText
