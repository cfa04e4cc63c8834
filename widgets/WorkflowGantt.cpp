#include "WorkflowGantt.h"

#include "SpanCategoryColors.h"
#include "SwimlaneCoordinates.h"
#include "WorkKindColors.h"

#include "analysis/workflows/WhatIf.h"
#include "analysis/workflows/WorkKinds.h"
#include "store/TraceStore.h"

#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>

namespace {

constexpr int kRowHeight = 20;
constexpr int kIndent = 14;
constexpr int kTriangle = 12;

QString ms(qint64 ns)
{
    return QString::number(double(ns) / 1e6, 'f', 2);
}

} // namespace

WorkflowGantt::WorkflowGantt(QWidget *parent)
    : QWidget(parent)
    , m_scroll(new QScrollBar(Qt::Vertical, this))
{
    setObjectName(QStringLiteral("workflowGantt"));
    setFocusPolicy(Qt::ClickFocus); // N / P step through the slow workflows from here too
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    connect(m_scroll, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
}

void WorkflowGantt::setAnalysis(const WorkflowAnalysis &analysis)
{
    m_analysis = analysis;
    m_unusualRank.clear();
    m_unusualSamples.clear();
    m_whatIf = false;
    m_selected = -1;
    const qint32 spans = analysis.ok() ? analysis.schedule->graph().spanCount() : 0;
    m_collapsed.assign(size_t(spans), 0);
    resetFrame();
    m_scroll->setValue(0);
    rebuildRows();
}

void WorkflowGantt::resetFrame()
{
    m_frameStart = m_analysis.timing.start;
    m_frameEnd = m_analysis.timing.end;
    if (!m_analysis.ok())
        return;
    // Raw times: a child overflowing its parent is drawn as recorded.
    const SpanGraph &graph = m_analysis.schedule->graph();
    for (qint32 span = 0; span < graph.spanCount(); ++span) {
        m_frameStart = std::min(m_frameStart, graph.start(span));
        m_frameEnd = std::max(m_frameEnd, graph.end(span));
    }
}

void WorkflowGantt::setStore(std::shared_ptr<const TraceStore> store)
{
    m_store = std::move(store);
}

void WorkflowGantt::showWhatIf(const WhatIfOutcome &outcome)
{
    if (!m_analysis.ok() || !outcome.ok())
        return;
    m_whatIf = true;
    m_startAfter = outcome.startAfter;
    m_endAfter = outcome.endAfter;
    m_pathAfter = outcome.pathAfter;
    m_slackAfter = outcome.slackAfter;
    for (size_t span = 0; span < m_endAfter.size(); ++span)
        m_frameEnd = std::max(m_frameEnd, m_endAfter[span]);
    rebuildRows();
}

void WorkflowGantt::clearWhatIf()
{
    if (!m_whatIf)
        return;
    m_whatIf = false;
    resetFrame();
    rebuildRows();
}

void WorkflowGantt::setCriticalPathOnly(bool only)
{
    if (m_pathOnly == only)
        return;
    m_pathOnly = only;
    rebuildRows();
}

void WorkflowGantt::setCollapsed(qint32 span, bool collapsed)
{
    if (span < 0 || size_t(span) >= m_collapsed.size())
        return;
    m_collapsed[size_t(span)] = collapsed ? 1 : 0;
    rebuildRows();
}

void WorkflowGantt::setSelectedSpan(qint32 span)
{
    if (m_selected == span)
        return;
    m_selected = span;
    update();
    emit spanSelected(span);
}

void WorkflowGantt::rebuildRows()
{
    m_rows.clear();
    m_rowOfSpan.clear();
    if (m_analysis.ok()) {
        const auto &schedule = *m_analysis.schedule;
        const auto &path = m_whatIf ? m_pathAfter : m_analysis.path;
        const auto keep = GanttRows::pathWithAncestors(schedule.tree(), path);
        m_rows = GanttRows::build(schedule.graph(), schedule.tree(), m_collapsed, m_pathOnly ? &keep : nullptr);
        m_rowOfSpan.assign(size_t(schedule.graph().spanCount()), -1);
        for (size_t row = 0; row < m_rows.size(); ++row)
            m_rowOfSpan[size_t(m_rows[row].span)] = qint32(row);
    }
    updateScrollBar();
    update();
}

void WorkflowGantt::updateScrollBar()
{
    const auto rows = rowFrame();
    const int shown = std::max(1, (height() - rows.header) / kRowHeight);
    m_scroll->setGeometry(width() - m_scroll->sizeHint().width(), rows.header, m_scroll->sizeHint().width(),
                          std::max(0, height() - rows.header));
    m_scroll->setRange(0, std::max(0, int(m_rows.size()) - shown));
    m_scroll->setPageStep(shown);
    m_scroll->setVisible(int(m_rows.size()) > shown);
}

int WorkflowGantt::labelWidth() const
{
    return std::clamp(width() / 3, 120, 300);
}

WorkflowGanttCoordinates::TimeFrame WorkflowGantt::timeFrame() const
{
    const int left = labelWidth() + 8;
    const int right = width() - (m_scroll->isVisible() ? m_scroll->width() : 0) - 12;
    return {m_frameStart, std::max(m_frameStart + 1, m_frameEnd), left, std::max(1, right - left)};
}

WorkflowGanttCoordinates::Rows WorkflowGantt::rowFrame() const
{
    return {fontMetrics().height() + 10, kRowHeight, m_scroll ? m_scroll->value() : 0, int(m_rows.size())};
}

qint64 WorkflowGantt::displayStart(qint32 span) const
{
    return m_whatIf ? m_startAfter[size_t(span)] : m_analysis.schedule->graph().start(span);
}

qint64 WorkflowGantt::displayEnd(qint32 span) const
{
    return m_whatIf ? m_endAfter[size_t(span)] : m_analysis.schedule->graph().end(span);
}

qint32 WorkflowGantt::visibleRowOf(qint32 span) const
{
    const SpanTree &tree = m_analysis.schedule->tree();
    while (span >= 0 && m_rowOfSpan[size_t(span)] < 0)
        span = tree.parent(span);
    return span < 0 ? -1 : m_rowOfSpan[size_t(span)];
}

QRectF WorkflowGantt::barRect(qint32 span) const
{
    if (!m_analysis.ok() || span < 0 || size_t(span) >= m_rowOfSpan.size() || m_rowOfSpan[size_t(span)] < 0)
        return {};
    const auto frame = timeFrame();
    const auto rows = rowFrame();
    const double x0 = WorkflowGanttCoordinates::xOf(frame, displayStart(span));
    const double x1 = WorkflowGanttCoordinates::xOf(frame, displayEnd(span));
    const int top = WorkflowGanttCoordinates::rowTop(rows, m_rowOfSpan[size_t(span)]);
    return QRectF(x0, top + 3, std::max(1.0, x1 - x0), kRowHeight - 6);
}

QColor WorkflowGantt::unusualColour()
{
    return QColor(0xCC, 0x00, 0x66); // magenta: apart from the kinds and the path's vermillion
}

void WorkflowGantt::setUnusual(std::vector<double> rank, std::vector<qint64> samples, const QString &keyLabel)
{
    m_unusualRank = std::move(rank);
    m_unusualSamples = std::move(samples);
    m_unusualKey = keyLabel;
    update();
}

void WorkflowGantt::setUnusualThreshold(double percentile)
{
    m_unusualThreshold = percentile;
    update();
}

bool WorkflowGantt::isMarkedUnusual(qint32 span) const
{
    if (m_unusualThreshold < 0.0 || span < 0 || size_t(span) >= m_unusualRank.size())
        return false;
    const double rank = m_unusualRank[size_t(span)];
    return !std::isnan(rank) && rank >= m_unusualThreshold;
}

quint8 WorkflowGantt::storeFlags(qint32 span) const
{
    if (!m_store || !m_analysis.ok())
        return 0;
    const qint32 row = m_analysis.schedule->graph().sourceRow(span);
    return row >= 0 && row < m_store->spans.rowCount() ? m_store->spans.flags(row) : 0;
}

QString WorkflowGantt::orphanText(qint32 span) const
{
    const quint8 flags = storeFlags(span);
    if (!(flags & SpanTable::Orphan))
        return {};
    const SpanGraph &graph = m_analysis.schedule->graph();
    const qint32 parent = graph.parent(span);
    if ((flags & SpanTable::Adopted) && parent >= 0)
        return tr("parent not in trace, attached to '%1' (the span enclosing it)").arg(graph.label(parent));
    return tr("parent not in trace; drawn as a root (no span of the trace encloses it)");
}

QRectF WorkflowGantt::orphanMarkerRect(qint32 span) const
{
    if (!m_analysis.ok() || span < 0 || size_t(span) >= m_rowOfSpan.size() || m_rowOfSpan[size_t(span)] < 0
        || !(storeFlags(span) & SpanTable::Orphan))
        return {};
    const qint32 row = m_rowOfSpan[size_t(span)];
    const GanttRow &gantt = m_rows[size_t(row)];
    const int top = WorkflowGanttCoordinates::rowTop(rowFrame(), row);
    const int x = 4 + gantt.depth * kIndent + kTriangle + 2;
    return QRectF(x, top + (kRowHeight - 10) / 2.0, 10, 10);
}

QSize WorkflowGantt::sizeHint() const
{
    return {760, 360};
}

QSize WorkflowGantt::minimumSizeHint() const
{
    return {320, 120};
}

void WorkflowGantt::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateScrollBar();
}

void WorkflowGantt::wheelEvent(QWheelEvent *event)
{
    m_scroll->setValue(m_scroll->value() - event->angleDelta().y() / 40);
    event->accept();
}

void WorkflowGantt::mousePressEvent(QMouseEvent *event)
{
    const int row = WorkflowGanttCoordinates::rowAt(rowFrame(), int(event->position().y()));
    if (row < 0)
        return;
    const GanttRow &gantt = m_rows[size_t(row)];
    const int triangleLeft = 4 + gantt.depth * kIndent;
    const double x = event->position().x();
    if (gantt.hasChildren && x >= triangleLeft && x < triangleLeft + kTriangle + 2) {
        setCollapsed(gantt.span, gantt.expanded);
        return;
    }
    setSelectedSpan(gantt.span);
}

bool WorkflowGantt::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && m_analysis.ok()) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int row = WorkflowGanttCoordinates::rowAt(rowFrame(), help->pos().y());
        if (row >= 0)
            QToolTip::showText(help->globalPos(), toolTipText(m_rows[size_t(row)].span), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

QString WorkflowGantt::toolTipText(qint32 span) const
{
    if (!m_analysis.ok() || span < 0 || span >= m_analysis.schedule->graph().spanCount())
        return {};
    const SpanGraph &graph = m_analysis.schedule->graph();
    const qint64 origin = m_analysis.timing.start;
    QStringList lines;
    lines << QStringLiteral("<b>%1</b>").arg(graph.label(span).toHtmlEscaped());
    lines << tr("kind: %1 (%2)").arg(graph.operation(span).toHtmlEscaped(), spanCategoryLabel(graph.category(span)));
    if (const QString orphan = orphanText(span); !orphan.isEmpty())
        lines << QStringLiteral("<span style='color:%1'>\u25c6 %2</span>")
                     .arg(SpanCategoryColors::orphan().name(), orphan.toHtmlEscaped());
    lines << tr("%1 – %2 ms (%3 ms)")
                 .arg(ms(displayStart(span) - origin), ms(displayEnd(span) - origin),
                      ms(displayEnd(span) - displayStart(span)));
    if (size_t(span) < m_unusualRank.size() && !std::isnan(m_unusualRank[size_t(span)])) {
        const QString rank = tr("duration at p%1 among %2 spans %3")
                                 .arg(QString::number(m_unusualRank[size_t(span)], 'f', 1))
                                 .arg(m_unusualSamples[size_t(span)])
                                 .arg(m_unusualKey.toHtmlEscaped());
        lines << (isMarkedUnusual(span) ? QStringLiteral("<span style='color:%1'><b>unusual:</b> %2</span>")
                                              .arg(unusualColour().name(), rank)
                                        : rank);
    }
    const auto &slack = m_whatIf ? m_slackAfter : m_analysis.slack;
    const qint64 own = slack[size_t(span)];
    if (own == ScheduleGraph::kUnbounded)
        lines << tr("gates nothing (non-blocking, or outside its parent)");
    else if (own == 0)
        lines << tr("critical: no slack");
    else
        lines << tr("slack %1 ms").arg(ms(own));
    const qint32 row = graph.sourceRow(span);
    const bool stored = m_store && row >= 0 && row < m_store->spans.rowCount();
    const qint32 input = stored ? m_store->spans.inputTokens(row) : -1;
    const qint32 output
        = stored && m_store->spans.outputTokens(row) >= 0 ? m_store->spans.outputTokens(row) : graph.outputTokens(span);
    if (input >= 0 && output >= 0)
        lines << tr("tokens: %1 in, %2 out").arg(input).arg(output);
    else if (input >= 0)
        lines << tr("tokens: %1 in").arg(input);
    else if (output >= 0)
        lines << tr("tokens: %1 out").arg(output);
    for (const auto &phase : graph.phases(span))
        lines << tr("%1: %2 ms").arg(phaseLabel(phase.phase), ms(phase.end - phase.begin));
    lines << tr("id: %1").arg(graph.idText(span).toHtmlEscaped());
    if (stored) {
        const auto &spans = m_store->spans;
        const auto [begin, end] = spans.attributeRange(row);
        constexpr size_t kShown = 12; // a tooltip, not an attribute browser
        for (size_t i = begin; i < end && i < begin + kShown; ++i) {
            const auto &attribute = spans.attributeRows()[i];
            QString value = spans.text(attribute.value);
            if (value.size() > 80)
                value = value.left(80) + QStringLiteral("…");
            lines << QStringLiteral("%1 = %2").arg(spans.text(attribute.key()).toHtmlEscaped(), value.toHtmlEscaped());
        }
        if (end - begin > kShown)
            lines << tr("… %1 more attributes").arg(end - begin - kShown);
    }
    return lines.join(QStringLiteral("<br>"));
}

void WorkflowGantt::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    if (!m_analysis.ok()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                         m_analysis.error.isEmpty() ? tr("Double-click a workflow to see its spans.")
                                                    : tr("This workflow cannot be analysed: %1").arg(m_analysis.error));
        return;
    }
    paintHeader(painter);
    const auto [first, last] = WorkflowGanttCoordinates::visibleRows(rowFrame(), height());
    painter.save();
    painter.setClipRect(0, rowFrame().header, width(), height());
    for (int row = first; row < last; ++row)
        paintRow(painter, row);
    paintOverlays(painter, first, last);
    painter.restore();
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawLine(labelWidth(), 0, labelWidth(), height());
}

void WorkflowGantt::paintHeader(QPainter &painter) const
{
    const auto frame = timeFrame();
    const int header = rowFrame().header;
    painter.fillRect(0, 0, width(), header, palette().color(QPalette::AlternateBase));
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(QRect(6, 0, labelWidth() - 12, header), Qt::AlignVCenter | Qt::AlignLeft, tr("Span"));
    for (const auto &[x, label] : ticks()) {
        painter.setPen(palette().color(QPalette::Mid));
        painter.drawLine(QPointF(x, header - 4), QPointF(x, height()));
        if (x + 3 + fontMetrics().horizontalAdvance(label) > frame.left + frame.width + 10)
            continue; // the last tick's label would be cut at the edge
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(QRectF(x + 3, 0, 120, header), Qt::AlignVCenter | Qt::AlignLeft, label);
    }
}

std::vector<std::pair<double, QString>> WorkflowGantt::ticks() const
{
    // Ticks in the unit the shown span reads best in (µs, ms, s or min),
    // from the workflow's start.
    std::vector<std::pair<double, QString>> ticks;
    if (!m_analysis.ok())
        return ticks;
    const auto frame = timeFrame();
    const qint64 step = SwimlaneCoordinates::tickStep(frame.end - frame.start, frame.width, 90.0);
    const SwimlaneCoordinates::TimeUnit unit = SwimlaneCoordinates::unitForSpan(frame.end - frame.start);
    const qint64 origin = m_analysis.timing.start;
    const qint64 firstTick = origin + ((frame.start - origin) / step) * step;
    for (qint64 tick = firstTick; tick <= frame.end; tick += step) {
        const double x = WorkflowGanttCoordinates::xOf(frame, tick);
        if (x < frame.left - 1)
            continue;
        ticks.emplace_back(
            x, QStringLiteral("%1 %2").arg(SwimlaneCoordinates::formatTick(tick - origin, step, unit), unit.symbol));
    }
    return ticks;
}

void WorkflowGantt::paintRow(QPainter &painter, int row) const
{
    const GanttRow &gantt = m_rows[size_t(row)];
    const SpanGraph &graph = m_analysis.schedule->graph();
    const int top = WorkflowGanttCoordinates::rowTop(rowFrame(), row);
    if (gantt.span == m_selected)
        painter.fillRect(0, top, width(), kRowHeight, palette().color(QPalette::Highlight).lighter(170));
    else if (row % 2 == 1)
        painter.fillRect(0, top, width(), kRowHeight, palette().color(QPalette::AlternateBase));

    // Label: indent, expand triangle, name.
    const int x = 4 + gantt.depth * kIndent;
    painter.setPen(Qt::NoPen);
    painter.setBrush(palette().color(QPalette::Text));
    if (gantt.hasChildren) {
        const QPointF c(x + kTriangle / 2.0, top + kRowHeight / 2.0);
        QPolygonF triangle;
        if (gantt.expanded)
            triangle << c + QPointF(-4, -2) << c + QPointF(4, -2) << c + QPointF(0, 3);
        else
            triangle << c + QPointF(-2, -4) << c + QPointF(3, 0) << c + QPointF(-2, 4);
        painter.drawPolygon(triangle);
    }
    // An orphan (parent not exported) carries a diamond before its name.
    int textLeft = x + kTriangle + 2;
    if (const QRectF marker = orphanMarkerRect(gantt.span); !marker.isEmpty()) {
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setBrush(SpanCategoryColors::orphan());
        const QPointF c = marker.center();
        painter.drawPolygon(QPolygonF{c + QPointF(0, -5), c + QPointF(5, 0), c + QPointF(0, 5), c + QPointF(-5, 0)});
        painter.setRenderHint(QPainter::Antialiasing, false);
        textLeft = int(marker.right()) + 4;
    }
    // A bookmarked span (a note on it): a purple mark at the end of its label column.
    const bool bookmarked = std::binary_search(m_bookmarked.begin(), m_bookmarked.end(), gantt.span);
    if (bookmarked)
        painter.fillRect(QRect(labelWidth() - 6, top + 3, 4, kRowHeight - 6), QColor(0x5B, 0x2A, 0x86));
    painter.setPen(palette().color(QPalette::Text));
    const QRect label(textLeft, top, labelWidth() - textLeft - (bookmarked ? 8 : 4), kRowHeight);
    painter.drawText(label, Qt::AlignVCenter | Qt::AlignLeft,
                     fontMetrics().elidedText(graph.label(gantt.span), Qt::ElideRight, label.width()));

    // Bar, and its recorded place when a what-if moved it.
    const QRectF bar = barRect(gantt.span);
    paintBar(painter, gantt.span, bar);
    if (m_whatIf) {
        const auto frame = timeFrame();
        const double x0 = WorkflowGanttCoordinates::xOf(frame, graph.start(gantt.span));
        const double x1 = WorkflowGanttCoordinates::xOf(frame, graph.end(gantt.span));
        if (std::abs(x0 - bar.left()) >= 1.0 || std::abs(x1 - bar.right()) >= 1.0) {
            painter.setPen(QPen(SpanCategoryColors::original(), 1, Qt::DashLine));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(QRectF(x0, bar.top(), std::max(1.0, x1 - x0), bar.height()));
        }
    }
}

// A bar in its kind's colour; a model call's recorded bar is split into
// the phases its stamps give (queue, prefill, first token, decode), as the
// workflow swimlanes colour it.
void WorkflowGantt::paintBar(QPainter &painter, qint32 span, const QRectF &bar) const
{
    const WorkflowSchedule &schedule = *m_analysis.schedule;
    const SpanGraph &graph = schedule.graph();
    const WorkKind kind = WorkKinds::ofSpan(graph, schedule.tree(), span);
    painter.fillRect(bar, WorkKindColors::of(kind));
    if (kind != WorkKind::ModelCall || m_whatIf || graph.phases(span).empty())
        return;
    std::vector<WorkPiece> pieces;
    WorkKinds::split(graph, span, kind, graph.start(span), graph.end(span), pieces);
    const auto frame = timeFrame();
    for (const WorkPiece &piece : pieces) {
        const double x0 = std::max(bar.left(), WorkflowGanttCoordinates::xOf(frame, piece.begin));
        const double x1 = std::min(bar.right(), WorkflowGanttCoordinates::xOf(frame, piece.end));
        if (x1 > x0)
            painter.fillRect(QRectF(x0, bar.top(), x1 - x0, bar.height()), WorkKindColors::of(piece.kind));
    }
}

void WorkflowGantt::paintOverlays(QPainter &painter, int firstRow, int lastRow) const
{
    const SpanGraph &graph = m_analysis.schedule->graph();
    const auto frame = timeFrame();
    const auto rows = rowFrame();
    const auto inView = [&](qint32 row) { return row >= firstRow && row < lastRow; };
    const auto centre = [&](qint32 row) { return WorkflowGanttCoordinates::rowTop(rows, row) + kRowHeight / 2.0; };

    // Slack whiskers after each span that has some.
    const auto &slack = m_whatIf ? m_slackAfter : m_analysis.slack;
    painter.setPen(QPen(SpanCategoryColors::slack(), 1));
    for (qint32 row = firstRow; row < lastRow; ++row) {
        const qint32 span = m_rows[size_t(row)].span;
        const qint64 own = slack[size_t(span)];
        if (own <= 0 || own == ScheduleGraph::kUnbounded)
            continue;
        const double x0 = WorkflowGanttCoordinates::xOf(frame, displayEnd(span));
        const double x1 = WorkflowGanttCoordinates::xOf(frame, displayEnd(span) + own);
        const double y = centre(row);
        painter.drawLine(QPointF(x0, y), QPointF(x1, y));
        painter.drawLine(QPointF(x1, y - 4), QPointF(x1, y + 4));
    }

    // Dependency arrows from the end of one span to the start of another.
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (const auto &dependency : graph.dependencies()) {
        const qint32 from = visibleRowOf(dependency.from);
        const qint32 to = visibleRowOf(dependency.to);
        if (from < 0 || to < 0 || from == to || (!inView(from) && !inView(to)))
            continue;
        const QPointF a(WorkflowGanttCoordinates::xOf(frame, displayEnd(dependency.from)), centre(from));
        const QPointF b(WorkflowGanttCoordinates::xOf(frame, displayStart(dependency.to)), centre(to));
        painter.setPen(
            QPen(SpanCategoryColors::dependency(), 1, dependency.hypothetical ? Qt::DashLine : Qt::SolidLine));
        QPainterPath line(a);
        line.cubicTo(QPointF(a.x() + 10, a.y()), QPointF(b.x() - 10, b.y()), b);
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(line);
        painter.setBrush(SpanCategoryColors::dependency());
        painter.drawPolygon(QPolygonF{b, b + QPointF(-5, -3), b + QPointF(-5, 3)});
    }
    painter.setRenderHint(QPainter::Antialiasing, false);

    // Unusual spans: outlined, so the colour of their kind stays readable.
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(unusualColour(), 2));
    for (qint32 row = firstRow; row < lastRow; ++row) {
        const qint32 span = m_rows[size_t(row)].span;
        if (isMarkedUnusual(span))
            painter.drawRect(barRect(span).adjusted(-1, -1, 1, 1));
    }

    // The critical path: a band under each section, on the span's row or,
    // when collapsed away, on its nearest shown ancestor's.
    const auto &path = m_whatIf ? m_pathAfter : m_analysis.path;
    for (const auto &section : path) {
        if (section.span == PathSection::kNoSpan)
            continue;
        const qint32 row = visibleRowOf(section.span);
        if (!inView(row))
            continue;
        const double x0 = WorkflowGanttCoordinates::xOf(frame, section.start);
        const double x1 = WorkflowGanttCoordinates::xOf(frame, section.end);
        const double bottom = WorkflowGanttCoordinates::rowTop(rows, row) + kRowHeight - 3;
        painter.fillRect(QRectF(x0, bottom - 4, std::max(1.0, x1 - x0), 4), SpanCategoryColors::criticalPath());
    }
}

void WorkflowGantt::setBookmarkedSpans(std::vector<qint32> spans)
{
    std::sort(spans.begin(), spans.end());
    spans.erase(std::unique(spans.begin(), spans.end()), spans.end());
    if (spans == m_bookmarked)
        return;
    m_bookmarked = std::move(spans);
    update();
}
