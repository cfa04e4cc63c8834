#pragma once

#include <QString>

#include <optional>

struct ClassTable;

// The overall percentile is really one class's percentile: most of the
// requests above it come from a class that is a small part of the traffic.
//
// Rule: with an overall exceedance set of at least kMinimumSetSize requests,
// warn for the class with the largest share of that set when
//     its share of the set      >= kDominantSetShare   (half or more), and
//     its share of all requests <= kMaximumRequestShare (a quarter or less).
// Then improving any other class barely moves the overall percentile, and a
// change in the big class can hide below it.
struct MixtureWarning
{
    static constexpr qint64 kMinimumSetSize = 5;
    static constexpr double kDominantSetShare = 0.5;
    static constexpr double kMaximumRequestShare = 0.25;

    qsizetype cell = -1;          // index into ClassTable::cells
    QString classLabel;
    qint64 exceedanceCount = 0;
    qint64 exceedanceSize = 0;
    double exceedanceShare = 0.0;
    double requestShare = 0.0;

    // A sentence naming the class, its shares and what to read instead.
    QString text(const ClassTable &table) const;

    static std::optional<MixtureWarning> check(const ClassTable &table);
};
