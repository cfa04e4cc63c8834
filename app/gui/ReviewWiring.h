#pragma once

#include "FigureExport.h"
#include "LatestJob.h"

#include <QObject>

#include <vector>

class MainWindow;
class NotesPanel;
class QMenu;
class RecordPanel;
class SessionController;
class ViewState;

// The design-review features in the main window, kept out of MainWindow:
// the Record dock, its File menu entries and what they need from the
// window. Computes nothing; the model drafts and renders.
class ReviewWiring : public QObject
{
    Q_OBJECT
public:
    ReviewWiring(MainWindow *window, ViewState *state);

    RecordPanel *recordPanel() const { return m_record; }
    NotesPanel *notesPanel() const { return m_notes; }
    SessionController *session() const { return m_session; }
    // Opens `path` as a session when it is one (by content); false otherwise.
    bool openIfSession(const QString &path);
    void addFileActions(QMenu *file);
    // Table copy and figure export on the views; after every dock exists.
    void installViewActions();
    const std::vector<FigureSource> &figures() const { return m_figures; }
    bool isBusy() const;

    // The one-page report of the loaded trace and its record, written off the
    // GUI thread; reportWritten() tells how it went.
    void exportReport(const QString &path);
    void exportReportWithDialog();

signals:
    void reportWritten(bool ok, const QString &message);

private:
    MainWindow *m_window = nullptr;
    ViewState *m_state = nullptr;
    RecordPanel *m_record = nullptr;
    NotesPanel *m_notes = nullptr;
    SessionController *m_session = nullptr;
    std::vector<FigureSource> m_figures;
    LatestJob m_reportJob{this};
};
