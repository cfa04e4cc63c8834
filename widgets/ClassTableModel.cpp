#include "ClassTableModel.h"

#include "analysis/requests/Boundary.h"

#include <QFont>
#include <QLocale>

#include <cmath>

namespace {

QString percentText(double share)
{
    return QLocale().toString(share * 100.0, 'f', 1) + QStringLiteral("%");
}

QString numberText(double value)
{
    return QLocale().toString(value, 'f', std::abs(value) < 10.0 ? 2 : 1);
}

} // namespace

ClassTableModel::ClassTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void ClassTableModel::setTable(ClassTable table)
{
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

int ClassTableModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || m_table.dimensions.empty() || !m_table.error.isEmpty())
        return 0;
    return int(m_table.cells.size()) + 1;
}

int ClassTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : dimensionColumns() + FixedColumnCount;
}

const ClassCell &ClassTableModel::cellAt(int row) const
{
    const int cell = cellOfRow(row);
    return cell >= 0 ? m_table.cells[size_t(cell)] : m_table.overall;
}

QString ClassTableModel::quantileText(const QuantileEstimate &estimate, Metric metric)
{
    if (estimate.tooFew())
        return tr("too few requests");
    Q_UNUSED(metric); // the unit is in the column header
    return QStringLiteral("%1 [%2\u2013%3]")
        .arg(numberText(estimate.value), numberText(estimate.lower), numberText(estimate.upper));
}

QVariant ClassTableModel::display(const ClassCell &cell, int column) const
{
    const QLocale locale;
    switch (Column(column - dimensionColumns())) {
    case Requests:
        return locale.toString(cell.requests);
    case RequestShare:
        return percentText(cell.requestShare);
    case N:
        return locale.toString(cell.n);
    case P50:
    case P90:
    case P95:
    case P99:
        return quantileText(cell.quantiles[size_t(column - dimensionColumns() - P50)], m_table.metric);
    case AboveThreshold:
        return locale.toString(cell.exceedanceCount);
    case ExceedanceShare:
        return m_table.exceedanceSize > 0 ? percentText(cell.exceedanceShare) : QStringLiteral("\u2014");
    case FixedColumnCount:
        break;
    }
    return {};
}

QVariant ClassTableModel::sortValue(const ClassCell &cell, int column) const
{
    if (column < dimensionColumns())
        return &cell == &m_table.overall ? tr("overall") : cell.classes.value(column);
    switch (Column(column - dimensionColumns())) {
    case Requests:
        return cell.requests;
    case RequestShare:
        return cell.requestShare;
    case N:
        return cell.n;
    case P50:
    case P90:
    case P95:
    case P99: {
        const auto &estimate = cell.quantiles[size_t(column - dimensionColumns() - P50)];
        return estimate.tooFew() ? std::nan("") : estimate.value;
    }
    case AboveThreshold:
        return cell.exceedanceCount;
    case ExceedanceShare:
        return cell.exceedanceShare;
    case FixedColumnCount:
        break;
    }
    return {};
}

QString ClassTableModel::toolTip(const ClassCell &cell, int column) const
{
    const int fixed = column - dimensionColumns();
    if (fixed < P50 || fixed > P99)
        return {};
    const auto &estimate = cell.quantiles[size_t(fixed - P50)];
    const QString p = QStringLiteral("p%1").arg(estimate.q * 100.0, 0, 'g', 3);
    if (estimate.tooFew())
        return tr("%1 of %2 requests: a 95% interval needs at least %3 requests, so the value (%4 %5) is not shown "
                  "as a percentile.")
            .arg(p)
            .arg(cell.n)
            .arg(QuantileInterval::minimumSampleSize(estimate.q))
            .arg(numberText(estimate.value), metricUnit(m_table.metric));
    return tr("%1 = %2 %3 (seed interpolation)\n95% interval: order statistics X(%4) = %5 to X(%6) = %7 of n = %8, "
              "coverage %9%")
        .arg(p, numberText(estimate.value), metricUnit(m_table.metric))
        .arg(estimate.interval.lowerRank)
        .arg(numberText(estimate.lower))
        .arg(estimate.interval.upperRank)
        .arg(numberText(estimate.upper))
        .arg(cell.n)
        .arg(QLocale().toString(estimate.interval.coverage * 100.0, 'f', 1));
}

QVariant ClassTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const bool overall = cellOfRow(index.row()) < 0;
    const ClassCell &cell = cellAt(index.row());
    const int fixed = index.column() - dimensionColumns();
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() < dimensionColumns())
            return overall ? (index.column() == 0 ? tr("overall") : QString()) : cell.classes.value(index.column());
        return display(cell, index.column());
    case SortRole:
        return sortValue(cell, index.column());
    case CellRole:
        return cellOfRow(index.row());
    case Qt::ToolTipRole:
        return toolTip(cell, index.column());
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(index.column() < dimensionColumns() ? Qt::AlignLeft | Qt::AlignVCenter
                                                                       : Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole: {
        const bool tooFew = fixed >= P50 && fixed <= P99 && cell.quantiles[size_t(fixed - P50)].tooFew();
        if (!overall && !tooFew)
            return {};
        QFont font;
        font.setBold(overall);
        font.setItalic(tooFew);
        return font;
    }
    default:
        return {};
    }
}

QVariant ClassTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return {};
    if (section < dimensionColumns()) {
        if (role == Qt::DisplayRole)
            return m_table.dimensions[size_t(section)].label;
        return {};
    }
    const QString threshold = QStringLiteral("p%1").arg(m_table.exceedanceQ * 100.0, 0, 'g', 3);
    if (role == Qt::ToolTipRole) {
        switch (Column(section - dimensionColumns())) {
        case RequestShare:
            return tr("Share of the requests in scope");
        case N:
            return tr("Requests with %1 defined").arg(metricLabel(m_table.metric));
        case AboveThreshold:
            return tr("Requests above the overall %1 (%2 %3)")
                .arg(threshold, numberText(m_table.exceedanceThreshold), metricUnit(m_table.metric));
        case ExceedanceShare:
            return tr("Share of the overall exceedance set (requests above the overall %1)").arg(threshold);
        default:
            return tr("Seed interpolation [distribution-free 95% interval from order statistics]");
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (Column(section - dimensionColumns())) {
    case Requests:
        return tr("Requests");
    case RequestShare:
        return tr("Share");
    case N:
        return tr("n");
    case P50:
        return tr("p50 [95% CI], %1").arg(metricUnit(m_table.metric));
    case P90:
        return tr("p90 [95% CI], %1").arg(metricUnit(m_table.metric));
    case P95:
        return tr("p95 [95% CI], %1").arg(metricUnit(m_table.metric));
    case P99:
        return tr("p99 [95% CI], %1").arg(metricUnit(m_table.metric));
    case AboveThreshold:
        return tr("Above %1").arg(threshold);
    case ExceedanceShare:
        return tr("Of set");
    case FixedColumnCount:
        break;
    }
    return {};
}
