// ClickHouseSource (the clickhouse:// URL, credentials) and ClickHouseClient's
// deadline and cancel, without a server: a socket that never answers.

#include "clickhouse/ClickHouseClient.h"

#include <QElapsedTimer>
#include <QTcpServer>
#include <QTemporaryFile>
#include <QtTest>

#include <thread>

class TestClickHouseClient : public QObject
{
    Q_OBJECT

private slots:
    void parsesTheUrl()
    {
        ClickHouseSource source;
        QString error;
        QVERIFY2(ClickHouseSource::parse(
                     QStringLiteral("clickhouse://db.example:9123/traces?table=llm&from=1700000000000000000"
                                    "&to=2023-11-14T22:13:21Z&timeout=2.5"),
                     &source, &error),
                 qPrintable(error));
        QCOMPARE(source.endpoint.toString(), QStringLiteral("http://db.example:9123/"));
        QCOMPARE(source.requestsTable(), QStringLiteral("`traces`.`llm`"));
        QCOMPARE(source.spansTable(), QStringLiteral("`traces`.`llm_spans`"));
        QCOMPARE(source.from, Q_INT64_C(1700000000000000000));
        QCOMPARE(source.to, Q_INT64_C(1700000001000000000));
        QCOMPARE(source.timeoutMs, 2500);
        QVERIFY(ClickHouseSource::parse(QStringLiteral("clickhouses://secure.example/x"), &source, &error));
        QCOMPARE(source.endpoint.toString(), QStringLiteral("https://secure.example:8443/"));
        QCOMPARE(source.table, QStringLiteral("tracelane_requests"));
    }

    // trace= keeps one workflow (request): any id survives the URL, and the
    // condition quotes it.
    void aTraceSurvivesTheUrl()
    {
        const QString id = QStringLiteral("Req 7&x=1+2%3#4'5");
        const QString url = ClickHouseSource::withTrace(QStringLiteral("clickhouse://host/db?table=t&sample=3"), id);
        ClickHouseSource source;
        QString error;
        QVERIFY2(ClickHouseSource::parse(url, &source, &error), qPrintable(error));
        QCOMPARE(source.trace, id.toLower());
        QCOMPARE(source.sampleOneIn, qint64(3));
        QCOMPARE(source.traceSql(QStringLiteral("request_id")), QStringLiteral("request_id = 'req 7&x=1+2%3#4\\'5'"));
        ClickHouseSource again;
        QVERIFY2(ClickHouseSource::parse(source.display(), &again, &error), qPrintable(error));
        QCOMPARE(again.trace, source.trace);
        QVERIFY(!ClickHouseSource::parse(QStringLiteral("clickhouse://host/db?trace="), &source, &error));
        QVERIFY2(error.contains(QStringLiteral("trace=: one workflow's trace id")), qPrintable(error));
    }

    void refusesWhatItCannotUse_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("message");
        QTest::addRow("password") << QStringLiteral("clickhouse://me:pw@host/db")
                                  << QStringLiteral("a password in the URL is refused");
        QTest::addRow("bad time") << QStringLiteral("clickhouse://host/db?from=yesterday")
                                  << QStringLiteral("from=yesterday: not a time");
        QTest::addRow("bad timeout") << QStringLiteral("clickhouse://host/db?timeout=0")
                                     << QStringLiteral("timeout=0: seconds between 0 and 86400");
        QTest::addRow("unknown") << QStringLiteral("clickhouse://host/db?tabel=x")
                                 << QStringLiteral("unknown URL parameter 'tabel'");
        QTest::addRow("injection") << QStringLiteral("clickhouse://host/db?table=x;DROP")
                                   << QStringLiteral("database and table names are letters, digits and '_'");
        QTest::addRow("not a url") << QStringLiteral("http://host/db") << QStringLiteral("is not a ClickHouse URL");
    }

    void refusesWhatItCannotUse()
    {
        QFETCH(QString, url);
        QFETCH(QString, message);
        ClickHouseSource source;
        QString error;
        QVERIFY(!ClickHouseSource::parse(url, &source, &error));
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void credentialsComeFromTheEnvironmentOrAFile()
    {
        QTemporaryFile config;
        QVERIFY(config.open());
        config.write("# Tracelane's ClickHouse account\nuser = analyst\npassword = from the file\n");
        config.close();
        qputenv("TRACELANE_CLICKHOUSE_CONFIG", config.fileName().toUtf8());
        qunsetenv("TRACELANE_CLICKHOUSE_USER");
        qputenv("TRACELANE_CLICKHOUSE_PASSWORD", "from the environment");
        ClickHouseSource source;
        QString error;
        QVERIFY(ClickHouseSource::parse(QStringLiteral("clickhouse://host/db"), &source, &error));
        QCOMPARE(source.user, QStringLiteral("analyst"));
        QCOMPARE(source.password, QStringLiteral("from the environment")); // the environment wins
        qunsetenv("TRACELANE_CLICKHOUSE_PASSWORD");
        QVERIFY(ClickHouseSource::parse(QStringLiteral("clickhouse://host/db"), &source, &error));
        QCOMPARE(source.password, QStringLiteral("from the file"));
        QVERIFY(!source.display().contains(QStringLiteral("file")));
        qunsetenv("TRACELANE_CLICKHOUSE_CONFIG");
    }

    void cancelEndsAWaitAtOnce()
    {
        QTcpServer silent; // listens, never answers
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        ClickHouseSource source;
        QString error;
        QVERIFY(ClickHouseSource::parse(
            QStringLiteral("clickhouse://127.0.0.1:%1/db?timeout=60").arg(silent.serverPort()), &source, &error));
        std::atomic<bool> cancel{false};
        const ClickHouseClient client(source, &cancel);
        std::thread canceller([&cancel] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            cancel.store(true);
        });
        QElapsedTimer clock;
        clock.start();
        QVERIFY(!client.run(QStringLiteral("SELECT 1"), nullptr, &error));
        canceller.join();
        QCOMPARE(error, QStringLiteral("cancelled"));
        QVERIFY2(clock.elapsed() < 5'000, qPrintable(QString::number(clock.elapsed())));
    }

    void theDeadlineHolds()
    {
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        ClickHouseSource source;
        QString error;
        QVERIFY(ClickHouseSource::parse(
            QStringLiteral("clickhouse://127.0.0.1:%1/db?timeout=0.5").arg(silent.serverPort()), &source, &error));
        const ClickHouseClient client(source);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(!client.run(QStringLiteral("SELECT 1"), nullptr, &error));
        QVERIFY2(error.contains(QStringLiteral("did not answer within 0.5 s")), qPrintable(error));
        QVERIFY2(clock.elapsed() < 5'000, qPrintable(QString::number(clock.elapsed())));
    }

    void unescapesTabSeparatedFields()
    {
        QCOMPARE(ClickHouseClient::unescape("a\\tb\\nc\\\\d\\'e"), QStringLiteral("a\tb\nc\\d'e"));
    }
};

QTEST_GUILESS_MAIN(TestClickHouseClient)
#include "tst_clickhouseclient.moc"
