#include "ClickHouseOpenDialog.h"

#include "clickhouse/ClickHouseSource.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QUrlQuery>
#include <QVBoxLayout>

#include <algorithm>

ClickHouseOpenDialog::ClickHouseOpenDialog(QWidget *parent)
    : QDialog(parent)
    , m_server(new QLineEdit(QStringLiteral("clickhouse://localhost:8123"), this))
    , m_database(new QLineEdit(QStringLiteral("default"), this))
    , m_table(new QLineEdit(QStringLiteral("otel_traces"), this))
    , m_from(new QLineEdit(this))
    , m_to(new QLineEdit(this))
    , m_filter(new QLineEdit(this))
    , m_maxSpans(new QSpinBox(this))
    , m_sample(new QSpinBox(this))
    , m_url(new QLineEdit(this))
    , m_problem(new QLabel(this))
{
    setWindowTitle(tr("Open from ClickHouse"));
    m_server->setToolTip(tr("clickhouse://HOST:PORT for HTTP (port 8123 when left out), clickhouses://HOST:PORT "
                            "for HTTPS (8443)"));
    m_table->setToolTip(tr("A table with the OpenTelemetry Collector ClickHouse exporter's columns (otel_traces), or "
                           "Tracelane's own requests table (tracelane-cli clickhouse push)"));
    for (QLineEdit *edit : {m_from, m_to}) {
        edit->setPlaceholderText(tr("optional: 2026-12-01T10:00:00Z or ns since 1970"));
        edit->setToolTip(tr("Traces with a span starting in [from, to) are opened whole (on Tracelane's "
                            "table: the requests sent in it); empty: no bound"));
    }
    m_filter->setPlaceholderText(tr("optional: ServiceName = 'vllm'"));
    m_filter->setToolTip(
        tr("Opens the traces with a span for which this ClickHouse expression holds, over the "
           "table's columns (SpanName, ServiceName, SpanAttributes['key'], Duration, …); span tables only"));
    m_maxSpans->setRange(1, 100'000'000);
    m_maxSpans->setSingleStep(1'000'000);
    m_maxSpans->setGroupSeparatorShown(true);
    m_maxSpans->setValue(int(ClickHouseSource{}.maxSpans));
    m_maxSpans->setToolTip(tr("More spans (requests, on Tracelane's table) than this in the range are refused before "
                              "anything is fetched (about 280 bytes of memory each)"));
    m_sample->setRange(1, int(ClickHouseSource::kMostSample));
    m_sample->setPrefix(tr("1 in "));
    m_sample->setSpecialValueText(tr("every request"));
    m_sample->setGroupSeparatorShown(true);
    m_sample->setToolTip(tr("Keeps one request (one trace, on a span table) in this many, picked by a hash of its id: "
                            "the same ones at every open, independent of their latency. For a table too large to "
                            "hold: every figure is then the sample's, with its n"));
    m_url->setReadOnly(true);
    m_url->setObjectName(QStringLiteral("clickHouseUrl"));
    m_url->setToolTip(tr("What is opened; tracelane-cli takes the same URL"));
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("QLabel { color: #b00020; font-weight: bold; }"));
    auto *note = new QLabel(tr("The user and password are read from TRACELANE_CLICKHOUSE_USER and "
                               "TRACELANE_CLICKHOUSE_PASSWORD, or from ~/.config/tracelane/clickhouse.conf "
                               "(user= and password= lines), never from the URL."),
                            this);
    note->setWordWrap(true);

    auto *form = new QFormLayout;
    form->addRow(tr("&Server:"), m_server);
    form->addRow(tr("&Database:"), m_database);
    form->addRow(tr("&Table:"), m_table);
    form->addRow(tr("&From:"), m_from);
    form->addRow(tr("T&o:"), m_to);
    form->addRow(tr("F&ilter:"), m_filter);
    form->addRow(tr("&Most spans:"), m_maxSpans);
    form->addRow(tr("S&ample:"), m_sample);
    form->addRow(tr("URL:"), m_url);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    m_open = buttons->button(QDialogButtonBox::Open);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(note);
    layout->addWidget(buttons);
    for (QLineEdit *edit : {m_server, m_database, m_table, m_from, m_to, m_filter})
        connect(edit, &QLineEdit::textChanged, this, &ClickHouseOpenDialog::update);
    for (QSpinBox *box : {m_maxSpans, m_sample})
        connect(box, &QSpinBox::valueChanged, this, &ClickHouseOpenDialog::update);
    setMinimumWidth(560);
    update();
}

void ClickHouseOpenDialog::setUrl(const QString &text)
{
    const QUrl url(text);
    if (!ClickHouseSource::isUrl(text) || !url.isValid())
        return;
    m_server->setText(
        QStringLiteral("%1://%2%3")
            .arg(url.scheme(), url.host(), url.port() > 0 ? QStringLiteral(":%1").arg(url.port()) : QString()));
    if (url.path().size() > 1)
        m_database->setText(url.path().mid(1));
    const QUrlQuery query(url);
    m_table->setText(query.queryItemValue(QStringLiteral("table"), QUrl::FullyDecoded));
    m_from->setText(query.queryItemValue(QStringLiteral("from"), QUrl::FullyDecoded));
    m_to->setText(query.queryItemValue(QStringLiteral("to"), QUrl::FullyDecoded));
    m_filter->setText(query.queryItemValue(QStringLiteral("where"), QUrl::FullyDecoded));
    if (query.hasQueryItem(QStringLiteral("max_spans")))
        m_maxSpans->setValue(query.queryItemValue(QStringLiteral("max_spans")).toInt());
    m_sample->setValue(query.hasQueryItem(QStringLiteral("sample"))
                           ? int(std::clamp(query.queryItemValue(QStringLiteral("sample")).toLongLong(), qint64(1),
                                            ClickHouseSource::kMostSample))
                           : 1);
}

QString ClickHouseOpenDialog::url() const
{
    return m_valid;
}

QString ClickHouseOpenDialog::problem() const
{
    return m_why;
}

void ClickHouseOpenDialog::update()
{
    QString server = m_server->text().trimmed();
    while (server.endsWith(QLatin1Char('/')))
        server.chop(1);
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("table"), m_table->text().trimmed());
    if (!m_from->text().trimmed().isEmpty())
        query.addQueryItem(QStringLiteral("from"), m_from->text().trimmed());
    if (!m_to->text().trimmed().isEmpty())
        query.addQueryItem(QStringLiteral("to"), m_to->text().trimmed());
    if (!m_filter->text().trimmed().isEmpty())
        query.addQueryItem(QStringLiteral("where"), m_filter->text().trimmed());
    if (qint64(m_maxSpans->value()) != ClickHouseSource{}.maxSpans)
        query.addQueryItem(QStringLiteral("max_spans"), QString::number(m_maxSpans->value()));
    if (m_sample->value() > 1)
        query.addQueryItem(QStringLiteral("sample"), QString::number(m_sample->value()));
    const QString text = server + QLatin1Char('/') + m_database->text().trimmed() + QLatin1Char('?')
        + query.toString(QUrl::FullyEncoded);
    ClickHouseSource source;
    m_why.clear();
    if (!ClickHouseSource::parse(text, &source, &m_why)) {
        m_valid.clear();
    } else {
        m_valid = text;
    }
    m_url->setText(m_valid);
    m_url->setPlaceholderText(tr("(not valid yet)"));
    m_url->setCursorPosition(0);
    m_problem->setText(m_why);
    m_problem->setVisible(!m_why.isEmpty());
    if (m_open)
        m_open->setEnabled(!m_valid.isEmpty());
}
