#include "ReportView.h"

#include "analysis/requests/ProfileReport.h"
#include "report/ReportText.h"
#include "store/TraceStore.h"

#include <QFontDatabase>

ReportView::ReportView(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setObjectName(QStringLiteral("reportView"));
}

void ReportView::showReport(const ProfileReport &report, const TraceStore &store)
{
    QString text = ReportText::profile(report) + QLatin1Char('\n') + ReportText::rejectedSummary(store.rejected);
    if (!store.notices.empty())
        text += QLatin1Char('\n') + ReportText::notices(store.notices);
    setPlainText(text);
}

void ReportView::showMessage(const QString &message)
{
    setPlainText(message);
}
