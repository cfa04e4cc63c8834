// PartFetch::readParts against a scripted HTTP server on its own thread: the
// next part is asked for while this one is read, lines keep the parts' order,
// and a fetch that ends early (a failed part, a rejection in a strict load, a
// cancel) drops the part it asked for ahead instead of waiting for it.

#include "clickhouse/ClickHouseClient.h"
#include "io/LoadControl.h"
#include "io/LoadResult.h"
#include "remote/PartFetch.h"
#include "store/TraceStore.h"

#include <QElapsedTimer>
#include <QMutex>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QtTest>

#include <atomic>
#include <map>

namespace {

// Answers each POST by its body (the SQL): the lines scripted for it, an
// error status, or nothing at all (held open until the client gives up).
class ScriptedServer
{
public:
    struct Answer
    {
        int status = 200;
        QByteArray body;
        bool hold = false;
    };

    explicit ScriptedServer(std::map<QByteArray, Answer> script)
        : m_script(std::move(script))
    {
        m_thread.start();
        m_server = new QTcpServer;
        m_server->moveToThread(&m_thread);
        QMetaObject::invokeMethod(
            m_server,
            [this] {
                m_server->listen(QHostAddress::LocalHost, 0);
                m_port = m_server->serverPort();
                QObject::connect(m_server, &QTcpServer::newConnection, m_server, [this] { accept(); });
            },
            Qt::BlockingQueuedConnection);
    }
    ~ScriptedServer()
    {
        QMetaObject::invokeMethod(
            m_server, [this] { delete m_server; }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }

    quint16 port() const { return m_port; }
    QList<QByteArray> received() const
    {
        const QMutexLocker lock(&m_mutex);
        return m_received;
    }
    bool wasReceived(const QByteArray &sql) const { return received().contains(sql); }
    // Held requests whose client closed the connection.
    int dropped() const { return m_dropped.load(); }

private:
    void accept()
    {
        while (QTcpSocket *socket = m_server->nextPendingConnection()) {
            socket->setParent(m_server);
            auto *buffer = new QByteArray;
            QObject::connect(socket, &QObject::destroyed, [buffer] { delete buffer; });
            QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer] {
                buffer->append(socket->readAll());
                const qsizetype headerEnd = buffer->indexOf("\r\n\r\n");
                if (headerEnd < 0)
                    return;
                const QByteArray headers = buffer->left(headerEnd).toLower();
                const qsizetype at = headers.indexOf("content-length:");
                const qsizetype lineEnd = headers.indexOf("\r\n", at);
                const qsizetype length = at < 0
                    ? 0
                    : headers.mid(at + 15, (lineEnd < 0 ? headers.size() : lineEnd) - at - 15).trimmed().toLongLong();
                if (buffer->size() < headerEnd + 4 + length)
                    return;
                const QByteArray sql = buffer->mid(headerEnd + 4, length);
                {
                    const QMutexLocker lock(&m_mutex);
                    m_received << sql;
                }
                const auto found = m_script.find(sql);
                const Answer answer = found == m_script.end()
                    ? Answer{500, "Code: 62, e.displayText() = DB::Exception: unscripted"}
                    : found->second;
                if (answer.hold) {
                    QObject::connect(socket, &QTcpSocket::disconnected, socket, [this] { ++m_dropped; });
                    return;
                }
                socket->write("HTTP/1.1 " + QByteArray::number(answer.status) + " X\r\nContent-Length: "
                              + QByteArray::number(answer.body.size()) + "\r\nConnection: close\r\n\r\n" + answer.body);
                socket->disconnectFromHost();
            });
        }
    }

    std::map<QByteArray, Answer> m_script;
    QThread m_thread;
    QTcpServer *m_server = nullptr;
    quint16 m_port = 0;
    mutable QMutex m_mutex;
    QList<QByteArray> m_received;
    std::atomic<int> m_dropped{0};
};

ClickHouseSource sourceOf(const ScriptedServer &server, int timeoutSeconds)
{
    ClickHouseSource source;
    QString error;
    const bool ok = ClickHouseSource::parse(
        QStringLiteral("clickhouse://127.0.0.1:%1/db?timeout=%2").arg(server.port()).arg(timeoutSeconds), &source,
        &error);
    Q_ASSERT(ok);
    return source;
}

// Waits on the reading thread (the caller's) for `done`, at most `ms`.
bool waitFor(const std::function<bool()> &done, int ms)
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > ms)
            return false;
        QThread::msleep(5);
    }
    return true;
}

} // namespace

class TestPartFetch : public QObject
{
    Q_OBJECT

private slots:
    void theNextPartIsAskedForWhileThisOneIsRead()
    {
        const ScriptedServer server({{"A", {200, "a1\na2\n"}}, {"B", {200, "b1\n\nb2\n"}}, {"C", {200, "c1"}}});
        const ClickHouseClient client(sourceOf(server, 30));
        LoadResult result;
        LoadControl control;
        QStringList lines;
        bool nextAskedWhileReading = false;
        QString error;
        const bool ok = PartFetch::readParts(
            client, {QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C")}, result, {}, &control,
            QStringLiteral("line"),
            [&](std::string_view line, qint64 number) {
                lines << QStringLiteral("%1:%2").arg(number).arg(
                    QString::fromUtf8(line.data(), qsizetype(line.size())));
                if (number == 1)
                    nextAskedWhileReading = waitFor([&] { return server.wasReceived("B"); }, 10'000);
            },
            &error);
        QVERIFY2(ok, qPrintable(error));
        QVERIFY(nextAskedWhileReading);
        QCOMPARE(lines.join(QLatin1Char(' ')), QStringLiteral("1:a1 2:a2 3:b1 4:b2 5:c1"));
        QCOMPARE(control.processedRecords(), 5);
        QCOMPARE(result.bytes, qint64(6 + 7 + 2));
    }

    void aFailedPartEndsTheFetchWithTheServersMessage()
    {
        const ScriptedServer server(
            {{"A", {200, "a1\n"}},
             {"B", {404, "Code: 60, e.displayText() = DB::Exception: Table db.t doesn't exist."}},
             {"C", {200, "c1\n"}}});
        const ClickHouseClient client(sourceOf(server, 30));
        LoadResult result;
        QStringList lines;
        QString error;
        QVERIFY(!PartFetch::readParts(
            client, {QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C")}, result, {}, nullptr,
            QStringLiteral("line"),
            [&](std::string_view line, qint64) { lines << QString::fromUtf8(line.data(), qsizetype(line.size())); },
            &error));
        QVERIFY2(error.contains(QStringLiteral("Table db.t doesn't exist.")), qPrintable(error));
        QCOMPARE(lines, QStringList{QStringLiteral("a1")});
        QVERIFY(!server.wasReceived("C")); // nothing is asked for past a failed part
    }

    void aStrictRejectionDropsThePartAskedForAhead()
    {
        // B never answers; its deadline (60 s) is far beyond what the test
        // waits: the fetch must drop it, not wait it out.
        const ScriptedServer server({{"A", {200, "a1\n"}}, {"B", {200, {}, true}}});
        const ClickHouseClient client(sourceOf(server, 60));
        LoadResult result;
        LoadOptions options;
        options.strict = true;
        QString error;
        QElapsedTimer clock;
        clock.start();
        QVERIFY(!PartFetch::readParts(
            client, {QStringLiteral("A"), QStringLiteral("B")}, result, options, nullptr, QStringLiteral("line"),
            [&](std::string_view, qint64 number) {
                QVERIFY(waitFor([&] { return server.wasReceived("B"); }, 10'000));
                RejectedRecord rejected;
                rejected.line = number;
                rejected.field = QStringLiteral("id");
                rejected.reason = QStringLiteral("empty");
                result.store->rejected.push_back(rejected);
            },
            &error));
        QCOMPARE(error, QStringLiteral("line 1, id: empty"));
        QVERIFY2(clock.elapsed() < 20'000, qPrintable(QString::number(clock.elapsed())));
        QTRY_COMPARE_WITH_TIMEOUT(server.dropped(), 1, 10'000);
    }

    void cancelWhileThePartAheadIsPendingStopsAtOnce()
    {
        const ScriptedServer server({{"A", {200, "a1\n"}}, {"B", {200, {}, true}}});
        LoadControl control;
        const ClickHouseClient client(sourceOf(server, 60), [&control] { return control.isCancelled(); });
        LoadResult result;
        QString error = QStringLiteral("unset");
        QElapsedTimer clock;
        clock.start();
        QVERIFY(!PartFetch::readParts(
            client, {QStringLiteral("A"), QStringLiteral("B")}, result, {}, &control, QStringLiteral("line"),
            [&](std::string_view, qint64) { control.cancel(); }, &error));
        QVERIFY2(clock.elapsed() < 20'000, qPrintable(QString::number(clock.elapsed())));
        const LoadResult stopped = PartFetch::stopped(std::move(result), &control, error);
        QVERIFY(stopped.cancelled);
        QVERIFY(stopped.fatalError.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(server.dropped(), 1, 10'000);
    }
};

QTEST_GUILESS_MAIN(TestPartFetch)
#include "tst_partfetch.moc"
