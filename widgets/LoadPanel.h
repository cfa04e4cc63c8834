#pragma once

#include "LatestJob.h"
#include "analysis/load/LoadTimeline.h"
#include "analysis/load/ServiceLoad.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QCPAxisRect;
class QCPItemRect;
class QCustomPlot;
class QDoubleSpinBox;
class InSightWork;
class QLabel;
class QPushButton;
class TraceStore;
class ViewState;

// The Load dock: offered load and what the service made of it over time, on
// the swimlanes' absolute time axis. Top: arrivals, completions, goodput
// (under the SLOs) and failures per second; bottom: requests in flight and in
// the queue (queue enter -> prefill start; time-averaged per bin). Beside the
// plot: goodput's objectives, the burst envelope,
// Little's law inside the visible (or picked) range and the steadiness test.
// Zooming the plot moves the swimlanes' time window and the other way round;
// dragging across the plot picks a range, and the requests that arrived in it
// become the shared slice. Everything is computed off the GUI thread.
class LoadPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LoadPanel(ViewState *state, QWidget *parent = nullptr);
    ~LoadPanel() override;

    QCustomPlot *plot() const { return m_plot; }
    const LoadTimeline &timeline() const { return m_result.timeline; }
    QString summaryText() const;
    bool isComputing() const { return m_job.isRunning() || m_littleJob.isRunning() || m_populationJob.isRunning(); }

    // Picks [from, to) on the trace clock (ns): the slice becomes the
    // requests that arrived inside it. What a drag on the plot does.
    void pickRange(qint64 fromNs, qint64 toNs);

signals:
    void timelineReady();

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Result
    {
        LoadTimeline timeline;
        BurstEnvelope burst;
        LittlesLawCheck steadiness;
        qint64 originNs = 0;
    };

    void recompute();
    void apply(Result result);
    void redraw();
    void recheckLittle();
    // On a server's sample: the population's goodput and Little's law, asked
    // of the server (the series draw the held rows).
    void askPopulation(const std::shared_ptr<const TraceStore> &store, bool sliced, const Slo &slo, Boundary boundary);
    void followTimeWindow();
    void applyPalette();
    qint64 binNs() const;
    double toPlot(qint64 ns) const { return double(ns - m_result.originNs) / 1e9; }
    qint64 fromPlot(double seconds) const { return m_result.originNs + qint64(std::llround(seconds * 1e9)); }

    ViewState *m_state = nullptr;
    QComboBox *m_bin = nullptr;
    QDoubleSpinBox *m_sloTtft = nullptr;
    QDoubleSpinBox *m_sloItl = nullptr;
    QPushButton *m_clearPick = nullptr;
    QCustomPlot *m_plot = nullptr;
    QCPAxisRect *m_levels = nullptr;
    QCPItemRect *m_pickBand = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_little = nullptr;
    QLabel *m_population = nullptr;
    Result m_result;
    LatestJob m_job{this};
    LatestJob m_littleJob{this};
    LatestJob m_populationJob{this};
    // What the population's figures were last asked for: they depend on the
    // store (its server URL never changes), the objectives and the boundary
    // only, so a new bin or pick does not ask the server again. Forgotten
    // when the server fails, so the next recompute (a new bin) asks again.
    struct PopulationKey
    {
        std::weak_ptr<const TraceStore> store;
        Slo slo;
        Boundary boundary = Boundary::Client;
    };
    std::optional<PopulationKey> m_populationAsked;
    // A live refresh while out of sight: recomputed once it is looked at.
    InSightWork *m_refresh = nullptr;
    QString m_pickLabel; // the slice label this panel set, to recognise its own pick
    qint64 m_pickFrom = 0;
    qint64 m_pickTo = 0;
    double m_dragStart = std::nan("");
    bool m_following = false; // applying the swimlanes' window: do not echo it back
};
