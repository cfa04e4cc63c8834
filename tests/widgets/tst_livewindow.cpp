// The GUI live store: File → Listen for OTLP… end to end in the main window.
// Spans posted over real sockets (OTLP/HTTP JSON and protobuf, OTLP/gRPC's
// port opened beside it) become workflows in the views through the
// ViewState; Pause freezes the views while the counts keep rising; the
// rolling mode drops the oldest workflows; a malformed request is refused
// with its reason in the status bar and the notices while the rest shows;
// the listen dialog warns beyond loopback; --listen's syntax.

#include "ListenDialog.h"
#include "LiveWiring.h"
#include "MainWindow.h"
#include "ViewState.h"
#include "WorkflowListModel.h"
#include "WorkflowPanel.h"
#include "WorkflowPicker.h"
#include "store/ThreadPriority.h"
#include "store/TraceStore.h"
#include "support/OtlpRequests.h"
#include "support/ThreadNice.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <array>
#include <map>
#include <set>
#include <vector>

using namespace OtlpRequests;

namespace {

constexpr char kTraceA[] = "5b8efff798038103d269b633813fc60c";
constexpr char kTraceB[] = "0af7651916cd43dd8448eb211c80319c";
constexpr char kTraceC[] = "4bf92f3577b34da6a3ce929d0e0e4736";
constexpr char kTraceD[] = "a3ce929d0e0e47364bf92f3577b34da6";

QByteArray protobufTrace(const char *trace, const char *root, const char *child)
{
    otlp::ExportTraceServiceRequest request;
    addTrace(request, trace, root, child, nowNs() - 10'000'000'000LL);
    return QByteArray::fromStdString(request.SerializeAsString());
}

QByteArray jsonTraceBody(const char *trace, const char *root, const char *child)
{
    return QByteArray::fromStdString(jsonTrace(trace, root, child, nowNs() - 10'000'000'000LL));
}

// POSTs `body` to the window's OTLP/HTTP endpoint; the HTTP status.
int post(QNetworkAccessManager &network, quint16 port, const QByteArray &body, const QByteArray &type)
{
    QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1/v1/traces").arg(port)));
    request.setHeader(QNetworkRequest::ContentTypeHeader, type);
    QNetworkReply *reply = network.post(request, body);
    if (!QTest::qWaitFor([reply] { return reply->isFinished(); }, 10'000))
        return -1;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    reply->deleteLater();
    return status;
}

std::set<QString> workflowIds(const TraceStore &store)
{
    std::set<QString> ids;
    for (qsizetype row = 0; row < store.requests.rowCount(); ++row)
        ids.insert(store.requests.idText(row));
    return ids;
}

// Every workflow's stamps (arrival, first token, end, …) by its id: what
// the views compute from, compared exactly.
std::map<QString, std::vector<qint64>> stampsById(const TraceStore &store)
{
    std::map<QString, std::vector<qint64>> stamps;
    for (qsizetype row = 0; row < store.requests.rowCount(); ++row) {
        std::vector<qint64> &values = stamps[store.requests.idText(row)];
        for (int stamp = 0; stamp < kStampCount; ++stamp)
            values.push_back(store.requests.stamp(row, Stamp(stamp)));
    }
    return stamps;
}

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

LiveReceiver::Settings loopbackSettings()
{
    LiveReceiver::Settings settings;
    settings.httpPort = 0; // a free port: tests run side by side
    settings.grpc = true;
    settings.grpcPort = 0;
    settings.store.graceNs = 0; // shown as soon as the root is in
    return settings;
}

} // namespace

class TestLiveWindow : public QObject
{
    Q_OBJECT

private slots:
    void receivedSpansBecomeWorkflows()
    {
        MainWindow window;
        window.setPersistent(false);
        window.resize(1400, 900);
        window.show();
        LiveWiring *live = window.live();
        QString error;
        QVERIFY2(live->listen(loopbackSettings(), &error), qPrintable(error));
        const quint16 port = live->receiver()->httpPort();
        QVERIFY(port != 0);
        QVERIFY(live->receiver()->grpcPort() != 0);
        QVERIFY(live->statusText().startsWith(QStringLiteral("Listening on http://127.0.0.1:%1/v1/traces and gRPC "
                                                             "127.0.0.1:%2")
                                                  .arg(port)
                                                  .arg(live->receiver()->grpcPort())));
        QCOMPARE(window.windowTitle(), QStringLiteral("Live OTLP \u2014 Tracelane"));

        QNetworkAccessManager network;
        QCOMPARE(
            post(network, port, jsonTraceBody(kTraceA, "eee19b7ec3c1b174", "eee19b7ec3c1b175"), "application/json"),
            200);
        QCOMPARE(post(network, port, protobufTrace(kTraceB, "00f067aa0ba902b7", "00f067aa0ba902b8"),
                      "application/x-protobuf"),
                 200);
        QTRY_VERIFY_WITH_TIMEOUT(window.store() && window.store()->workflows.rowCount() == 2, 10'000);
        // Receiving and storing yield to the window: their threads run at
        // the background nice, the GUI thread at the process's own.
        // (Run under nice 5 or more, nothing is lowered: only ever lowered.)
        const int base = ThreadNice::processNice();
        QCOMPARE(ThreadNice::niceOf(QStringLiteral("otlp-http")), qMax(base, ThreadPriority::kBackgroundNice));
        QCOMPARE(ThreadNice::niceOf(QStringLiteral("otlp-store")), qMax(base, ThreadPriority::kBackgroundNice));
        QCOMPARE(ThreadNice::niceOf(QStringLiteral("tst_livewindow")), base);
        const auto store = window.store();
        QCOMPARE(store->format, QStringLiteral("otlp-live"));
        QCOMPARE(store->spans.rowCount(), 4);
        QCOMPARE(workflowIds(*store), (std::set<QString>{QString::fromLatin1(kTraceA), QString::fromLatin1(kTraceB)}));
        QVERIFY(store->rejected.empty());
        // The Workflow dock lists both; the status bar counts them.
        QTRY_COMPARE_WITH_TIMEOUT(window.workflowPanel()->picker()->model()->rowCount(), 2, 10'000);
        QTRY_VERIFY_WITH_TIMEOUT(live->statusText().contains(QStringLiteral("4 spans received")), 5'000);
        QVERIFY(live->statusText().contains(QStringLiteral("2 workflows held")));
        QVERIFY(live->statusText().contains(QStringLiteral("0 spans rejected")));
        QVERIFY(live->statusText().contains(QStringLiteral("0 requests refused")));
        QCOMPARE(window.statusSummary().section(QStringLiteral(" | "), 0, 0), QStringLiteral("2 requests"));

        // The workflow being looked at stays current across refreshes.
        qint32 rowOfB = -1;
        for (qsizetype row = 0; row < store->requests.rowCount(); ++row) {
            if (store->requests.idText(row) == QLatin1String(kTraceB))
                rowOfB = qint32(row);
        }
        window.viewState()->setCurrentRow(rowOfB);
        window.viewState()->setSelection(RowSet::single(rowOfB));

        // Paused: the views keep their store while spans keep arriving.
        live->setPaused(true);
        QVERIFY(live->statusText().contains(QStringLiteral("PAUSED")));
        QCOMPARE(post(network, port, protobufTrace(kTraceC, "b7ad6b7169203331", "b7ad6b7169203332"),
                      "application/x-protobuf"),
                 200);
        QTRY_VERIFY_WITH_TIMEOUT(live->statusText().contains(QStringLiteral("6 spans received")), 5'000);
        QTRY_VERIFY_WITH_TIMEOUT(live->statusText().contains(QStringLiteral("3 workflows held")), 5'000);
        QTest::qWait(800); // three refresh intervals: nothing may replace the paused view
        QCOMPARE(window.store(), store);
        QCOMPARE(window.store()->workflows.rowCount(), 2);

        // Resumed: everything received meanwhile shows.
        live->setPaused(false);
        QTRY_VERIFY_WITH_TIMEOUT(window.store() != store && window.store()->workflows.rowCount() == 3, 10'000);
        QCOMPARE(window.store()->spans.rowCount(), 6);
        const auto resumed = window.store();
        QCOMPARE(resumed->requests.idText(window.viewState()->currentRow()), QString::fromLatin1(kTraceB));
        // Nothing evicted: the old rows lead the new store, so the selection holds.
        QVERIFY(LiveWiring::startsWith(resumed->requests, store->requests));
        QCOMPARE(window.viewState()->selection(), RowSet::single(rowOfB));

        // A malformed request is refused whole, with its reason; the rest still shows.
        QCOMPARE(post(network, port, QByteArray("\x0a\xff\xff\xff\x0f truncated", 15), "application/x-protobuf"), 400);
        QCOMPARE(post(network, port, QByteArray("{\"resourceSpans\": [", 19), "application/json"), 400);
        QTRY_VERIFY_WITH_TIMEOUT(live->statusText().contains(QStringLiteral("2 requests refused")), 5'000);
        QTRY_VERIFY_WITH_TIMEOUT(live->statusLabel()
                                     ->toolTip()
                                     .section(QLatin1Char('\n'), 1, 1)
                                     .startsWith(QStringLiteral("refused 2 request(s) with 400: ")),
                                 5'000);
        QTRY_VERIFY_WITH_TIMEOUT(window.store() != resumed, 10'000);
        QCOMPARE(window.store()->workflows.rowCount(), 3);
        QCOMPARE(window.store()->notices.size(), size_t(1));
        QVERIFY2(window.store()->notices[0].message.startsWith(
                     QStringLiteral("2 export request(s) refused whole with HTTP 400: ")),
                 qPrintable(window.store()->notices[0].message));

        // Rolling: keep the newest 2 workflows; the oldest (A) goes.
        live->receiver()->setRolling({0, 2});
        QTRY_VERIFY_WITH_TIMEOUT(window.store()->workflows.rowCount() == 2, 10'000);
        QCOMPARE(workflowIds(*window.store()),
                 (std::set<QString>{QString::fromLatin1(kTraceB), QString::fromLatin1(kTraceC)}));
        QTRY_VERIFY_WITH_TIMEOUT(live->statusText().contains(QStringLiteral("1 evicted")), 5'000);
        // Rows moved up: the selection is dropped, the current workflow found again by id.
        QVERIFY(!LiveWiring::startsWith(window.store()->requests, resumed->requests));
        QVERIFY(window.viewState()->selection().isEmpty());
        QCOMPARE(window.store()->requests.idText(window.viewState()->currentRow()), QString::fromLatin1(kTraceB));
        QCOMPARE(
            post(network, port, jsonTraceBody(kTraceD, "c1b174eee19b7ec3", "c1b175eee19b7ec3"), "application/json"),
            200);
        QTRY_VERIFY_WITH_TIMEOUT(workflowIds(*window.store())
                                     == (std::set<QString>{QString::fromLatin1(kTraceC), QString::fromLatin1(kTraceD)}),
                                 10'000);
        QVERIFY(live->statusText().contains(QStringLiteral("2 evicted")));
        QVERIFY(live->statusText().contains(QStringLiteral("8 spans received")));
        QCOMPARE(window.store()->spans.rowCount(), 4);

        QSignalSpy stopped(live->receiver(), &LiveReceiver::stopped);
        live->stop();
        QVERIFY(!live->isListening());
        QVERIFY(stopped.wait(10'000));
        QCOMPARE(workflowIds(*window.store()),
                 (std::set<QString>{QString::fromLatin1(kTraceC), QString::fromLatin1(kTraceD)}));
        QVERIFY(live->statusText().startsWith(QStringLiteral("Stopped listening on")));
        // Stopped: nothing listens on the port any more.
        QCOMPARE(
            post(network, port, jsonTraceBody(kTraceA, "eee19b7ec3c1b174", "eee19b7ec3c1b175"), "application/json"), 0);
    }

    // The store kept to grow the next snapshot from costs as much memory as
    // the one shown: pausing frees it, and so does a while without spans.
    void pausedOrIdleFreesTheStoreKeptForGrowing_data()
    {
        QTest::addColumn<bool>("pause");
        QTest::newRow("paused") << true;
        QTest::newRow("idle") << false;
    }

    void pausedOrIdleFreesTheStoreKeptForGrowing()
    {
        QFETCH(bool, pause);
        MainWindow window;
        window.setPersistent(false);
        window.resize(1200, 800);
        window.show();
        LiveWiring *live = window.live();
        LiveReceiver::Settings settings = loopbackSettings();
        settings.grpc = false;
        settings.releaseKeptStoreAfterIdleMs = pause ? 600'000 : 4'000; // paused: idleness cannot be why
        QString error;
        QVERIFY2(live->listen(settings, &error), qPrintable(error));
        QNetworkAccessManager network;
        const quint16 port = live->receiver()->httpPort();
        const auto kept = [live] { return live->receiver()->status().keptStores; };
        // One trace at a time, each shown before the next is sent: the views
        // give back the snapshot before, to grow the next one from.
        const std::vector<std::array<const char *, 3>> traces = {
            {kTraceA, "eee19b7ec3c1b174", "eee19b7ec3c1b175"},
            {kTraceB, "00f067aa0ba902b7", "00f067aa0ba902b8"},
            {kTraceC, "b7ad6b7169203331", "b7ad6b7169203332"},
        };
        for (size_t i = 0; i < traces.size(); ++i) {
            QCOMPARE(
                post(network, port, protobufTrace(traces[i][0], traces[i][1], traces[i][2]), "application/x-protobuf"),
                200);
            QTRY_VERIFY_WITH_TIMEOUT(window.store() && window.store()->workflows.rowCount() == qsizetype(i + 1),
                                     10'000);
        }
        const int keptWithinMs = pause ? 10'000 : 3'500; // idle: before the release (QTRY takes no expression)
        QTRY_COMPARE_WITH_TIMEOUT(kept(), qint64(1), keptWithinMs);
        const qint64 builtWhole = live->receiver()->status().fullBuilds;
        if (pause)
            live->setPaused(true);
        QTRY_COMPARE_WITH_TIMEOUT(kept(), qint64(0), 10'000);
        if (pause)
            live->setPaused(false);
        // The next snapshot is built whole; growing resumes after it.
        QCOMPARE(post(network, port, protobufTrace(kTraceD, "a1a2a3a4a5a6a7a8", "a1a2a3a4a5a6a7a9"),
                      "application/x-protobuf"),
                 200);
        QTRY_VERIFY_WITH_TIMEOUT(window.store()->workflows.rowCount() == 4, 10'000);
        QCOMPARE(live->receiver()->status().fullBuilds, builtWhole + 1);
        QCOMPARE(workflowIds(*window.store()),
                 (std::set<QString>{QString::fromLatin1(kTraceA), QString::fromLatin1(kTraceB),
                                    QString::fromLatin1(kTraceC), QString::fromLatin1(kTraceD)}));
    }

    void stoppedWhilePausedShowsEverythingOnResume()
    {
        MainWindow window;
        window.setPersistent(false);
        LiveWiring *live = window.live();
        QString error;
        LiveReceiver::Settings settings = loopbackSettings();
        settings.grpc = false;
        settings.store.graceNs = 60'000'000'000LL; // nothing completes by itself here
        QVERIFY2(live->listen(settings, &error), qPrintable(error));
        QNetworkAccessManager network;
        const quint16 port = live->receiver()->httpPort();
        QCOMPARE(
            post(network, port, jsonTraceBody(kTraceA, "eee19b7ec3c1b174", "eee19b7ec3c1b175"), "application/json"),
            200);
        QTRY_VERIFY_WITH_TIMEOUT(live->statusText().contains(QStringLiteral("1 workflow held (1 in progress)")), 5'000);
        QVERIFY(!window.store() || window.store()->workflows.rowCount() == 0); // waiting for its grace period
        live->setPaused(true);
        QCOMPARE(post(network, port, protobufTrace(kTraceB, "00f067aa0ba902b7", "00f067aa0ba902b8"),
                      "application/x-protobuf"),
                 200);
        QSignalSpy stopped(live->receiver(), &LiveReceiver::stopped);
        live->stop();
        QVERIFY(stopped.wait(10'000));
        QVERIFY(!window.store() || window.store()->workflows.rowCount() == 0); // paused: held back
        live->setPaused(false);
        // Stopping shows every trace held, complete or not.
        QVERIFY(window.store());
        QCOMPARE(workflowIds(*window.store()),
                 (std::set<QString>{QString::fromLatin1(kTraceA), QString::fromLatin1(kTraceB)}));
        QCOMPARE(window.store()->spans.rowCount(), 4);
    }

    void savedCaptureReopensAsTheSameWorkflows()
    {
        MainWindow window;
        window.setPersistent(false);
        window.resize(1400, 900);
        window.show();
        LiveWiring *live = window.live();
        QAction *saveAction = nullptr;
        for (QAction *action : window.findChildren<QAction *>()) {
            if (action->text() == QStringLiteral("Save &Capture\u2026"))
                saveAction = action;
        }
        QVERIFY(saveAction);
        QVERIFY(!saveAction->isEnabled()); // nothing received, nothing to save
        QString error;
        QVERIFY(!live->saveCapture(QStringLiteral("/nonexistent/x.otlp.jsonl"), &error));
        QCOMPARE(error, QStringLiteral("nothing was received to save"));

        LiveReceiver::Settings settings = loopbackSettings();
        settings.grpc = false;
        QVERIFY2(live->listen(settings, &error), qPrintable(error));
        QVERIFY(saveAction->isEnabled());
        const quint16 port = live->receiver()->httpPort();
        QNetworkAccessManager network;
        // Six workflows 0.7 s apart: three in one protobuf request, three as JSON.
        const qint64 start = nowNs() - 60'000'000'000LL;
        std::vector<std::string> traces;
        otlp::ExportTraceServiceRequest request;
        for (int i = 0; i < 6; ++i) {
            const std::string trace = QStringLiteral("%1").arg(0xabc000 + i, 32, 16, QLatin1Char('0')).toStdString();
            const std::string root = QStringLiteral("%1").arg(0x1000 + i, 16, 16, QLatin1Char('0')).toStdString();
            const std::string child = QStringLiteral("%1").arg(0x2000 + i, 16, 16, QLatin1Char('0')).toStdString();
            const qint64 at = start + i * 700'000'000LL;
            if (i < 3) {
                addTrace(request, trace.c_str(), root.c_str(), child.c_str(), at);
                continue;
            }
            QCOMPARE(post(network, port,
                          QByteArray::fromStdString(jsonTrace(trace.c_str(), root.c_str(), child.c_str(), at)),
                          "application/json"),
                     200);
        }
        QCOMPARE(post(network, port, QByteArray::fromStdString(request.SerializeAsString()), "application/x-protobuf"),
                 200);
        QTRY_VERIFY_WITH_TIMEOUT(window.store() && window.store()->workflows.rowCount() == 6, 10'000);

        // Saved while listening: everything received so far, in the background.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString whileListening = dir.filePath(QStringLiteral("listening.otlp.jsonl"));
        QSignalSpy saved(live, &LiveWiring::captureSaved);
        QVERIFY2(live->saveCapture(whileListening, &error), qPrintable(error));
        QVERIFY(!saveAction->isEnabled()); // one save at a time
        QVERIFY(saved.wait(10'000));
        QCOMPARE(saved.takeFirst(), (QVariantList{whileListening, qint64(12), QString()}));
        QVERIFY(saveAction->isEnabled());

        QSignalSpy stopped(live->receiver(), &LiveReceiver::stopped);
        live->stop();
        QVERIFY(stopped.wait(10'000));
        const auto shown = window.store();
        QCOMPARE(shown->workflows.rowCount(), 6);
        QCOMPARE(shown->spans.rowCount(), 12);
        const auto liveStamps = stampsById(*shown);
        QCOMPARE(liveStamps.size(), size_t(6));
        QCOMPARE(liveStamps.begin()->first, QStringLiteral("00000000000000000000000000abc000"));
        // The first workflow's arrival is the root's start; its end 1.5 s later.
        QCOMPARE(liveStamps.begin()->second[size_t(Stamp::ClientSend)], start);
        QCOMPARE(liveStamps.begin()->second[size_t(Stamp::LastTokenClient)], start + 1'500'000'000LL);
        const QString liveSummary = window.statusSummary();

        // Saved after stopping: the stopped session's held spans, the same file.
        QVERIFY(saveAction->isEnabled());
        const QString afterStop = dir.filePath(QStringLiteral("stopped.otlp.jsonl"));
        QVERIFY2(live->saveCapture(afterStop, &error), qPrintable(error));
        QVERIFY(saved.wait(10'000));
        QCOMPARE(saved.takeFirst(), (QVariantList{afterStop, qint64(12), QString()}));
        QCOMPARE(fileBytes(afterStop), fileBytes(whileListening));
        QCOMPARE(fileBytes(afterStop).count('\n'), 1); // 12 spans: one export request line

        // Reopened with File → Open: the same workflows, spans and figures.
        QSignalSpy loaded(&window, &MainWindow::loadFinished);
        window.openFile(afterStop);
        QVERIFY(loaded.wait(20'000));
        QCOMPARE(loaded.takeFirst().at(0).toBool(), true);
        const auto reopened = window.store();
        QVERIFY(reopened != shown);
        QCOMPARE(reopened->workflows.rowCount(), 6);
        QCOMPARE(reopened->spans.rowCount(), 12);
        QVERIFY(reopened->rejected.empty());
        QCOMPARE(stampsById(*reopened), liveStamps);
        QCOMPARE(window.statusSummary(), liveSummary);

        // A file that cannot be written: a clear message, nothing crashes.
        QTimer closer;
        QString message;
        connect(&closer, &QTimer::timeout, this, [&] {
            if (QWidget *modal = QApplication::activeModalWidget()) {
                message = modal->findChild<QLabel *>(QStringLiteral("qt_msgbox_label"))->text();
                modal->close();
            }
        });
        closer.start(20);
        QVERIFY2(live->saveCapture(QStringLiteral("/nonexistent/dir/x.otlp.jsonl"), &error), qPrintable(error));
        QVERIFY(saved.wait(10'000));
        QCOMPARE(saved.at(0).at(1).toLongLong(), qint64(-1));
        QVERIFY2(
            saved.at(0).at(2).toString().startsWith(QStringLiteral("cannot write /nonexistent/dir/x.otlp.jsonl: ")),
            qPrintable(saved.at(0).at(2).toString()));
        QTRY_COMPARE_WITH_TIMEOUT(message, saved.at(0).at(2).toString(), 5'000);
    }

    void rejectedSpansAreListedWithTheirReason()
    {
        MainWindow window;
        window.setPersistent(false);
        LiveWiring *live = window.live();
        QString error;
        LiveReceiver::Settings settings = loopbackSettings();
        settings.grpc = false;
        QVERIFY2(live->listen(settings, &error), qPrintable(error));
        QNetworkAccessManager network;
        // The child's span id is 7 bytes: that span is rejected, its trace still shows.
        otlp::ExportTraceServiceRequest request;
        addTrace(request, kTraceA, "eee19b7ec3c1b174", "eee19b7ec3c1b175", nowNs() - 10'000'000'000LL);
        request.mutable_resource_spans(0)->mutable_scope_spans(0)->mutable_spans(1)->set_span_id(
            bytesOfHex("eee19b7ec3c1b1"));
        QCOMPARE(post(network, live->receiver()->httpPort(), QByteArray::fromStdString(request.SerializeAsString()),
                      "application/x-protobuf"),
                 200);
        QTRY_VERIFY_WITH_TIMEOUT(window.store() && window.store()->workflows.rowCount() == 1, 10'000);
        QCOMPARE(window.store()->spans.rowCount(), 1);
        QCOMPARE(window.store()->rejected.size(), size_t(1));
        const RejectedRecord &rejected = window.store()->rejected[0];
        QCOMPARE(rejected.requestId, QString::fromLatin1(kTraceA));
        QCOMPARE(rejected.field, QStringLiteral("spanId"));
        QCOMPARE(rejected.reason, QStringLiteral("must be 8 bytes, got 7"));
        QCOMPARE(rejected.spanId, QStringLiteral("eee19b7ec3c1b1"));
        QTRY_VERIFY_WITH_TIMEOUT(live->statusText().contains(QStringLiteral("1 span rejected")), 5'000);
        QVERIFY(!live->statusText().contains(QStringLiteral("gRPC")));
    }

    void aPortInUseIsAClearError()
    {
        MainWindow first;
        first.setPersistent(false);
        QString error;
        LiveReceiver::Settings settings = loopbackSettings();
        settings.grpc = false;
        QVERIFY(first.live()->listen(settings, &error));
        MainWindow second;
        second.setPersistent(false);
        settings.httpPort = first.live()->receiver()->httpPort();
        QVERIFY(!second.live()->listen(settings, &error));
        QVERIFY2(
            error.startsWith(QStringLiteral("cannot listen for OTLP/HTTP on 127.0.0.1:%1: ").arg(settings.httpPort)),
            qPrintable(error));
        QVERIFY(!second.live()->isListening());
        QVERIFY(second.live()->statusText().isEmpty());
    }

    void listenDialogWarnsBeyondLoopback()
    {
        ListenDialog dialog(LiveReceiver::Settings{});
        QCOMPARE(dialog.httpPortBox()->value(), 4318);
        QCOMPARE(dialog.grpcPortBox()->value(), 4317);
        QVERIFY(dialog.grpcBox()->isChecked());
        QCOMPARE(dialog.addressBox()->currentText(), QStringLiteral("127.0.0.1"));
        QVERIFY(dialog.warning().isEmpty());
        dialog.addressBox()->setCurrentText(QStringLiteral("0.0.0.0"));
        QCOMPARE(dialog.warning(),
                 QStringLiteral("Listening on 0.0.0.0 reaches beyond this machine: anyone who can "
                                "reach port 4318 can send spans to Tracelane (set a bearer token "
                                "to require one)."));
        LiveReceiver::Settings settings;
        QString error;
        QVERIFY(dialog.settings(&settings, &error));
        QVERIFY(settings.httpAddress == QHostAddress(QStringLiteral("0.0.0.0")));
        dialog.addressBox()->setCurrentText(QStringLiteral("::1"));
        QVERIFY(dialog.warning().isEmpty());
        dialog.addressBox()->setCurrentText(QStringLiteral("my-host"));
        QVERIFY(!dialog.settings(&settings, &error));
        QCOMPARE(error, QStringLiteral("'my-host' is not an IP address (use 127.0.0.1, ::1 or 0.0.0.0)"));
    }

    void startsWithComparesIdsInOrder()
    {
        const auto table = [](std::initializer_list<const char *> ids) {
            RequestTable requests;
            for (const char *id : ids) {
                RequestTable::Row row;
                row.id = id;
                requests.appendRow(row);
                requests.finishRow();
            }
            return requests;
        };
        const RequestTable grown = table({"a", "b", "c"});
        QVERIFY(LiveWiring::startsWith(grown, table({"a", "b"})));
        QVERIFY(LiveWiring::startsWith(grown, table({"a", "b", "c"})));
        QVERIFY(LiveWiring::startsWith(grown, table({})));
        QVERIFY(!LiveWiring::startsWith(grown, table({"b", "c"}))); // the first evicted
        QVERIFY(!LiveWiring::startsWith(grown, table({"a", "c"}))); // one in between
        QVERIFY(!LiveWiring::startsWith(table({"a"}), table({"a", "b"})));
    }

    void listenSyntax_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("address");
        QTest::addColumn<int>("httpPort");
        QTest::addColumn<bool>("grpc");
        QTest::addColumn<int>("grpcPort");
        QTest::newRow("bare port") << "4318" << true << "127.0.0.1" << 4318 << false << 0;
        QTest::newRow("colon port") << ":9000" << true << "127.0.0.1" << 9000 << false << 0;
        QTest::newRow("with gRPC") << "4318,4317" << true << "127.0.0.1" << 4318 << true << 4317;
        QTest::newRow("all interfaces") << "0.0.0.0:4318,4317" << true << "0.0.0.0" << 4318 << true << 4317;
        QTest::newRow("IPv6") << "[::1]:4318" << true << "::1" << 4318 << false << 0;
        QTest::newRow("bad port") << "43x8" << false << "" << 0 << false << 0;
        QTest::newRow("bad gRPC port") << "4318,99999" << false << "" << 0 << false << 0;
        QTest::newRow("host name") << "example.com:4318" << false << "" << 0 << false << 0;
    }

    void listenSyntax()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        LiveReceiver::Settings settings;
        QString error;
        QCOMPARE(LiveWiring::parseListen(text, &settings, &error), ok);
        if (!ok) {
            QVERIFY(!error.isEmpty());
            return;
        }
        QFETCH(QString, address);
        QFETCH(int, httpPort);
        QFETCH(bool, grpc);
        QFETCH(int, grpcPort);
        QCOMPARE(settings.httpAddress.toString(), address);
        QCOMPARE(int(settings.httpPort), httpPort);
        QCOMPARE(settings.grpc, grpc);
        if (grpc)
            QCOMPARE(int(settings.grpcPort), grpcPort);
    }
};

QTEST_MAIN(TestLiveWindow)
#include "tst_livewindow.moc"
