#include "PathReportText.h"

#include "ReportFormat.h"
#include "TextTable.h"
#include "analysis/workflows/PathAttribution.h"
#include "analysis/workflows/PathTree.h"

#include <cmath>

namespace PathReportText {

namespace {

using Align = TextTable::Align;

// One decimal, without the "-0.0" a difference of a few ns would print.
QString ms(double value)
{
    return ReportFormat::fixed(std::abs(value) < 0.05 ? 0.0 : value);
}

QString pair(double set, double rest)
{
    return ms(set) + QStringLiteral(" / ") + ms(rest);
}

} // namespace

QString attribution(const PathAttribution &a)
{
    QStringList lines;
    const QString total = PathAttribution::targetLabel(a.target);
    const QString &set = a.setName;
    const QString &rest = a.restName;
    lines << QStringLiteral("Critical-path attribution: mean %1 of the %2 minus the %3, split over critical-path "
                            "time by %4 (%2 n=%5, %3 n=%6)")
                 .arg(total, set, rest, spanKeyKindKey(a.keyKind))
                 .arg(a.setN)
                 .arg(a.restN);
    if (a.setSkipped + a.restSkipped > 0)
        lines << QStringLiteral("  left out: %1 of the %2, %3 of the %4 (not workflows, not schedulable, or no %5)")
                     .arg(a.setSkipped)
                     .arg(set)
                     .arg(a.restSkipped)
                     .arg(rest, total);
    if (a.isEmpty()) {
        lines
            << QStringLiteral("  not available: the %1 or the %2 has no workflow with a critical path").arg(set, rest);
        return lines.join(QLatin1Char('\n'));
    }
    lines << QStringLiteral("  %1 - %2 = %3 ms").arg(ms(a.setMeanMs), ms(a.restMeanMs), ms(a.differenceMs));
    const QString sides = set + QLatin1Char('/') + rest;
    TextTable text({QStringLiteral("key"), set + QStringLiteral(" mean ms"), rest + QStringLiteral(" mean ms"),
                    QStringLiteral("difference ms"), QStringLiteral("of total"), QStringLiteral("on path ") + sides,
                    QStringLiteral("when on path ms ") + sides, QStringLiteral("slack off path ms ") + sides},
                   {Align::Left, Align::Right, Align::Right, Align::Right, Align::Right, Align::Right, Align::Right,
                    Align::Right});
    const auto shareOf = [&](double difference) {
        return a.differenceMs != 0.0 ? ReportFormat::share(difference / a.differenceMs) : QStringLiteral("n/a");
    };
    for (const auto &key : a.keys) {
        const QString onPath = ReportFormat::share(key.setShareOnPath) + QStringLiteral(" / ")
            + ReportFormat::share(key.restShareOnPath);
        const QString slack = key.setOffPath + key.restOffPath > 0 ? pair(key.setSlackMedianMs, key.restSlackMedianMs)
                                                                   : QStringLiteral("-");
        text.addRow({a.label(key), ms(key.setMeanMs), ms(key.restMeanMs), ms(key.differenceMs),
                     shareOf(key.differenceMs), onPath, pair(key.setMeanOnPathMs, key.restMeanOnPathMs), slack});
    }
    text.addRow({QStringLiteral("outside the span tree"), ms(a.outsideSetMeanMs), ms(a.outsideRestMeanMs),
                 ms(a.outsideDifferenceMs), shareOf(a.outsideDifferenceMs), QString(), QString(), QString()});
    text.addRow({QStringLiteral("total"), ms(a.setMeanMs), ms(a.restMeanMs), ms(a.sumOfContributions()),
                 shareOf(a.sumOfContributions()), QString(), QString(), QString()});
    lines << text.render();
    if (a.suspect) {
        const auto &key = a.keys[*a.suspect];
        lines << QStringLiteral("Suspect: %1 (%2 of the %3 ms excess)")
                     .arg(a.label(key), ms(key.differenceMs), ms(a.differenceMs));
    } else if (a.outsideCarriesMost) {
        lines << QStringLiteral("Suspect: none; time outside the span tree carries most of the excess");
    } else if (a.differenceMs < 0.0 && a.largestSaving()) {
        lines << QStringLiteral("Suspect: none; the %1 is faster by %2 ms on average, most of all in %3 (%4 ms)")
                     .arg(set, ms(-a.differenceMs), a.label(*a.largestSaving()), ms(a.largestSaving()->differenceMs));
    } else {
        lines << QStringLiteral("Suspect: none; no key is slower on the %1's paths").arg(set);
    }
    if (!a.nextTest.isEmpty())
        lines << QStringLiteral("Next test: ") + a.nextTest;
    lines << QStringLiteral("Note: a workflow's %1 is the sum of its critical-path sections, so mean differences "
                            "add up exactly; percentiles of sections do not add up to a percentile of %1. On path: "
                            "share of workflows where the key holds part of the path; slack: median of the least "
                            "slack of its spans in the workflows where it is present but off the path.")
                 .arg(total);
    return lines.join(QLatin1Char('\n'));
}

QString tree(const PathTree &tree, int maxDepth)
{
    QStringList lines;
    const QString total = PathAttribution::targetLabel(tree.target());
    lines << QStringLiteral("Critical paths merged by %1 path: mean %2 path time per node (subtree total, own time) "
                            "in the set (n=%3) and the rest (n=%4)")
                 .arg(spanKeyKindKey(tree.keyKind()), total)
                 .arg(tree.setN())
                 .arg(tree.restN());
    TextTable text({QStringLiteral("path"), QStringLiteral("set ms"), QStringLiteral("rest ms"),
                    QStringLiteral("difference ms"), QStringLiteral("set own ms"), QStringLiteral("rest own ms"),
                    QStringLiteral("on path set/rest")},
                   {Align::Left, Align::Right, Align::Right, Align::Right, Align::Right, Align::Right, Align::Right});
    const auto share = [](qint64 count, qint64 n) { return n > 0 ? double(count) / double(n) : std::nan(""); };
    int hidden = 0;
    for (const auto &node : tree.nodes()) {
        if (node.depth > maxDepth) {
            ++hidden;
            continue;
        }
        text.addRow({QString(qsizetype(node.depth) * 2, QLatin1Char(' ')) + node.key, ms(node.setMeanMs),
                     ms(node.restMeanMs), ms(node.setMeanMs - node.restMeanMs), ms(node.setSelfMeanMs),
                     ms(node.restSelfMeanMs),
                     ReportFormat::share(share(node.setOnPath, tree.setN())) + QStringLiteral(" / ")
                         + ReportFormat::share(share(node.restOnPath, tree.restN()))});
    }
    lines << text.render();
    if (hidden > 0)
        lines << QStringLiteral("(%1 nodes deeper than %2 levels not shown)").arg(hidden).arg(maxDepth);
    return lines.join(QLatin1Char('\n'));
}

} // namespace PathReportText
