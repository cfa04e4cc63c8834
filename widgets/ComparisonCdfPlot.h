#pragma once

#include "analysis/compare/PercentileDifference.h"
#include "analysis/requests/Metric.h"
#include "analysis/stats/Distribution.h"

#include <QWidget>

#include <vector>

class QCPLayoutGrid;
class QCPTextElement;
class QCustomPlot;

// Baseline and candidate CDFs of the picked classes over each other: one
// colour per class, the baseline dashed and the candidate solid, each with a
// marker where it reaches the target percentile and a bar across that
// percentile's 95% interval. The curves come pre-aggregated from the model.
class ComparisonCdfPlot : public QWidget
{
    Q_OBJECT
public:
    struct Curve
    {
        QString label; // "eu", "overall"
        std::vector<CdfPoint> baseline;
        std::vector<CdfPoint> candidate;
        PercentileDifference difference; // the estimates at the target percentile
    };

    explicit ComparisonCdfPlot(QWidget *parent = nullptr);

    void setCurves(std::vector<Curve> curves, Metric metric, Boundary boundary, double q, double sloMs);

    QCustomPlot *plot() const { return m_plot; }
    // Legend texts in order ("eu · baseline (n = 200)").
    QStringList legendNames() const;
    QString title() const;
    // Whether the key to the marks heads the legend (false in a plot too
    // short for it and the legend: then it is the plot's tooltip).
    bool keyShown() const;

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void redraw();
    void fitToSize();

    QCustomPlot *m_plot = nullptr;
    QCPTextElement *m_title = nullptr;
    QCPLayoutGrid *m_legendColumn = nullptr;
    std::vector<Curve> m_curves;
    Metric m_metric = Metric::Ttft;
    Boundary m_boundary = Boundary::Client;
    double m_q = 0.95;
    double m_sloMs = 0.0;
};
