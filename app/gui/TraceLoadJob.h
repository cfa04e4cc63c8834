#pragma once

#include "LatestJob.h"
#include "io/LoadResult.h"

#include <QElapsedTimer>
#include <QObject>

#include <memory>

class LoadControl;

// What a finished load hands to the window, all computed off the GUI thread:
// the loader's result and the trace's time span for the status bar.
struct LoadOutcome
{
    LoadResult result;
    qint64 firstNs = 0;
    qint64 lastNs = 0;
};

// The window's file load, run by the same job runner as every other
// background task (LatestJob: generation counter, cancel flag the loader
// polls through LoadControl, result dropped unless it is still the newest).
// Cancel is final: once cancel() or a new start() returns, the old load's
// result never reaches `finished`, however late the worker completes.
class TraceLoadJob : public QObject
{
    Q_OBJECT
public:
    explicit TraceLoadJob(QObject *parent = nullptr);

    void start(const QString &path);
    // True when a load was running (and is now dropped).
    bool cancel();
    bool isRunning() const { return m_job.isRunning(); }
    // The file being (or last) loaded.
    QString path() const { return m_path; }

    // Progress of the running load, polled by the window at its own pace.
    double fraction() const;
    qint64 records() const;
    qint64 elapsedMs() const { return m_clock.isValid() ? m_clock.elapsed() : 0; }

    // First and last observed time of a trace (client send, last token);
    // left alone when it has none.
    static void timeSpan(const RequestTable &table, qint64 *firstNs, qint64 *lastNs);

signals:
    void finished(const LoadOutcome &outcome, const QString &path);

private:
    LatestJob m_job{this};
    std::shared_ptr<LoadControl> m_control;
    QString m_path;
    QElapsedTimer m_clock;
};
