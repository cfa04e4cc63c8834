#include "ListenDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {

constexpr qint64 kNsPerMinute = 60'000'000'000LL;

QHostAddress addressOf(const QString &text)
{
    QString host = text.trimmed();
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    if (host == QLatin1String("localhost"))
        host = QStringLiteral("127.0.0.1");
    return QHostAddress(host);
}

} // namespace

ListenDialog::ListenDialog(const LiveReceiver::Settings &initial, QWidget *parent)
    : QDialog(parent)
    , m_address(new QComboBox(this))
    , m_httpPort(new QSpinBox(this))
    , m_grpc(new QCheckBox(tr("OTLP/gRPC on port"), this))
    , m_grpcPort(new QSpinBox(this))
    , m_token(new QLineEdit(this))
    , m_keepMinutes(new QCheckBox(tr("Keep only workflows first seen in the last"), this))
    , m_minutes(new QSpinBox(this))
    , m_keepWorkflows(new QCheckBox(tr("Keep only the newest"), this))
    , m_workflows(new QSpinBox(this))
    , m_warning(new QLabel(this))
{
    setWindowTitle(tr("Listen for OTLP"));
    m_address->setEditable(true);
    m_address->addItem(QStringLiteral("127.0.0.1"));
    m_address->addItem(QStringLiteral("::1"));
    m_address->addItem(QStringLiteral("0.0.0.0"));
    m_address->setItemData(0, tr("This machine only (IPv4 loopback)"), Qt::ToolTipRole);
    m_address->setItemData(1, tr("This machine only (IPv6 loopback)"), Qt::ToolTipRole);
    m_address->setItemData(2, tr("Every interface: reachable from other machines"), Qt::ToolTipRole);
    m_address->setCurrentText(initial.httpAddress.toString());
    m_address->setObjectName(QStringLiteral("listenAddress"));
    for (QSpinBox *port : {m_httpPort, m_grpcPort})
        port->setRange(0, 65535);
    m_httpPort->setValue(initial.httpPort);
    m_httpPort->setToolTip(
        tr("POST /v1/traces, protobuf or JSON (the OTLP/HTTP default is 4318; 0 picks a free port)"));
    m_grpc->setChecked(initial.grpc);
    m_grpcPort->setValue(initial.grpcPort);
    m_grpcPort->setToolTip(tr("TraceService/Export (vLLM's and SGLang's default is 4317)"));
    connect(m_grpc, &QCheckBox::toggled, m_grpcPort, &QWidget::setEnabled);
    m_grpcPort->setEnabled(initial.grpc);
    m_token->setPlaceholderText(tr("optional: require Authorization: Bearer TOKEN"));
    m_token->setText(QString::fromUtf8(initial.bearerToken));
    m_minutes->setRange(1, 24 * 60);
    m_minutes->setSuffix(tr(" min"));
    const LiveStore::Rolling &rolling = initial.store.rolling;
    m_minutes->setValue(rolling.maxAgeNs > 0 ? int(rolling.maxAgeNs / kNsPerMinute) : 10);
    m_keepMinutes->setChecked(rolling.maxAgeNs > 0);
    m_workflows->setRange(1, 10'000'000);
    m_workflows->setGroupSeparatorShown(true);
    m_workflows->setSuffix(tr(" workflows"));
    m_workflows->setValue(rolling.maxWorkflows > 0 ? int(rolling.maxWorkflows) : 10'000);
    m_keepWorkflows->setChecked(rolling.maxWorkflows > 0);
    connect(m_keepMinutes, &QCheckBox::toggled, m_minutes, &QWidget::setEnabled);
    connect(m_keepWorkflows, &QCheckBox::toggled, m_workflows, &QWidget::setEnabled);
    m_minutes->setEnabled(m_keepMinutes->isChecked());
    m_workflows->setEnabled(m_keepWorkflows->isChecked());

    m_warning->setObjectName(QStringLiteral("listenWarning"));
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(QStringLiteral("QLabel { color: #b00020; font-weight: bold; }"));

    auto *form = new QFormLayout;
    form->addRow(tr("Listen on address:"), m_address);
    form->addRow(tr("OTLP/HTTP port:"), m_httpPort);
    auto *grpcRow = new QHBoxLayout;
    grpcRow->addWidget(m_grpc);
    grpcRow->addWidget(m_grpcPort, 1);
    form->addRow(grpcRow);
    form->addRow(tr("Bearer token:"), m_token);
    auto *minutesRow = new QHBoxLayout;
    minutesRow->addWidget(m_keepMinutes);
    minutesRow->addWidget(m_minutes, 1);
    auto *workflowsRow = new QHBoxLayout;
    workflowsRow->addWidget(m_keepWorkflows);
    workflowsRow->addWidget(m_workflows, 1);
    form->addRow(tr("Rolling:"), minutesRow);
    form->addRow(QString(), workflowsRow);
    auto *note = new QLabel(tr("Point exporters at http://ADDRESS:PORT/v1/traces (OTLP/HTTP) or ADDRESS:PORT "
                               "(OTLP/gRPC). Received workflows appear in every view, refreshed up to 4 times a "
                               "second; Pause freezes the views while receiving goes on."),
                            this);
    note->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Listen"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_warning);
    layout->addWidget(note);
    layout->addWidget(buttons);
    connect(m_address, &QComboBox::currentTextChanged, this, &ListenDialog::updateWarning);
    connect(m_httpPort, &QSpinBox::valueChanged, this, &ListenDialog::updateWarning);
    connect(m_token, &QLineEdit::textChanged, this, &ListenDialog::updateWarning);
    updateWarning();
}

QString ListenDialog::warning() const
{
    const QHostAddress address = addressOf(m_address->currentText());
    if (address.isNull() || address.isLoopback())
        return {};
    return tr("Listening on %1 reaches beyond this machine: anyone who can reach port %2 can send spans to "
              "Tracelane%3.")
        .arg(address.toString())
        .arg(m_httpPort->value())
        .arg(m_token->text().isEmpty() ? tr(" (set a bearer token to require one)") : QString());
}

void ListenDialog::updateWarning()
{
    const QString text = warning();
    m_warning->setText(text);
    m_warning->setVisible(!text.isEmpty());
}

bool ListenDialog::settings(LiveReceiver::Settings *settings, QString *error) const
{
    const QHostAddress address = addressOf(m_address->currentText());
    if (address.isNull()) {
        *error = tr("'%1' is not an IP address (use 127.0.0.1, ::1 or 0.0.0.0)").arg(m_address->currentText());
        return false;
    }
    settings->httpAddress = address;
    settings->grpcAddress = address;
    settings->httpPort = quint16(m_httpPort->value());
    settings->grpc = m_grpc->isChecked();
    settings->grpcPort = quint16(m_grpcPort->value());
    settings->bearerToken = m_token->text().toUtf8();
    settings->store.rolling.maxAgeNs = m_keepMinutes->isChecked() ? qint64(m_minutes->value()) * kNsPerMinute : 0;
    settings->store.rolling.maxWorkflows = m_keepWorkflows->isChecked() ? m_workflows->value() : 0;
    return true;
}
