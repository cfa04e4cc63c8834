#pragma once

// Test helper: writes small span graphs as text and prints critical paths
// as text, so data-driven rows read like the diagrams they encode.
//   "C 1 101; D 20 40 C; E 50 60 C nb; D>E; D>>E"
// Each entry is `id start end [parent] [nb]` (times in whole units, `nb` =
// does not block its parent), `A>B` (B depends on A) or `A>>B` (hypothetical).

#include "analysis/workflows/CriticalPath.h"
#include "analysis/workflows/SpanGraph.h"

#include <QHash>
#include <QStringList>

#include <memory>
#include <string>
#include <vector>

namespace SpanGraphSpec {

inline std::shared_ptr<SpanGraph> parse(const QString &spec, qint64 unit = 1000)
{
    auto graph = std::make_shared<SpanGraph>();
    QHash<QString, qint32> rowOf;
    std::vector<std::pair<QString, QString>> parents;
    std::vector<std::string> ids; // keep the bytes alive until appended
    const auto entries = spec.split(QLatin1Char(';'), Qt::SkipEmptyParts);
    for (const QString &rawEntry : entries) {
        const QString entry = rawEntry.trimmed();
        if (entry.contains(QLatin1Char('>'))) {
            const bool hypothetical = entry.contains(QStringLiteral(">>"));
            const auto ends = entry.split(hypothetical ? QStringLiteral(">>") : QStringLiteral(">"));
            graph->addDependency(
                {rowOf.value(ends[0].trimmed(), -9), rowOf.value(ends[1].trimmed(), -9), hypothetical});
            continue;
        }
        const auto parts = entry.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        const std::string id = parts[0].toStdString();
        SpanGraph::Span span;
        span.id = id;
        span.name = parts[0];
        span.start = parts[1].toLongLong() * unit;
        span.end = parts[2].toLongLong() * unit;
        span.blocksParent = !parts.contains(QStringLiteral("nb"));
        rowOf.insert(parts[0], graph->appendSpan(span));
        if (parts.size() > 3 && parts[3] != QStringLiteral("nb") && parts[3] != QStringLiteral("-"))
            parents.emplace_back(parts[0], parts[3]);
    }
    for (const auto &[child, parent] : parents)
        graph->setParent(rowOf.value(child), rowOf.value(parent, -9));
    return graph;
}

// "C 60-101, E 50-60" style, in time order; idle gaps between roots print as "-".
inline QString format(const SpanGraph &graph, const std::vector<PathSection> &path, qint64 unit = 1000)
{
    QStringList parts;
    for (const auto &section : path) {
        const QString who = section.span == PathSection::kNoSpan ? QStringLiteral("-") : graph.name(section.span);
        if (section.start % unit == 0 && section.end % unit == 0)
            parts.append(QStringLiteral("%1 %2-%3").arg(who).arg(section.start / unit).arg(section.end / unit));
        else
            parts.append(QStringLiteral("%1 %2-%3ns").arg(who).arg(section.start).arg(section.end));
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace SpanGraphSpec
