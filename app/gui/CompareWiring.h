#pragma once

#include <QObject>
#include <QString>

class ComparePanel;
class MainWindow;
class QDockWidget;
class TraceLoadJob;
class ViewState;
struct LoadOutcome;

// Comparing the loaded trace (the baseline) with a candidate, kept out of
// MainWindow: the Compare dock, the candidate's load off the GUI thread,
// and a population what-if's prediction taken into the comparison.
// Computes nothing; ComparePanel shows what the model compares.
class CompareWiring : public QObject
{
    Q_OBJECT
public:
    // The Compare dock's least share of the window's height once it comes to
    // the front: at 1600x1000 the table, verdict and CDFs fit without scrolling.
    static constexpr double kRoom = 0.5;

    // After the window's other bottom docks exist: the Compare dock is
    // tabbed behind the Requests dock.
    CompareWiring(MainWindow *window, ViewState *state);

    ComparePanel *panel() const { return m_panel; }
    QDockWidget *dock() const { return m_dock; }
    // Loads `path` off the GUI thread as the candidate (cancel is final) and
    // shows the Compare dock.
    void compareWith(const QString &path);
    // File → Compare With…: asks for the candidate's file.
    void chooseCandidate();
    bool isBusy() const;
    void cancel();

private:
    // A population what-if's saving becomes the Compare dock's prediction,
    // at its percentile and for the metric it predicts (TTFT or E2E).
    void usePrediction(double q, double e2eSavingMs, double ttftSavingMs);
    void finish(const LoadOutcome &outcome, const QString &path);
    void bringToFront();

    MainWindow *m_window = nullptr;
    ViewState *m_state = nullptr;
    ComparePanel *m_panel = nullptr;
    QDockWidget *m_dock = nullptr;
    TraceLoadJob *m_load = nullptr; // the trace to compare with
};
