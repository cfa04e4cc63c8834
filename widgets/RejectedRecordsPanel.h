#pragma once

#include <QWidget>

class QLabel;
class QListWidget;
class QTableView;
class RejectedRecordsModel;
class ViewState;

// Lists every rejected record of the loaded trace with Copy (selected rows,
// or all, as tab-separated text) and Export (CSV), and below them the load's
// notices: things worth knowing that cost no record (orphan spans attached
// to the span enclosing them, skipped metrics records, a byte-order mark).
class RejectedRecordsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit RejectedRecordsPanel(ViewState *state, QWidget *parent = nullptr);

    RejectedRecordsModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QListWidget *notices() const { return m_notices; }
    QLabel *summary() const { return m_summary; }

    // Text Copy puts on the clipboard: the selected rows, or all when none.
    QString copyText() const;
    bool exportCsv(const QString &path, QString *error = nullptr) const;

    void copyToClipboard();
    void exportWithDialog();

private:
    void showNotices();

    ViewState *m_state = nullptr;
    RejectedRecordsModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_summary = nullptr;
    QListWidget *m_notices = nullptr;
};
