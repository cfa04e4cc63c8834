#pragma once

#include <QWidget>

class FeatureComparisonPlot;
class PathAttributionView;
class PathTreeView;
class PhaseAttributionModel;
class QLabel;
class QTabWidget;
class QTableView;
class SetComparisonModel;
struct ExceedanceAnalysis;

// How the exceedance set differs from the rest: attributes and phases ranked
// by separation (the picked one drawn set beside rest), and the phase
// attribution of the mean excess with the suspected phase, the next test and
// why phase percentiles are not added; for workflow traces the critical-path
// attribution and the slow set's paths merged with the rest's instead.
// Draws what ExceedanceAnalysis computed.
struct SetComparison;

class SetComparisonView : public QWidget
{
    Q_OBJECT
public:
    explicit SetComparisonView(QWidget *parent = nullptr);

    void setAnalysis(const ExceedanceAnalysis &analysis);
    // The rankings alone (a population's, computed by a server after the
    // sample's analysis was shown).
    void setRankings(const SetComparison &comparison);
    void clear();

    SetComparisonModel *attributeModel() const { return m_attributes; }
    SetComparisonModel *phaseModel() const { return m_phases; }
    PhaseAttributionModel *attributionModel() const { return m_attribution; }
    QLabel *suspectLabel() const { return m_suspect; }
    QTabWidget *tabs() const { return m_tabs; }
    QTableView *attributeView() const { return m_attributeView; }
    QTableView *phaseView() const { return m_phaseView; }
    FeatureComparisonPlot *featurePlot() const { return m_featurePlot; }

    // Draws row `row` of the attribute (or phase) ranking side by side.
    void showFeature(bool phase, int row);

    // Workflow traces: the critical-path attribution and the merged paths
    // take the phase attribution's place (a span tree has no request phases).
    void setWorkflowTrace(bool workflows);
    bool isWorkflowTrace() const { return m_workflows; }
    PathAttributionView *pathAttribution() const { return m_pathAttribution; }
    PathTreeView *pathTree() const { return m_pathTree; }

private:
    SetComparisonModel *m_attributes = nullptr;
    SetComparisonModel *m_phases = nullptr;
    PhaseAttributionModel *m_attribution = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTableView *m_attributeView = nullptr;
    QTableView *m_phaseView = nullptr;
    FeatureComparisonPlot *m_featurePlot = nullptr;
    QLabel *m_excess = nullptr;
    QLabel *m_suspect = nullptr;
    QLabel *m_note = nullptr;
    QWidget *m_phaseTab = nullptr;
    PathAttributionView *m_pathAttribution = nullptr;
    PathTreeView *m_pathTree = nullptr;
    bool m_workflows = false;
};
