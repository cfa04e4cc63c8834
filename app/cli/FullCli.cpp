#include "FullCli.h"

#include "CliContext.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QTextStream>

#include <cerrno>
#include <cstring>
#include <unistd.h>

void addReportOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("out"),
         QStringLiteral("report: the file to write: .html, .pdf or .md (figures beside it); receive: the capture (OTLP "
                        "JSON Lines)."),
         QStringLiteral("file")},
        {QStringLiteral("record"),
         QStringLiteral(
             "report: a saved diagnosis record (JSON) to measure on FILE instead of drafting one (or the session's)."),
         QStringLiteral("file")},
        {QStringLiteral("candidate"),
         QStringLiteral("report: a candidate trace compared with FILE at the target percentile (stop-rule verdict)."),
         QStringLiteral("file")},
    });
}

void addReceiveOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("http"),
                      QStringLiteral("receive: OTLP/HTTP listen address (default 127.0.0.1:4318; port 0 picks one)."),
                      QStringLiteral("addr:port"), QStringLiteral("127.0.0.1:4318")});
    parser.addOption({QStringLiteral("grpc"),
                      QStringLiteral("receive: also OTLP/gRPC (TraceService/Export) on addr:port; a bare port or "
                                     ":port listens on 127.0.0.1 (vLLM's and SGLang's default is 4317)."),
                      QStringLiteral("addr:port")});
    parser.addOption(
        {QStringLiteral("duration"), QStringLiteral("receive: stop after S seconds."), QStringLiteral("s")});
    parser.addOption(
        {QStringLiteral("max-spans"), QStringLiteral("receive: stop once N spans are stored."), QStringLiteral("n")});
    parser.addOption({QStringLiteral("token"),
                      QStringLiteral("receive: require 'Authorization: Bearer TOKEN' on every request."),
                      QStringLiteral("token")});
}

bool needsFullCli(const QString &command)
{
    return command == QLatin1String("report") || command == QLatin1String("receive");
}

bool wantsReport(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (argv[i][0] == '-')
            continue;
        return std::strcmp(argv[i], "report") == 0;
    }
    return false;
}

QString fullCliPath()
{
    const QString here = QCoreApplication::applicationDirPath();
    const QStringList candidates{here + QStringLiteral("/tracelane-cli-full"),
                                 here + QStringLiteral("/../lib/tracelane/tracelane-cli-full")};
    for (const QString &candidate : candidates) {
        const QFileInfo info(candidate);
        if (info.isFile() && info.isExecutable())
            return info.canonicalFilePath();
    }
    return {};
}

int execFullCli(char **argv, QTextStream &err)
{
    const QString path = fullCliPath();
    if (path.isEmpty()) {
        err << QStringLiteral("tracelane-cli: this command runs in tracelane-cli-full, which is neither beside "
                              "%1 nor in ../lib/tracelane/; reinstall Tracelane\n")
                   .arg(QCoreApplication::applicationDirPath());
        return ExitFailure;
    }
    err.flush();
    const QByteArray program = path.toLocal8Bit();
    execv(program.constData(), argv);
    err << QStringLiteral("tracelane-cli: cannot run %1: %2\n").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
    return ExitFailure;
}
