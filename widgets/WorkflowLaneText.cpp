#include "WorkflowLaneText.h"

#include "SwimlaneCoordinates.h"
#include "WorkKindColors.h"

#include "analysis/lanes/WorkflowLanes.h"
#include "analysis/workflows/LongLivedStreams.h"
#include "analysis/workflows/ScheduleGraph.h"
#include "analysis/workflows/WorkflowAnalysis.h"
#include "store/TraceStore.h"

#include <QCoreApplication>
#include <QLocale>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("WorkflowLaneText", text);
}

// Slack of one span needs its workflow's schedule: cheap for the workflows
// people hover (tens of spans), and skipped for a giant one so a tooltip
// never stalls the window.
constexpr qint32 kSlackSpanLimit = 5000;

QString swatch(WorkKind kind)
{
    return QStringLiteral("<span style='color:%1'>\u25a0</span> ").arg(WorkKindColors::of(kind).name());
}

QString spanName(const TraceStore &store, qint32 row)
{
    if (row < 0)
        return tr("no span (idle)");
    QString name = store.spans.name(row);
    if (name.isEmpty())
        name = store.spans.operation(row);
    return name.isEmpty() ? store.spans.spanIdText(row) : name;
}

QString range(float from, float to)
{
    return QStringLiteral("%1 \u2013 %2")
        .arg(SwimlaneCoordinates::formatDuration(qint64(double(from) * 1e6)),
             SwimlaneCoordinates::formatDuration(qint64(double(to) * 1e6)));
}

QString slackOf(const TraceStore &store, qint32 workflow, qint32 spanRow)
{
    if (workflow < 0 || store.workflows.spanCount[size_t(workflow)] > kSlackSpanLimit)
        return {};
    const WorkflowAnalysis analysis = WorkflowAnalysis::analyse(store, workflow);
    if (!analysis.ok())
        return {};
    const qint32 span = spanRow - store.workflows.firstSpan[size_t(workflow)];
    if (span < 0 || size_t(span) >= analysis.slack.size())
        return {};
    const qint64 slack = analysis.slack[size_t(span)];
    if (slack == ScheduleGraph::kUnbounded)
        return tr("it gates nothing the workflow waits for");
    return tr("slack %1").arg(SwimlaneCoordinates::formatDuration(slack));
}

} // namespace

namespace WorkflowLaneText {

QString flagText(const WorkflowLanes &lanes, qint32 lane)
{
    const quint8 flags = lanes.flags(lane);
    if (flags & WorkflowLanes::LongLivedStream)
        return tr("long-lived stream: one span, no children, at least %1\u00d7 the median workflow; "
                  "its length is how long a connection stayed open, not a request")
            .arg(LongLivedStreams::kFactor, 0, 'g', 3);
    if (flags & WorkflowLanes::NotAnalysed)
        return tr("its spans do not form a schedule (see the Workflow panel for why)");
    return {};
}

QString tooltipHtml(const TraceStore &store, const WorkflowLanes &lanes, qint32 lane, double ms, bool offPathBand)
{
    const auto path = lanes.path(lane);
    const auto offPath = lanes.offPath(lane);
    const qint32 onPath = path.indexAt(float(ms));
    const qint32 beneath = offPath.indexAt(float(ms));
    const qint32 workflow = lane; // lane i is workflow i
    QStringList lines;
    const auto describeOnPath = [&](bool headline) {
        const qint32 span = path.span[onPath];
        const WorkKind kind = path.kind[onPath];
        const QString name = spanName(store, span).toHtmlEscaped();
        lines << (headline ? QStringLiteral("%1<b>%2</b> \u2014 %3").arg(swatch(kind), name, workKindLabel(kind))
                           : tr("critical path here: %1%2 (%3)").arg(swatch(kind), name, workKindLabel(kind)));
        if (headline)
            lines << tr("<b>on the critical path</b> from %1 (workflow time)")
                         .arg(range(path.begin[onPath], path.end[onPath]));
    };
    const auto describeOffPath = [&](bool headline) {
        const qint32 span = offPath.span[beneath];
        const WorkKind kind = offPath.kind[beneath];
        const QString name = spanName(store, span).toHtmlEscaped();
        const QString slack = slackOf(store, workflow, span);
        if (headline) {
            lines << QStringLiteral("%1<b>%2</b> \u2014 %3").arg(swatch(kind), name, workKindLabel(kind));
            lines << (slack.isEmpty() ? tr("<b>off the critical path</b>")
                                      : tr("<b>off the critical path</b> (%1)").arg(slack));
        } else {
            lines << tr("beneath, off the path: %1%2 (%3)").arg(swatch(kind), name, workKindLabel(kind))
                    + (slack.isEmpty() ? QString() : QStringLiteral(", ") + slack);
        }
    };
    if (offPathBand && beneath >= 0) {
        describeOffPath(true);
        if (onPath >= 0)
            describeOnPath(false);
    } else if (onPath >= 0) {
        describeOnPath(true);
        if (beneath >= 0)
            describeOffPath(false);
    } else {
        lines << tr("No span of this workflow at this time.");
    }
    const QString flag = flagText(lanes, lane);
    if (!flag.isEmpty())
        lines << QStringLiteral("<i>%1</i>").arg(flag.toHtmlEscaped());
    lines << tr("Double-click to open this workflow's Gantt.");
    return lines.join(QStringLiteral("<br>"));
}

} // namespace WorkflowLaneText
