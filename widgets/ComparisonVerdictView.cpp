#include "ComparisonVerdictView.h"

#include "ComparisonTableModel.h"
#include "analysis/compare/TraceComparison.h"
#include "report/ReportFormat.h"

#include <QLabel>
#include <QTextDocument>
#include <QVBoxLayout>

#include <cmath>

namespace {

QString escaped(const QString &text)
{
    return text.toHtmlEscaped();
}

QString fixed(double value, int decimals = 1)
{
    return ReportFormat::fixed(value, decimals);
}

} // namespace

ComparisonVerdictView::ComparisonVerdictView(QWidget *parent)
    : QWidget(parent)
    , m_label(new QLabel(this))
{
    setObjectName(QStringLiteral("comparisonVerdictView"));
    m_label->setObjectName(QStringLiteral("comparisonVerdictText"));
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::RichText);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_label);
    layout->addStretch(1);
}

QString ComparisonVerdictView::text() const
{
    QTextDocument document;
    document.setHtml(m_label->text());
    return document.toPlainText();
}

void ComparisonVerdictView::showMessage(const QString &message)
{
    m_label->setText(escaped(message));
}

void ComparisonVerdictView::setComparison(const TraceComparison &comparison)
{
    QString html;
    const auto heading = [&](const QString &title) { html += QStringLiteral("<h3>%1</h3>").arg(escaped(title)); };
    const auto list = [&](const QStringList &items) {
        html += QStringLiteral("<ul>");
        for (const QString &item : items)
            html += QStringLiteral("<li>%1</li>").arg(item);
        html += QStringLiteral("</ul>");
    };
    if (!comparison.ok()) {
        html += QStringLiteral("<p><b>%1</b> %2</p>").arg(tr("Cannot compare:"), escaped(comparison.error));
    } else {
        const ComparisonStopRule &rule = comparison.stopRule;
        heading(tr("Stop rule: %1").arg(ComparisonStopRule::outcomeLabel(rule.outcome)));
        QStringList reasons;
        for (const QString &reason : rule.reasons)
            reasons << escaped(reason);
        list(reasons);
        if (comparison.prediction) {
            heading(tr("Predicted vs observed"));
            html += QStringLiteral("<p>%1</p>").arg(escaped(comparison.prediction->sentence()));
        }
        const PhaseShift &shift = comparison.phaseShift;
        if (!shift.isEmpty()) {
            heading(tr("Phases at the %1, side by side (never added)")
                        .arg(ReportFormat::percentileLabel(comparison.spec.q)));
            QStringList rows;
            for (const auto &row : shift.phases) {
                if (row.baselineObserved == 0 && row.candidateObserved == 0)
                    continue;
                rows << escaped(tr("%1: %2 \u2192 %3 ms; mean %4 \u2192 %5 ms (95% interval of the change [%6, %7])")
                                    .arg(phaseLabel(row.phase), fixed(row.baselinePercentileMs),
                                         fixed(row.candidatePercentileMs), fixed(row.baselineMeanMs),
                                         fixed(row.candidateMeanMs), fixed(row.changeLowerMs, 2),
                                         fixed(row.changeUpperMs, 2)));
            }
            if (rows.isEmpty())
                rows << escaped(tr("No phase is observed on either side: the whole change is residual."));
            list(rows);
        }
        if (comparison.workflows) {
            const auto &workflows = *comparison.workflows;
            heading(tr("Workflows: share of critical-path time by span kind"));
            QStringList rows;
            for (int part = 0; part < CriticalPathShares::kParts; ++part) {
                if (workflows.baseline.ms[size_t(part)] == 0.0 && workflows.candidate.ms[size_t(part)] == 0.0)
                    continue;
                rows << escaped(tr("%1: %2 \u2192 %3")
                                    .arg(CriticalPathShares::partLabel(part),
                                         ReportFormat::share(workflows.baseline.share(part)),
                                         ReportFormat::share(workflows.candidate.share(part))));
            }
            list(rows);
        }
    }
    heading(tr("Workload check"));
    QStringList checks;
    for (const auto &check : comparison.workload.checks) {
        const QString state = !check.judged ? tr("not compared: %1").arg(check.note)
            : check.differs                 ? QStringLiteral("<b style=\"color:#D55E00\">%1</b>").arg(tr("DIFFERS"))
                                            : tr("ok");
        checks << QStringLiteral("%1: %2 vs %3 \u2014 %4")
                      .arg(escaped(check.label), escaped(check.baselineText), escaped(check.candidateText),
                           check.differs ? state : escaped(state));
    }
    list(checks);
    const QStringList warnings = comparison.workload.warnings();
    for (const QString &warning : warnings)
        html += QStringLiteral("<p>\u26a0 %1</p>").arg(escaped(warning));
    for (const QString &note : comparison.notes)
        html += QStringLiteral("<p>%1 %2</p>").arg(tr("Note:"), escaped(note));
    m_label->setText(html);
}
