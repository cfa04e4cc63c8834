// Opening a named pipe in the window (issue 10): the load waits for the
// writer on a worker, the window stays responsive, Cancel ends the wait, and
// what a writer sends loads like a file.

#include "MainWindow.h"
#include "store/TraceStore.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <sys/stat.h>
#include <thread>

class tst_PipeLoad : public QObject
{
    Q_OBJECT
private slots:
    void pipeWithoutWriterCanBeCancelled();
    void pipeWithWriterLoads();
};

void tst_PipeLoad::pipeWithoutWriterCanBeCancelled()
{
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("nobody-writes.pipe"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    MainWindow window;
    window.setPersistent(false);
    window.show();
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    int ticks = 0;
    QTimer tick;
    connect(&tick, &QTimer::timeout, this, [&ticks] { ++ticks; });
    tick.start(10);
    window.openFile(fifo);
    QTest::qWait(400);
    // The event loop ran while the loader waited for a writer.
    QVERIFY(ticks > 0);
    QVERIFY(finished.isEmpty());
    window.cancelLoad();
    if (finished.isEmpty())
        QVERIFY(finished.wait(10'000));
    QCOMPARE(finished.first().first().toBool(), false);
    QVERIFY(!window.store());
}

void tst_PipeLoad::pipeWithWriterLoads()
{
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("trace.pipe"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QFile source(QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/burst.jsonl"));
    QVERIFY(source.open(QIODevice::ReadOnly));
    const QByteArray bytes = source.readAll();
    MainWindow window;
    window.setPersistent(false);
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openFile(fifo);
    std::thread writer([&] {
        QFile pipe(fifo);
        if (pipe.open(QIODevice::WriteOnly))
            pipe.write(bytes);
    });
    if (finished.isEmpty())
        QVERIFY(finished.wait(30'000));
    writer.join();
    QCOMPARE(finished.first().first().toBool(), true);
    QCOMPARE(window.store()->requests.rowCount(), qsizetype(bytes.count('\n')));
}

QTEST_MAIN(tst_PipeLoad)
#include "tst_pipeload.moc"
