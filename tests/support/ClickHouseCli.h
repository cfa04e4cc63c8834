#pragma once

#include <QElapsedTimer>
#include <QProcess>
#include <QString>
#include <QStringList>

// tracelane-cli run from a test, for the ClickHouse tests.
struct ClickHouseCliRun
{
    int exitCode = -1;
    QString out;
    QString err;
    qint64 elapsedMs = 0;
};

inline ClickHouseCliRun runTracelaneCli(const QStringList &arguments, int timeoutMs = 120'000)
{
    QProcess process;
    QElapsedTimer clock;
    clock.start();
    process.start(QStringLiteral(TRACELANE_CLI_PATH), arguments);
    if (!process.waitForFinished(timeoutMs))
        process.kill();
    process.waitForFinished(5'000);
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError()),
            clock.elapsed()};
}
