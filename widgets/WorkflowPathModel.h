#pragma once

#include "analysis/workflows/CriticalPath.h"
#include "analysis/workflows/WorkflowSchedule.h"

#include <QAbstractTableModel>

#include <memory>

// The critical path's sections as a table: span, kind, start and duration
// (ms from the workflow's start) and share of the total. Display role is
// formatted, sort role (Qt::UserRole) raw.
class WorkflowPathModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { SpanColumn, KindColumn, StartColumn, DurationColumn, ShareColumn, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int SpanRole = Qt::UserRole + 1; // span index of the row

    explicit WorkflowPathModel(QObject *parent = nullptr);

    void setPath(std::shared_ptr<const WorkflowSchedule> schedule, std::vector<PathSection> path,
                 WorkflowTiming timing);
    void clear();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const WorkflowSchedule> m_schedule;
    std::vector<PathSection> m_path;
    WorkflowTiming m_timing;
};
