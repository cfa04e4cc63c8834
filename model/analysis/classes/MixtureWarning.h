#pragma once

#include <QString>

#include <optional>

struct ClassTable;

// The overall percentile is really one class's percentile: the requests
// above it come mostly from one class, far more often than that class's
// share of the traffic.
//
// Rule: with an overall exceedance set of at least kMinimumSetSize requests,
// a class qualifies when
//     its share of the set >= kDominantSetShare   (half or more), and
//     its share of the set >= kMinimumLift × its share of all requests
//                                                 (twice as common in the tail).
// The old second condition (a quarter of the requests or less) missed a
// region that is a third of the traffic and the whole tail.
// Candidates are the table's cells and, in a two-dimension table, each
// dimension's classes on their own: a region that holds the whole set is
// named as the region, not as the half of it one priority cell holds. Of the
// qualifying classes the one holding most of the set is named; on a tie the
// more specific one (fewer requests). Then improving any other class barely
// moves the overall percentile, and a change in this one can hide below it.
struct MixtureWarning
{
    static constexpr qint64 kMinimumSetSize = 5;
    static constexpr double kDominantSetShare = 0.5;
    static constexpr double kMinimumLift = 2.0;

    qsizetype cell = -1; // index into ClassTable::cells; -1 for one dimension's class
    int dimension = -1;  // that dimension (two-dimension tables), else -1
    QString classLabel;  // "region = ap-south", "workload = document · region = eu"
    qint64 exceedanceCount = 0;
    qint64 exceedanceSize = 0;
    double exceedanceShare = 0.0;
    double requestShare = 0.0;

    // How many times more common the class is in the set than in the traffic.
    double lift() const { return requestShare > 0.0 ? exceedanceShare / requestShare : 0.0; }

    // A sentence naming the class, its shares, what to read instead and the rule.
    QString text(const ClassTable &table) const;

    static std::optional<MixtureWarning> check(const ClassTable &table);
};
