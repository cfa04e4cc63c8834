// The ways reading a clickhouse:// URL can fail, each with a clear message
// and no hang: a certificate not trusted or an authority file that is wrong,
// a table that is not there, a server that is down, one that never answers
// (the URL's timeout), and one whose answer is malformed.

#include "support/CliRun.h"
#include "support/ClickHouseCluster.h"
#include "support/TestData.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QtTest>

class TestClickHouseFailures : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
        m_cluster.query(0, QStringLiteral("CREATE DATABASE IF NOT EXISTS tracelane"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void httpsRefusesAnUntrustedCertificate()
    {
        // Without ?ca= the self-signed certificate is not trusted: no answer,
        // and the message says why and what to do.
        const auto run = runCli(
            {QStringLiteral("slice"),
             QStringLiteral("clickhouses://127.0.0.1:%1/tracelane?table=mixed&timeout=10").arg(m_cluster.httpsPort(0)),
             QStringLiteral("--by"), QStringLiteral("region")});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.out, QString());
        QVERIFY2(run.err.contains(QStringLiteral("over https: The certificate is self-signed, and untrusted")),
                 qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("?ca=PATH")), qPrintable(run.err));
    }

    void aWrongAuthorityFileIsNamed_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing file") << QStringLiteral("clickhouses://127.0.0.1:1/tracelane?ca=/nonexistent/ca.pem")
                                      << QStringLiteral("ca=/nonexistent/ca.pem: no such file");
        QTest::newRow("not a certificate")
            << QStringLiteral("clickhouses://127.0.0.1:1/tracelane?ca=%1")
                   .arg(TestData::source(QStringLiteral("resources/examples/burst.jsonl")))
            << QStringLiteral("no PEM certificate in it");
        QTest::newRow("plain http") << QStringLiteral("clickhouse://127.0.0.1:1/tracelane?ca=%1")
                                           .arg(TestData::source(QStringLiteral("resources/examples/burst.jsonl")))
                                    << QStringLiteral("is for https: write clickhouses://");
    }

    void aWrongAuthorityFileIsNamed()
    {
        QFETCH(QString, url);
        QFETCH(QString, message);
        const auto run = runCli({QStringLiteral("slice"), url, QStringLiteral("--by"), QStringLiteral("region")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
    }

    void aWrongTableIsNamed()
    {
        const auto run = runCli({QStringLiteral("slice"), m_cluster.tracelaneUrl(QStringLiteral("nosuch")),
                                 QStringLiteral("--by"), QStringLiteral("region")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("Table tracelane.nosuch doesn't exist")), qPrintable(run.err));
    }

    void aServerThatIsDownIsNamed()
    {
        const auto run = runCli({QStringLiteral("slice"), QStringLiteral("clickhouse://127.0.0.1:1/tracelane"),
                                 QStringLiteral("--by"), QStringLiteral("region")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("cannot connect to ClickHouse at 127.0.0.1:1: connection refused")),
                 qPrintable(run.err));
    }

    void aServerThatNeverAnswersTimesOut()
    {
        // Listening but never accepting: the kernel completes the connection,
        // nobody answers.
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        const auto run
            = runCli({QStringLiteral("slice"),
                      QStringLiteral("clickhouse://127.0.0.1:%1/tracelane?timeout=1").arg(silent.serverPort()),
                      QStringLiteral("--by"), QStringLiteral("region")},
                     20'000);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("did not answer within 1 s")), qPrintable(run.err));
        QVERIFY2(run.elapsedMs < 10'000, qPrintable(QString::number(run.elapsedMs)));
    }

    void aMalformedAnswerIsAnError()
    {
        // A server that answers every query with one field where two (the first query: is the key there) are due.
        QTcpServer liar;
        QVERIFY(liar.listen(QHostAddress::LocalHost, 0));
        connect(&liar, &QTcpServer::newConnection, this, [&liar] {
            while (QTcpSocket *socket = liar.nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, socket, [socket] {
                    socket->readAll();
                    socket->write("HTTP/1.1 200 OK\r\nContent-Length: 8\r\nConnection: close\r\n\r\nnonsense");
                    socket->disconnectFromHost();
                });
            }
        });
        QProcess process;
        process.start(QStringLiteral(TRACELANE_CLI_PATH),
                      {QStringLiteral("slice"),
                       QStringLiteral("clickhouse://127.0.0.1:%1/tracelane?timeout=5").arg(liar.serverPort()),
                       QStringLiteral("--by"), QStringLiteral("region")});
        QTRY_VERIFY_WITH_TIMEOUT(process.state() == QProcess::NotRunning, 15'000);
        QCOMPARE(process.exitCode(), 1);
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("malformed row 1: 1 fields where 2 were expected")), qPrintable(err));
    }

private:
    ClickHouseCluster m_cluster{1, ClickHouseCluster::Tls::On};
};

QTEST_GUILESS_MAIN(TestClickHouseFailures)
#include "tst_clickhousefailures.moc"
