#pragma once

#include "LatestJob.h"
#include "analysis/compare/ComparisonSpec.h"

#include <QWidget>

#include <memory>

class ClassSplitBar;
class ComparisonCdfPlot;
class ComparisonSamples;
class ComparisonTableModel;
class ComparisonVerdictView;
class InSightWork;
class PathAttributionView;
class PhaseShiftBars;
class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTabWidget;
class SwimlaneView;
class ViewState;
struct TraceComparison;

// The Compare dock: the loaded trace (baseline) beside the candidate of the
// view-state. The metric and boundary are the window's; the class split,
// percentile, SLO and predicted saving are this panel's. A verdict banner
// (the stop rule, in colour and in words) stays on top of four tabs: the
// difference table with the CDF overlay of the picked classes, the phase
// shift bars, the stop rule with its guardrails and the workload check, and
// lanes of both sides on one time axis aligned at each request's send.
//
// Work runs off the GUI thread in two steps: a change of trace, metric,
// boundary or classes prepares new samples (one pass over both sides); a
// change of percentile, SLO or prediction only re-evaluates them.
class ComparePanel : public QWidget
{
    Q_OBJECT
public:
    explicit ComparePanel(ViewState *state, QWidget *parent = nullptr);
    ~ComparePanel() override;

    ComparisonTableModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    ComparisonCdfPlot *cdfPlot() const { return m_cdf; }
    PhaseShiftBars *phaseBars() const { return m_bars; }
    ComparisonVerdictView *verdictView() const { return m_verdict; }
    // Workflow traces: the candidate's mean total minus the baseline's split
    // over critical-path time by key (its own key picker re-prepares).
    PathAttributionView *pathAttribution() const { return m_paths; }
    QTabWidget *tabs() const { return m_tabs; }
    SwimlaneView *lanes() const { return m_lanes; }
    ViewState *lanesState() const { return m_lanesState; }
    QString bannerText() const;
    bool isComputing() const;

    // Controls, as a user would set them.
    bool setDimensions(const QStringList &keys); // empty: no class split
    void setPercentile(double q);                // 0.95
    void setSloMs(double ms);                    // 0: none
    void setPredictedSavingMs(double ms);        // NaN: none
    // Picks these rows of model() as a user selecting them.
    void selectRows(const QList<int> &rows);
    ComparisonSpec spec() const;

signals:
    // A new comparison is shown.
    void comparisonReady();
    // Both sides are laid out in the Lanes tab.
    void lanesReady();

private:
    void rebuildDimensions();
    void prepare();
    void evaluate();
    void apply(TraceComparison comparison);
    void updateCurves();
    void updateBanner();
    void updateLanes();
    void showIdle(const QString &message);

    ViewState *m_state = nullptr;
    std::shared_ptr<const ComparisonSamples> m_samples;
    LatestJob m_prepareJob{this};
    LatestJob m_evaluateJob{this};
    LatestJob m_lanesJob{this};
    bool m_lanesStale = true;

    QLabel *m_sides = nullptr;
    QCheckBox *m_byClass = nullptr;
    ClassSplitBar *m_split = nullptr;
    QDoubleSpinBox *m_percentile = nullptr;
    QDoubleSpinBox *m_slo = nullptr;
    QLineEdit *m_predicted = nullptr;
    QLabel *m_banner = nullptr;
    QTabWidget *m_tabs = nullptr;
    ComparisonTableModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    ComparisonCdfPlot *m_cdf = nullptr;
    PhaseShiftBars *m_bars = nullptr;
    ComparisonVerdictView *m_verdict = nullptr;
    PathAttributionView *m_paths = nullptr;
    ViewState *m_lanesState = nullptr;
    SwimlaneView *m_lanes = nullptr;
    // A live refresh while out of sight: prepared once it is looked at.
    InSightWork *m_refresh = nullptr;
};
