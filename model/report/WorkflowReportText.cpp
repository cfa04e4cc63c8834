#include "WorkflowReportText.h"

#include "analysis/workflows/PopulationWhatIf.h"
#include "analysis/workflows/WhatIf.h"
#include "analysis/workflows/WorkflowSchedule.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace {

// Two decimals (10 µs) suit agent workflows; one under 100 ms (a
// microservice trace) is shown to the µs.
int decimalsFor(const WorkflowTiming &timing)
{
    return timing.e2e() < 100'000'000 ? 3 : 2;
}

QString ms(qint64 ns, int decimals)
{
    return ns == kNoTime ? QStringLiteral("n/a") : QString::number(double(ns) / 1e6, 'f', decimals);
}

QString ms(double value)
{
    return std::isnan(value) ? QStringLiteral("n/a") : QString::number(value, 'f', 2);
}

QString spanText(const SpanGraph &graph, qint32 span)
{
    if (span == PathSection::kNoSpan)
        return QStringLiteral("(idle between root spans)");
    const QString &operation = graph.operation(span);
    if (operation.isEmpty() || operation == graph.label(span))
        return graph.label(span);
    return QStringLiteral("%1 (%2)").arg(graph.label(span), operation);
}

QString timingLine(const WorkflowTiming &timing, int decimals)
{
    const QString ttft = timing.ttft() == kNoTime ? QStringLiteral("n/a (no content token)")
                                                  : ms(timing.ttft(), decimals) + QStringLiteral(" ms");
    return QStringLiteral("E2E %1 ms, TTFT %2").arg(ms(timing.e2e(), decimals), ttft);
}

QString pathTable(const SpanGraph &graph, const std::vector<PathSection> &path, const WorkflowTiming &timing,
                  int decimals)
{
    QStringList lines;
    lines << QStringLiteral("%1 %2 %3 %4  %5")
                 .arg(QStringLiteral("start"), 10)
                 .arg(QStringLiteral("end"), 10)
                 .arg(QStringLiteral("duration"), 10)
                 .arg(QStringLiteral("share"), 6)
                 .arg(QStringLiteral("span"));
    const double total = double(timing.e2e());
    for (const auto &section : path) {
        const double share = total > 0.0 ? 100.0 * double(section.duration()) / total : 0.0;
        lines << QStringLiteral("%1 %2 %3 %4%  %5")
                     .arg(ms(section.start - timing.start, decimals), 10)
                     .arg(ms(section.end - timing.start, decimals), 10)
                     .arg(ms(section.duration(), decimals), 10)
                     .arg(share, 5, 'f', 1)
                     .arg(spanText(graph, section.span));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

namespace WorkflowReportText {

QString criticalPath(const WorkflowSchedule &schedule, const QString &workflow, int slackLines)
{
    const SpanGraph &graph = schedule.graph();
    const WorkflowTiming timing = schedule.timing();
    const int decimals = decimalsFor(timing);
    const auto path = schedule.criticalPath();
    QStringList lines;
    lines << QStringLiteral("Workflow %1: %2 spans, %3")
                 .arg(workflow)
                 .arg(graph.spanCount())
                 .arg(timingLine(timing, decimals));
    lines << QStringLiteral("Critical path (%1 sections; ms from the workflow's start):").arg(path.size());
    lines << pathTable(graph, path, timing, decimals);

    // Spans with zero slack are critical (on the path, containers of it, or
    // tied with it); the others are listed by how much they could slip.
    const auto slack = schedule.slack();
    std::vector<qint32> slipping;
    qint64 critical = 0;
    qint64 gatesNothing = 0;
    for (qint32 span = 0; span < graph.spanCount(); ++span) {
        if (slack[size_t(span)] == ScheduleGraph::kUnbounded)
            ++gatesNothing;
        else if (slack[size_t(span)] == 0)
            ++critical;
        else
            slipping.push_back(span);
    }
    std::stable_sort(slipping.begin(), slipping.end(),
                     [&slack](qint32 a, qint32 b) { return slack[size_t(a)] < slack[size_t(b)]; });
    lines << QStringLiteral("Slack (how much later a span could end without moving the workflow's end): %1 spans "
                            "critical, %2 with slack")
                 .arg(critical)
                 .arg(slipping.size());
    for (size_t i = 0; i < slipping.size() && i < size_t(slackLines); ++i) {
        lines << QStringLiteral("%1 ms  %2")
                     .arg(ms(slack[size_t(slipping[i])], decimals), 12)
                     .arg(spanText(graph, slipping[i]));
    }
    if (slipping.size() > size_t(slackLines))
        lines << QStringLiteral("  … %1 more").arg(slipping.size() - size_t(slackLines));
    if (gatesNothing > 0)
        lines
            << QStringLiteral("%1 spans gate nothing (non-blocking, or wholly outside their parent)").arg(gatesNothing);
    for (const QString &notice : schedule.notices())
        lines << QStringLiteral("Notice: %1").arg(notice);
    return lines.join(QLatin1Char('\n'));
}

QString whatIf(const WorkflowSchedule &schedule, const WhatIfOutcome &outcome, const QString &workflow)
{
    const int decimals = decimalsFor(outcome.before);
    QStringList lines;
    lines << QStringLiteral("What-if on workflow %1: %2").arg(workflow, outcome.applied.join(QStringLiteral("; ")));
    for (const QString &unmatched : outcome.unmatched)
        lines << QStringLiteral("Not applied: %1").arg(unmatched);
    lines << QStringLiteral("%1 %2 %3 %4")
                 .arg(QString(), 6)
                 .arg(QStringLiteral("before"), 10)
                 .arg(QStringLiteral("after"), 10)
                 .arg(QStringLiteral("saving"), 10);
    lines << QStringLiteral("%1 %2 %3 %4 ms")
                 .arg(QStringLiteral("E2E"), 6)
                 .arg(ms(outcome.before.e2e(), decimals), 10)
                 .arg(ms(outcome.after.e2e(), decimals), 10)
                 .arg(ms(outcome.e2eSaving(), decimals), 10);
    lines << QStringLiteral("%1 %2 %3 %4 ms")
                 .arg(QStringLiteral("TTFT"), 6)
                 .arg(ms(outcome.before.ttft(), decimals), 10)
                 .arg(ms(outcome.after.ttft(), decimals), 10)
                 .arg(ms(outcome.ttftSaving(), decimals), 10);
    lines << QStringLiteral("New critical path:");
    lines << pathTable(schedule.graph(), outcome.pathAfter, outcome.after, decimals);
    return lines.join(QLatin1Char('\n'));
}

QString population(const PopulationWhatIfResult &result)
{
    QStringList lines;
    const QString p = QStringLiteral("p%1").arg(result.q * 100.0, 0, 'g', 4);
    lines << QStringLiteral("Population: %1 workflows (%2 changed by the what-if, %3 could not be analysed)")
                 .arg(result.workflows)
                 .arg(result.changed)
                 .arg(result.failed);
    lines << QStringLiteral("%1 E2E  %2 → %3 ms (saves %4 ms)")
                 .arg(p, ms(result.e2eBeforeMs), ms(result.e2eAfterMs), ms(result.e2eSavingMs()));
    lines << QStringLiteral("%1 TTFT %2 → %3 ms (saves %4 ms)")
                 .arg(p, ms(result.ttftBeforeMs), ms(result.ttftAfterMs), ms(result.ttftSavingMs()));
    for (const QString &error : result.errors)
        lines << QStringLiteral("Not analysed: %1").arg(error);
    return lines.join(QLatin1Char('\n'));
}

} // namespace WorkflowReportText
