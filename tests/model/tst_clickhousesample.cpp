// sample=N on a clickhouse:// URL: one request in N, picked by the server's
// hash of the request id. Every command then answers for exactly those
// requests: the ones computed on the server (analyse, slice, exceed) and the
// ones that fetch the rows (load, goodput) print the JSON of
// the pushed file cut down to the same requests; a table too large to fetch
// is refused with a sample that fits.

#include "clickhouse/ClickHouseSource.h"
#include "remote/TraceSource.h"
#include "store/TraceStore.h"
#include "support/CliRun.h"
#include "support/ClickHouseCluster.h"
#include "support/TestData.h"
#include "support/TracelaneTables.h"

#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

#include <algorithm>

#include <nlohmann/json.hpp>

namespace {

constexpr int kOneIn = 3;

const char *const kExample = "resources/examples/mixed-classes.jsonl";

// exceed's member comparison is the file's only (the server says so); analyse's
// label and format name the source, the notices say it is a sample; a
// member's row is its place in the pushed file on the server, in the cut
// file on the file.
nlohmann::json comparable(const QString &text)
{
    auto document = TracelaneTables::comparable(
        text, {"not_computed_on_server", "member", "label", "format", "notices", "rejected_records"});
    if (document.is_object() && document.contains("members")) {
        for (auto &member : document["members"])
            member.erase("row");
    }
    return document;
}

} // namespace

class TestClickHouseSample : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
        const QString failure
            = TracelaneTables::initAndPush(m_cluster, QStringLiteral("mixed"),
                                           TestData::source(QLatin1String(kExample)), QStringLiteral("region"), 53);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));

        // The requests the server's hash keeps, asked of it directly.
        const QByteArray ids = m_cluster.query(
            0,
            QStringLiteral("SELECT request_id FROM tracelane.mixed WHERE sipHash64(request_id) % %1 = 0 FORMAT "
                           "TabSeparated")
                .arg(kOneIn),
            &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QSet<QByteArray> kept;
        for (const QByteArray &id : ids.split('\n')) {
            if (!id.isEmpty())
                kept.insert(id);
        }
        // The pushed file cut down to them.
        QVERIFY(m_scratch.isValid());
        QFile source(TestData::source(QLatin1String(kExample)));
        QFile sample(sampleFile());
        QVERIFY(source.open(QIODevice::ReadOnly) && sample.open(QIODevice::WriteOnly));
        while (!source.atEnd()) {
            const QByteArray line = source.readLine();
            ++m_requests;
            const auto record = nlohmann::json::parse(line.toStdString());
            if (kept.contains(QByteArray::fromStdString(record["request_id"].get<std::string>()))) {
                QVERIFY(sample.write(line) == line.size());
                ++m_sampled;
            }
        }
        QCOMPARE(m_sampled, qint64(kept.size()));
        // About a third, and neither none nor all of them.
        QVERIFY2(m_sampled > m_requests / 4 && m_sampled < m_requests / 2,
                 qPrintable(QStringLiteral("%1 of %2").arg(m_sampled).arg(m_requests)));
    }

    void theUrlSaysTheSample()
    {
        ClickHouseSource source;
        QString error;
        QVERIFY2(ClickHouseSource::parse(sampleUrl(), &source, &error), qPrintable(error));
        QCOMPARE(source.sampleOneIn, qint64(kOneIn));
        QVERIFY2(source.display().endsWith(QStringLiteral("?table=mixed&sample=3")), qPrintable(source.display()));
        QCOMPARE(source.sampleSql(QStringLiteral("request_id")), QStringLiteral("sipHash64(request_id) % 3 = 0"));
        QVERIFY(ClickHouseSource::parse(m_cluster.tracelaneUrl(QStringLiteral("mixed")) + QStringLiteral("&sample=1"),
                                        &source, &error));
        QVERIFY(source.sampleSql(QStringLiteral("request_id")).isEmpty());
        // Other parameters survive a sample added or taken away (a refusal's
        // suggestion is opened this way).
        const QString where = m_cluster.tracelaneUrl(QStringLiteral("mixed"))
            + QStringLiteral("&from=2026-12-01T10:00:00Z&max_spans=9&sample=2&timeout=7");
        QVERIFY(ClickHouseSource::parse(ClickHouseSource::withSample(where, 7), &source, &error));
        QCOMPARE(source.sampleOneIn, qint64(7));
        QCOMPARE(source.maxSpans, qint64(9));
        QCOMPARE(source.timeoutMs, 7000);
        QCOMPARE(source.from, qint64(1'796'119'200'000'000'000));
        QVERIFY(ClickHouseSource::parse(ClickHouseSource::withSample(where, 1), &source, &error));
        QCOMPARE(source.sampleOneIn, qint64(1));
        QVERIFY(!ClickHouseSource::withSample(where, 1).contains(QStringLiteral("sample")));
        const QString filter = QStringLiteral("SpanAttributes['a&b'] = 'x y+z' AND Duration > 1e6");
        const QString spans = QStringLiteral("clickhouse://127.0.0.1:8123/otel?table=otel_traces&where=")
            + QString::fromLatin1(QUrl::toPercentEncoding(filter));
        QVERIFY2(ClickHouseSource::parse(ClickHouseSource::withSample(spans, 4), &source, &error), qPrintable(error));
        QCOMPARE(source.where, filter);
        QCOMPARE(source.sampleOneIn, qint64(4));
        // A time range narrowed: each bound the later (earlier) of the two,
        // as integer ns; the other parameters kept.
        constexpr qint64 kFrom = 1'796'119'200'000'000'000;
        const QString narrowed = ClickHouseSource::withinRange(where, kFrom - 1'000'000'000, kFrom + 5'000'000'000);
        QVERIFY2(ClickHouseSource::parse(narrowed, &source, &error), qPrintable(error));
        QCOMPARE(source.from, kFrom);
        QCOMPARE(source.to, kFrom + 5'000'000'000);
        QCOMPARE(source.sampleOneIn, qint64(2));
        QCOMPARE(source.maxSpans, qint64(9));
        QVERIFY2(ClickHouseSource::parse(ClickHouseSource::withinRange(narrowed, kFrom + 1, ClickHouseSource::kNoBound),
                                         &source, &error),
                 qPrintable(error));
        QCOMPARE(source.from, kFrom + 1);
        QCOMPARE(source.to, kFrom + 5'000'000'000);
        QVERIFY(ClickHouseSource::withinRange(where, kFrom - 10, kFrom).isEmpty()); // before from=: nothing
        QVERIFY(ClickHouseSource::withinRange(QStringLiteral("trace.jsonl"), 0, 1).isEmpty());
        QCOMPARE(ClickHouseSource::sampleThatFits(20'000'000, 5'000'000), qint64(6));
        QCOMPARE(ClickHouseSource::sampleThatFits(100, 500, 3), qint64(4));
        for (const char *bad : {"0", "-2", "third", "", "1000000001"}) {
            QVERIFY(!ClickHouseSource::parse(m_cluster.tracelaneUrl(QStringLiteral("mixed"))
                                                 + QStringLiteral("&sample=") + QLatin1String(bad),
                                             &source, &error));
            QVERIFY2(error.contains(QStringLiteral("keep one request in N")), qPrintable(error));
        }
    }

    void everyCommandAnswersForTheSample_data()
    {
        QTest::addColumn<QStringList>("arguments");
        const auto row = [](const QStringList &arguments) {
            QTest::addRow("%s", qPrintable(arguments.join(QLatin1Char(' ')))) << arguments;
        };
        // On the server.
        row({QStringLiteral("analyse")});
        row({QStringLiteral("slice"), QStringLiteral("--by"), QStringLiteral("region,priority")});
        row({QStringLiteral("slice"), QStringLiteral("--by"), QStringLiteral("prompt_band"), QStringLiteral("--metric"),
             QStringLiteral("e2e")});
        row({QStringLiteral("exceed"), QStringLiteral("--members"), QStringLiteral("10")});
        row({QStringLiteral("exceed"), QStringLiteral("--where"), QStringLiteral("region=eu-west")});
        // In memory, from the fetched rows.
        row({QStringLiteral("load")});
        row({QStringLiteral("goodput")});
    }

    void everyCommandAnswersForTheSample()
    {
        QFETCH(QStringList, arguments);
        const auto run = [&](const QString &input) {
            QStringList all = arguments;
            all.insert(1, input);
            return runCli(all << QStringLiteral("--json"));
        };
        const auto fromFile = run(sampleFile());
        QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
        const auto expected = comparable(fromFile.out);
        QVERIFY(expected.is_object());
        const auto fromServer = run(sampleUrl());
        QVERIFY2(fromServer.exitCode == 0, qPrintable(fromServer.err));
        const auto actual = comparable(fromServer.out);
        if (actual != expected) {
            qWarning("file:\n%s\nserver:\n%s", expected.dump(1).c_str(), actual.dump(1).c_str());
            QFAIL("the sample's figures differ from the file cut down to the same requests");
        }
        // Every command's JSON names its source, and so the sample.
        const auto document = nlohmann::json::parse(fromServer.out.toStdString());
        QVERIFY2(QString::fromStdString(document.value("file", std::string())).endsWith(QStringLiteral("&sample=3")),
                 qPrintable(fromServer.out.left(400)));
    }

    void theFetchedSampleSaysWhatItIs()
    {
        const LoadResult load = TraceSource::load(sampleUrl(), {});
        QVERIFY2(load.ok(), qPrintable(load.fatalError));
        QCOMPARE(load.store->requests.rowCount(), m_sampled);
        const auto &notices = load.store->notices;
        const QString expected
            = QStringLiteral("a sample: %1 of the %2 requests in the time range, one in 3 picked by "
                             "a hash of the request id (sipHash64(request_id) % 3 = 0)")
                  .arg(QLocale(QLocale::English).toString(m_sampled), QLocale(QLocale::English).toString(m_requests));
        QVERIFY(std::any_of(notices.begin(), notices.end(),
                            [&](const auto &notice) { return notice.message.startsWith(expected); }));
    }

    void aSampleWithinARange()
    {
        // The sample of the requests sent in [from, to): both conditions.
        const qint64 from = 1'700'000'004'000'000'000;
        const qint64 to = 1'700'000'012'000'000'000;
        QString error;
        const QByteArray count = m_cluster.query(
            0,
            QStringLiteral("SELECT count() FROM tracelane.mixed WHERE client_send_ns >= %1 AND client_send_ns < %2 AND "
                           "sipHash64(request_id) % 3 = 0")
                .arg(from)
                .arg(to),
            &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const qint64 kept = count.trimmed().toLongLong();
        QVERIFY(kept > 0 && kept < m_sampled);
        const QString url = sampleUrl() + QStringLiteral("&from=%1&to=%2").arg(from).arg(to);
        const LoadResult load = TraceSource::load(url, {});
        QVERIFY2(load.ok(), qPrintable(load.fatalError));
        QCOMPARE(load.store->requests.rowCount(), kept);
        QCOMPARE(load.store->sampleOneIn, qint64(kOneIn));
        // The server's analysis counts the same requests.
        const auto run = runCli({QStringLiteral("analyse"), url, QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(nlohmann::json::parse(run.out.toStdString())["requests"].get<qint64>(), kept);
    }

    void pushAndInitRefuseASample()
    {
        const auto run = runCli({QStringLiteral("clickhouse"), QStringLiteral("push"),
                                 TestData::source(QLatin1String(kExample)), sampleUrl()});
        QVERIFY(run.exitCode != 0);
        QVERIFY2(run.err.contains(QStringLiteral("sample= reads a sample of a table; init and push write the whole "
                                                 "table")),
                 qPrintable(run.err));
    }

    void tooManyRequestsSuggestASampleThatFits()
    {
        // 2000 requests, at most 500: one in six holds about 333 (one in
        // five, 400, would leave too little room for the hash's spread).
        LoadResult load
            = TraceSource::load(m_cluster.tracelaneUrl(QStringLiteral("mixed")) + QStringLiteral("&max_spans=500"), {});
        QVERIFY(!load.ok());
        QCOMPARE(load.sampleThatFits, qint64(6));
        QVERIFY2(load.fatalError.contains(QStringLiteral("%1 requests in the time range, more than max_spans=500; "
                                                         "open a sample of them with sample=6 (one request in 6)")
                                              .arg(QLocale(QLocale::English).toString(m_requests))),
                 qPrintable(load.fatalError));
        QVERIFY(TraceSource::load(
                    m_cluster.tracelaneUrl(QStringLiteral("mixed")) + QStringLiteral("&max_spans=500&sample=6"), {})
                    .ok());
        // A sample still too large says so, with a sparser one.
        load = TraceSource::load(sampleUrl() + QStringLiteral("&max_spans=500"), {});
        QVERIFY(!load.ok());
        QVERIFY2(
            load.fatalError.contains(QStringLiteral("%1 requests in the 1-in-3 sample of the time range's %2, more "
                                                    "than max_spans=500; keep fewer with sample=6")
                                         .arg(QLocale(QLocale::English).toString(m_sampled),
                                              QLocale(QLocale::English).toString(m_requests))),
            qPrintable(load.fatalError));
        // A range whose requests all fall outside the sample.
        load = TraceSource::load(m_cluster.tracelaneUrl(QStringLiteral("mixed")) + QStringLiteral("&sample=1000000"),
                                 {});
        QVERIFY(!load.ok());
        QVERIFY2(load.fatalError.contains(QStringLiteral("none of the time range's %1 requests is in the sample")
                                              .arg(QLocale(QLocale::English).toString(m_requests))),
                 qPrintable(load.fatalError));
    }

    void cleanupTestCase() { m_cluster.stop(); }

private:
    QString sampleUrl() const
    {
        return m_cluster.tracelaneUrl(QStringLiteral("mixed")) + QStringLiteral("&sample=%1").arg(kOneIn);
    }
    QString sampleFile() const { return m_scratch.filePath(QStringLiteral("sample.jsonl")); }

    ClickHouseCluster m_cluster;
    QTemporaryDir m_scratch;
    qint64 m_requests = 0;
    qint64 m_sampled = 0;
};

QTEST_GUILESS_MAIN(TestClickHouseSample)
#include "tst_clickhousesample.moc"
