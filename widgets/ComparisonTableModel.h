#pragma once

#include "analysis/compare/TraceComparison.h"

#include <QAbstractTableModel>
#include <QColor>

// The difference table of a before/after comparison: one row per class cell,
// then "overall". Columns: the class, n on each side, the target percentile
// on each side with its interval, the change with its 95% interval, the
// change in %, the smallest detectable change, the verdict (coloured and in
// words) and the misses on each side. A thin adapter over a TraceComparison
// value computed in the model.
class ComparisonTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Class,
        BaselineN,
        CandidateN,
        BaselineValue,
        CandidateValue,
        Change,
        ChangePercent,
        Detectable,
        Verdict,
        BaselineMisses,
        CandidateMisses,
        ColumnCount
    };
    enum Roles {
        SortRole = Qt::UserRole, // raw number (NaN when undefined)
        CellRole,                // index into TraceComparison::cells; -1 for the overall row
        VerdictRole,             // PercentileDifference::Verdict as int
    };

    explicit ComparisonTableModel(QObject *parent = nullptr);

    void setComparison(TraceComparison comparison);
    // No comparison: no rows (not even "overall").
    void clear();
    const TraceComparison &comparison() const { return m_comparison; }
    int overallRow() const { return int(m_comparison.cells.size()); }
    int cellOfRow(int row) const { return row < overallRow() ? row : -1; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Okabe–Ito, safe for the common colour-vision deficiencies, and always
    // beside the verdict's words: bluish green improved, vermillion regressed,
    // grey no detectable change.
    static QColor verdictColour(PercentileDifference::Verdict verdict);
    // "▼ improved", "▲ regressed", "= no detectable change", "too few requests",
    // or "baseline only" / "candidate only".
    static QString verdictText(const ComparisonCell &cell);

private:
    const ComparisonCell &cellAt(int row) const;
    QVariant display(const ComparisonCell &cell, int column) const;
    QVariant sortValue(const ComparisonCell &cell, int column) const;

    TraceComparison m_comparison;
    bool m_shown = false;
};
