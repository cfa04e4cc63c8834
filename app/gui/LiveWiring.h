#pragma once

#include "live/LiveReceiver.h"

#include <QObject>

#include <deque>
#include <memory>

class MainWindow;
class QAction;
class QLabel;
class QMenu;
class QTimer;
class QToolButton;
class RequestTable;
class ViewState;

// Live OTLP in the main window, kept out of MainWindow: File → Listen for
// OTLP…, Pause Live View and Stop Listening, and the live part of the status
// bar (address, spans/s received, workflows held, evicted, rejected and
// refused). Each snapshot the LiveReceiver builds off the GUI thread becomes
// the ViewState's store, as a loaded file does, so every view shows it; the
// request being looked at stays current across refreshes (by its id).
class LiveWiring : public QObject
{
    Q_OBJECT
public:
    LiveWiring(MainWindow *window, ViewState *state);

    void addFileActions(QMenu *file);
    // Listens now; false with `error` (nothing changed) when it cannot.
    bool listen(const LiveReceiver::Settings &settings, QString *error);
    void stop();
    void setPaused(bool paused);
    // File → Save Capture… without its dialog: every span held, as OTLP
    // JSON Lines (the capture `tracelane-cli receive --out` writes), in the
    // background; captureSaved() follows. False with `error` when nothing
    // can be saved now.
    bool saveCapture(const QString &path, QString *error);
    LiveReceiver *receiver() const { return m_receiver; }
    bool isListening() const { return m_receiver->isListening(); }
    // The live status bar text ("" when not listening and nothing was received).
    QString statusText() const;
    QLabel *statusLabel() const { return m_status; }

    // `tracelane --listen [ADDR:]PORT[,GRPC_PORT]`: a bare port or ":PORT" is
    // loopback; gRPC only when GRPC_PORT is given, on the same address.
    static bool parseListen(const QString &text, LiveReceiver::Settings *settings, QString *error);
    // Whether `requests` begins with `prefix`'s rows, the same ids in the same
    // order: a refresh that evicted nothing (rows, selection stay valid).
    static bool startsWith(const RequestTable &requests, const RequestTable &prefix);

signals:
    void listeningChanged(bool listening);
    // A snapshot became the views' store.
    void snapshotShown();
    // A capture was written (`spans` spans), or failed with `error` (spans -1).
    void captureSaved(const QString &path, qint64 spans, const QString &error);

private:
    void chooseAndListen();
    void chooseAndSave();
    void updateActions();
    void show(std::shared_ptr<const TraceStore> store);
    void updateStatus();

    MainWindow *m_window = nullptr;
    ViewState *m_state = nullptr;
    LiveReceiver *m_receiver = nullptr;
    QAction *m_listenAction = nullptr;
    QAction *m_pauseAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_saveAction = nullptr;
    QLabel *m_status = nullptr;
    QToolButton *m_pauseButton = nullptr;
    QTimer *m_statusTimer = nullptr;
    // (ms since listening, spans accepted) over the last second, for spans/s.
    std::deque<std::pair<qint64, qint64>> m_rate;
    qint64 m_startedMs = 0;
};
