#include "RejectedRecordsPanel.h"

#include "RejectedRecordsModel.h"
#include "TableColumns.h"
#include "ViewState.h"
#include "store/TraceStore.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

RejectedRecordsPanel::RejectedRecordsPanel(ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_model(new RejectedRecordsModel(this))
    , m_view(new QTableView(this))
    , m_summary(new QLabel(this))
    , m_notices(new QListWidget(this))
{
    setObjectName(QStringLiteral("rejectedRecordsPanel"));
    m_view->setObjectName(QStringLiteral("rejectedTable"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);

    auto *copy = new QPushButton(tr("Copy"), this);
    copy->setToolTip(tr("Copy the selected rejected records (all when none is selected) as tab-separated text"));
    auto *exportButton = new QPushButton(tr("Export CSV\u2026"), this);
    auto *copyAction = new QAction(this);
    copyAction->setShortcut(QKeySequence::Copy);
    copyAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(copyAction);
    connect(copyAction, &QAction::triggered, this, &RejectedRecordsPanel::copyToClipboard);
    connect(copy, &QPushButton::clicked, this, &RejectedRecordsPanel::copyToClipboard);
    connect(exportButton, &QPushButton::clicked, this, &RejectedRecordsPanel::exportWithDialog);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_summary, 1);
    buttons->addWidget(copy);
    buttons->addWidget(exportButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_summary->setObjectName(QStringLiteral("rejectedSummary"));
    m_notices->setObjectName(QStringLiteral("noticeList"));
    m_notices->setWordWrap(true);
    m_notices->setAlternatingRowColors(true);
    m_notices->setSelectionMode(QAbstractItemView::ExtendedSelection);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(m_notices);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addLayout(buttons);
    layout->addWidget(split, 1);

    connect(state, &ViewState::storeChanged, this, [this] {
        m_model->setStore(m_state->store());
        TableColumns::fitToSample(m_view);
        showNotices();
    });
}

void RejectedRecordsPanel::showNotices()
{
    m_notices->clear();
    const auto &store = m_state->store();
    if (!store) {
        m_summary->clear();
        m_notices->hide();
        return;
    }
    for (const auto &notice : store->notices)
        m_notices->addItem(notice.toString());
    m_notices->setVisible(!store->notices.empty());
    const QLocale locale;
    const int rejected = m_model->rowCount();
    const auto notices = qsizetype(store->notices.size());
    QString text = rejected == 1 ? tr("1 record rejected") : tr("%1 records rejected").arg(locale.toString(rejected));
    if (notices > 0)
        text += notices == 1 ? tr(" \u00b7 1 notice below")
                             : tr(" \u00b7 %1 notices below").arg(locale.toString(notices));
    m_summary->setText(text);
}

QString RejectedRecordsPanel::copyText() const
{
    QList<int> rows;
    for (const QModelIndex &index : m_view->selectionModel()->selectedRows())
        rows.append(index.row());
    std::sort(rows.begin(), rows.end());
    if (rows.isEmpty()) {
        for (int row = 0; row < m_model->rowCount(); ++row)
            rows.append(row);
    }
    return m_model->toTsv(rows);
}

void RejectedRecordsPanel::copyToClipboard()
{
    QApplication::clipboard()->setText(copyText());
}

bool RejectedRecordsPanel::exportCsv(const QString &path, QString *error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    file.write(m_model->toCsv().toUtf8());
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void RejectedRecordsPanel::exportWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export rejected records"),
                                                      QStringLiteral("rejected-records.csv"), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportCsv(path, &error))
        QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1: %2").arg(path, error));
}
