#include "CompareWiring.h"

#include "ComparePanel.h"
#include "CountText.h"
#include "DockLayout.h"
#include "MainWindow.h"
#include "TraceLoadJob.h"
#include "ViewState.h"
#include "WhatIfPanel.h"
#include "WorkflowPanel.h"
#include "io/LoadVerdict.h"
#include "remote/TraceSource.h"
#include "store/TraceStore.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>

#include <cmath>

CompareWiring::CompareWiring(MainWindow *window, ViewState *state)
    : QObject(window)
    , m_window(window)
    , m_state(state)
    , m_panel(new ComparePanel(state, window))
    , m_load(new TraceLoadJob(this))
{
    m_dock = window->addDock(QStringLiteral("compareDock"), tr("Compare"), m_panel, Qt::BottomDockWidgetArea);
    if (auto *requests = window->findChild<QDockWidget *>(QStringLiteral("requestsDock"))) {
        window->tabifyDockWidget(requests, m_dock);
        requests->raise();
    }
    connect(window->workflowPanel()->whatIfPanel(), &WhatIfPanel::predictionOffered, this,
            &CompareWiring::usePrediction);
    connect(m_load, &TraceLoadJob::finished, this, &CompareWiring::finish);
}

bool CompareWiring::isBusy() const
{
    return m_load->isRunning() || m_panel->isComputing();
}

void CompareWiring::cancel()
{
    m_load->cancel();
}

void CompareWiring::bringToFront()
{
    m_dock->show();
    m_dock->raise();
    // Table, verdict and CDFs at once, not behind the dock's scroll bar.
    if (m_window->dockLayout())
        m_window->dockLayout()->giveRoom(m_dock, kRoom);
}

void CompareWiring::usePrediction(double q, double e2eSavingMs, double ttftSavingMs)
{
    const bool ttft = m_state->metric() == Metric::Ttft && std::isfinite(ttftSavingMs);
    if (!ttft && m_state->metric() != Metric::E2e)
        m_state->setMetric(Metric::E2e); // the what-if predicts workflow totals
    const double saving = ttft ? ttftSavingMs : e2eSavingMs;
    m_panel->setPercentile(q);
    m_panel->setPredictedSavingMs(saving);
    bringToFront();
    const QString what = tr("Predicted p%1 %2 saving of %3 ms set in the Compare dock")
                             .arg(QLocale().toString(q * 100.0, 'g', 4), ttft ? tr("TTFT") : tr("E2E"),
                                  QLocale().toString(saving, 'f', 2));
    const QString next = m_state->candidate()
        ? QStringLiteral(".")
        : tr("; open the trace measured after the change with File \u2192 Compare With to check it.");
    m_window->tell(what + next);
}

void CompareWiring::chooseCandidate()
{
    if (!m_state->store()) {
        m_window->tell(tr("Open the baseline trace first; then compare it with a candidate."));
        return;
    }
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Compare with (candidate trace)"),
                                                      QFileInfo(m_window->currentFile()).absolutePath(),
                                                      tr("Traces (*.jsonl *.json *.ndjson *.csv);;All files (*)"));
    if (!path.isEmpty())
        compareWith(path);
}

void CompareWiring::compareWith(const QString &path)
{
    m_window->tell(tr("Loading %1 as the candidate\u2026").arg(TraceSource::displayName(path)));
    bringToFront();
    m_load->start(path); // the same job runner as the main load: cancel is final
}

void CompareWiring::finish(const LoadOutcome &outcome, const QString &path)
{
    const LoadResult &result = outcome.result;
    const QString name = TraceSource::displayName(path);
    if (const QString why = LoadVerdict::whyNothingLoaded(result, name); !why.isEmpty()) {
        m_window->tell(why, !result.cancelled);
        return;
    }
    m_window->tell(tr("Comparing with %1 (%2, %3 rejected).")
                       .arg(name, CountText::of(result.store->requests.rowCount(), tr("request"), tr("requests")),
                            QLocale().toString(qint64(result.store->rejected.size()))));
    m_state->setCandidate(result.store, name);
    m_dock->raise();
}
