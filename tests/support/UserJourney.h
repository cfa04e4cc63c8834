#pragma once

// Helpers of the tests that drive the main window as a newcomer does
// (tst_userjourneys, tst_userlayout).

#include "MainWindow.h"
#include "RequestTablePanel.h"
#include "ViewState.h"
#include "support/TestData.h"
#include "support/WindowDriver.h"

#include <QApplication>
#include <QDropEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QTest>
#include <QUrl>

#include <memory>

namespace UserJourney {

inline QString mixedClasses()
{
    return TestData::source(QStringLiteral("resources/examples/mixed-classes.jsonl"));
}

inline QString labelText(const QWidget &parent, const char *name)
{
    const auto *label = parent.findChild<QLabel *>(QLatin1String(name));
    return label ? label->text() : QStringLiteral("(no label %1)").arg(QLatin1String(name));
}

// Drops `paths` on the window, as a file manager does.
inline void dropFiles(MainWindow &window, const QStringList &paths)
{
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString &path : paths)
        urls.append(QUrl::fromLocalFile(path));
    mime.setUrls(urls);
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
}

// Types `text` into the Requests filter after clicking it, and waits for
// the filter to reach every view.
inline bool typeFilter(MainWindow &window, const QString &text)
{
    QLineEdit *filter = window.requestTable()->filterEdit();
    QTest::mouseClick(filter, Qt::LeftButton, {}, filter->rect().center());
    if (QApplication::focusWidget() != filter)
        return false;
    filter->selectAll();
    QTest::keyClicks(filter, text);
    if (!QTest::qWaitFor([&window] { return window.viewState()->hasSlice(); }, 10'000))
        return false;
    return WindowDriver::settle(window);
}

inline std::unique_ptr<MainWindow> shownWindow(QSize size = QSize(1400, 900))
{
    auto window = std::make_unique<MainWindow>();
    window->setPersistent(false);
    window->resize(size);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return nullptr;
    return window;
}

} // namespace UserJourney
