#pragma once

#include "BackgroundPool.h"
#include "JobFailure.h"

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent>

#include <atomic>
#include <exception>
#include <memory>
#include <optional>
#include <type_traits>

// The one job runner for background work (layouts, queries, analyses, frames
// and the file load): runs work on the background pool and hands only the
// newest job's result back on the GUI thread; older jobs are told to stop
// (their cancel flag) and their results are dropped by a generation counter.
// Work receives a `const std::atomic<bool> *` it may poll, and returns a
// plain value. Cancel is final: after cancel() the job's result is never
// applied, even when its worker had already finished.
class LatestJob
{
public:
    explicit LatestJob(QObject *context)
        : m_context(context)
    { }
    ~LatestJob() { cancel(); }

    LatestJob(const LatestJob &) = delete;
    LatestJob &operator=(const LatestJob &) = delete;

    template<typename Work, typename Apply> void start(Work work, Apply apply)
    {
        using Result = std::invoke_result_t<Work &, const std::atomic<bool> *>;
        cancel();
        const quint64 generation = ++m_generation;
        auto cancelled = std::make_shared<std::atomic<bool>>(false);
        m_cancelled = cancelled;
        m_running = true;
        // What the job threw (running out of memory) is caught on its thread
        // and becomes a message on the GUI thread: a QFuture holding an
        // exception reports itself cancelled, and the view would wait forever.
        struct Outcome
        {
            std::optional<Result> value;
            std::exception_ptr error;
        };
        QFuture<Outcome> future
            = QtConcurrent::run(BackgroundPool::instance(), [work = std::move(work), cancelled]() mutable {
                  BackgroundPool::lowerCurrentThreadPriority();
                  Outcome outcome;
                  try {
                      outcome.value.emplace(work(cancelled.get()));
                  } catch (...) {
                      outcome.error = std::current_exception();
                  }
                  return outcome;
              });
        // A watcher owned by the context, not QFuture::then(context): Qt 6.4
        // still runs a continuation whose context was destroyed mid-job (an
        // assertion in debug builds, a call into freed memory otherwise).
        // The watcher dies with its context, and with it the connection.
        auto *watcher = new QFutureWatcher<Outcome>(m_context);
        QObject::connect(watcher, &QFutureWatcherBase::finished, watcher,
                         [this, watcher, generation, cancelled, apply = std::move(apply)]() mutable {
                             watcher->deleteLater();
                             // Checked here, on the GUI thread, right before the result
                             // would replace anything: a job cancelled after its worker
                             // returned (a late Cancel) is dropped all the same.
                             if (generation != m_generation || watcher->isCanceled()
                                 || cancelled->load(std::memory_order_relaxed))
                                 return; // cancelled, or a newer job replaced this one
                             m_running = false;
                             Outcome outcome = watcher->future().takeResult();
                             if (outcome.error) {
                                 JobFailure::report(m_context, outcome.error); // the view keeps what it showed
                                 return;
                             }
                             apply(std::move(*outcome.value));
                         });
        watcher->setFuture(future);
    }

    // Stops waiting for the current job; its result will be dropped.
    void cancel()
    {
        if (m_cancelled)
            m_cancelled->store(true, std::memory_order_relaxed);
        m_cancelled.reset();
        ++m_generation;
        m_running = false;
    }

    bool isRunning() const { return m_running; }
    quint64 generation() const { return m_generation; }

private:
    QObject *m_context = nullptr;
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic<bool>> m_cancelled;
    bool m_running = false;
};
