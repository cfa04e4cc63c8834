#pragma once

#include <QObject>
#include <QPointer>

#include <functional>

class QDockWidget;
class QWidget;

// Work a view may leave undone while nobody can see it, and must do once it
// comes into sight. The live view replaces the store several times a second;
// a panel whose dock is closed or behind another tab rebuilds once, when it
// is looked at, instead of on every refresh (its labels' text layout, plot
// replots and background jobs were most of the GUI thread's time per refresh).
//
// Out of sight: the view's window is shown and the view is not, or it is
// "visible" but covers no pixel of the window (Qt moves a dock behind
// another tab out of the window instead of hiding it). A view in a window
// that is not shown (tests, figures rendered off screen) is never out of
// sight: its work is done at once, as before.
class InSightWork : public QObject
{
    Q_OBJECT
public:
    InSightWork(QWidget *view, std::function<void()> work);

    static bool isOutOfSight(const QWidget *view);

    // Does the work now; or, when `mayWait` and the view is out of sight,
    // once it comes into sight (a second request meanwhile is the same one).
    void run(bool mayWait = true);
    // Work kept for later, not done yet.
    bool isPending() const { return m_pending; }
    // Does kept work now, in sight or not; nothing when none is kept.
    void flush();
    // Flushes the work kept by `widget` and by every widget it sits in (a
    // figure exported from a panel out of sight draws what the panel shows
    // once looked at; work that runs in the background is started, not awaited).
    static void flushAround(QWidget *widget);
    // The work was done another way (asked for directly): nothing is kept.
    void markDone() { m_pending = false; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void watchDock();
    void catchUp();

    QWidget *m_view = nullptr;
    std::function<void()> m_work;
    QPointer<QDockWidget> m_dock;
    bool m_pending = false;
    bool m_catchUpQueued = false;
};
