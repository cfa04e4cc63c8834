#pragma once

#include "analysis/exceedance/ExceedanceSet.h"

#include <QString>

#include <limits>
#include <vector>

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

// The parts analysis() is made of, for a set found elsewhere (a server's):
// the lines naming the set (metric, percentile and boundary, the slice, the
// threshold and the sizes) ...
struct Heading
{
    ExceedanceSpec spec;
    Boundary boundary = Boundary::Client;
    QString slice = QStringLiteral("all requests");
    qint64 sliceRequests = 0;
    qint64 observedRequests = 0;
    double threshold = 0.0;
    qint64 setSize = 0;
    qint64 restSize = 0;
};
QString heading(const Heading &heading);
// ... and the listed members in the set's order (`arrivalSeconds` after the
// trace's first send; the column is left out when no member has one).
struct ListedMember
{
    QString requestId;
    double value = 0.0;
    double arrivalSeconds = std::numeric_limits<double>::quiet_NaN();
};
QString members(const ExceedanceSpec &spec, const std::vector<ListedMember> &listed, qint64 setSize);

QString attribution(const PhaseAttribution &attribution);
QString ranking(const SetComparison &comparison);
QString member(const MemberComparison &member, qsizetype setSize);

} // namespace ExceedanceText
