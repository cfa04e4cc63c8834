#include "MainWindow.h"

#include "ReportView.h"
#include "analysis/ProfileReport.h"
#include "io/LoadControl.h"
#include "io/TraceFileLoader.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QProgressBar>
#include <QStatusBar>
#include <QTimer>
#include <QtConcurrent>

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_report(new ReportView(this))
    , m_progress(new QProgressBar(this))
    , m_status(new QLabel(this))
    , m_progressTimer(new QTimer(this))
{
    setWindowTitle(QStringLiteral("Tracelane"));
    setCentralWidget(m_report);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    m_progress->setRange(0, 1000);
    m_progress->hide();
    m_progressTimer->setInterval(100);
    connect(m_progressTimer, &QTimer::timeout, this, &MainWindow::updateProgress);
    createActions();
    m_report->showMessage(tr("Open a trace with File \u2192 Open (Ctrl+O) or drop one on the window."));
}

MainWindow::~MainWindow()
{
    if (m_loadControl)
        m_loadControl->cancel();
}

void MainWindow::createActions()
{
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    QAction *open = fileMenu->addAction(tr("&Open\u2026"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open trace"), QString(),
                                                          tr("Traces (*.jsonl *.json *.csv);;All files (*)"));
        if (!path.isEmpty())
            openFile(path);
    });
    open->setShortcut(QKeySequence::Open);
    fileMenu->addSeparator();
    QAction *quit = fileMenu->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);
}

void MainWindow::openFile(const QString &path)
{
    if (m_loadControl)
        m_loadControl->cancel();
    const quint64 generation = ++m_loadGeneration;
    auto control = std::make_shared<LoadControl>();
    m_loadControl = control;
    m_status->setText(tr("Loading %1\u2026").arg(QFileInfo(path).fileName()));
    m_progress->setValue(0);
    m_progress->show();
    m_progressTimer->start();
    QtConcurrent::run([path, control] { return TraceFileLoader::load(path, LoadOptions{}, control.get()); })
        .then(this, [this, generation, path](const LoadResult &result) {
            if (generation != m_loadGeneration)
                return;   // a newer load replaced this one
            finishLoad(result, path);
        });
}

void MainWindow::updateProgress()
{
    if (m_loadControl)
        m_progress->setValue(int(m_loadControl->fraction() * 1000.0));
}

void MainWindow::finishLoad(const LoadResult &result, const QString &path)
{
    m_progressTimer->stop();
    m_progress->hide();
    m_loadControl.reset();
    if (!result.ok()) {
        const QString message = result.cancelled ? tr("Loading %1 was cancelled.").arg(path) : result.fatalError;
        m_status->setText(message);
        m_report->showMessage(message);
        emit loadFinished(false);
        return;
    }
    m_store = result.store;
    auto report = profileRequests(m_store->requests, m_boundary, QFileInfo(path).fileName(),
                                  QStringLiteral("trace replay"));
    report.rejected = qint64(m_store->rejected.size());
    m_report->showReport(report, *m_store);
    setWindowTitle(tr("%1 \u2014 Tracelane").arg(QFileInfo(path).fileName()));
    m_status->setText(tr("%1 requests loaded, %2 rejected | %3 boundary")
                          .arg(m_store->requests.rowCount())
                          .arg(m_store->rejected.size())
                          .arg(boundaryKey(m_boundary)));
    emit loadFinished(true);
}
