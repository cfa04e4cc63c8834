#include "RequestDetailPanel.h"

#include "RequestText.h"
#include "RequestTimeline.h"
#include "TokenStreamStrip.h"
#include "ViewState.h"
#include "store/TraceStore.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

RequestDetailPanel::RequestDetailPanel(ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_title(new QLabel(this))
    , m_timeline(new RequestTimeline(this))
    , m_stream(new TokenStreamStrip(this))
    , m_facts(new QTableWidget(this))
{
    setObjectName(QStringLiteral("requestDetailPanel"));
    m_title->setObjectName(QStringLiteral("requestDetailTitle"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_facts->setColumnCount(2);
    m_facts->setHorizontalHeaderLabels({tr("Field"), tr("Value")});
    m_facts->verticalHeader()->hide();
    m_facts->horizontalHeader()->setStretchLastSection(true);
    m_facts->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_facts->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_facts->setAlternatingRowColors(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_title);
    layout->addWidget(m_timeline);
    layout->addWidget(m_stream);
    layout->addWidget(m_facts, 1);

    connect(state, &ViewState::currentRowChanged, this, &RequestDetailPanel::showRow);
    connect(state, &ViewState::rowActivated, this, &RequestDetailPanel::showRow);
    connect(state, &ViewState::boundaryChanged, this, [this] { showRow(m_row); });
    connect(state, &ViewState::storeChanged, this, [this] { showRow(-1); });
    showRow(-1);
}

void RequestDetailPanel::showRow(qint32 row)
{
    const RequestTable *table = m_state->requests();
    if (!table || row < 0 || row >= table->rowCount()) {
        m_row = -1;
        m_title->setText(tr("No request selected"));
        std::array<qint64, kStampCount> none;
        none.fill(kNoTime);
        m_timeline->setStamps(none);
        m_stream->setRequest(nullptr, -1, m_stallRule);
        m_stream->hide();
        m_facts->setRowCount(0);
        return;
    }
    m_row = row;
    // A JSON document has no line per request: no "(line 0)" then.
    const qint64 line = table->sourceLine(row);
    m_title->setText(line > 0 ? tr("Request %1 (line %2)").arg(table->idText(row)).arg(line)
                              : tr("Request %1").arg(table->idText(row)));
    std::array<qint64, kStampCount> stamps{};
    for (int s = 0; s < kStampCount; ++s)
        stamps[size_t(s)] = table->stamp(row, static_cast<Stamp>(s));
    m_timeline->setStamps(stamps);
    m_stream->setRequest(table, row, m_stallRule);
    m_stream->setVisible(m_stream->hasStream());

    auto facts = RequestText::facts(*table, row, m_state->boundary());
    const qint64 send = stamps[size_t(Stamp::ClientSend)];
    for (int s = 0; s < kStampCount; ++s) {
        const qint64 t = stamps[size_t(s)];
        QString value = tr("not observed");
        if (t != kNoTime) {
            value = QString::number(double(t) / 1e6, 'f', 3) + QStringLiteral(" ms");
            if (send != kNoTime)
                value += tr("  (+%1)").arg(RequestText::milliseconds(double(t - send) / 1e6));
        }
        facts.append({QString::fromLatin1(stampFieldName(static_cast<Stamp>(s))), value});
    }
    m_facts->setRowCount(int(facts.size()));
    for (int i = 0; i < int(facts.size()); ++i) {
        m_facts->setItem(i, 0, new QTableWidgetItem(facts[i].first));
        m_facts->setItem(i, 1, new QTableWidgetItem(facts[i].second));
    }
    m_facts->resizeColumnToContents(0);
}

void RequestDetailPanel::setStallRule(const StallRule &rule)
{
    m_stallRule = rule;
    showRow(m_row);
}
