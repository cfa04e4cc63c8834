#include "WorkflowPathModel.h"

namespace {

// Two decimals of ms; three under a millisecond, so a 5 µs span reads 0.005.
QString milliseconds(qint64 ns)
{
    const bool small = ns != 0 && ns > -1'000'000 && ns < 1'000'000;
    return QString::number(double(ns) / 1e6, 'f', small ? 3 : 2);
}

} // namespace

WorkflowPathModel::WorkflowPathModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void WorkflowPathModel::setPath(std::shared_ptr<const WorkflowSchedule> schedule, std::vector<PathSection> path,
                                WorkflowTiming timing)
{
    beginResetModel();
    m_schedule = std::move(schedule);
    m_path = std::move(path);
    m_timing = timing;
    endResetModel();
}

void WorkflowPathModel::clear()
{
    setPath(nullptr, {}, {});
}

int WorkflowPathModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_schedule ? 0 : int(m_path.size());
}

int WorkflowPathModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant WorkflowPathModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_schedule)
        return {};
    const PathSection &section = m_path[size_t(index.row())];
    const SpanGraph &graph = m_schedule->graph();
    const bool idle = section.span == PathSection::kNoSpan;
    const double total = double(m_timing.e2e());
    const double share = total > 0.0 ? double(section.duration()) / total : 0.0;
    if (role == SpanRole)
        return section.span;
    if (role == Qt::TextAlignmentRole)
        return index.column() >= StartColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool raw = role == SortRole;
    switch (index.column()) {
    case SpanColumn:
        return idle ? tr("(idle between root spans)") : graph.label(section.span);
    case KindColumn:
        return idle ? QString() : graph.operation(section.span);
    case StartColumn:
        return raw ? QVariant(section.start - m_timing.start) : QVariant(milliseconds(section.start - m_timing.start));
    case DurationColumn:
        return raw ? QVariant(section.duration()) : QVariant(milliseconds(section.duration()));
    case ShareColumn:
        return raw ? QVariant(share) : QVariant(QStringLiteral("%1%").arg(share * 100.0, 0, 'f', 1));
    default:
        return {};
    }
}

QVariant WorkflowPathModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SpanColumn:
        return tr("Span");
    case KindColumn:
        return tr("Kind");
    case StartColumn:
        return tr("Start (ms)");
    case DurationColumn:
        return tr("Duration (ms)");
    case ShareColumn:
        return tr("Share");
    default:
        return {};
    }
}
