#include "LiveWiring.h"

#include "CountText.h"
#include "ListenDialog.h"
#include "MainWindow.h"
#include "TraceLoadJob.h"
#include "ViewState.h"
#include "live/ListenAddress.h"
#include "store/TraceStore.h"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFontMetrics>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>

#include <algorithm>
#include <string>

bool LiveWiring::parseListen(const QString &text, LiveReceiver::Settings *settings, QString *error)
{
    const qsizetype comma = text.lastIndexOf(QLatin1Char(','));
    const QString http = comma >= 0 ? text.left(comma) : text;
    if (!parseListenAddress(http, &settings->httpAddress, &settings->httpPort, error))
        return false;
    settings->grpc = comma >= 0;
    if (settings->grpc) {
        bool ok = false;
        const uint grpcPort = text.mid(comma + 1).toUInt(&ok);
        if (!ok || grpcPort > 65535) {
            *error = QObject::tr("'%1' is not a gRPC port number").arg(text.mid(comma + 1));
            return false;
        }
        settings->grpcAddress = settings->httpAddress;
        settings->grpcPort = quint16(grpcPort);
    }
    return true;
}

LiveWiring::LiveWiring(MainWindow *window, ViewState *state)
    : QObject(window)
    , m_window(window)
    , m_state(state)
    , m_receiver(new LiveReceiver(this))
    , m_status(new QLabel(window))
    , m_pauseButton(new QToolButton(window))
    , m_statusTimer(new QTimer(this))
{
    m_status->setObjectName(QStringLiteral("statusLive"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->hide();
    m_pauseButton->setObjectName(QStringLiteral("livePauseButton"));
    m_pauseButton->setAutoRaise(true);
    m_pauseButton->setText(tr("Resume")); // the wider text: a fixed size never relays out the window
    m_pauseButton->setFixedSize(m_pauseButton->sizeHint());
    m_pauseButton->hide();
    window->statusBar()->insertPermanentWidget(0, m_status);
    window->statusBar()->insertPermanentWidget(1, m_pauseButton);
    connect(m_pauseButton, &QToolButton::clicked, this, [this] { setPaused(!m_receiver->isPaused()); });
    m_statusTimer->setInterval(250);
    connect(m_statusTimer, &QTimer::timeout, this, &LiveWiring::updateStatus);
    connect(m_receiver, &LiveReceiver::snapshotReady, this, &LiveWiring::show);
    connect(m_receiver, &LiveReceiver::pausedChanged, this, [this](bool paused) {
        if (m_pauseAction)
            m_pauseAction->setChecked(paused);
        updateStatus();
    });
    connect(m_receiver, &LiveReceiver::captureSaved, this,
            [this](const QString &path, qint64 spans, const QString &error) {
                updateActions();
                if (spans < 0)
                    QMessageBox::warning(m_window, tr("Save Capture"), error);
                else
                    m_window->statusBar()->showMessage(
                        tr("Saved %1 to %2")
                            .arg(CountText::of(spans, tr("span"), tr("spans")), QDir::toNativeSeparators(path)),
                        10'000);
                emit captureSaved(path, spans, error);
            });
    connect(m_receiver, &LiveReceiver::stopped, this, &LiveWiring::updateActions);
    // A file opened while listening is not replaced by the next snapshot:
    // the live view pauses (Resume shows the live workflows again).
    connect(window, &MainWindow::loadFinished, this, [this](bool ok) {
        if (ok && m_receiver->isListening())
            setPaused(true);
    });
}

void LiveWiring::addFileActions(QMenu *file)
{
    m_listenAction = file->addAction(tr("&Listen for OTLP\u2026"), this, &LiveWiring::chooseAndListen);
    m_listenAction->setToolTip(tr("Receive spans from running servers and agents (OTLP/HTTP and OTLP/gRPC)"));
    m_pauseAction = file->addAction(tr("&Pause Live View"), this, [this](bool on) { setPaused(on); });
    m_pauseAction->setCheckable(true);
    m_pauseAction->setEnabled(false);
    m_pauseAction->setToolTip(tr("Freeze the views; spans keep being received and shown on resume"));
    m_stopAction = file->addAction(tr("S&top Listening"), this, &LiveWiring::stop);
    m_stopAction->setEnabled(false);
    m_saveAction = file->addAction(tr("Save &Capture\u2026"), this, &LiveWiring::chooseAndSave);
    m_saveAction->setToolTip(
        tr("Write every span received and held as OTLP JSON Lines (reopens with File \u2192 Open)"));
    m_saveAction->setEnabled(false);
}

void LiveWiring::updateActions()
{
    if (m_saveAction)
        m_saveAction->setEnabled(m_receiver->hasCapture() && !m_receiver->isSaving());
}

void LiveWiring::chooseAndSave()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Save Capture"),
                                                      QDir::home().filePath(QStringLiteral("capture.otlp.jsonl")),
                                                      tr("OTLP JSON Lines (*.otlp.jsonl *.jsonl);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveCapture(path, &error))
        QMessageBox::warning(m_window, tr("Save Capture"), error);
}

bool LiveWiring::saveCapture(const QString &path, QString *error)
{
    const bool started = m_receiver->saveCapture(path, error);
    updateActions();
    return started;
}

void LiveWiring::chooseAndListen()
{
    ListenDialog dialog(m_receiver->settings(), m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    LiveReceiver::Settings settings = m_receiver->settings();
    QString error;
    if (!dialog.settings(&settings, &error) || !listen(settings, &error))
        QMessageBox::warning(m_window, tr("Listen for OTLP"), error);
}

bool LiveWiring::listen(const LiveReceiver::Settings &settings, QString *error)
{
    m_receiver->setPaused(false);
    if (!m_receiver->start(settings, error))
        return false;
    m_rate.clear();
    m_startedMs = QDateTime::currentMSecsSinceEpoch();
    m_statusTimer->start();
    for (QAction *action : {m_pauseAction, m_stopAction}) {
        if (action)
            action->setEnabled(true);
    }
    m_window->setWindowTitle(tr("Live OTLP \u2014 Tracelane"));
    updateStatus();
    updateActions();
    emit listeningChanged(true);
    return true;
}

void LiveWiring::stop()
{
    if (!m_receiver->isListening())
        return;
    m_receiver->stop(); // the last snapshot (every trace held) is shown unless paused
    m_statusTimer->stop();
    for (QAction *action : {m_pauseAction, m_stopAction}) {
        if (action)
            action->setEnabled(false);
    }
    updateStatus();
    updateActions();
    emit listeningChanged(false);
}

void LiveWiring::setPaused(bool paused)
{
    m_receiver->setPaused(paused);
}

void LiveWiring::show(std::shared_ptr<const TraceStore> store)
{
    const std::shared_ptr<const TraceStore> old = m_state->store();
    // Traces keep the order they were first seen in: until something is
    // evicted, the old rows lead the new store as the same requests, and the
    // selection and current request hold as they are (ids compared as bytes:
    // no text made per row on the GUI thread).
    const bool rowsKept = old && startsWith(store->requests, old->requests);
    const qint32 oldRow = m_state->currentRow();
    std::string currentId;
    if (!rowsKept && old && oldRow >= 0 && oldRow < old->requests.rowCount())
        currentId = std::string(old->requests.id(oldRow));
    qint64 first = 0;
    qint64 last = 0;
    TraceLoadJob::timeSpan(store->requests, &first, &last);
    // A refresh: views out of sight rebuild once they are looked at.
    m_state->refreshStore(std::move(store), rowsKept);
    m_window->setTraceSpan(last - first);
    if (!currentId.empty()) {
        // Rows moved: the workflow being looked at stays current, by id.
        const RequestTable &requests = m_state->store()->requests;
        for (qsizetype row = 0; row < requests.rowCount(); ++row) {
            if (requests.id(row) == currentId) {
                m_state->setCurrentRow(qint32(row));
                break;
            }
        }
    }
    updateStatus();
    emit snapshotShown();
}

bool LiveWiring::startsWith(const RequestTable &requests, const RequestTable &prefix)
{
    const qsizetype count = prefix.rowCount();
    if (count > requests.rowCount())
        return false;
    // The last row first: an eviction shifts it, and that is the usual miss.
    if (count > 0 && requests.id(count - 1) != prefix.id(count - 1))
        return false;
    for (qsizetype row = 0; row < count; ++row) {
        if (requests.id(row) != prefix.id(row))
            return false;
    }
    return true;
}

QString LiveWiring::statusText() const
{
    const LiveReceiver::Status status = m_receiver->status();
    if (!status.listening && status.received.requests == 0)
        return {};
    const QLocale locale;
    QStringList parts;
    QString where = status.listening ? tr("Listening on %1").arg(status.httpEndpoint)
                                     : tr("Stopped listening on %1").arg(status.httpEndpoint);
    if (!status.grpcEndpoint.isEmpty())
        where += tr(" and gRPC %1").arg(status.grpcEndpoint);
    if (status.beyondLoopback)
        where += tr(" (beyond loopback)");
    parts << where;
    double perSecond = 0;
    if (m_rate.size() >= 2 && m_rate.back().first > m_rate.front().first)
        perSecond = double(m_rate.back().second - m_rate.front().second) * 1000.0
            / double(m_rate.back().first - m_rate.front().first);
    if (status.listening)
        parts << tr("%1 spans/s").arg(locale.toString(perSecond, 'f', 0));
    parts << tr("%1 received").arg(CountText::of(status.received.acceptedSpans, tr("span"), tr("spans")));
    QString held = tr("%1 held").arg(CountText::of(status.held.workflowsHeld, tr("workflow"), tr("workflows")));
    if (status.held.workflowsPending > 0)
        held += tr(" (%1 in progress)").arg(locale.toString(status.held.workflowsPending));
    parts << held;
    if (status.held.evictedWorkflows > 0)
        parts << tr("%1 evicted").arg(locale.toString(status.held.evictedWorkflows));
    parts << tr("%1 rejected").arg(CountText::of(status.received.rejectedSpans, tr("span"), tr("spans")));
    parts << tr("%1 refused").arg(CountText::of(status.refusedRequests, tr("request"), tr("requests")));
    if (status.paused)
        parts << tr("PAUSED (views frozen, still receiving)");
    return parts.join(QStringLiteral(" \u00b7 "));
}

void LiveWiring::updateStatus()
{
    const LiveReceiver::Status status = m_receiver->status();
    const qint64 now = QDateTime::currentMSecsSinceEpoch() - m_startedMs;
    if (status.listening) {
        m_rate.emplace_back(now, status.received.acceptedSpans);
        while (m_rate.size() > 2 && now - m_rate.front().first > 2000)
            m_rate.pop_front();
    }
    const QString text = statusText();
    // A fixed size that only grows in 40 px steps: a label whose size hint
    // changes relays out the whole main window (every dock) 4 times a second;
    // a fixed one does not. Capped at half the window, elided past it (the
    // whole text is the tooltip's first line).
    const QFontMetrics metrics = m_status->fontMetrics();
    const int cap = std::max(200, m_window->width() / 2);
    const int wanted = std::min(cap, (metrics.horizontalAdvance(text) + 8 + 39) / 40 * 40);
    if (wanted > m_status->width() || m_status->width() > cap || m_status->minimumWidth() != m_status->maximumWidth())
        m_status->setFixedSize(wanted, metrics.height() + 4);
    m_status->setText(metrics.elidedText(text, Qt::ElideRight, m_status->width() - 8));
    m_status->setVisible(!text.isEmpty());
    // The reasons behind the counts, in the tooltip: the first of each kind.
    QStringList reasons;
    for (const auto &[field, group] : status.received.rejectionsByField)
        reasons << tr("rejected %1 \u00d7 %2: %3").arg(group.count).arg(field, group.example);
    for (const auto &[answer, group] : status.received.refusals)
        reasons << tr("refused %1 request(s) with %2: %3").arg(group.count).arg(answer, group.example);
    reasons.prepend(reasons.isEmpty() ? tr("%1\nNothing rejected or refused").arg(text) : text);
    m_status->setToolTip(reasons.join(QLatin1Char('\n')));
    m_pauseButton->setVisible(status.listening);
    m_pauseButton->setText(status.paused ? tr("Resume") : tr("Pause"));
    m_pauseButton->setToolTip(status.paused ? tr("Show what was received meanwhile and follow it again")
                                            : tr("Freeze the views; receiving goes on"));
}
