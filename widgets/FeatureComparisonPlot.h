#pragma once

#include "analysis/exceedance/SetComparison.h"

#include <QWidget>

class QCPBars;
class QCustomPlot;

// One feature of the exceedance set against the rest, side by side: for a
// categorical attribute the share of each value in the set and in the rest;
// for a number (token count, numeric attribute, phase) both distributions
// over the same bins. Draws what FeatureSeparation carries.
class FeatureComparisonPlot : public QWidget
{
    Q_OBJECT
public:
    explicit FeatureComparisonPlot(QWidget *parent = nullptr);

    void setSeparation(const FeatureSeparation &separation);
    void clear();

    QCustomPlot *plot() const { return m_plot; }
    QCPBars *setBars() const { return m_set; }
    QCPBars *restBars() const { return m_rest; }
    QString title() const { return m_title; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyPalette();

    QCustomPlot *m_plot = nullptr;
    QCPBars *m_set = nullptr;
    QCPBars *m_rest = nullptr;
    QString m_title;
};
