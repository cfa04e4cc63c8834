#pragma once

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>

// tracelane-cli run from a test the way a script runs it (TRACELANE_CLI_PATH).
struct CliRun
{
    int exitCode = -1; // -1: it crashed (a signal) or did not finish in time
    QString out;
    QString err;
    qint64 elapsedMs = 0; // wall time from start to exit
};

inline CliRun runCli(const QStringList &arguments, int timeoutMs = 120'000)
{
    QProcess process;
    QElapsedTimer clock;
    clock.start();
    process.start(QStringLiteral(TRACELANE_CLI_PATH), arguments);
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(5'000);
    }
    // A signal is no exit code: QProcess reports the signal's number there,
    // and SIGHUP's 1 would read as a clean failure.
    const bool exited = process.exitStatus() == QProcess::NormalExit && process.error() != QProcess::Timedout;
    return {exited ? process.exitCode() : -1, QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError()), clock.elapsed()};
}

// The run's standard output as one JSON object (empty, with a warning, when
// it is not one).
inline QJsonObject jsonOf(const CliRun &run)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(run.out.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("tracelane-cli's output is not JSON: %s", qPrintable(error.errorString()));
    return document.object();
}

// A data-driven test of the CLI's refusals: its _data function calls
// addCliErrorColumns() and adds rows of (arguments, exit code, a text the
// standard error must contain); the test calls runCliErrorRow(), which runs
// the row and checks both. It returns the run for more checks: stop when
// QTest::currentTestFailed().
inline void addCliErrorColumns()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
}

inline CliRun runCliErrorRow()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    CliRun run = runCli(arguments);
    [&] {
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
    }();
    return run;
}
