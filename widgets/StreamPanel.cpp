#include "StreamPanel.h"

#include "InSightWork.h"
#include "ViewState.h"
#include "report/StreamReport.h"
#include "store/TraceStore.h"

#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

StreamPanel::StreamPanel(ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_factor(new QDoubleSpinBox(this))
    , m_minimum(new QDoubleSpinBox(this))
    , m_verdict(new QLabel(this))
    , m_report(new QPlainTextEdit(this))
    , m_refresh(new InSightWork(this, [this] { recompute(); }))
{
    setObjectName(QStringLiteral("streamPanel"));
    m_factor->setObjectName(QStringLiteral("stallFactor"));
    m_factor->setRange(1.0, 1000.0);
    m_factor->setDecimals(1);
    m_factor->setSuffix(QStringLiteral("\u00d7"));
    m_factor->setValue(StallRule{}.medianFactor);
    m_factor->setToolTip(tr("A stall is a gap at least this many times the request's own median gap ..."));
    m_minimum->setObjectName(QStringLiteral("stallMinimum"));
    m_minimum->setRange(1.0, 1e6);
    m_minimum->setDecimals(0);
    m_minimum->setSuffix(tr(" ms"));
    m_minimum->setValue(StallRule{}.minimumMs);
    m_minimum->setToolTip(tr("... and at least this long"));
    m_verdict->setObjectName(QStringLiteral("streamVerdict"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_report->setObjectName(QStringLiteral("streamReport"));
    m_report->setReadOnly(true);
    m_report->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_report->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Stall: gap \u2265"), this));
    controls->addWidget(m_factor);
    controls->addWidget(new QLabel(tr("the request's median gap and \u2265"), this));
    controls->addWidget(m_minimum);
    controls->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(m_verdict);
    layout->addWidget(m_report, 1);

    const auto ruleEdited = [this] {
        emit stallRuleChanged(stallRule());
        recompute();
    };
    connect(m_factor, &QDoubleSpinBox::valueChanged, this, ruleEdited);
    connect(m_minimum, &QDoubleSpinBox::valueChanged, this, ruleEdited);
    connect(state, &ViewState::storeChanged, this, [this] { m_refresh->run(m_state->isStoreRefresh()); });
    connect(state, &ViewState::sliceChanged, this, &StreamPanel::recompute);
    recompute();
}

StreamPanel::~StreamPanel() = default;

StallRule StreamPanel::stallRule() const
{
    return {m_factor->value(), m_minimum->value()};
}

void StreamPanel::setStallRule(const StallRule &rule)
{
    m_factor->setValue(rule.medianFactor);
    m_minimum->setValue(rule.minimumMs);
}

QString StreamPanel::reportText() const
{
    return m_report->toPlainText();
}

QString StreamPanel::verdictText() const
{
    return m_verdict->text();
}

void StreamPanel::recompute()
{
    if (m_refresh->isPending())
        return; // out of sight since a live refresh: done once looked at
    const std::shared_ptr<const TraceStore> store = m_state->store();
    if (!store) {
        m_job.cancel();
        apply({});
        return;
    }
    const bool sliced = m_state->hasSlice();
    RowSet scope = sliced ? m_state->slice() : RowSet();
    const StallRule rule = stallRule();
    m_verdict->setText(tr("Computing\u2026"));
    m_job.start(
        [=, scope = std::move(scope)](const std::atomic<bool> *) {
            return StreamAnalysis::summarise(store->requests, sliced ? &scope : nullptr, rule, 20);
        },
        [this](StreamSummary summary) { apply(std::move(summary)); });
}

void StreamPanel::apply(StreamSummary summary)
{
    m_summary = std::move(summary);
    if (!m_state->store()) {
        m_verdict->setText(tr("No trace loaded"));
        m_report->clear();
        emit summaryReady();
        return;
    }
    const QString scope = m_state->scopeText();
    const auto &c = m_summary.coalescing;
    QString verdict;
    if (!m_summary.hasTokenTimes()) {
        verdict
            = tr("<b>No per-token times</b> in this trace (%1): only the mean ITL per request is known.").arg(scope);
    } else {
        const PooledGaps *gaps = nullptr;
        if (const auto *client = m_summary.side(StreamSide::Client))
            gaps = &client->gaps;
        else if (const auto *server = m_summary.side(StreamSide::Server))
            gaps = &server->gaps;
        const PooledQuantile *p95 = gaps ? gaps->find(0.95) : nullptr;
        verdict = tr("<b>p95 inter-token gap (every gap pooled, %1): %2 ms</b> \u00b7 p95 mean ITL per request: %3 "
                     "ms/token \u00b7 %4<br><b>Server vs client:</b> %5<br>%6<br><i>Next test:</i> %7")
                      .arg(gaps ? streamSideKey(gaps->side) : QString())
                      .arg(p95 ? QString::number(p95->valueMs, 'f', 2) : QStringLiteral("-"))
                      .arg(QString::number(m_summary.meanItl.quantiles[2].value, 'f', 2))
                      .arg(scope)
                      .arg(streamMechanismLabel(c.mechanism).toHtmlEscaped(), c.reason.toHtmlEscaped(),
                           c.nextTest.toHtmlEscaped());
    }
    m_verdict->setText(verdict);
    m_report->setPlainText(StreamReport::text(m_summary));
    emit summaryReady();
}
