#pragma once

#include <QWidget>

class QLabel;
class QTableView;
class RejectedRecordsModel;
class ViewState;

// Lists every rejected record of the loaded trace with Copy (selected rows,
// or all, as tab-separated text) and Export (CSV).
class RejectedRecordsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit RejectedRecordsPanel(ViewState *state, QWidget *parent = nullptr);

    RejectedRecordsModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }

    // Text Copy puts on the clipboard: the selected rows, or all when none.
    QString copyText() const;
    bool exportCsv(const QString &path, QString *error = nullptr) const;

    void copyToClipboard();
    void exportWithDialog();

private:
    ViewState *m_state = nullptr;
    RejectedRecordsModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_summary = nullptr;
};
