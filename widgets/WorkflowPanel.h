#pragma once

#include "LatestJob.h"

#include "analysis/workflows/PopulationWhatIf.h"
#include "analysis/workflows/SpanKey.h"
#include "analysis/workflows/UnusualSpans.h"
#include "analysis/workflows/WorkflowAnalysis.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSplitter;
class QTableView;
class ViewState;
class WhatIfPanel;
class WorkflowGantt;
class WorkflowPathModel;
class WorkflowPicker;
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
    // a representative slow workflow until a row is chosen: the first
    // exceedance member of the shared metric that is not a long-lived
    // stream (WorkflowAnalysis::representativeWorkflow).
    void showWorkflow(qint32 workflow);
    // An analysis or what-if is being computed.
    bool isBusy() const
    {
        return m_analysisJob.isRunning() || m_whatIfJob.isRunning() || m_unusualJob.isRunning()
            || m_populationJob.isRunning();
    }
    qint32 workflow() const { return m_workflow; }
    const WorkflowAnalysis &analysis() const { return m_analysis; }

    WorkflowGantt *gantt() const { return m_gantt; }
    WhatIfPanel *whatIfPanel() const { return m_whatIf; }
    WorkflowPathModel *pathModel() const { return m_pathModel; }
    QLabel *title() const { return m_title; }
    WorkflowPicker *picker() const { return m_picker; }

    // Unusual spans: each span's duration rank among the spans with the same
    // key in the rest (the scope outside the slow set); those at or above
    // the percentile are marked on the Gantt.
    QCheckBox *unusualBox() const { return m_unusual; }
    QDoubleSpinBox *unusualPercentileBox() const { return m_unusualPercentile; }
    QComboBox *unusualKeyBox() const { return m_unusualKey; }
    const UnusualSpans &unusualSpans() const { return m_unusualSpans; }

    // The HTML legend: the kinds the bars show (WorkKindColors, a model
    // call's phases included), the critical path, slack and dependency marks,
    // and the orphan marker when a span's parent is missing.
    static QString legendHtml(const WorkflowSchedule *schedule, bool orphans = false);

signals:
    void analysisShown(qint32 workflow);
    void whatIfShown();
    void unusualSpansShown();
    void populationShown();

protected:
    void keyPressEvent(QKeyEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showRow(qint32 row);
    bool hasOrphans(const SpanGraph *graph) const;
    void showRepresentativeWorkflow();
    void applyAnalysis(WorkflowAnalysis analysis);
    void runWhatIf();
    void applyWhatIf(const WhatIfOutcome &outcome);
    QWidget *createTailControls();
    // Gives the what-if panel the height its result needs (the splitter
    // would keep the old size when the text grows).
    void fitWhatIf();
    void recomputeUnusual();
    void runPopulationWhatIf();
    // Request rows of the scope outside the slow set: what "usual" means.
    std::vector<qint32> restRows() const;

    ViewState *m_state = nullptr;
    LatestJob m_analysisJob;
    LatestJob m_whatIfJob;
    qint32 m_workflow = -1;
    WorkflowAnalysis m_analysis;
    std::vector<quint8> m_longLived; // per workflow of the store (LongLivedStreams)
    QLabel *m_title = nullptr;
    QLabel *m_legend = nullptr;
    QCheckBox *m_pathOnly = nullptr;
    WorkflowGantt *m_gantt = nullptr;
    WorkflowPathModel *m_pathModel = nullptr;
    QTableView *m_pathTable = nullptr;
    WhatIfPanel *m_whatIf = nullptr;
    WorkflowPicker *m_picker = nullptr;
    QSplitter *m_side = nullptr;
    QCheckBox *m_unusual = nullptr;
    QDoubleSpinBox *m_unusualPercentile = nullptr;
    QComboBox *m_unusualKey = nullptr;
    LatestJob m_unusualJob{this};
    LatestJob m_populationJob{this};
    std::shared_ptr<const SpanKeys> m_keys; // of the shown store, for the unusual spans
    UnusualSpans m_unusualSpans;
};
