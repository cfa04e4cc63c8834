#pragma once

#include <QWidget>

class QLabel;
struct TraceComparison;

// The words of a comparison: the stop rule's verdict (coloured and spelled
// out) with every reason and guardrail, the prediction beside the
// observation, the phases side by side at the target percentile, and the
// workload check with its warnings. Text the user can select and copy.
class ComparisonVerdictView : public QWidget
{
    Q_OBJECT
public:
    explicit ComparisonVerdictView(QWidget *parent = nullptr);

    void setComparison(const TraceComparison &comparison);
    void showMessage(const QString &message);

    // The plain text shown (for tests and copying).
    QString text() const;

private:
    QLabel *m_label = nullptr;
};
