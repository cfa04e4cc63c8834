#include "ComparisonTableModel.h"

#include "report/ComparisonText.h"
#include "report/ReportFormat.h"

#include <QFont>
#include <QFontMetrics>
#include <QLocale>

#include <cmath>

namespace {

QString estimateText(const QuantileEstimate &estimate)
{
    if (estimate.interval.n == 0)
        return QStringLiteral("\u2014");
    if (estimate.tooFew())
        return ReportFormat::fixed(estimate.value) + QStringLiteral(" (too few)");
    return QStringLiteral("%1 [%2\u2013%3]")
        .arg(ReportFormat::fixed(estimate.value), ReportFormat::fixed(estimate.lower),
             ReportFormat::fixed(estimate.upper));
}

QString missText(qint64 misses, qint64 n)
{
    if (n == 0)
        return QStringLiteral("\u2014");
    return QStringLiteral("%1 (%2)").arg(QLocale().toString(misses), ReportFormat::share(double(misses) / double(n)));
}

} // namespace

ComparisonTableModel::ComparisonTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void ComparisonTableModel::setComparison(TraceComparison comparison)
{
    beginResetModel();
    m_comparison = std::move(comparison);
    m_shown = true;
    endResetModel();
}

void ComparisonTableModel::clear()
{
    beginResetModel();
    m_comparison = {};
    m_shown = false;
    endResetModel();
}

int ComparisonTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_shown || !m_comparison.ok() ? 0 : int(m_comparison.cells.size()) + 1;
}

int ComparisonTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const ComparisonCell &ComparisonTableModel::cellAt(int row) const
{
    return row < overallRow() ? m_comparison.cells[size_t(row)] : m_comparison.overall;
}

QColor ComparisonTableModel::verdictColour(PercentileDifference::Verdict verdict)
{
    switch (verdict) {
    case PercentileDifference::Verdict::Improved:
        return QColor(0x00, 0x9E, 0x73);
    case PercentileDifference::Verdict::Regressed:
        return QColor(0xD5, 0x5E, 0x00);
    case PercentileDifference::Verdict::NoDetectableChange:
        return QColor(0x99, 0x99, 0x99);
    case PercentileDifference::Verdict::TooFew:
        break;
    }
    return {};
}

QString ComparisonTableModel::verdictText(const ComparisonCell &cell)
{
    if (cell.baselineRequests == 0)
        return tr("candidate only");
    if (cell.candidateRequests == 0)
        return tr("baseline only");
    switch (cell.difference.verdict) {
    case PercentileDifference::Verdict::Improved:
        return QStringLiteral("\u25bc ") + tr("improved");
    case PercentileDifference::Verdict::Regressed:
        return QStringLiteral("\u25b2 ") + tr("regressed");
    case PercentileDifference::Verdict::NoDetectableChange:
        return QStringLiteral("= ") + tr("no detectable change");
    case PercentileDifference::Verdict::TooFew:
        break;
    }
    return tr("too few requests");
}

QVariant ComparisonTableModel::display(const ComparisonCell &cell, int column) const
{
    const PercentileDifference &d = cell.difference;
    switch (column) {
    case Class:
        return cell.label();
    case BaselineN:
        return QLocale().toString(d.baseline.interval.n);
    case CandidateN:
        return QLocale().toString(d.candidate.interval.n);
    case BaselineValue:
        return estimateText(d.baseline);
    case CandidateValue:
        return estimateText(d.candidate);
    case Change:
        return ComparisonText::change(d);
    case ChangePercent:
        return std::isfinite(d.differencePercent) ? (d.differencePercent > 0 ? QStringLiteral("+") : QString())
                + QString::number(d.differencePercent, 'f', 1) + QLatin1Char('%')
                                                  : QStringLiteral("\u2014");
    case Detectable:
        return std::isfinite(d.detectableMs) ? QStringLiteral("\u00b1") + ReportFormat::fixed(d.detectableMs)
                                             : QStringLiteral("\u2014");
    case Verdict:
        return verdictText(cell);
    case BaselineMisses:
        return missText(cell.baselineMisses, d.baseline.interval.n);
    case CandidateMisses:
        return missText(cell.candidateMisses, d.candidate.interval.n);
    default:
        return {};
    }
}

QVariant ComparisonTableModel::sortValue(const ComparisonCell &cell, int column) const
{
    const PercentileDifference &d = cell.difference;
    switch (column) {
    case Class:
        return cell.label();
    case BaselineN:
        return d.baseline.interval.n;
    case CandidateN:
        return d.candidate.interval.n;
    case BaselineValue:
        return d.baseline.value;
    case CandidateValue:
        return d.candidate.value;
    case Change:
        return d.differenceMs;
    case ChangePercent:
        return d.differencePercent;
    case Detectable:
        return d.detectableMs;
    case Verdict:
        return int(d.verdict);
    case BaselineMisses:
        return cell.baselineMisses;
    case CandidateMisses:
        return cell.candidateMisses;
    default:
        return {};
    }
}

QVariant ComparisonTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const ComparisonCell &cell = cellAt(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return display(cell, index.column());
    case SortRole:
        return sortValue(cell, index.column());
    case CellRole:
        return cellOfRow(index.row());
    case VerdictRole:
        return int(cell.difference.verdict);
    case Qt::TextAlignmentRole:
        return index.column() == Class || index.column() == Verdict ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                    : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::SizeHintRole:
        if (index.column() == Verdict) {
            // Room for the words beside the colour, which must never be clipped.
            const QFontMetrics metrics{QFont()};
            return QSize(metrics.horizontalAdvance(verdictText(cell)) + 24, metrics.height() + 6);
        }
        return {};
    case Qt::FontRole:
        if (index.row() == overallRow()) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::BackgroundRole:
        if (index.column() == Verdict && !cell.oneSided()) {
            const QColor colour = verdictColour(cell.difference.verdict);
            if (colour.isValid())
                return colour;
        }
        return {};
    case Qt::ForegroundRole:
        if (index.column() == Verdict && !cell.oneSided() && verdictColour(cell.difference.verdict).isValid())
            return QColor(cell.difference.verdict == PercentileDifference::Verdict::NoDetectableChange ? Qt::black
                                                                                                       : Qt::white);
        return {};
    case Qt::ToolTipRole:
        if (index.column() == Detectable)
            return tr("The smallest change of the %1 these samples could tell from noise")
                .arg(ReportFormat::percentileLabel(m_comparison.spec.q));
        if (index.column() == Change)
            return tr("Candidate minus baseline, with the 95% interval of the difference (from each side's "
                      "order-statistic interval)");
        if (index.column() == BaselineMisses || index.column() == CandidateMisses)
            return m_comparison.missesAgainstSlo
                ? tr("Requests above the SLO of %1 ms").arg(ReportFormat::fixed(m_comparison.spec.sloMs))
                : tr("Requests above this row's baseline %1 (%2 ms)")
                      .arg(ReportFormat::percentileLabel(m_comparison.spec.q),
                           ReportFormat::fixed(cell.missThresholdMs));
        return {};
    default:
        return {};
    }
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    const QString p = ReportFormat::percentileLabel(m_comparison.spec.q);
    const QString unit = metricUnit(m_comparison.spec.metric);
    QStringList dimensions;
    for (const auto &dimension : m_comparison.dimensions)
        dimensions << dimension.key;
    switch (section) {
    case Class:
        return dimensions.isEmpty() ? tr("Population") : dimensions.join(QStringLiteral(" \u00b7 "));
    case BaselineN:
        return tr("n base");
    case CandidateN:
        return tr("n cand");
    case BaselineValue:
        return tr("%1 base (%2) [95% CI]").arg(p, unit);
    case CandidateValue:
        return tr("%1 cand (%2) [95% CI]").arg(p, unit);
    case Change:
        return tr("Change (%1) [95% CI]").arg(unit);
    case ChangePercent:
        return tr("Change %");
    case Detectable:
        return tr("Detectable");
    case Verdict:
        return tr("Verdict");
    case BaselineMisses:
        return m_comparison.missesAgainstSlo ? tr("Above SLO base") : tr("Above base %1, base").arg(p);
    case CandidateMisses:
        return m_comparison.missesAgainstSlo ? tr("Above SLO cand") : tr("Above base %1, cand").arg(p);
    default:
        return {};
    }
}
