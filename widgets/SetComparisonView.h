#pragma once

#include <QWidget>

class PhaseAttributionModel;
class QLabel;
class QTabWidget;
class QTableView;
class SetComparisonModel;
struct ExceedanceAnalysis;

// How the exceedance set differs from the rest: attributes and phases ranked
// by separation, and the phase attribution of the mean excess with the
// suspected phase, the next test and why phase percentiles are not added.
// Draws what ExceedanceAnalysis computed.
class SetComparisonView : public QWidget
{
    Q_OBJECT
public:
    explicit SetComparisonView(QWidget *parent = nullptr);

    void setAnalysis(const ExceedanceAnalysis &analysis);
    void clear();

    SetComparisonModel *attributeModel() const { return m_attributes; }
    SetComparisonModel *phaseModel() const { return m_phases; }
    PhaseAttributionModel *attributionModel() const { return m_attribution; }
    QLabel *suspectLabel() const { return m_suspect; }
    QTabWidget *tabs() const { return m_tabs; }

private:
    SetComparisonModel *m_attributes = nullptr;
    SetComparisonModel *m_phases = nullptr;
    PhaseAttributionModel *m_attribution = nullptr;
    QTabWidget *m_tabs = nullptr;
    QLabel *m_excess = nullptr;
    QLabel *m_suspect = nullptr;
    QLabel *m_note = nullptr;
};
