// A background job that runs out of memory (issue 10, 6) becomes a message on
// its window, not an abort; the window's next job still runs.

#include "JobFailure.h"
#include "LatestJob.h"

#include <QException>
#include <QMessageBox>
#include <QTest>
#include <QWidget>

#include <new>
#include <stdexcept>

class tst_JobFailure : public QObject
{
    Q_OBJECT
private slots:
    void messages();
    void jobOutOfMemoryIsAMessage();
};

void tst_JobFailure::messages()
{
    const QString memory = JobFailure::message(std::make_exception_ptr(std::bad_alloc()));
    QCOMPARE(memory,
             QStringLiteral("Tracelane ran out of memory computing this view. The rest of the window still "
                            "works; close other programs or load a smaller part of the trace."));
    // QtConcurrent wraps what a job throws; the message is of what it holds.
    QCOMPARE(
        JobFailure::message(std::make_exception_ptr(QUnhandledException(std::make_exception_ptr(std::bad_alloc())))),
        memory);
    QCOMPARE(JobFailure::message(std::make_exception_ptr(std::runtime_error("disk on fire"))),
             QStringLiteral("Computing this view failed: disk on fire"));
}

void tst_JobFailure::jobOutOfMemoryIsAMessage()
{
    QWidget window;
    window.show();
    LatestJob job(&window);
    bool applied = false;
    job.start([](const std::atomic<bool> *) -> int { throw std::bad_alloc(); }, [&](int) { applied = true; });
    QTRY_VERIFY(!job.isRunning());
    QVERIFY(!applied);
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = window.findChild<QMessageBox *>(QStringLiteral("jobFailure"))) != nullptr);
    QVERIFY(box->text().startsWith(QLatin1String("Tracelane ran out of memory computing this view.")));
    QVERIFY(box->isVisible());
    box->close();

    int value = 0;
    job.start([](const std::atomic<bool> *) { return 42; }, [&](int result) { value = result; });
    QTRY_COMPARE(value, 42);
}

QTEST_MAIN(tst_JobFailure)
#include "tst_jobfailure.moc"
