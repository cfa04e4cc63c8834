#include "TableCopy.h"

#include "report/Markup.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QKeyEvent>
#include <QMessageBox>
#include <QSaveFile>
#include <QTableView>

#include <algorithm>
#include <set>

namespace {

// Units the views write after numbers, longest first so "ms/token" wins over "ms".
const QStringList &knownUnits()
{
    static const QStringList units = {QStringLiteral(" ms/token"), QStringLiteral(" tokens"), QStringLiteral(" ms"),
                                      QStringLiteral(" \u00b5s"),  QStringLiteral(" s"),      QStringLiteral("%")};
    return units;
}

bool isBlank(const QString &text)
{
    return text.isEmpty() || text == QStringLiteral("\u2014") || text == QStringLiteral("n/a");
}

bool isNumber(QString text)
{
    text.remove(QLatin1Char(',')).remove(QChar(0x202F)).remove(QChar(0xA0));
    bool ok = false;
    text.toDouble(&ok);
    return ok;
}

// The unit every non-blank cell of the column ends with, or empty.
QString commonUnit(const std::vector<std::vector<QString>> &rows, size_t column)
{
    for (const QString &unit : knownUnits()) {
        bool any = false;
        bool all = true;
        for (const auto &row : rows) {
            const QString &cell = row[column];
            if (isBlank(cell))
                continue;
            any = true;
            if (!cell.endsWith(unit) || !isNumber(cell.chopped(unit.size()))) {
                all = false;
                break;
            }
        }
        if (any && all)
            return unit;
    }
    return {};
}

QString oneLine(QString text)
{
    return text.replace(QLatin1Char('\t'), QLatin1Char(' '))
        .replace(QLatin1Char('\n'), QLatin1Char(' '))
        .replace(QLatin1Char('\r'), QLatin1Char(' '));
}

class CopyShortcut : public QObject
{
public:
    explicit CopyShortcut(QAbstractItemView *view)
        : QObject(view)
        , m_view(view)
    { }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_view && (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress)) {
            auto *key = static_cast<QKeyEvent *>(event);
            if (key->matches(QKeySequence::Copy)) {
                // Claim Ctrl+C before any window shortcut; copy on the press.
                if (event->type() == QEvent::KeyPress)
                    QApplication::clipboard()->setText(TableCopy::tsv(TableCopy::grid(m_view)));
                event->accept();
                return true;
            }
        }
        return QObject::eventFilter(watched, event);
    }

private:
    QAbstractItemView *m_view;
};

} // namespace

namespace TableCopy {

Grid grid(const QAbstractItemView *view)
{
    Grid result;
    const QAbstractItemModel *model = view->model();
    if (!model)
        return result;
    const auto *table = qobject_cast<const QTableView *>(view);
    std::set<int> rows;
    std::set<int> columns;
    const QModelIndexList selected
        = view->selectionModel() ? view->selectionModel()->selectedIndexes() : QModelIndexList();
    for (const QModelIndex &index : selected) {
        rows.insert(index.row());
        columns.insert(index.column());
    }
    if (rows.empty()) {
        for (int row = 0; row < model->rowCount(); ++row)
            rows.insert(row);
        for (int column = 0; column < model->columnCount(); ++column)
            columns.insert(column);
    }
    // Columns in the order the user sees them, hidden ones left out.
    std::vector<int> order;
    for (const int column : columns) {
        if (!table || !table->isColumnHidden(column))
            order.push_back(column);
    }
    if (table) {
        const QHeaderView *header = table->horizontalHeader();
        std::sort(order.begin(), order.end(),
                  [header](int a, int b) { return header->visualIndex(a) < header->visualIndex(b); });
    }
    for (const int row : rows) {
        if (table && table->isRowHidden(row))
            continue;
        std::vector<QString> cells;
        cells.reserve(order.size());
        for (const int column : order)
            cells.push_back(oneLine(model->index(row, column).data(Qt::DisplayRole).toString()));
        result.rows.push_back(std::move(cells));
    }
    for (size_t i = 0; i < order.size(); ++i) {
        QString header = oneLine(model->headerData(order[i], Qt::Horizontal, Qt::DisplayRole).toString());
        QString unit = model->headerData(order[i], Qt::Horizontal, kUnitRole).toString();
        const QString suffix = commonUnit(result.rows, i);
        if (!suffix.isEmpty()) {
            for (auto &row : result.rows) {
                if (!isBlank(row[i]))
                    row[i].chop(suffix.size());
            }
            unit = suffix.trimmed();
        }
        if (!unit.isEmpty() && !header.contains(QLatin1Char('[') + unit + QLatin1Char(']')))
            header += QStringLiteral(" [%1]").arg(unit);
        result.header.push_back(header);
    }
    return result;
}

QString spreadsheetSafe(const QString &cell)
{
    if (cell.size() < 2 || !QStringView(u"=+-@").contains(cell.front()) || isNumber(cell))
        return cell;
    return QLatin1Char('\'') + cell;
}

QString tsv(const Grid &grid)
{
    const auto line = [](const std::vector<QString> &cells) {
        QStringList safe;
        for (const QString &cell : cells)
            safe.append(spreadsheetSafe(cell));
        return safe.join(QLatin1Char('\t'));
    };
    QStringList lines{line(grid.header)};
    for (const auto &row : grid.rows)
        lines.append(line(row));
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString csv(const Grid &grid)
{
    const auto line = [](const std::vector<QString> &cells) {
        QStringList fields;
        for (const QString &cell : cells) {
            // Numbers without digit grouping, as a program reading CSV expects.
            QString field = isNumber(cell)
                ? QString(cell).remove(QLatin1Char(',')).remove(QChar(0x202F)).remove(QChar(0xA0))
                : spreadsheetSafe(cell);
            if (field.contains(QLatin1Char(',')) || field.contains(QLatin1Char('"'))
                || field.contains(QLatin1Char('\n')) || field.contains(QLatin1Char('\r')))
                field = QLatin1Char('"') + field.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
            fields.append(field);
        }
        return fields.join(QLatin1Char(','));
    };
    QString text = line(grid.header) + QStringLiteral("\r\n");
    for (const auto &row : grid.rows)
        text += line(row) + QStringLiteral("\r\n");
    return text;
}

bool formatOf(const QString &path, FileFormat *format)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QStringLiteral("csv"))
        *format = FileFormat::Csv;
    else if (suffix == QStringLiteral("tsv") || suffix == QStringLiteral("tab") || suffix == QStringLiteral("txt"))
        *format = FileFormat::Tsv;
    else if (suffix == QStringLiteral("md") || suffix == QStringLiteral("markdown"))
        *format = FileFormat::Markdown;
    else
        return false;
    return true;
}

bool write(const Grid &grid, const QString &path, QString *error)
{
    FileFormat format = FileFormat::Csv;
    if (!formatOf(path, &format)) {
        if (error)
            *error = QObject::tr("%1: a table is written as .csv, .tsv or .md").arg(path);
        return false;
    }
    const QString text = format == FileFormat::Csv ? csv(grid) : format == FileFormat::Tsv ? tsv(grid) : markdown(grid);
    const QByteArray bytes = text.toUtf8();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = QObject::tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QString markdown(const Grid &grid)
{
    const auto line = [](const std::vector<QString> &cells) -> QString {
        QStringList escaped;
        for (const QString &cell : cells)
            escaped.append(Markup::escapeMarkdownInline(cell));
        return QStringLiteral("| ") + escaped.join(QStringLiteral(" | ")) + QStringLiteral(" |");
    };
    QStringList lines{line(grid.header)};
    QStringList rule;
    for (size_t column = 0; column < grid.header.size(); ++column) {
        // Numbers align right, as in the views.
        const bool numeric
            = std::all_of(grid.rows.begin(), grid.rows.end(),
                          [column](const auto &row) { return isBlank(row[column]) || isNumber(row[column]); })
            && !grid.rows.empty();
        rule.append(numeric ? QStringLiteral("---:") : QStringLiteral("---"));
    }
    lines.append(QStringLiteral("| ") + rule.join(QStringLiteral(" | ")) + QStringLiteral(" |"));
    for (const auto &row : grid.rows)
        lines.append(line(row));
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void install(QAbstractItemView *view)
{
    view->installEventFilter(new CopyShortcut(view));
    auto *copy = new QAction(QObject::tr("Copy"), view);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut); // shown in the menu; the filter does the work
    QObject::connect(copy, &QAction::triggered, view, [view] { QApplication::clipboard()->setText(tsv(grid(view))); });
    auto *markdownCopy = new QAction(QObject::tr("Copy as Markdown"), view);
    QObject::connect(markdownCopy, &QAction::triggered, view,
                     [view] { QApplication::clipboard()->setText(markdown(grid(view))); });
    auto *exportTable = new QAction(QObject::tr("Export Table\u2026"), view);
    QObject::connect(exportTable, &QAction::triggered, view, [view] {
        QString filter;
        QString path
            = QFileDialog::getSaveFileName(view, QObject::tr("Export table"), QString(),
                                           QObject::tr("CSV (*.csv);;Tab-separated (*.tsv);;Markdown (*.md)"), &filter);
        if (path.isEmpty())
            return;
        FileFormat format = FileFormat::Csv;
        if (!formatOf(path, &format))
            path += filter.startsWith(QStringLiteral("Tab"))    ? QStringLiteral(".tsv")
                : filter.startsWith(QStringLiteral("Markdown")) ? QStringLiteral(".md")
                                                                : QStringLiteral(".csv");
        QString error;
        if (!write(grid(view), path, &error))
            QMessageBox::warning(view, QObject::tr("Export table"), error);
    });
    view->addAction(copy);
    view->addAction(markdownCopy);
    view->addAction(exportTable);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
}

} // namespace TableCopy
