#pragma once

#include "SpanKey.h"
#include "WorkflowPaths.h"

#include <QString>

#include <limits>
#include <optional>
#include <span>
#include <vector>

class TraceStore;

// Critical-path time of one group of workflows (a set, the rest, a
// baseline), summed per key in integer ns. Keyed by text, so groups from
// two traces (baseline and candidate) compare key by key.
struct PathGroup
{
    __extension__ typedef __int128 Ns;

    struct Entry
    {
        QString key;
        bool gap = false;     // a span's own time around its children
        bool overrun = false; // a span's time past its parent's end (beyond the path)
        bool idle = false;    // no span open (between root spans)
        SpanCategory category = SpanCategory::Other;
        Ns sumNs = 0;                     // critical time, over the group
        qint64 onPath = 0;                // workflows where it is on the path
        std::vector<qint64> offPathSlack; // per workflow where present and off the path: least slack
    };

    WorkflowPaths::Target target = WorkflowPaths::Target::End;
    qint64 n = 0;       // workflows with the total and a path
    qint64 skipped = 0; // rows that are no workflow, could not be scheduled or lack the total
    Ns totalNs = 0;     // the totals the set was defined on (request rows)
    Ns pathNs = 0;      // the paths' lengths
    Ns overrunNs = 0;   // spans past their parent's end; the rest of totalNs - pathNs is outside
    std::vector<Entry> entries;

    // `rows` are request rows (an exceedance set, its rest, a class cell).
    static PathGroup gather(const TraceStore &store, const WorkflowPaths &paths, const SpanKeys &keys,
                            std::span<const qint32> rows, WorkflowPaths::Target target);
};

// One key's share of the excess and how often it is critical.
struct PathKeyContribution
{
    QString key;
    bool gap = false;
    bool overrun = false;
    bool idle = false;
    SpanCategory category = SpanCategory::Other;
    qint64 setSumNs = 0; // saturates at qint64's range (beyond 290 years of path time)
    qint64 restSumNs = 0;
    double setMeanMs = 0.0; // mean over every workflow of the group (0 where absent)
    double restMeanMs = 0.0;
    double differenceMs = 0.0;
    qint64 setOnPath = 0; // workflows where the key is on the path
    qint64 restOnPath = 0;
    double setShareOnPath = 0.0;
    double restShareOnPath = 0.0;
    double setMeanOnPathMs = std::numeric_limits<double>::quiet_NaN(); // over those workflows
    double restMeanOnPathMs = std::numeric_limits<double>::quiet_NaN();
    qint64 setOffPath = 0; // workflows where its spans are present but off the path
    qint64 restOffPath = 0;
    double setSlackMedianMs = std::numeric_limits<double>::quiet_NaN(); // median least slack there
    double restSlackMedianMs = std::numeric_limits<double>::quiet_NaN();
};

// The mean E2E (or TTFT) of a set of workflows minus that of the rest,
// split exactly over critical-path time by key:
//     differenceMs == sum(keys[i].differenceMs) + outsideDifferenceMs
// where a workflow's total is the sum of its path's sections, plus the
// overrun of a span that ended after its parent (clipped on the path, kept as
// that span's "past its parent's end" time), plus what is left outside the
// path's clock (spans before the root). Sums run in integer ns; the identity
// is exact in ns (`exact`).
struct PathAttribution
{
    WorkflowPaths::Target target = WorkflowPaths::Target::End;
    SpanKeyKind keyKind = SpanKeyKind::Kind;
    // What the two groups are called where they are shown: the slow set and
    // the rest, or (a before/after comparison) the candidate and the baseline.
    QString setName = QStringLiteral("set");
    QString restName = QStringLiteral("rest");
    qint64 setN = 0;
    qint64 restN = 0;
    qint64 setSkipped = 0;
    qint64 restSkipped = 0;
    double setMeanMs = std::numeric_limits<double>::quiet_NaN();
    double restMeanMs = std::numeric_limits<double>::quiet_NaN();
    double differenceMs = std::numeric_limits<double>::quiet_NaN();
    std::vector<PathKeyContribution> keys; // largest difference first
    double outsideSetMeanMs = 0.0;
    double outsideRestMeanMs = 0.0;
    double outsideDifferenceMs = 0.0;
    bool exact = false; // parts add up to the totals in integer ns, in both groups

    std::optional<size_t> suspect; // index into keys: the largest positive share
    bool outsideCarriesMost = false;
    QString nextTest;

    bool isEmpty() const { return setN == 0 || restN == 0; }
    double sumOfContributions() const;
    // The key whose mean time fell most (a faster candidate's main saving), or nullptr.
    const PathKeyContribution *largestSaving() const;
    // What a person reads: "tool", "agent coordination gap",
    // "checkout (coordination gap)", "GET (past its parent's end)",
    // "idle between root spans".
    QString label(const PathKeyContribution &key) const;
    // The key's row, or nullptr.
    const PathKeyContribution *find(const QString &key, bool gap = false, bool overrun = false) const;

    static PathAttribution compare(const PathGroup &set, const PathGroup &rest, SpanKeyKind keyKind);
    static PathAttribution compute(const TraceStore &store, const WorkflowPaths &paths, const SpanKeys &keys,
                                   std::span<const qint32> setRows, std::span<const qint32> restRows,
                                   WorkflowPaths::Target target);
    static QString targetLabel(WorkflowPaths::Target target); // "E2E", "TTFT"
};
