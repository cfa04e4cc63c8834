#pragma once

#include "review/Session.h"

#include <QWidget>

#include <vector>

class QLabel;
class QTableWidget;
class ViewState;

// The Notes dock: bookmarks with notes on requests and on workflow spans,
// saved in the session. Bookmarked requests are marked on their lanes
// (ViewState::bookmarks) and bookmarked spans on their Gantt rows;
// double-clicking a note opens its request.
class NotesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit NotesPanel(ViewState *state, QWidget *parent = nullptr);

    const std::vector<SessionNote> &notes() const { return m_notes; }
    void setNotes(std::vector<SessionNote> notes);
    void addNote(const SessionNote &note);
    void removeNote(int index);
    // The span a "Bookmark Span" click bookmarks (from the Gantt's selection);
    // an empty id disables the button.
    void setCurrentSpan(const QString &requestId, const QString &spanId, const QString &label);

    QTableWidget *table() const { return m_table; }

signals:
    void notesChanged();
    void noteActivated(const SessionNote &note);

private:
    void rebuild();
    void updateBookmarks();

    ViewState *m_state = nullptr;
    std::vector<SessionNote> m_notes;
    QTableWidget *m_table = nullptr;
    QLabel *m_hint = nullptr;
    SessionNote m_currentSpan;
    QString m_currentSpanLabel;
};
