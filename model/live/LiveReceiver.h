#pragma once

#include "LiveStore.h"
#include "ReceiveStats.h"

#include <QHostAddress>
#include <QMutex>
#include <QObject>

#include <atomic>
#include <memory>

class LiveQueue;
class OtlpGrpcServer;
class OtlpHttpServer;
class QThread;

// A live session for a window: OTLP/HTTP (and OTLP/gRPC) received on their
// own threads into a LiveQueue, stored in bounded steps (SlicedDrain) into a
// LiveStore on a store thread, and a new TraceStore built there from the
// complete traces at most every `refreshIntervalMs` (and never more often
// than twice the last build's time apart, so building never takes more than
// a third of that thread). snapshotReady() brings each one to the thread
// this object lives on; nothing of the receiving or building runs there.
//
// Pausing stops the snapshots, not the receiver: spans keep being received
// and stored (the counts rise), and resuming shows everything held.
class LiveReceiver : public QObject
{
    Q_OBJECT
public:
    struct Settings
    {
        QHostAddress httpAddress = QHostAddress(QHostAddress::LocalHost);
        quint16 httpPort = 4318; // 0 picks a free port
        bool grpc = true;
        QHostAddress grpcAddress = QHostAddress(QHostAddress::LocalHost);
        quint16 grpcPort = 4317;
        QByteArray bearerToken; // empty: no check
        LiveStore::Options store;
        int refreshIntervalMs = 250;
        qint64 maxBufferedSpans = 500'000;
        // The store kept for growing the next snapshot (as large as the one
        // shown) is freed while paused and after this long without spans.
        int releaseKeptStoreAfterIdleMs = 30'000;
    };
    // What the status bar shows; read at any time from any thread.
    struct Status
    {
        bool listening = false;
        bool paused = false;
        QString httpEndpoint; // "http://127.0.0.1:4318/v1/traces"
        QString grpcEndpoint; // "127.0.0.1:4317", empty without gRPC
        bool beyondLoopback = false;
        ReceiveStats::Snapshot received;
        qint64 refusedRequests = 0;
        LiveStore::Counts held;
        qint64 bufferedSpans = 0;
        qint64 snapshots = 0;      // built so far
        qint64 fullBuilds = 0;     // of them, built from every shown span (not grown)
        qint64 keptStores = 0;     // kept to grow the next snapshot from (memory: one store each)
        qint64 shownWorkflows = 0; // in the newest snapshot
        qint64 longestStepNs = 0;  // the store thread, storing
        qint64 longestBuildNs = 0; // the store thread, building a snapshot
        qint64 lastBuildNs = 0;
    };

    explicit LiveReceiver(QObject *parent = nullptr);
    ~LiveReceiver() override;

    // Listens and starts storing; false (nothing left running) with `error`.
    bool start(const Settings &settings, QString *error);
    // Stops listening at once; the store thread then stores what was
    // received, builds a last snapshot holding every trace held, complete or
    // not (emitted unless paused, else shown on resume) and stopped() follows.
    // Nothing of it runs on this object's thread.
    void stop();
    bool isListening() const { return m_listening; }
    const Settings &settings() const { return m_settings; }
    quint16 httpPort() const { return m_httpPort; }
    quint16 grpcPort() const { return m_grpcPort; }

    void setPaused(bool paused);
    bool isPaused() const { return m_paused.load(); }
    void setRolling(LiveStore::Rolling rolling);

    Status status() const;

    // True while listening, and after stop() until the next start(): the
    // spans held can be saved.
    bool hasCapture() const { return m_listening || m_finishingWorker != nullptr || m_stoppedHeld != nullptr; }
    // Writes every span held (complete or not; evicted ones are gone) to
    // `path` as OTLP JSON Lines, the capture format of `tracelane-cli receive
    // --out` (LiveStore::writeCapture), replacing the file only when all is
    // written. While listening it runs on the store thread after storing
    // everything received so far (storing waits meanwhile; the receiver
    // keeps answering); after stop() on a thread of its own from the spans
    // the stopped session held. captureSaved() follows on this object's
    // thread. False with `error` (nothing started) when there is nothing to
    // save or a save is still running.
    bool saveCapture(const QString &path, QString *error);
    bool isSaving() const { return m_saving; }

signals:
    void snapshotReady(std::shared_ptr<const TraceStore> store);
    void pausedChanged(bool paused);
    // After stop(): the last snapshot has been delivered (or held back).
    void stopped();
    // After saveCapture(): `spans` written to `path`, or -1 with `error`.
    void captureSaved(const QString &path, qint64 spans, const QString &error);

private:
    class StoreWorker;
    // Waits for a stopped session's store thread and frees it.
    void joinFinishing();
    void saveStopped(const QString &path);
    void reportSaved(const QString &path, qint64 spans, const QString &error);

    Settings m_settings;
    bool m_listening = false;
    std::atomic<bool> m_paused{false};
    quint16 m_httpPort = 0;
    quint16 m_grpcPort = 0;
    std::unique_ptr<LiveQueue> m_queue;
    ReceiveStats m_stats;
    QThread *m_httpThread = nullptr;
    OtlpHttpServer *m_http = nullptr;
    std::unique_ptr<OtlpGrpcServer> m_grpc;
    QThread *m_storeThread = nullptr;
    StoreWorker *m_worker = nullptr;
    QThread *m_finishingThread = nullptr; // a stopped session's, until its last snapshot is in
    StoreWorker *m_finishingWorker = nullptr;
    quint64 m_finishing = 0;
    std::shared_ptr<const TraceStore> m_heldBack;   // the last snapshot, stopped while paused
    std::shared_ptr<const LiveStore> m_stoppedHeld; // the spans a stopped session held, for saving
    QThread *m_saveThread = nullptr;                // saving m_stoppedHeld
    bool m_saving = false;
    QString m_pendingSave; // asked for while stopping: saved once the held spans are back
    mutable QMutex m_statusMutex;
    Status m_status; // the store thread's part, under m_statusMutex
};
