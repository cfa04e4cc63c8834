#pragma once

#include <QPlainTextEdit>

struct ProfileReport;
class TraceStore;

// Read-only text panel with the profiler report of the loaded trace, in the
// same words the CLI prints, so a screenshot and a terminal agree.
class ReportView : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit ReportView(QWidget *parent = nullptr);

    void showReport(const ProfileReport &report, const TraceStore &store);
    void showMessage(const QString &message);
};
