#include "NotesPanel.h"

#include "ViewState.h"
#include "store/TraceStore.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace {
enum Column { RequestColumn, SpanColumn, NoteColumn };
}

NotesPanel::NotesPanel(ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_table(new QTableWidget(0, 3, this))
    , m_hint(new QLabel(this))
{
    setObjectName(QStringLiteral("notesPanel"));
    m_table->setObjectName(QStringLiteral("notesTable"));
    m_table->setHorizontalHeaderLabels({tr("Request"), tr("Span"), tr("Note")});
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    auto *bookmarkRequest = new QPushButton(tr("Bookmark Request"), this);
    bookmarkRequest->setObjectName(QStringLiteral("bookmarkRequest"));
    bookmarkRequest->setToolTip(tr("A note on the current request (click a lane or a table row first)"));
    auto *bookmarkSpan = new QPushButton(tr("Bookmark Span"), this);
    bookmarkSpan->setObjectName(QStringLiteral("bookmarkSpan"));
    bookmarkSpan->setToolTip(tr("A note on the span selected in the Workflow dock's Gantt"));
    auto *remove = new QPushButton(tr("Remove"), this);
    m_hint->setWordWrap(true);
    m_hint->setText(tr("Bookmarks are marked in purple at the right edge of their lanes and beside their Gantt rows; "
                       "double-click one to open its request. Notes are saved with the session."));
    connect(bookmarkRequest, &QPushButton::clicked, this, [this] {
        const RequestTable *table = m_state->requests();
        const qint32 row = m_state->currentRow();
        if (table && row >= 0)
            addNote({table->idText(row), QString(), QString()});
    });
    connect(bookmarkSpan, &QPushButton::clicked, this, [this] {
        if (!m_currentSpan.spanId.isEmpty())
            addNote(m_currentSpan);
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_table->currentRow() >= 0)
            removeNote(m_table->currentRow());
    });
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (item->column() != NoteColumn || item->row() >= int(m_notes.size()))
            return;
        m_notes[size_t(item->row())].text = item->text();
        emit notesChanged();
    });
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int column) {
        if (column != NoteColumn && row < int(m_notes.size()))
            emit noteActivated(m_notes[size_t(row)]);
    });
    connect(state, &ViewState::storeChanged, this, &NotesPanel::updateBookmarks);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(bookmarkRequest);
    buttons->addWidget(bookmarkSpan);
    buttons->addWidget(remove);
    buttons->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(buttons);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_hint);
}

void NotesPanel::setNotes(std::vector<SessionNote> notes)
{
    m_notes = std::move(notes);
    rebuild();
    emit notesChanged();
}

void NotesPanel::addNote(const SessionNote &note)
{
    m_notes.push_back(note);
    rebuild();
    m_table->setCurrentCell(int(m_notes.size()) - 1, NoteColumn);
    m_table->editItem(m_table->item(int(m_notes.size()) - 1, NoteColumn));
    emit notesChanged();
}

void NotesPanel::removeNote(int index)
{
    if (index < 0 || index >= int(m_notes.size()))
        return;
    m_notes.erase(m_notes.begin() + index);
    rebuild();
    emit notesChanged();
}

void NotesPanel::setCurrentSpan(const QString &requestId, const QString &spanId, const QString &label)
{
    m_currentSpan = {requestId, spanId, QString()};
    m_currentSpanLabel = label;
}

void NotesPanel::rebuild()
{
    const QSignalBlocker block(m_table);
    m_table->setRowCount(int(m_notes.size()));
    for (int i = 0; i < int(m_notes.size()); ++i) {
        const SessionNote &note = m_notes[size_t(i)];
        auto *request = new QTableWidgetItem(note.requestId);
        auto *span = new QTableWidgetItem(note.spanId);
        request->setFlags(request->flags() & ~Qt::ItemIsEditable);
        span->setFlags(span->flags() & ~Qt::ItemIsEditable);
        m_table->setItem(i, RequestColumn, request);
        m_table->setItem(i, SpanColumn, span);
        m_table->setItem(i, NoteColumn, new QTableWidgetItem(note.text));
    }
    m_table->resizeColumnToContents(RequestColumn);
    updateBookmarks();
}

void NotesPanel::updateBookmarks()
{
    const RequestTable *table = m_state->requests();
    if (!table) {
        m_state->setBookmarks({});
        return;
    }
    // A few notes against up to a million ids: compare the UTF-8 bytes, no
    // string is built per row.
    std::vector<QByteArray> ids;
    for (const SessionNote &note : m_notes)
        ids.push_back(note.requestId.toUtf8());
    std::vector<qint32> rows;
    if (!ids.empty()) {
        for (qsizetype row = 0; row < table->rowCount(); ++row) {
            const std::string_view id = table->id(row);
            if (std::any_of(ids.begin(), ids.end(), [id](const QByteArray &wanted) {
                    return std::string_view(wanted.constData(), size_t(wanted.size())) == id;
                }))
                rows.push_back(qint32(row));
        }
    }
    m_state->setBookmarks(RowSet::fromSortedUnique(std::move(rows)));
}
