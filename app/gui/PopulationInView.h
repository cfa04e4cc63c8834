#pragma once

#include <QObject>
#include <QString>

class MainWindow;
class QAction;
class ViewState;

// A window holding a server's sample (clickhouse://…&sample=N) draws one
// request in N. "All in View" opens every request of the population sent in
// the lanes' visible time range, fetched from the server into a window of
// its own (the count is checked before anything is fetched: a range too
// large is refused there with a sample that fits). Kept out of MainWindow.
class PopulationInView : public QObject
{
    Q_OBJECT
public:
    PopulationInView(MainWindow *window, ViewState *state);

    QAction *action() const { return m_action; }
    // What the action opens now: the population's URL narrowed to the
    // visible time range, without the sample; empty when there is none
    // (no server's sample held, aligned lanes, no time range).
    QString url() const;

private:
    void update();
    void open();

    MainWindow *m_window = nullptr;
    ViewState *m_state = nullptr;
    QAction *m_action = nullptr;
};
