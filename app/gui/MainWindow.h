#pragma once

#include "analysis/Boundary.h"
#include "io/LoadResult.h"

#include <QMainWindow>

#include <memory>

class LoadControl;
class QLabel;
class QProgressBar;
class QTimer;
class ReportView;

// Wires the views to the loaded trace. Computes nothing itself: loading and
// analysis run in the model on worker threads.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    void openFile(const QString &path);
    std::shared_ptr<const TraceStore> store() const { return m_store; }

signals:
    // Emitted once a load has finished, failed or been cancelled.
    void loadFinished(bool ok);

private:
    void createActions();
    void finishLoad(const LoadResult &result, const QString &path);
    void updateProgress();

    std::shared_ptr<const TraceStore> m_store;
    std::shared_ptr<LoadControl> m_loadControl;
    quint64 m_loadGeneration = 0;
    Boundary m_boundary = Boundary::Client;
    ReportView *m_report = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QTimer *m_progressTimer = nullptr;
};
