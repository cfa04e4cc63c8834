#pragma once

#include "analysis/exceedance/MemberComparison.h"

#include <QAbstractTableModel>

// One request of the exceedance set against the rest, one row per feature
// (metrics, phases, token shape, attributes): its value, the rest's median
// and its percentile rank among the rest (categorical features: the share of
// the rest with the same value). A thin adapter over a MemberComparison.
class MemberComparisonModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Feature, Value, RestMedian, RankAmongRest, ColumnCount };
    enum Roles { SortRole = Qt::UserRole };

    explicit MemberComparisonModel(QObject *parent = nullptr);

    void setComparison(MemberComparison comparison);
    const MemberComparison &comparison() const { return m_comparison; }
    // Row of the feature with this key ("queue", "region"), or -1.
    int rowOf(const QString &featureKey) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    MemberComparison m_comparison;
};
