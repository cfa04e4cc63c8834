#pragma once

#include <QDialog>

// Help → Keyboard Shortcuts: every key and mouse gesture in one table.
class KeyboardShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit KeyboardShortcutsDialog(QWidget *parent = nullptr);

    // (keys, what they do) rows, grouped by a header row with empty keys.
    static QList<QPair<QString, QString>> shortcuts();
};
