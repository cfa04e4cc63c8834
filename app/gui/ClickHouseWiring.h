#pragma once

#include <QObject>
#include <QString>

class MainWindow;
class QAction;
class QMenu;
class ViewState;

// The main window's ClickHouse actions, kept out of MainWindow:
// File → Open from ClickHouse… and Compare With ClickHouse… (the dialog,
// remembering the last URL), and on a window holding a server's sample
// (clickhouse://…&sample=N, one request in N drawn) View → Open All
// Requests Sent in View: every request of the population sent in the lanes'
// visible time range, fetched from the server into a window of its own (the
// count is checked before anything is fetched: a range too large is refused
// there with a sample that fits).
class ClickHouseWiring : public QObject
{
    Q_OBJECT
public:
    ClickHouseWiring(MainWindow *window, ViewState *state);

    // Open from ClickHouse… and Compare With ClickHouse… at the end of `file`.
    void addFileActions(QMenu *file);
    // Asks for the server, table and time range and opens the URL like a
    // file (spans fetched off the GUI thread, with progress and cancel).
    void openFromClickHouse();
    // The same dialog; the table's rows as the candidate beside the loaded trace.
    void compareWithClickHouse();

    QAction *allInViewAction() const { return m_allInView; }
    // What All in View opens now: the population's URL narrowed to the
    // visible time range, without the sample; empty when there is none
    // (no server's sample held, aligned lanes, no time range).
    QString allInViewUrl() const;

private:
    // The dialog under `title`, starting from the last URL; the URL chosen, or empty.
    QString askUrl(const QString &title);
    void updateAllInView();
    void openAllInView();

    MainWindow *m_window = nullptr;
    ViewState *m_state = nullptr;
    QAction *m_allInView = nullptr;
};
