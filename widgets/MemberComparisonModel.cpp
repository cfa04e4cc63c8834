#include "MemberComparisonModel.h"

#include "FeatureText.h"

#include <QFont>
#include <QLocale>

#include <cmath>

MemberComparisonModel::MemberComparisonModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void MemberComparisonModel::setComparison(MemberComparison comparison)
{
    beginResetModel();
    m_comparison = std::move(comparison);
    endResetModel();
}

int MemberComparisonModel::rowOf(const QString &featureKey) const
{
    for (size_t i = 0; i < m_comparison.rows.size(); ++i) {
        if (m_comparison.rows[i].feature.key == featureKey)
            return int(i);
    }
    return -1;
}

int MemberComparisonModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_comparison.rows.size());
}

int MemberComparisonModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MemberComparisonModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const MemberFeatureRow &row = m_comparison.rows[size_t(index.row())];
    const bool numeric = row.feature.numeric;
    if (role == Qt::DisplayRole) {
        switch (Column(index.column())) {
        case Feature:
            return row.feature.label;
        case Value:
            if (!numeric || row.text.isEmpty())
                return row.text.isEmpty() ? tr("(none)") : row.text;
            return FeatureText::withUnit(row.value, row.feature.unit);
        case RestMedian:
            return numeric ? FeatureText::withUnit(row.restMedian, row.feature.unit) : QString();
        case RankAmongRest:
            if (!numeric)
                return tr("%1 of the rest share it").arg(FeatureText::share(row.restShareSameValue));
            return std::isnan(row.percentileRank) ? QStringLiteral("\u2014")
                                                  : QLocale().toString(row.percentileRank, 'f', 1);
        case ColumnCount:
            break;
        }
        return {};
    }
    if (role == SortRole) {
        switch (Column(index.column())) {
        case Feature:
            return row.feature.label;
        case Value:
            return numeric ? QVariant(row.value) : QVariant(row.text);
        case RestMedian:
            return row.restMedian;
        case RankAmongRest:
            return numeric ? row.percentileRank : row.restShareSameValue;
        case ColumnCount:
            break;
        }
        return {};
    }
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(index.column() == Feature ? Qt::AlignLeft | Qt::AlignVCenter
                                                             : Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && index.column() == RankAmongRest && numeric && row.percentileRank >= 95.0) {
        // Where this request stands out: above 95% of the rest.
        QFont font;
        font.setBold(true);
        return font;
    }
    if (role == Qt::ToolTipRole && index.column() == RankAmongRest && numeric)
        return tr("Mid-rank among the %1 requests of the rest: 50 is typical, 100 is above all of them").arg(row.restN);
    return {};
}

QVariant MemberComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Feature:
        return tr("Phase / attribute");
    case Value:
        return tr("This request");
    case RestMedian:
        return tr("Rest median");
    case RankAmongRest:
        return tr("Percentile rank among rest");
    case ColumnCount:
        break;
    }
    return {};
}
