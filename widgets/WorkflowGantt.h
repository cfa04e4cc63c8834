#pragma once

#include "WorkflowGanttCoordinates.h"

#include "analysis/workflows/GanttRows.h"
#include "analysis/workflows/WorkflowAnalysis.h"

#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

class QScrollBar;
class TraceStore;
struct WhatIfOutcome;

// A workflow's spans as a Gantt chart: one row per span nested under its
// parent (collapsible), bars coloured by kind, the critical path as a
// vermillion band, slack as a whisker after each span that has some and
// dependencies as arrows. Bars take the workflow kinds' colours
// (WorkKindColors), a model call's split by its phases, as in the lanes. With a what-if shown, bars take their new
// times and the recorded ones stay as grey outlines. Reads a WorkflowAnalysis; it computes nothing but geometry.
class WorkflowGantt : public QWidget
{
    Q_OBJECT
public:
    explicit WorkflowGantt(QWidget *parent = nullptr);

    void setAnalysis(const WorkflowAnalysis &analysis);
    // Where span attributes are read for tooltips (optional).
    void setStore(std::shared_ptr<const TraceStore> store);
    void showWhatIf(const WhatIfOutcome &outcome);
    void clearWhatIf();
    void setCriticalPathOnly(bool only);
    void setCollapsed(qint32 span, bool collapsed);
    // Spans with a note (bookmarks), marked beside their rows' labels.
    void setBookmarkedSpans(std::vector<qint32> spans);
    const std::vector<qint32> &bookmarkedSpans() const { return m_bookmarked; }

    const std::vector<GanttRow> &rows() const { return m_rows; }
    qint32 selectedSpan() const { return m_selected; }
    void setSelectedSpan(qint32 span);
    // Geometry, for tests and tooltips: the bar of `span` (empty when hidden).
    QRectF barRect(qint32 span) const;
    WorkflowGanttCoordinates::TimeFrame timeFrame() const;
    WorkflowGanttCoordinates::Rows rowFrame() const;

    // The ruler's ticks: x and label ("500 ms", "2 s", "10 min"), in the
    // unit the shown time span reads best in.
    std::vector<std::pair<double, QString>> ticks() const;

    // The HTML tooltip of `span`: times, slack, tokens, phases, attributes.
    QString toolTipText(qint32 span) const;
    // Where the "parent not in trace" marker of `span` is drawn (empty when
    // the span is no orphan or is hidden).
    QRectF orphanMarkerRect(qint32 span) const;
    // "parent not in trace, attached to 'X'" (or "…, drawn as a root"), or
    // empty for a span whose parent is in the trace.
    QString orphanText(qint32 span) const;

    // Unusual spans: per span (graph index) its duration's percentile rank
    // among the same key's spans in the rest (NaN: none to compare with) and
    // how many those are; spans at or above the threshold (a percentile;
    // negative: none) are outlined.
    void setUnusual(std::vector<double> rank, std::vector<qint64> samples, const QString &keyLabel);
    void setUnusualThreshold(double percentile);
    bool isMarkedUnusual(qint32 span) const;
    static QColor unusualColour();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void spanSelected(qint32 span);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuildRows();
    void resetFrame();
    void updateScrollBar();
    int labelWidth() const;
    qint64 displayStart(qint32 span) const;
    qint64 displayEnd(qint32 span) const;
    qint32 visibleRowOf(qint32 span) const; // nearest shown row (the span's or an ancestor's)
    quint8 storeFlags(qint32 span) const;   // SpanTable flags, 0 without a store
    void paintHeader(QPainter &painter) const;
    void paintRow(QPainter &painter, int row) const;
    void paintBar(QPainter &painter, qint32 span, const QRectF &bar) const;
    void paintOverlays(QPainter &painter, int firstRow, int lastRow) const;

    WorkflowAnalysis m_analysis;
    std::shared_ptr<const TraceStore> m_store;
    std::vector<GanttRow> m_rows;
    std::vector<qint32> m_rowOfSpan; // -1 when hidden
    std::vector<quint8> m_collapsed;
    bool m_pathOnly = false;
    bool m_whatIf = false;
    std::vector<qint64> m_startAfter; // per span, with a what-if shown
    std::vector<qint64> m_endAfter;
    std::vector<PathSection> m_pathAfter;
    std::vector<qint64> m_slackAfter;
    std::vector<double> m_unusualRank;
    std::vector<qint64> m_unusualSamples;
    QString m_unusualKey;
    double m_unusualThreshold = -1.0;
    qint64 m_frameStart = 0;
    qint64 m_frameEnd = 1;
    qint32 m_selected = -1;
    QScrollBar *m_scroll = nullptr;
    std::vector<qint32> m_bookmarked; // sorted
};
