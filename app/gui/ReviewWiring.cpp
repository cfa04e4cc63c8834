#include "ReviewWiring.h"

#include "MainWindow.h"
#include "RecordPanel.h"

#include <QDockWidget>
#include <QMenu>

ReviewWiring::ReviewWiring(MainWindow *window, ViewState *state)
    : QObject(window)
    , m_window(window)
    , m_state(state)
    , m_record(new RecordPanel(state, window))
{
    QDockWidget *dock = window->addDock(QStringLiteral("recordDock"), tr("Record"), m_record, Qt::BottomDockWidgetArea);
    if (auto *requests = window->findChild<QDockWidget *>(QStringLiteral("requestsDock")))
        window->tabifyDockWidget(requests, dock);
}

void ReviewWiring::addFileActions(QMenu *file)
{
    file->addAction(tr("Open &Diagnosis Record\u2026"), m_record, &RecordPanel::openWithDialog);
    file->addAction(tr("Save Diagnosis Recor&d\u2026"), m_record, &RecordPanel::saveWithDialog);
}

bool ReviewWiring::isBusy() const
{
    return m_record->isComputing();
}
