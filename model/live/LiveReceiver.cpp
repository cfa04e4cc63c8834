#include "LiveReceiver.h"

#include "LiveQueue.h"
#include "OtlpGrpcServer.h"
#include "OtlpHttpServer.h"
#include "SlicedDrain.h"
#include "store/ThreadPriority.h"

#include <QElapsedTimer>
#include <QSaveFile>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <limits>
#include <utility>

namespace {

QString hostText(const QHostAddress &address)
{
    return address.protocol() == QAbstractSocket::IPv6Protocol ? QStringLiteral("[%1]").arg(address.toString())
                                                               : address.toString();
}

// The held spans to `path`, whole or not at all (QSaveFile).
qint64 writeCaptureFile(const LiveStore &store, const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return -1;
    }
    QString writeError;
    const qint64 spans = store.writeCapture(file, &writeError);
    if (spans < 0) {
        file.cancelWriting();
        *error = QStringLiteral("cannot write %1: %2").arg(path, writeError);
        return -1;
    }
    if (!file.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return -1;
    }
    return spans;
}

} // namespace

// Lives on the store thread: stores in bounded steps every 50 ms (at once
// while more waits), evicts past the rolling limits, builds snapshots.
class LiveReceiver::StoreWorker : public QObject
{
public:
    StoreWorker(LiveReceiver *owner, LiveQueue &queue, ReceiveStats &stats, const Settings &settings)
        : m_owner(owner)
        , m_stats(stats)
        , m_drain(queue)
        , m_store(settings.store)
        , m_refreshMs(settings.refreshIntervalMs)
        , m_releaseKeptAfterIdleMs(settings.releaseKeptStoreAfterIdleMs)
    { }

    void begin()
    {
        m_clock.start();
        m_timer = new QTimer(this);
        connect(m_timer, &QTimer::timeout, this, &StoreWorker::tick);
        m_timer->start(50);
    }

    void setRolling(LiveStore::Rolling rolling)
    {
        m_store.setRolling(rolling);
        m_store.evict(m_clock.nsecsElapsed());
        publish(m_clock.nsecsElapsed());
    }

    // Everything received, stored; a snapshot holding every trace held, and
    // the held spans themselves (kept for saving the capture).
    std::pair<std::shared_ptr<const TraceStore>, std::shared_ptr<const LiveStore>> finish()
    {
        delete m_timer; // on its own thread
        m_timer = nullptr;
        const qint64 now = m_clock.nsecsElapsed();
        m_drain.drainAll([&](ExportBatch &batch) { m_store.add(batch, now); });
        m_store.evict(now);
        auto store = build(std::numeric_limits<qint64>::max() / 2);
        publish(now);
        m_store.dropGrowingStores(); // no snapshot follows: nothing to grow
        auto held = std::make_shared<const LiveStore>(std::exchange(m_store, LiveStore(m_store.options())));
        return {std::move(store), std::move(held)};
    }

    // Everything received so far, stored, then every span held to `path`.
    qint64 saveCapture(const QString &path, QString *error)
    {
        const qint64 now = m_clock.nsecsElapsed();
        m_drain.drainAll([&](ExportBatch &batch) { m_store.add(batch, now); });
        publish(now);
        return writeCaptureFile(m_store, path, error);
    }

    void tick()
    {
        const qint64 now = m_clock.nsecsElapsed();
        bool stored = false;
        const bool more = m_drain.step([&](ExportBatch &batch) {
            m_store.add(batch, now);
            stored = true;
        });
        if (stored || !m_sinceSpans.isValid())
            m_sinceSpans.start();
        m_store.evict(now);
        m_timer->setInterval(more ? 0 : 50);
        // Paused or idle, no snapshot is coming soon: the store kept to grow
        // it from is memory held for nothing (the next one is built whole).
        if (m_owner->m_paused.load() || m_sinceSpans.elapsed() >= m_releaseKeptAfterIdleMs)
            m_store.releaseKeptStores();
        if (!m_owner->m_paused.load() && due() && m_store.changed(now, m_stats.snapshot()) && !waitingForKeptStore()) {
            auto store = build(now);
            QMetaObject::invokeMethod(
                m_owner,
                [owner = m_owner, store] {
                    if (!owner->isPaused())
                        emit owner->snapshotReady(store);
                },
                Qt::QueuedConnection);
        }
        publish(now);
    }

private:
    bool due() const
    {
        if (!m_sinceBuild.isValid())
            return true;
        // At most every refresh interval, and never more than a third of
        // this thread's time spent building.
        return m_sinceBuild.elapsed() >= std::max<qint64>(m_refreshMs, 2 * m_lastBuildNs / 1'000'000);
    }

    // Up to kKeptStoreWaitMs for a snapshot the views still hold to come
    // back to be grown, rather than building one whole at once.
    bool waitingForKeptStore()
    {
        if (!m_store.waitForKeptStore()) {
            m_waitingSince.invalidate();
            return false;
        }
        if (!m_waitingSince.isValid())
            m_waitingSince.start();
        if (m_waitingSince.elapsed() < kKeptStoreWaitMs)
            return true;
        m_waitingSince.invalidate();
        return false;
    }

    std::shared_ptr<const TraceStore> build(qint64 now)
    {
        QElapsedTimer clock;
        clock.start();
        std::shared_ptr<const TraceStore> store = m_store.snapshot(now, m_stats.snapshot());
        m_lastBuildNs = clock.nsecsElapsed();
        m_sinceBuild.start();
        QMutexLocker locker(&m_owner->m_statusMutex);
        Status &status = m_owner->m_status;
        ++status.snapshots;
        status.fullBuilds = m_store.fullBuilds();
        status.shownWorkflows = store->workflows.rowCount();
        status.lastBuildNs = m_lastBuildNs;
        status.longestBuildNs = std::max(status.longestBuildNs, m_lastBuildNs);
        return store;
    }

    void publish(qint64 now)
    {
        const LiveStore::Counts counts = m_store.counts(now);
        const qsizetype kept = m_store.keptStores();
        QMutexLocker locker(&m_owner->m_statusMutex);
        m_owner->m_status.held = counts;
        m_owner->m_status.keptStores = kept;
        m_owner->m_status.longestStepNs = m_drain.longestStepNs();
    }

    LiveReceiver *m_owner;
    ReceiveStats &m_stats;
    SlicedDrain m_drain;
    LiveStore m_store;
    int m_refreshMs;
    QTimer *m_timer = nullptr;
    QElapsedTimer m_clock;
    QElapsedTimer m_sinceBuild;
    QElapsedTimer m_waitingSince;
    QElapsedTimer m_sinceSpans; // since spans were last stored
    int m_releaseKeptAfterIdleMs;
    static constexpr qint64 kKeptStoreWaitMs = 1000;
    qint64 m_lastBuildNs = 0;
};

LiveReceiver::LiveReceiver(QObject *parent)
    : QObject(parent)
{ }

LiveReceiver::~LiveReceiver()
{
    blockSignals(true);
    stop();
    joinFinishing();
    if (m_saveThread) {
        m_saveThread->wait();
        delete m_saveThread;
    }
}

void LiveReceiver::joinFinishing()
{
    if (!m_finishingThread)
        return;
    // The queued finish() runs before this (events keep their order), so
    // its timer and store are gone on their own thread before it quits.
    QMetaObject::invokeMethod(
        m_finishingWorker, [] {}, Qt::BlockingQueuedConnection);
    m_finishingThread->quit();
    m_finishingThread->wait();
    delete m_finishingWorker;
    delete m_finishingThread;
    m_finishingWorker = nullptr;
    m_finishingThread = nullptr;
}

bool LiveReceiver::start(const Settings &settings, QString *error)
{
    if (m_listening)
        stop();
    joinFinishing(); // the queue and counts are about to be replaced
    if (!m_pendingSave.isEmpty()) {
        m_saving = false;
        emit captureSaved(std::exchange(m_pendingSave, QString()), -1,
                          QStringLiteral("listening again before the stopped session's capture was saved"));
    }
    m_settings = settings;
    m_heldBack.reset();
    std::shared_ptr<const LiveStore> previous = std::exchange(m_stoppedHeld, nullptr);
    m_queue = std::make_unique<LiveQueue>(settings.maxBufferedSpans);
    m_stats.reset();
    OtlpHttpServer::Options options;
    options.limits.maxBufferedSpans = settings.maxBufferedSpans;
    options.bearerToken = settings.bearerToken;

    m_httpThread = new QThread(this);
    m_httpThread->setObjectName(QStringLiteral("otlp-http"));
    m_http = new OtlpHttpServer(options, *m_queue, m_stats);
    m_http->moveToThread(m_httpThread);
    connect(m_httpThread, &QThread::finished, m_http, &QObject::deleteLater);
    m_httpThread->start();
    bool listening = false;
    QMetaObject::invokeMethod(
        m_http,
        [&] {
            ThreadPriority::lowerCurrentThread(); // the HTTP thread yields to the window
            listening = m_http->listen(settings.httpAddress, settings.httpPort, error);
            m_httpPort = m_http->port();
        },
        Qt::BlockingQueuedConnection);
    const auto stopHttp = [this] {
        QMetaObject::invokeMethod(
            m_http, [http = m_http] { http->close(); }, Qt::BlockingQueuedConnection);
        m_httpThread->quit();
        m_httpThread->wait();
        delete m_httpThread;
        m_httpThread = nullptr;
        m_http = nullptr;
    };
    if (!listening) {
        *error = QStringLiteral("cannot listen for OTLP/HTTP on %1:%2: %3")
                     .arg(hostText(settings.httpAddress))
                     .arg(settings.httpPort)
                     .arg(*error);
        stopHttp();
        return false;
    }
    m_grpcPort = 0;
    if (settings.grpc) {
        OtlpGrpcServer::Options grpcOptions;
        grpcOptions.limits = options.limits;
        grpcOptions.bearerToken = options.bearerToken;
        grpcOptions.backgroundPriority = true;
        m_grpc = std::make_unique<OtlpGrpcServer>(grpcOptions, *m_queue, m_stats);
        QString grpcError;
        if (!m_grpc->listen(settings.grpcAddress, settings.grpcPort, &grpcError)) {
            *error = QStringLiteral("cannot listen for OTLP/gRPC on %1:%2: %3")
                         .arg(hostText(settings.grpcAddress))
                         .arg(settings.grpcPort)
                         .arg(grpcError);
            m_grpc.reset();
            stopHttp();
            return false;
        }
        m_grpcPort = m_grpc->port();
    }

    {
        QMutexLocker locker(&m_statusMutex);
        m_status = {};
        m_status.httpEndpoint
            = QStringLiteral("http://%1:%2/v1/traces").arg(hostText(settings.httpAddress)).arg(m_httpPort);
        if (settings.grpc)
            m_status.grpcEndpoint = QStringLiteral("%1:%2").arg(hostText(settings.grpcAddress)).arg(m_grpcPort);
        m_status.beyondLoopback
            = !settings.httpAddress.isLoopback() || (settings.grpc && !settings.grpcAddress.isLoopback());
    }
    m_storeThread = new QThread(this);
    m_storeThread->setObjectName(QStringLiteral("otlp-store"));
    m_worker = new StoreWorker(this, *m_queue, m_stats, settings);
    m_worker->moveToThread(m_storeThread);
    m_storeThread->start();
    // The previous session's held spans are freed there too, not here.
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker, previous = std::move(previous)]() mutable {
            // Storing and building snapshots yield to the window (and the
            // threads the store starts inherit it).
            ThreadPriority::lowerCurrentThread();
            previous.reset();
            worker->begin();
        },
        Qt::QueuedConnection);
    m_listening = true;
    return true;
}

void LiveReceiver::stop()
{
    if (!m_listening)
        return;
    m_listening = false;
    QMetaObject::invokeMethod(
        m_http, [http = m_http] { http->close(); }, Qt::BlockingQueuedConnection);
    m_httpThread->quit();
    m_httpThread->wait();
    delete m_httpThread;
    m_httpThread = nullptr;
    m_http = nullptr;
    if (m_grpc) {
        m_grpc->close(500); // calls in flight get half a second, not gRPC's 2 s
        m_grpc.reset();
    }
    joinFinishing();
    m_finishingThread = std::exchange(m_storeThread, nullptr);
    m_finishingWorker = std::exchange(m_worker, nullptr);
    const quint64 finishing = ++m_finishing;
    // The last store and build run on the store thread; the result comes back
    // here (dropped if this object is gone: the destructor joins the thread).
    QMetaObject::invokeMethod(
        m_finishingWorker,
        [this, worker = m_finishingWorker, finishing] {
            auto [last, held] = worker->finish();
            QMetaObject::invokeMethod(
                this,
                [this, last = std::move(last), held = std::move(held), finishing] {
                    if (finishing != m_finishing || !m_finishingThread)
                        return; // a newer session joined it meanwhile
                    joinFinishing();
                    m_stoppedHeld = held;
                    if (!m_pendingSave.isEmpty())
                        saveStopped(std::exchange(m_pendingSave, QString()));
                    if (isPaused())
                        m_heldBack = last; // shown on resume
                    else
                        emit snapshotReady(last);
                    emit stopped();
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

bool LiveReceiver::saveCapture(const QString &path, QString *error)
{
    if (m_saving) {
        *error = QStringLiteral("a capture is still being saved");
        return false;
    }
    if (m_worker) {
        m_saving = true;
        QMetaObject::invokeMethod(
            m_worker,
            [this, worker = m_worker, path] {
                QString failure;
                const qint64 spans = worker->saveCapture(path, &failure);
                reportSaved(path, spans, failure);
            },
            Qt::QueuedConnection);
        return true;
    }
    if (m_finishingWorker) {
        // Stopping: the held spans come back with the last snapshot.
        m_saving = true;
        m_pendingSave = path;
        return true;
    }
    if (!m_stoppedHeld) {
        *error = QStringLiteral("nothing was received to save");
        return false;
    }
    m_saving = true;
    saveStopped(path);
    return true;
}

void LiveReceiver::saveStopped(const QString &path)
{
    if (m_saveThread) {
        m_saveThread->wait(); // finished: it reported before m_saving was cleared
        delete m_saveThread;
    }
    m_saveThread = QThread::create([this, held = m_stoppedHeld, path] {
        QString failure;
        const qint64 spans = writeCaptureFile(*held, path, &failure);
        reportSaved(path, spans, failure);
    });
    m_saveThread->setObjectName(QStringLiteral("otlp-save"));
    m_saveThread->start();
}

void LiveReceiver::reportSaved(const QString &path, qint64 spans, const QString &error)
{
    // From the store or save thread; this object outlives both (the
    // destructor joins them), and a queued call to it is dropped with it.
    QMetaObject::invokeMethod(
        this,
        [this, path, spans, error] {
            m_saving = false;
            emit captureSaved(path, spans, error);
        },
        Qt::QueuedConnection);
}

void LiveReceiver::setPaused(bool paused)
{
    if (m_paused.exchange(paused) == paused)
        return;
    emit pausedChanged(paused);
    if (!paused && m_heldBack)
        emit snapshotReady(std::exchange(m_heldBack, nullptr));
}

void LiveReceiver::setRolling(LiveStore::Rolling rolling)
{
    m_settings.store.rolling = rolling;
    if (m_worker)
        QMetaObject::invokeMethod(
            m_worker, [worker = m_worker, rolling] { worker->setRolling(rolling); }, Qt::QueuedConnection);
}

LiveReceiver::Status LiveReceiver::status() const
{
    Status status;
    {
        QMutexLocker locker(&m_statusMutex);
        status = m_status;
    }
    status.listening = m_listening;
    status.paused = isPaused();
    status.received = m_stats.snapshot();
    for (const auto &[key, group] : status.received.refusals)
        status.refusedRequests += group.count;
    status.bufferedSpans = m_queue ? m_queue->bufferedSpans() : 0;
    return status;
}
