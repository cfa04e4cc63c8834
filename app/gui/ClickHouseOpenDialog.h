#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

// File → Open from ClickHouse…: the server, database and table of the
// OpenTelemetry Collector's otel_traces (or any table with its columns), an
// optional time range and filter, the most spans to bring into memory and a
// sample (one request or trace in N, for a table too large to hold), shown as the
// clickhouse:// URL the window then opens like a file (model/remote). The
// URL is checked as it is typed; OK stays disabled while it is wrong and the
// reason is shown. Credentials never go in the URL: the note says where they
// are read from.
class ClickHouseOpenDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ClickHouseOpenDialog(QWidget *parent = nullptr);

    // Fills the fields from a URL opened before (the last one, from settings).
    void setUrl(const QString &url);
    // The URL as filled in; empty while it is not valid (problem() says why).
    QString url() const;
    QString problem() const;

    QLineEdit *serverEdit() const { return m_server; }
    QLineEdit *databaseEdit() const { return m_database; }
    QLineEdit *tableEdit() const { return m_table; }
    QLineEdit *fromEdit() const { return m_from; }
    QLineEdit *toEdit() const { return m_to; }
    QLineEdit *filterEdit() const { return m_filter; }
    QSpinBox *maxSpansBox() const { return m_maxSpans; }
    QSpinBox *sampleBox() const { return m_sample; }
    QPushButton *openButton() const { return m_open; }

private:
    void update();

    QLineEdit *m_server = nullptr;
    QLineEdit *m_database = nullptr;
    QLineEdit *m_table = nullptr;
    QLineEdit *m_from = nullptr;
    QLineEdit *m_to = nullptr;
    QLineEdit *m_filter = nullptr;
    QSpinBox *m_maxSpans = nullptr;
    QSpinBox *m_sample = nullptr;
    QLineEdit *m_url = nullptr;
    QLabel *m_problem = nullptr;
    QPushButton *m_open = nullptr;
    QString m_valid;
    QString m_why;
};
