#pragma once

#include "live/LiveReceiver.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

// File → Listen for OTLP…: where to listen (loopback by default, with a
// warning when the address reaches beyond this machine), the OTLP/HTTP and
// OTLP/gRPC ports (4318 and 4317, the exporters' defaults), an optional
// bearer token, and the rolling mode (keep the last N minutes and/or the
// newest N workflows).
class ListenDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ListenDialog(const LiveReceiver::Settings &initial, QWidget *parent = nullptr);

    // The settings as filled in; false with `error` when the address is not one.
    bool settings(LiveReceiver::Settings *settings, QString *error) const;
    // Shown while the address is beyond loopback; empty otherwise.
    QString warning() const;

    QComboBox *addressBox() const { return m_address; }
    QSpinBox *httpPortBox() const { return m_httpPort; }
    QCheckBox *grpcBox() const { return m_grpc; }
    QSpinBox *grpcPortBox() const { return m_grpcPort; }

private:
    void updateWarning();

    QComboBox *m_address = nullptr;
    QSpinBox *m_httpPort = nullptr;
    QCheckBox *m_grpc = nullptr;
    QSpinBox *m_grpcPort = nullptr;
    QLineEdit *m_token = nullptr;
    QCheckBox *m_keepMinutes = nullptr;
    QSpinBox *m_minutes = nullptr;
    QCheckBox *m_keepWorkflows = nullptr;
    QSpinBox *m_workflows = nullptr;
    QLabel *m_warning = nullptr;
};
