// File → Open from ClickHouse…: the dialog builds and checks the URL, and the
// window opens an otel_traces table (on a current ClickHouse, npm chdb) like
// the OTLP file its spans came from, and Tracelane's own table (on Debian's
// server) like the file pushed to it, with the URL as the trace's name.

#include "ClickHouseOpenDialog.h"
#include "MainWindow.h"
#include "RecentFiles.h"
#include "ViewState.h"
#include "clickhouse/ClickHouseSource.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"
#include "support/ChdbServer.h"
#include "support/CliRun.h"
#include "support/ClickHouseCluster.h"
#include "support/OtelTracesTable.h"
#include "support/TestData.h"

#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>

#include <algorithm>

class tst_ClickHouseOpen : public QObject
{
    Q_OBJECT

private slots:
    void theDialogBuildsTheUrl()
    {
        ClickHouseOpenDialog dialog;
        QCOMPARE(dialog.url(), QStringLiteral("clickhouse://localhost:8123/default?table=otel_traces"));
        QVERIFY(dialog.openButton()->isEnabled());
        dialog.serverEdit()->setText(QStringLiteral("clickhouses://db.example:8443/"));
        dialog.databaseEdit()->setText(QStringLiteral("otel"));
        dialog.fromEdit()->setText(QStringLiteral("2026-12-01T10:00:00Z"));
        dialog.toEdit()->setText(QStringLiteral("1764585000000000000"));
        dialog.maxSpansBox()->setValue(200'000);
        QCOMPARE(dialog.url(),
                 QStringLiteral("clickhouses://db.example:8443/otel?table=otel_traces&from=2026-12-01T10:"
                                "00:00Z&to=1764585000000000000&max_spans=200000"));
        // A URL opened before fills the fields again.
        ClickHouseOpenDialog again;
        again.setUrl(dialog.url());
        QCOMPARE(again.url(), dialog.url());
        QCOMPARE(again.maxSpansBox()->value(), 200'000);
        QCOMPARE(again.sampleBox()->value(), 1);

        // A sample: one in N, read back; 1 is every request (no parameter).
        dialog.sampleBox()->setValue(20);
        QVERIFY2(dialog.url().endsWith(QStringLiteral("&max_spans=200000&sample=20")), qPrintable(dialog.url()));
        again.setUrl(dialog.url());
        QCOMPARE(again.sampleBox()->value(), 20);
        QCOMPARE(again.url(), dialog.url());
        again.setUrl(QStringLiteral("clickhouse://localhost:8123/default?table=otel_traces"));
        QCOMPARE(again.sampleBox()->value(), 1);
        QVERIFY(!again.url().contains(QStringLiteral("sample")));
    }

    void aFilterSurvivesTheUrl()
    {
        // Quotes, '&', '=', '+' and spaces in the filter reach the server as typed.
        ClickHouseOpenDialog dialog;
        const QString filter = QStringLiteral("SpanAttributes['a&b'] = 'x y+z' AND Duration > 1e6");
        dialog.filterEdit()->setText(filter);
        ClickHouseSource source;
        QString error;
        QVERIFY2(ClickHouseSource::parse(dialog.url(), &source, &error), qPrintable(error));
        QCOMPARE(source.where, filter);
        ClickHouseOpenDialog again;
        again.setUrl(dialog.url());
        QCOMPARE(again.filterEdit()->text(), filter);
    }

    void aWrongFieldDisablesOpenAndSaysWhy()
    {
        ClickHouseOpenDialog dialog;
        dialog.fromEdit()->setText(QStringLiteral("yesterday"));
        QVERIFY(dialog.url().isEmpty());
        QVERIFY(!dialog.openButton()->isEnabled());
        QVERIFY2(dialog.problem().contains(QStringLiteral("from=yesterday: not a time")), qPrintable(dialog.problem()));
        dialog.fromEdit()->clear();
        dialog.tableEdit()->setText(QStringLiteral("otel traces"));
        QVERIFY(!dialog.openButton()->isEnabled());
        QVERIFY2(dialog.problem().contains(QStringLiteral("letters, digits and '_'")), qPrintable(dialog.problem()));
        dialog.tableEdit()->setText(QStringLiteral("otel_traces"));
        QVERIFY(dialog.openButton()->isEnabled());
    }

    void theWindowOpensTheTableLikeTheFile()
    {
        ChdbServer chdb;
        chdb.start();
        if (QTest::currentTestFailed())
            return;
        const QString file = TestData::source(QStringLiteral("resources/examples/adviser.otlp.json"));
        QVERIFY(OtelTracesTable::run(chdb.port(), QStringLiteral("CREATE DATABASE IF NOT EXISTS tracelane")));
        QVERIFY(OtelTracesTable::create(chdb.port(), QStringLiteral("adviser"), OtelTracesTable::rowsOf(file)));
        const LoadResult fromFile = TraceFileLoader::load(file, LoadOptions{});
        QVERIFY(fromFile.ok());

        MainWindow window;
        window.setPersistent(false);
        window.resize(1280, 800);
        window.show();
        QSignalSpy finished(&window, &MainWindow::loadFinished);
        const QString url = QStringLiteral("clickhouse://127.0.0.1:%1/tracelane?table=adviser").arg(chdb.port());
        window.openFile(url);
        QVERIFY(finished.wait(60'000));
        QCOMPARE(finished.first().first().toBool(), true);
        const auto store = window.store();
        QVERIFY(store);
        QCOMPARE(store->spans.rowCount(), fromFile.store->spans.rowCount());
        QCOMPARE(store->workflows.rowCount(), fromFile.store->workflows.rowCount());
        QCOMPARE(store->requests.rowCount(), fromFile.store->requests.rowCount());
        QCOMPARE(window.currentFile(), url);
        QVERIFY2(window.windowTitle().contains(QStringLiteral("table=adviser")), qPrintable(window.windowTitle()));

        // The same table as the candidate beside it.
        window.compareWith(url);
        QTRY_VERIFY_WITH_TIMEOUT(window.viewState()->candidate() != nullptr, 60'000);
        QCOMPARE(window.viewState()->candidate()->spans.rowCount(), fromFile.store->spans.rowCount());
        QCOMPARE(window.viewState()->candidate()->sourceFiles.first(),
                 QStringLiteral("clickhouse://127.0.0.1:%1/tracelane?table=adviser").arg(chdb.port()));

        // A table that is not there: the message names it and the trace stays.
        finished.clear();
        window.openFile(QStringLiteral("clickhouse://127.0.0.1:%1/tracelane?table=nosuch").arg(chdb.port()));
        QVERIFY(finished.wait(60'000));
        QCOMPARE(finished.first().first().toBool(), false);
        QCOMPARE(window.store(), store);
        QCOMPARE(window.currentFile(), url);
    }

    void theWindowOpensTracelanesTableLikeThePushedFile()
    {
        ClickHouseCluster server(1);
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QVERIFY(server.query(0, QStringLiteral("CREATE DATABASE IF NOT EXISTS tracelane"), &error).isEmpty());
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString file = TestData::source(QStringLiteral("resources/examples/mixed-classes.jsonl"));
        const QString url = QStringLiteral("clickhouse://127.0.0.1:%1/tracelane?table=mixed").arg(server.httpPort(0));
        for (const QStringList &arguments :
             {QStringList{QStringLiteral("clickhouse"), QStringLiteral("init"), url},
              QStringList{QStringLiteral("clickhouse"), QStringLiteral("push"), file, url}}) {
            const CliRun run = runCli(arguments);
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        }
        const LoadResult fromFile = TraceFileLoader::load(file, LoadOptions{});
        QVERIFY(fromFile.ok());

        MainWindow window;
        window.setPersistent(false);
        window.resize(1280, 800);
        window.show();
        QSignalSpy finished(&window, &MainWindow::loadFinished);
        window.openFile(url);
        QVERIFY(finished.wait(60'000));
        QCOMPARE(finished.first().first().toBool(), true);
        const auto store = window.store();
        QVERIFY(store);
        QCOMPARE(store->format, QStringLiteral("tracelane-clickhouse"));
        QCOMPARE(store->requests.rowCount(), fromFile.store->requests.rowCount());
        QCOMPARE(store->requests.attributes().size(), fromFile.store->requests.attributes().size());
        QCOMPARE(window.statusSummary().section(QStringLiteral(" | "), 0, 0),
                 QStringLiteral("%1 requests").arg(QLocale().toString(fromFile.store->requests.rowCount())));
        QCOMPARE(window.currentFile(), url);
        QVERIFY2(window.windowTitle().contains(QStringLiteral("table=mixed")), qPrintable(window.windowTitle()));

        // More rows than the URL allows: refused with the count and a sample
        // that fits, and the trace stays.
        finished.clear();
        window.openFile(url + QStringLiteral("&max_spans=500"));
        QVERIFY(finished.wait(60'000));
        QCOMPARE(finished.first().first().toBool(), false);
        QCOMPARE(window.store(), store);
        const qint64 requests = fromFile.store->requests.rowCount();
        QVERIFY2(window.bannerText().contains(QStringLiteral("%1 requests in the time range, more than "
                                                             "max_spans=500; open a sample of them with sample=6")
                                                  .arg(QLocale(QLocale::English).toString(requests))),
                 qPrintable(window.bannerText()));

        // The banner's button opens that sample: the requests the server's
        // hash keeps, named so.
        const QByteArray kept = server.query(
            0, QStringLiteral("SELECT count() FROM tracelane.mixed WHERE sipHash64(request_id) % 6 = 0"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(kept.trimmed().toLongLong() > 0 && kept.trimmed().toLongLong() <= 500);
        auto *open = window.findChild<QPushButton *>(QStringLiteral("messageBannerAction"));
        QVERIFY(open && open->isVisible());
        QCOMPARE(open->text(), QStringLiteral("Open a 1-in-6 sample"));
        // A refusal with nothing to offer replaces it without a button.
        finished.clear();
        window.openFile(QStringLiteral("clickhouse://127.0.0.1:%1/tracelane?table=nosuch").arg(server.httpPort(0)));
        QVERIFY(finished.wait(60'000));
        QVERIFY(window.bannerText().contains(QStringLiteral("nosuch")));
        QVERIFY(!open->isVisible());
        finished.clear();
        window.openFile(url + QStringLiteral("&max_spans=500"));
        QVERIFY(finished.wait(60'000));
        QVERIFY(open->isVisible());
        finished.clear();
        open->click();
        QVERIFY(finished.wait(60'000));
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(!open->isVisible());
        QCOMPARE(window.store()->requests.rowCount(), kept.trimmed().toLongLong());
        QCOMPARE(window.currentFile(), url + QStringLiteral("&max_spans=500&sample=6"));
        QVERIFY2(window.windowTitle().contains(QStringLiteral("sample=6")), qPrintable(window.windowTitle()));
        QCOMPARE(window.store()->sampleOneIn, qint64(6));
        QVERIFY2(window.statusSummary().contains(QStringLiteral("requests (a 1-in-6 sample)")),
                 qPrintable(window.statusSummary()));
        QVERIFY(std::any_of(window.store()->notices.begin(), window.store()->notices.end(), [&](const auto &notice) {
            return notice.message.startsWith(
                QStringLiteral("a sample: %1 of the %2 requests in the time range, one in 6")
                    .arg(QLocale(QLocale::English).toString(kept.trimmed().toLongLong()),
                         QLocale(QLocale::English).toString(requests)));
        }));
    }

    void recentFilesKeepUrls()
    {
        // Missing files drop out of the list; a URL stays (its server is asked
        // when it is opened).
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("tracelane-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_clickhouseopen"));
        RecentFiles::clear();
        const QString url = QStringLiteral("clickhouse://db.example:8123/otel?table=otel_traces");
        RecentFiles::add(url);
        RecentFiles::add(QStringLiteral("/no/such/file.jsonl"));
        QCOMPARE(RecentFiles::load(), QStringList{url});
        RecentFiles::clear();
    }
};

QTEST_MAIN(tst_ClickHouseOpen)
#include "tst_clickhouseopen.moc"
