#include "DockLayout.h"

#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>

#include <algorithm>

namespace {

QDockWidget *dock(const QMainWindow &window, const char *name)
{
    return window.findChild<QDockWidget *>(QLatin1String(name));
}

int share(int total, double fraction, int least, int most)
{
    return std::clamp(int(total * fraction), least, std::max(least, most));
}

} // namespace

DockLayout::Density DockLayout::densityFor(QSize windowSize)
{
    return windowSize.width() >= kRoomy.width() && windowSize.height() >= kRoomy.height() ? Density::Roomy
                                                                                          : Density::Compact;
}

DockLayout::DockLayout(QMainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_structure(window->saveState())
{
    window->installEventFilter(this);
}

void DockLayout::reset()
{
    m_window->restoreState(m_structure);
    fit();
}

bool DockLayout::eventFilter(QObject *watched, QEvent *event)
{
    // Once, when the window has its size: the docks are sized from it.
    if (watched == m_window && event->type() == QEvent::Show && m_fitOnShow) {
        m_fitOnShow = false;
        fit();
    }
    return QObject::eventFilter(watched, event);
}

void DockLayout::fit()
{
    QDockWidget *distributions = dock(*m_window, "distributionsDock");
    QDockWidget *detail = dock(*m_window, "detailDock");
    QDockWidget *requests = dock(*m_window, "requestsDock");
    if (!distributions || !detail || !requests)
        return;
    const QSize size = m_window->size();
    m_density = densityFor(size);
    if (m_density == Density::Compact) {
        // One tab group on the right: Distributions, Profile Report, Request Detail.
        m_window->tabifyDockWidget(distributions, detail);
        distributions->raise();
        m_window->resizeDocks({distributions}, {share(size.width(), 0.34, 360, 480)}, Qt::Horizontal);
        m_window->resizeDocks({requests}, {share(size.height(), 0.31, 200, 300)}, Qt::Vertical);
    } else {
        m_window->resizeDocks({distributions}, {share(size.width(), 0.28, 480, 620)}, Qt::Horizontal);
        m_window->resizeDocks({requests}, {share(size.height(), 0.33, 300, 420)}, Qt::Vertical);
        const int column = size.height() - share(size.height(), 0.33, 300, 420);
        m_window->resizeDocks({distributions, detail}, {column * 7 / 10, column * 3 / 10}, Qt::Vertical);
    }
    m_givenSinceFit.clear();
    for (const auto &[roomy, front] : m_front) {
        if (front)
            turnedTo(roomy, true);
    }
}

void DockLayout::giveRoomWhenShown(QDockWidget *dock, double share)
{
    m_roomy[dock] = share;
    m_front[dock] = false;
    connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) { turnedTo(dock, visible); });
}

void DockLayout::turnedTo(QDockWidget *dock, bool front)
{
    m_front[dock] = front;
    if (!front || m_fitOnShow || m_givenSinceFit.contains(dock))
        return; // not in front, or fit() gives it room once the window is shown
    m_givenSinceFit.insert(dock);
    giveRoom(dock, m_roomy[dock]);
}

void DockLayout::giveRoom(QDockWidget *dock, double share)
{
    if (!dock || dock->isFloating() || m_window->dockWidgetArea(dock) != Qt::BottomDockWidgetArea)
        return;
    const int wanted = int(m_window->height() * share);
    if (dock->height() < wanted)
        m_window->resizeDocks({dock}, {wanted}, Qt::Vertical);
}
