#include "ReviewWiring.h"

#include "ClassSplitBar.h"
#include "ClassTablePanel.h"
#include "MainWindow.h"
#include "NotesPanel.h"
#include "PlotFigure.h"
#include "RecordPanel.h"
#include "ReportWriter.h"
#include "SessionController.h"
#include "SwimlaneView.h"
#include "TableCopy.h"
#include "ViewFigures.h"
#include "ViewState.h"
#include "WhatIfPanel.h"
#include "WorkflowPanel.h"
#include "review/DesignReport.h"
#include "review/ReportComparison.h"
#include "review/SessionJson.h"

#include <QAction>
#include <QDate>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
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
    m_notes = new NotesPanel(state, window);
    QDockWidget *notes = window->addDock(QStringLiteral("notesDock"), tr("Notes"), m_notes, Qt::BottomDockWidgetArea);
    if (auto *requests = window->findChild<QDockWidget *>(QStringLiteral("requestsDock"))) {
        window->tabifyDockWidget(requests, dock);
        window->tabifyDockWidget(requests, notes);
    }
    m_session = new SessionController(window, m_record, m_notes);
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
    file->addAction(tr("Open &Session\u2026"), m_session, &SessionController::openWithDialog)
        ->setObjectName(QStringLiteral("openSessionAction"));
    file->addAction(tr("Save Sessio&n\u2026"), m_session, &SessionController::saveWithDialog)
        ->setObjectName(QStringLiteral("saveSessionAction"));
    QAction *report = file->addAction(tr("Export &Report\u2026"), this, &ReviewWiring::exportReportWithDialog);
    report->setObjectName(QStringLiteral("exportReportAction"));
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
    return m_record->isComputing() || m_reportJob.isRunning() || m_session->isRestoring();
}

bool ReviewWiring::openIfSession(const QString &path)
{
    if (!SessionJson::isSession(path))
        return false;
    QString error;
    if (!m_session->open(path, &error))
        QMessageBox::warning(m_window, tr("Open session"), error);
    return true;
}

void ReviewWiring::exportReport(const QString &path)
{
    const auto store = m_state->store();
    if (!store) {
        emit reportWritten(false, tr("Open a trace before exporting its report."));
        return;
    }
    // Everything the worker needs is copied here; it never touches a widget.
    DesignReport::Options options;
    options.trace = QFileInfo(m_window->currentFile()).fileName();
    if (options.trace.isEmpty() && !store->sourceFiles.isEmpty())
        options.trace = QFileInfo(store->sourceFiles.first()).fileName();
    if (m_state->hasSlice()) {
        const auto rows = m_state->slice().rows();
        options.rows.assign(rows.begin(), rows.end());
        options.slice = m_state->sliceLabel();
    }
    options.classDimensions = m_window->classTable()->dimensions();
    if (const auto *split = m_window->classTable()->findChild<ClassSplitBar *>())
        options.bands = split->bands();
    options.workflow = m_window->workflowPanel()->workflow();
    options.whatIfs = m_window->workflowPanel()->whatIfPanel()->edits();
    options.date = QDate::currentDate().toString(Qt::ISODate);
    DiagnosisRecord record = m_record->record();
    // A trace compared (File > Compare With) is the report's candidate: its
    // comparison and the stop rule's verdict go in, as with --candidate.
    const auto candidate = m_state->candidate();
    QString candidateName;
    if (candidate)
        candidateName
            = QFileInfo(candidate->sourceFiles.isEmpty() ? m_state->candidateLabel() : candidate->sourceFiles.first())
                  .fileName();
    m_window->statusBar()->showMessage(tr("Writing the report to %1\u2026").arg(QFileInfo(path).fileName()));
    m_reportJob.start(
        [store, candidate, candidateName, options, record, path](const std::atomic<bool> *cancelled) mutable {
            if (candidate)
                ReportComparison::attach(record, options, store, candidate, candidateName);
            const ReportDocument document = DesignReport::build(record, store, options, cancelled);
            QString error;
            const bool ok = !cancelled->load() && ReportWriter::write(document, path, &error);
            return std::pair<bool, QString>(ok, error);
        },
        [this, path](const std::pair<bool, QString> &result) {
            const QString message = result.first ? tr("Wrote the report to %1.").arg(path)
                                                 : tr("Could not write the report: %1").arg(result.second);
            m_window->statusBar()->showMessage(message, 10'000);
            emit reportWritten(result.first, message);
        });
}

void ReviewWiring::exportReportWithDialog()
{
    QString path
        = QFileDialog::getSaveFileName(m_window, tr("Export report"), QString(),
                                       tr("HTML, one file (*.html);;PDF (*.pdf);;Markdown with figures (*.md)"));
    if (path.isEmpty())
        return;
    ReportWriter::Format format = ReportWriter::Format::Html;
    if (!ReportWriter::formatOf(path, &format))
        path += QStringLiteral(".html");
    connect(
        this, &ReviewWiring::reportWritten, this,
        [this](bool ok, const QString &message) {
            if (!ok)
                QMessageBox::warning(m_window, tr("Export report"), message);
        },
        Qt::SingleShotConnection);
    exportReport(path);
}
