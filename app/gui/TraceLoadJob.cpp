#include "TraceLoadJob.h"

#include "io/LoadControl.h"
#include "remote/TraceSource.h"

#include <limits>

// First and last observed time of the trace: one pass over two columns.
void TraceLoadJob::timeSpan(const RequestTable &table, qint64 *firstNs, qint64 *lastNs)
{
    qint64 first = std::numeric_limits<qint64>::max();
    qint64 last = std::numeric_limits<qint64>::min();
    for (const Stamp stamp : {Stamp::ClientSend, Stamp::LastTokenClient}) {
        for (const qint64 t : table.stampColumn(stamp)) {
            if (t != kNoTime) {
                first = qMin(first, t);
                last = qMax(last, t);
            }
        }
    }
    if (first <= last) {
        *firstNs = first;
        *lastNs = last;
    }
}

TraceLoadJob::TraceLoadJob(QObject *parent)
    : QObject(parent)
{ }

void TraceLoadJob::start(const QString &path)
{
    auto control = std::make_shared<LoadControl>();
    m_control = control;
    m_path = path;
    m_clock.start();
    m_job.start(
        [path, control](const std::atomic<bool> *cancelled) {
            // One cancel flag for the whole job: the loader polls it too.
            control->followCancel(cancelled);
            LoadOutcome outcome;
            outcome.result = TraceSource::load(path, LoadOptions{}, control.get());
            timeSpan(outcome.result.store->requests, &outcome.firstNs, &outcome.lastNs);
            return outcome;
        },
        [this, path](const LoadOutcome &outcome) {
            m_control.reset();
            emit finished(outcome, path);
        });
}

bool TraceLoadJob::cancel()
{
    const bool running = m_job.isRunning();
    m_job.cancel();
    m_control.reset();
    return running;
}

double TraceLoadJob::fraction() const
{
    return m_control ? m_control->fraction() : 0.0;
}

qint64 TraceLoadJob::records() const
{
    return m_control ? m_control->processedRecords() : 0;
}
