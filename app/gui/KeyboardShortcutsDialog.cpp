#include "KeyboardShortcutsDialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QKeySequence>
#include <QTableWidget>
#include <QVBoxLayout>

QList<QPair<QString, QString>> KeyboardShortcutsDialog::shortcuts()
{
    auto keys = [](QKeySequence::StandardKey key) { return QKeySequence(key).toString(QKeySequence::NativeText); };
    return {
        {QString(), tr("Window")},
        {keys(QKeySequence::Open), tr("Open a trace")},
        {QStringLiteral("F5"), tr("Reload the current trace")},
        {keys(QKeySequence::Close), tr("Close the trace")},
        {QStringLiteral("Esc"), tr("Cancel loading (while a trace loads)")},
        {QStringLiteral("F11"), tr("Full screen")},
        {QStringLiteral("Ctrl+Shift+A"), tr("On a server's sample: open every request sent in view")},
        {keys(QKeySequence::Quit), tr("Quit")},
        {QString(), tr("Swimlanes")},
        {tr("Wheel"), tr("Zoom time around the cursor")},
        {tr("Shift+Wheel"), tr("Zoom lanes around the cursor")},
        {tr("Ctrl+Wheel"), tr("Scroll lanes")},
        {tr("Drag"), tr("Pan time and lanes")},
        {tr("Right-drag, Shift+Drag"), tr("Zoom to the rectangle")},
        {tr("Click / Ctrl+Click"), tr("Select a request / add or remove it")},
        {tr("Double-click, Enter"), tr("Open the request's details")},
        {QStringLiteral("+  /  \u2212"), tr("Zoom time in / out")},
        {QStringLiteral("Ctrl+Up  /  Ctrl+Down"), tr("Zoom lanes in / out")},
        {QStringLiteral("Left  /  Right"), tr("Pan time")},
        {QStringLiteral("Up  /  Down,  PgUp  /  PgDown"), tr("Scroll lanes")},
        {QStringLiteral("Home  /  End"), tr("Go to the start / end of the trace")},
        {QStringLiteral("Ctrl+Home  /  Ctrl+End"), tr("Go to the first / last lane")},
        {QStringLiteral("F"), tr("Fit everything")},
        {QStringLiteral("Esc"), tr("Clear the selection")},
        {QString(), tr("Exceedance set (anywhere but a text field)")},
        {QStringLiteral("N"), tr("Next slow request")},
        {QStringLiteral("P"), tr("Previous slow request")},
    };
}

KeyboardShortcutsDialog::KeyboardShortcutsDialog(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    setObjectName(QStringLiteral("keyboardShortcutsDialog"));
    const auto rows = shortcuts();
    auto *table = new QTableWidget(int(rows.size()), 2, this);
    table->setHorizontalHeaderLabels({tr("Keys"), tr("Action")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    table->horizontalHeader()->setStretchLastSection(true);
    for (int i = 0; i < int(rows.size()); ++i) {
        auto *keys = new QTableWidgetItem(rows[i].first);
        auto *action = new QTableWidgetItem(rows[i].second);
        if (rows[i].first.isEmpty()) {
            QFont bold = action->font();
            bold.setBold(true);
            action->setFont(bold);
        }
        table->setItem(i, 0, keys);
        table->setItem(i, 1, action);
    }
    table->resizeColumnToContents(0);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(table);
    layout->addWidget(buttons);
    resize(560, 620);
}
