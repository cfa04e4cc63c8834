#pragma once

#include "MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QSignalSpy>
#include <QTabBar>
#include <QTest>

// Drives the main window as a user does in widget tests: opens files and
// waits for every view to settle, clicks dock tabs, finds actions by their
// shortcut, presses keys where the focus is.
namespace WindowDriver {

// Loads `path` through the window and waits until every view has settled.
// True when the load succeeded.
inline bool openAndSettle(MainWindow &window, const QString &path)
{
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openFile(path);
    if (finished.isEmpty() && !finished.wait(60'000))
        return false;
    if (!QTest::qWaitFor([&window] { return !window.isBusy(); }, 60'000))
        return false;
    return finished.at(0).at(0).toBool();
}

// Waits until no view of the window computes any more.
inline bool settle(MainWindow &window)
{
    return QTest::qWaitFor([&window] { return !window.isBusy(); }, 60'000);
}

inline QAction *actionWithShortcut(QWidget &window, const QKeySequence &keys)
{
    for (QAction *action : window.findChildren<QAction *>()) {
        if (action->shortcut() == keys)
            return action;
    }
    return nullptr;
}

// The tab bar holding a dock tab titled `title`, and that tab's index.
inline QTabBar *tabBarOf(const QMainWindow &window, const QString &title, int *index)
{
    for (QTabBar *bar : window.findChildren<QTabBar *>()) {
        if (!bar->isVisible())
            continue; // the main window keeps unused tab bars around
        for (int tab = 0; tab < bar->count(); ++tab) {
            if (bar->tabText(tab) == title) {
                *index = tab;
                return bar;
            }
        }
    }
    return nullptr;
}

// The title of the dock in front of the tab group that holds `member`.
inline QString frontTab(const QMainWindow &window, const QString &member)
{
    int index = -1;
    const QTabBar *bar = tabBarOf(window, member, &index);
    return bar ? bar->tabText(bar->currentIndex()) : QString();
}

// Clicks the dock tab titled `title`, as the user does. False if there is none.
inline bool clickTab(const QMainWindow &window, const QString &title)
{
    int index = -1;
    QTabBar *bar = tabBarOf(window, title, &index);
    if (!bar)
        return false;
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(index).center());
    if (bar->currentIndex() != index)
        return false;
    // The main window lays the docks out again when it next gets to it; a
    // user's next key press comes later than that.
    QTest::qWait(20);
    return true;
}

// Presses `key` wherever the keyboard focus is (the window when nothing has it).
inline void pressKey(QWidget &window, Qt::Key key, Qt::KeyboardModifiers modifiers = {})
{
    QWidget *target = QApplication::focusWidget();
    QTest::keyClick(target ? target : &window, key, modifiers);
}

} // namespace WindowDriver
