// A span's kind and status read the same way from every format that writes
// them as text: OTLP JSON's enum names and numbers, the ClickHouse
// exporter's newer names, Jaeger's and any-agent's words.

#include "io/SpanKindText.h"

#include <QTest>

class tst_SpanKindText : public QObject
{
    Q_OBJECT
private slots:
    void kind_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("kind");
        const auto row
            = [](const char *text, SpanKind kind) { QTest::newRow(text) << QString::fromLatin1(text) << int(kind); };
        row("SPAN_KIND_SERVER", SpanKind::Server); // OTLP JSON, older exporters
        row("Server", SpanKind::Server);           // the ClickHouse exporter today
        row("server", SpanKind::Server);           // Jaeger's span.kind tag, any-agent
        row("span_kind_consumer", SpanKind::Consumer);
        row("SPAN_KIND_INTERNAL", SpanKind::Internal);
        row("Client", SpanKind::Client);
        row("PRODUCER", SpanKind::Producer);
        row("3", SpanKind::Client); // OTLP's number
        row("0", SpanKind::Unspecified);
        row("SPAN_KIND_UNSPECIFIED", SpanKind::Unspecified);
        row("6", SpanKind::Unspecified);
        row("-1", SpanKind::Unspecified);
        row("3x", SpanKind::Unspecified);
        row("SPAN_KIND_", SpanKind::Unspecified);
        row("serverless", SpanKind::Unspecified);
        row("", SpanKind::Unspecified);
    }

    void kind()
    {
        QFETCH(QString, text);
        QFETCH(int, kind);
        const std::string bytes = text.toStdString();
        QCOMPARE(int(SpanKindText::kind(bytes)), kind);
    }

    void status_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("status");
        const auto row = [](const char *text, SpanStatus status) {
            QTest::newRow(text) << QString::fromLatin1(text) << int(status);
        };
        row("STATUS_CODE_ERROR", SpanStatus::Error);
        row("Error", SpanStatus::Error);
        row("2", SpanStatus::Error);
        row("STATUS_CODE_OK", SpanStatus::Ok);
        row("Ok", SpanStatus::Ok);
        row("1", SpanStatus::Ok);
        row("STATUS_CODE_UNSET", SpanStatus::Unset);
        row("Unset", SpanStatus::Unset);
        row("0", SpanStatus::Unset);
        row("3", SpanStatus::Unset);
        row("errors", SpanStatus::Unset);
        row("", SpanStatus::Unset);
    }

    void status()
    {
        QFETCH(QString, text);
        QFETCH(int, status);
        const std::string bytes = text.toStdString();
        QCOMPARE(int(SpanKindText::status(bytes)), status);
    }
};

QTEST_GUILESS_MAIN(tst_SpanKindText)
#include "tst_spankindtext.moc"
