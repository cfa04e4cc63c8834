#include "PhaseAttributionModel.h"

#include "FeatureText.h"

#include <QFont>

#include <cmath>

PhaseAttributionModel::PhaseAttributionModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void PhaseAttributionModel::setAttribution(PhaseAttribution attribution)
{
    beginResetModel();
    m_attribution = std::move(attribution);
    endResetModel();
}

int PhaseAttributionModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || std::isnan(m_attribution.differenceMs))
        return 0;
    return totalRow() + 1;
}

int PhaseAttributionModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

PhaseAttributionModel::Line PhaseAttributionModel::lineAt(int row) const
{
    const PhaseAttribution &a = m_attribution;
    if (row < residualRow()) {
        const PhaseContribution &c = a.phases[size_t(row)];
        return {phaseLabel(c.phase), c.setMeanMs, c.restMeanMs, c.differenceMs};
    }
    if (row == residualRow())
        return {tr("residual (unobserved)"), a.residualSetMeanMs, a.residualRestMeanMs, a.residualDifferenceMs};
    return {tr("total %1").arg(metricLabel(a.total)), a.setMeanMs, a.restMeanMs, a.differenceMs};
}

QVariant PhaseAttributionModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Line line = lineAt(index.row());
    const double ofTotal
        = m_attribution.differenceMs != 0.0 ? line.difference / m_attribution.differenceMs : std::nan("");
    const QString ms = QStringLiteral("ms");
    switch (role) {
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case Phase_:
            return line.label;
        case SetMean:
            return FeatureText::withUnit(line.setMean, ms);
        case RestMean:
            return FeatureText::withUnit(line.restMean, ms);
        case Difference:
            return FeatureText::withUnit(line.difference, ms);
        case OfTotal:
            return FeatureText::share(ofTotal);
        case ColumnCount:
            break;
        }
        return {};
    case SortRole:
        switch (Column(index.column())) {
        case Phase_:
            return line.label;
        case SetMean:
            return line.setMean;
        case RestMean:
            return line.restMean;
        case Difference:
            return line.difference;
        case OfTotal:
            return ofTotal;
        case ColumnCount:
            break;
        }
        return {};
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(index.column() == Phase_ ? Qt::AlignLeft | Qt::AlignVCenter
                                                            : Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole: {
        const bool suspect = index.row() < residualRow() && m_attribution.suspected
            && m_attribution.phases[size_t(index.row())].phase == *m_attribution.suspected;
        const bool residualSuspect = index.row() == residualRow() && m_attribution.residualCarriesMost;
        if (!suspect && !residualSuspect && index.row() != totalRow())
            return {};
        QFont font;
        font.setBold(true);
        return font;
    }
    default:
        return {};
    }
}

QVariant PhaseAttributionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Phase_:
        return tr("Phase");
    case SetMean:
        return tr("Set mean");
    case RestMean:
        return tr("Rest mean");
    case Difference:
        return tr("Difference");
    case OfTotal:
        return tr("Of total");
    case ColumnCount:
        break;
    }
    return {};
}
