// tracelane-cli hands `report` and `receive` to tracelane-cli-full (see
// app/cli/FullCli.h) so that it starts without QtGui and gRPC.

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class tst_CliHandover : public QObject
{
    Q_OBJECT

private:
    struct Run
    {
        int code = -1;
        QString out;
        QString err;
    };

    static Run run(const QString &program, const QStringList &arguments)
    {
        QProcess process;
        process.start(program, arguments);
        Run result;
        if (!process.waitForFinished(120'000))
            return result;
        result.code = process.exitCode();
        result.out = QString::fromUtf8(process.readAllStandardOutput());
        result.err = QString::fromUtf8(process.readAllStandardError());
        return result;
    }

    static QString example(const char *name)
    {
        return QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/") + QLatin1String(name);
    }

private slots:
    void startsWithoutGuiOrGrpc()
    {
        const Run ldd = run(QStringLiteral("ldd"), {QStringLiteral(TRACELANE_CLI_PATH)});
        QCOMPARE(ldd.code, 0);
        QVERIFY2(ldd.out.contains(QLatin1String("libQt6Core")), qPrintable(ldd.out));
        QVERIFY2(!ldd.out.contains(QLatin1String("libQt6Gui")), qPrintable(ldd.out));
        QVERIFY2(!ldd.out.contains(QLatin1String("libgrpc")), qPrintable(ldd.out));
        QVERIFY2(!ldd.out.contains(QLatin1String("libprotobuf")), qPrintable(ldd.out));
    }

    void helpListsTheHandedOverCommandsOptions()
    {
        const Run help = run(QStringLiteral(TRACELANE_CLI_PATH), {QStringLiteral("--help")});
        QCOMPARE(help.code, 0);
        for (const char *option : {"--candidate", "--record", "--grpc", "--max-spans", "--token"})
            QVERIFY2(help.out.contains(QLatin1String(option)), option);
    }

    void reportRunsInTheFullProgram()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString out = dir.filePath(QStringLiteral("report.md"));
        const Run report = run(QStringLiteral(TRACELANE_CLI_PATH),
                               {QStringLiteral("report"), example("burst.jsonl"), QStringLiteral("--out"), out});
        QVERIFY2(report.code == 0, qPrintable(report.err));
        QFile written(out);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(written.readAll().contains("burst.jsonl"));
    }

    void aMissingFullProgramIsExplainedAndTheAnalysesStillRun()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString alone = dir.filePath(QStringLiteral("tracelane-cli"));
        QVERIFY(QFile::copy(QStringLiteral(TRACELANE_CLI_PATH), alone));
        const Run report = run(alone,
                               {QStringLiteral("report"), example("burst.jsonl"), QStringLiteral("--out"),
                                dir.filePath(QStringLiteral("r.md"))});
        QCOMPARE(report.code, 1);
        QVERIFY2(report.err.contains(QLatin1String("runs in tracelane-cli-full")), qPrintable(report.err));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("r.md"))));
        const Run analyse = run(alone, {QStringLiteral("analyse"), example("burst.jsonl")});
        QCOMPARE(analyse.code, 0);
        QVERIFY2(analyse.out.contains(QLatin1String("p95 TTFT: 659.5 ms")), qPrintable(analyse.out));
    }
};

QTEST_GUILESS_MAIN(tst_CliHandover)
#include "tst_clihandover.moc"
