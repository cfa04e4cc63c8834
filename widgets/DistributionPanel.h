#pragma once

#include "LatestJob.h"
#include "analysis/stats/Distribution.h"

#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QCPItemText;
class QDoubleSpinBox;
class ViewState;

// Histogram and empirical CDF of one metric for the requests in scope (the
// ViewState's slice, or the whole trace), with p50/p90/p95/p99 marked and an
// optional SLO line. When two or more requests are selected, their CDF is
// drawn on top. All numbers come pre-aggregated from model/analysis
// (DistributionAnalysis), computed off the GUI thread.
class DistributionPanel : public QWidget
{
    Q_OBJECT
public:
    explicit DistributionPanel(ViewState *state, QWidget *parent = nullptr);
    ~DistributionPanel() override;

    QCustomPlot *plot() const { return m_plot; }
    // The figure's coordinates: metric, boundary, n and population.
    QString title() const { return m_title; }
    // What the plot says instead of data when the filter matches nothing.
    QString emptyNote() const { return m_emptyNote; }
    const Distribution &scopeDistribution() const { return m_scope; }
    bool isComputing() const { return m_job.isRunning(); }

    void setLogScale(bool on);
    void setSloMs(double ms); // 0 removes the line

signals:
    void distributionReady();

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    struct Result
    {
        Distribution scope;
        std::optional<Distribution> selection;
        double sloShare = 0.0; // share of scope at or under the SLO
    };

    void recompute();
    void apply(const Result &result);
    void redraw();
    void applyPalette();
    void showTitle();
    void placeMarkLabels();

    ViewState *m_state = nullptr;
    QComboBox *m_metric = nullptr;
    QCheckBox *m_logScale = nullptr;
    QDoubleSpinBox *m_slo = nullptr;
    QCustomPlot *m_plot = nullptr;
    LatestJob m_job{this};
    Distribution m_scope;
    std::optional<Distribution> m_selection;
    double m_sloShare = 0.0;
    QString m_title;
    QString m_emptyNote;
    // The percentile and SLO labels with their lines' values; placed beside
    // their line (MarkLabelLayout) after every layout of the plot.
    std::vector<std::pair<QCPItemText *, double>> m_markLabels;
};
