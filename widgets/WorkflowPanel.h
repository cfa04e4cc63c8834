#pragma once

#include "LatestJob.h"

#include "analysis/workflows/WorkflowAnalysis.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QTableView;
class ViewState;
class WhatIfPanel;
class WorkflowGantt;
class WorkflowPathModel;
struct WhatIfOutcome;

// The workflow view: for the workflow behind the current request row, a
// span Gantt (critical path, slack, dependencies), the path's sections with
// their share of the total, and a what-if panel whose outcome redraws the
// Gantt and the table at once. Analyses run off the GUI thread (LatestJob);
// a newer request drops an older one.
class WorkflowPanel : public QWidget
{
    Q_OBJECT
public:
    explicit WorkflowPanel(ViewState *state, QWidget *parent = nullptr);

    // Index into store()->workflows; -1 clears the view. A new store shows
    // its slowest workflow until a row is chosen.
    void showWorkflow(qint32 workflow);
    // An analysis or what-if is being computed.
    bool isBusy() const { return m_analysisJob.isRunning() || m_whatIfJob.isRunning(); }
    qint32 workflow() const { return m_workflow; }
    const WorkflowAnalysis &analysis() const { return m_analysis; }

    WorkflowGantt *gantt() const { return m_gantt; }
    WhatIfPanel *whatIfPanel() const { return m_whatIf; }
    WorkflowPathModel *pathModel() const { return m_pathModel; }
    QLabel *title() const { return m_title; }

    // The HTML legend: the span kinds present, the critical path, slack and
    // dependency marks, and the orphan marker when a span's parent is missing.
    static QString legendHtml(const SpanGraph *graph, bool orphans = false);

signals:
    void analysisShown(qint32 workflow);
    void whatIfShown();

private:
    void showRow(qint32 row);
    bool hasOrphans(const SpanGraph *graph) const;
    void applyAnalysis(WorkflowAnalysis analysis);
    void runWhatIf();
    void applyWhatIf(const WhatIfOutcome &outcome);

    ViewState *m_state = nullptr;
    LatestJob m_analysisJob;
    LatestJob m_whatIfJob;
    qint32 m_workflow = -1;
    WorkflowAnalysis m_analysis;
    QLabel *m_title = nullptr;
    QLabel *m_legend = nullptr;
    QCheckBox *m_pathOnly = nullptr;
    WorkflowGantt *m_gantt = nullptr;
    WorkflowPathModel *m_pathModel = nullptr;
    QTableView *m_pathTable = nullptr;
    WhatIfPanel *m_whatIf = nullptr;
};
