#pragma once

#include "analysis/classes/ClassTable.h"

#include <QWidget>

class QCustomPlot;
class QDoubleSpinBox;

// Empirical CDFs of several classes of one class table over each other, each
// named with its n in the legend, with markers where each class reaches
// p50/p90/p95/p99 (only where the class holds that percentile's interval)
// and an optional SLO line. The curves come pre-aggregated in ClassCell::cdf.
class ClassCdfPlot : public QWidget
{
    Q_OBJECT
public:
    explicit ClassCdfPlot(QWidget *parent = nullptr);

    // `cells` are drawn in order, in the class colours; `overall` (if any)
    // is drawn as a dashed line in the text colour.
    void setCurves(std::vector<ClassCell> cells, std::optional<ClassCell> overall, Metric metric, Boundary boundary);
    void setSloMs(double ms); // 0 removes the line
    double sloMs() const;

    QCustomPlot *plot() const { return m_plot; }
    // Legend texts, in order ("document (n = 20)").
    QStringList legendNames() const;

    // The colour of the i-th class curve: Okabe–Ito (safe for colour vision
    // deficiencies) without its yellow, which is unreadable on white; cycles.
    static QColor classColour(int i);

protected:
    void changeEvent(QEvent *event) override;

private:
    void redraw();
    void applyPalette();

    QDoubleSpinBox *m_slo = nullptr;
    QCustomPlot *m_plot = nullptr;
    std::vector<ClassCell> m_cells;
    std::optional<ClassCell> m_overall;
    Metric m_metric = Metric::Ttft;
    Boundary m_boundary = Boundary::Client;
};
