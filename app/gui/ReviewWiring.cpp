#include "ReviewWiring.h"

#include "MainWindow.h"
#include "PlotFigure.h"
#include "RecordPanel.h"
#include "SwimlaneView.h"
#include "TableCopy.h"
#include "ViewFigures.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QTableView>

namespace {

// A panel that copies its own way (the rejected records) keeps its Ctrl+C.
bool hasOwnCopy(QWidget *widget, QWidget *window)
{
    for (QWidget *w = widget; w && w != window; w = w->parentWidget()) {
        const QList<QAction *> actions = w->actions();
        if (std::any_of(actions.begin(), actions.end(),
                        [](const QAction *a) { return a->shortcut() == QKeySequence(QKeySequence::Copy); }))
            return true;
    }
    return false;
}

} // namespace

ReviewWiring::ReviewWiring(MainWindow *window, ViewState *state)
    : QObject(window)
    , m_window(window)
    , m_state(state)
    , m_record(new RecordPanel(state, window))
{
    QDockWidget *dock = window->addDock(QStringLiteral("recordDock"), tr("Record"), m_record, Qt::BottomDockWidgetArea);
    if (auto *requests = window->findChild<QDockWidget *>(QStringLiteral("requestsDock")))
        window->tabifyDockWidget(requests, dock);
    m_figures = ViewFigures::all(window);
}

void ReviewWiring::installViewActions()
{
    // Every table copies its selection as TSV (Ctrl+C) or Markdown.
    for (QTableView *view : m_window->findChildren<QTableView *>()) {
        if (view->objectName() == QStringLiteral("recordObjectives") || hasOwnCopy(view, m_window))
            continue;
        TableCopy::install(view);
    }
    // Plots, timelines and the Gantt export from their context menu; the
    // swimlanes keep the right button for zooming and export from the menu.
    for (const FigureSource &source : m_figures) {
        QWidget *widget = source.widget();
        const bool swimlanes = widget == static_cast<QWidget *>(m_window->swimlanes());
        if (widget && !swimlanes && widget->contextMenuPolicy() == Qt::DefaultContextMenu)
            FigureExport::addContextAction(widget, source);
    }
}

void ReviewWiring::addFileActions(QMenu *file)
{
    QMenu *figures = file->addMenu(tr("Export &Figure"));
    figures->setObjectName(QStringLiteral("exportFigureMenu"));
    for (const FigureSource &source : m_figures) {
        figures->addAction(source.name + QStringLiteral("\u2026"), m_window,
                           [this, source] { FigureExport::exportWithDialog(source, m_window); });
    }
    file->addAction(tr("Open &Diagnosis Record\u2026"), m_record, &RecordPanel::openWithDialog);
    file->addAction(tr("Save Diagnosis Recor&d\u2026"), m_record, &RecordPanel::saveWithDialog);
}

bool ReviewWiring::isBusy() const
{
    return m_record->isComputing();
}
