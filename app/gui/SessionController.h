#pragma once

#include "LatestJob.h"
#include "review/Session.h"

#include <QHash>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <optional>

class MainWindow;
class NotesPanel;
class RecordPanel;

// File > Save Session / Open Session: captures what the window shows into a
// Session (model/review) and restores it — the trace is loaded first, then
// every view is set in the order its inputs become ready (the slice and the
// class split after the load, the exceedance member once its set exists,
// zoom once the lanes are laid out) — and says when the view is complete
// (sessionRestored), so `tracelane --screenshot OUT SESSION` grabs the view
// the session saved. A trace that moved is reported with its path; the user
// can locate it (interactive) or the open fails (headless). A trace whose
// content changed since (size and SHA-256, hashed off the GUI thread after
// every load) is restored but reported, and fails a headless run.
class SessionController : public QObject
{
    Q_OBJECT
public:
    SessionController(MainWindow *window, RecordPanel *record, NotesPanel *notes);

    Session capture() const;
    bool save(const QString &path, QString *error) const;
    // Starts opening `path`; false (with the reason) when it cannot even start.
    bool open(const QString &path, QString *error);
    // Off for headless runs: a missing trace fails instead of asking.
    void setInteractive(bool interactive) { m_interactive = interactive; }
    // Where a missing trace went: returns its new path, or empty to give up.
    // Interactive sessions ask with a file dialog unless a locator is set.
    using Locator = std::function<QString(const QString &missing)>;
    void setLocator(Locator locator) { m_locator = std::move(locator); }
    // Part of MainWindow::isBusy, so a screenshot waits for the whole restore.
    bool isRestoring() const { return m_pending.has_value() && !m_askingWindow; }

    void saveWithDialog();
    void openWithDialog();

signals:
    void sessionRestored(bool ok, const QString &message);

private:
    // The new place of a missing trace (locator, or a dialog when
    // interactive); empty when the user gave up or nobody can ask.
    QString locate(const QString &missing, const QString &sessionPath);
    enum class Stage { Loading, Views, Late, Settling };

    void onLoadFinished(bool ok);
    // Hashes the loaded and the compared trace in the background.
    void fingerprintTraces();
    SessionTrace traceOf(const QString &path) const;
    QString fingerprintProblem(const SessionTrace &saved) const;
    void step();
    void applyViews();
    void applyLate();
    void finish(bool ok, const QString &message);
    // The window busy with anything but this restore.
    bool windowBusy() const;
    qint32 rowOf(const QString &id) const;
    std::vector<qint32> rowsOf(const QStringList &ids) const;
    void updateGanttBookmarks();

    MainWindow *m_window = nullptr;
    RecordPanel *m_record = nullptr;
    NotesPanel *m_notes = nullptr;
    bool m_interactive = true;
    Locator m_locator;
    std::optional<Session> m_pending;
    Stage m_stage = Stage::Loading;
    QTimer m_poll;
    QString m_path;
    QStringList m_problems;                          // what could not be restored, said when done
    QHash<QString, TraceFingerprint> m_fingerprints; // by absolute path
    LatestJob m_hashJob{this};
    mutable bool m_askingWindow = false;
};
