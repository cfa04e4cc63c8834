// tracelane-cli clickhouse init|push on a real two-shard cluster: rows equal
// to the loaded trace, spread over both shards, and a second push (whole, or
// after a shard lost its part) adds nothing twice.

#include "io/TraceFileLoader.h"
#include "support/CliRun.h"
#include "support/ClickHouseCluster.h"
#include "support/TestData.h"

#include <QtTest>

class TestClickHousePush : public QObject
{
    Q_OBJECT

private:
    QString url(int shard, const QString &table = QStringLiteral("requests")) const
    {
        return QStringLiteral("clickhouse://127.0.0.1:%1/tracelane?table=%2").arg(m_cluster.httpPort(shard)).arg(table);
    }
    QByteArray ask(int shard, const QString &sql)
    {
        QString error;
        const QByteArray answer = m_cluster.query(shard, sql, &error).trimmed();
        if (!error.isEmpty())
            qWarning("%s", qPrintable(error));
        return answer;
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
        for (int shard = 0; shard < 2; ++shard) {
            const auto run = runCli({QStringLiteral("clickhouse"), QStringLiteral("init"), url(shard),
                                     QStringLiteral("--cluster"), QLatin1String(ClickHouseCluster::kCluster)});
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        }
    }

    void pushedRowsEqualTheLoadedTrace()
    {
        const QString file = TestData::source(QStringLiteral("resources/examples/mixed-classes.jsonl"));
        const LoadResult load = TraceFileLoader::load(file, {});
        QVERIFY(load.ok());
        const auto &requests = load.store->requests;
        const auto run = runCli({QStringLiteral("clickhouse"), QStringLiteral("push"), file, url(0),
                                 QStringLiteral("--batch-rows"), QStringLiteral("150")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(QStringLiteral("%1 sent, 0 batches already there").arg(requests.rowCount())),
                 qPrintable(run.out));
        // The table has no class columns: push says which attributes could.
        QVERIFY2(run.out.contains(QStringLiteral("--class-columns region,priority,cached_prefix,workload_class")),
                 qPrintable(run.out));

        // Every request once, on one of the two shards; both shards hold some.
        QCOMPARE(ask(0, QStringLiteral("SELECT count(), uniqExact(row) FROM tracelane.requests")),
                 QByteArray::number(requests.rowCount()) + '\t' + QByteArray::number(requests.rowCount()));
        const qint64 first = ask(0, QStringLiteral("SELECT count() FROM tracelane.requests_local")).toLongLong();
        const qint64 second = ask(1, QStringLiteral("SELECT count() FROM tracelane.requests_local")).toLongLong();
        QCOMPARE(first + second, requests.rowCount());
        QVERIFY(first > 0 && second > 0);

        // Row by row: id, tokens, the eight stamps, attributes.
        const QByteArray rows = ask(1,
                                    QStringLiteral("SELECT request_id, prompt_tokens, output_tokens, "
                                                   "client_send_ns, queue_enter_ns, last_token_client_ns, "
                                                   "arrayStringConcat(attr_values, ',') FROM tracelane.requests "
                                                   "ORDER BY row FORMAT TabSeparated"));
        const QList<QByteArray> lines = rows.split('\n');
        QCOMPARE(lines.size(), requests.rowCount());
        for (qsizetype row = 0; row < requests.rowCount(); ++row) {
            QStringList values;
            for (const auto &column : requests.attributes())
                values << column.text(row);
            const QString expected = QStringLiteral("%1\t%2\t%3\t%4\t%5\t%6\t%7")
                                         .arg(requests.idText(row))
                                         .arg(requests.promptTokens(row))
                                         .arg(requests.outputTokens(row))
                                         .arg(requests.stamp(row, Stamp::ClientSend))
                                         .arg(requests.stamp(row, Stamp::QueueEnter))
                                         .arg(requests.stamp(row, Stamp::LastTokenClient))
                                         .arg(values.join(QLatin1Char(',')));
            QCOMPARE(QString::fromUtf8(lines[row]), expected);
        }
        // Phase columns are the stamps' differences.
        qint64 queueNs = 0;
        for (qsizetype row = 0; row < requests.rowCount(); ++row)
            queueNs += requests.phaseNs(row, Phase::Queue);
        QCOMPARE(ask(0, QStringLiteral("SELECT sum(queue_ns) FROM tracelane.requests")), QByteArray::number(queueNs));
    }

    void pushingAgainAddsNothing()
    {
        const QString file = TestData::source(QStringLiteral("resources/examples/mixed-classes.jsonl"));
        const auto run = runCli({QStringLiteral("clickhouse"), QStringLiteral("push"), file, url(1),
                                 QStringLiteral("--batch-rows"), QStringLiteral("150")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(QStringLiteral("0 sent, 14 batches already there")), qPrintable(run.out));
        QCOMPARE(ask(0, QStringLiteral("SELECT count() FROM tracelane.requests")), QByteArray("2000"));
    }

    void anInterruptedPushResumesWithTheMissingBatches()
    {
        // A shard that lost its part stands for a push cut short: the next
        // push sends exactly those batches.
        const qint64 lost = ask(1, QStringLiteral("SELECT count() FROM tracelane.requests_local")).toLongLong();
        QVERIFY(lost > 0);
        ask(1, QStringLiteral("TRUNCATE TABLE tracelane.requests_local"));
        QCOMPARE(ask(0, QStringLiteral("SELECT count() FROM tracelane.requests")), QByteArray::number(2000 - lost));
        const QString file = TestData::source(QStringLiteral("resources/examples/mixed-classes.jsonl"));
        const auto run = runCli({QStringLiteral("clickhouse"), QStringLiteral("push"), file, url(0),
                                 QStringLiteral("--batch-rows"), QStringLiteral("150")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(QStringLiteral("%1 sent").arg(lost)), qPrintable(run.out));
        QCOMPARE(ask(0, QStringLiteral("SELECT count(), uniqExact(row) FROM tracelane.requests")),
                 QByteArray("2000\t2000"));
    }

    void spansOfASpanTraceArePushed()
    {
        const QString file = TestData::source(QStringLiteral("resources/examples/adviser.otlp.json"));
        const LoadResult load = TraceFileLoader::load(file, {});
        QVERIFY(load.ok());
        const auto &spans = load.store->spans;
        const auto run = runCli({QStringLiteral("clickhouse"), QStringLiteral("push"), file, url(0)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        qint64 durations = 0;
        qint64 attributes = 0;
        for (qsizetype row = 0; row < spans.rowCount(); ++row) {
            durations += spans.duration(row);
            attributes += qint64(spans.attributeRange(row).second - spans.attributeRange(row).first);
        }
        QCOMPARE(ask(1,
                     QStringLiteral("SELECT count(), sum(end_ns - start_ns), sum(length(attr_keys)), "
                                    "sum(length(attr_keys) = length(attr_values)) FROM tracelane.requests_spans")),
                 QStringLiteral("%1\t%2\t%3\t%1").arg(spans.rowCount()).arg(durations).arg(attributes).toUtf8());
        QCOMPARE(ask(0, QStringLiteral("SELECT name FROM tracelane.requests_spans WHERE parent_span_id = ''")),
                 spans.nameUtf8(0).data() ? QByteArray(spans.nameUtf8(0).data(), qsizetype(spans.nameUtf8(0).size()))
                                          : QByteArray());
    }

    void aServerThatIsDownIsNamed()
    {
        const auto run = runCli({QStringLiteral("clickhouse"), QStringLiteral("init"),
                                 QStringLiteral("clickhouse://127.0.0.1:1/tracelane")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("cannot connect to ClickHouse at 127.0.0.1:1: connection refused")),
                 qPrintable(run.err));
    }

    void aPasswordInTheUrlIsRefused()
    {
        const auto run = runCli({QStringLiteral("clickhouse"), QStringLiteral("init"),
                                 QStringLiteral("clickhouse://me:secret@127.0.0.1:1/tracelane")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(QStringLiteral("a password in the URL is refused")), qPrintable(run.err));
    }

private:
    ClickHouseCluster m_cluster{2};
};

QTEST_GUILESS_MAIN(TestClickHousePush)
#include "tst_clickhousepush.moc"
