#include "InSightWork.h"

#include <QDockWidget>
#include <QEvent>
#include <QTimer>
#include <QWidget>

#include <utility>

InSightWork::InSightWork(QWidget *view, std::function<void()> work)
    : QObject(view)
    , m_view(view)
    , m_work(std::move(work))
{
    view->installEventFilter(this);
}

bool InSightWork::isOutOfSight(const QWidget *view)
{
    if (!view->window()->isVisible())
        return false;
    return !view->isVisible() || view->visibleRegion().isEmpty();
}

void InSightWork::run(bool mayWait)
{
    if (mayWait && isOutOfSight(m_view)) {
        m_pending = true;
        watchDock();
        return;
    }
    m_pending = false;
    m_work();
}

void InSightWork::flush()
{
    if (!m_pending)
        return;
    m_pending = false;
    m_work();
}

void InSightWork::flushAround(QWidget *widget)
{
    for (QWidget *up = widget; up; up = up->parentWidget()) {
        for (InSightWork *work : up->findChildren<InSightWork *>(Qt::FindDirectChildrenOnly))
            work->flush();
    }
}

// The dock is found when work is first kept: a panel is made before the
// window puts it into its dock (and a dock can be moved or floated).
void InSightWork::watchDock()
{
    QDockWidget *dock = nullptr;
    for (QWidget *up = m_view->parentWidget(); up && !dock; up = up->parentWidget())
        dock = qobject_cast<QDockWidget *>(up);
    if (dock == m_dock)
        return;
    if (m_dock)
        disconnect(m_dock, nullptr, this, nullptr);
    m_dock = dock;
    if (m_dock) {
        // A tab brought to the front: its dock says so once Qt has laid it out.
        connect(m_dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
            if (visible)
                catchUp();
        });
    }
}

bool InSightWork::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view && m_pending
        && (event->type() == QEvent::Show || event->type() == QEvent::Move || event->type() == QEvent::Resize))
        catchUp();
    return QObject::eventFilter(watched, event);
}

// Once the event loop turns: the geometry that brings the view into sight
// is applied after the signal or event that announces it.
void InSightWork::catchUp()
{
    if (!m_pending || m_catchUpQueued)
        return;
    m_catchUpQueued = true;
    QTimer::singleShot(0, this, [this] {
        m_catchUpQueued = false;
        if (m_pending && !isOutOfSight(m_view))
            flush();
    });
}
