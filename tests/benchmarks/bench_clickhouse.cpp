// Population figures computed by a two-shard ClickHouse cluster against the
// same figures from the desktop store. Generates N requests (default 20M,
// TRACELANE_BENCH_ROWS) server-side, times `slice --by region,priority` and
// `exceed` (with and without the feature rankings) and `analyse` on the clickhouse:// URL (wall time and the CLI's peak
// resident memory), then exports M of those rows (default 1M, TRACELANE_BENCH_FILE_ROWS) as a seed JSONL file and times
// the same two commands on it, printing the ratios. TRACELANE_BENCH_CLASS_COLUMNS (default "region,priority"; "none"
// for none) is init's --class-columns. Not run by ctest.

#include "clickhouse/TracelaneSchema.h"
#include "support/ClickHouseCluster.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QThread>

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

struct Run
{
    double seconds = 0;
    long peakKb = 0; // max RSS of this CLI run (wait4's rusage of the child)
    int exitCode = -1;
};

// The CLI as a child of its own, waited for with wait4 so its peak RSS is
// its own (RUSAGE_CHILDREN would give the largest of every run so far);
// stdout discarded, stderr kept in a file to show on failure.
Run runCli(const QStringList &arguments)
{
    const QByteArray program = QByteArrayLiteral(TRACELANE_CLI_PATH);
    std::vector<QByteArray> texts = {program};
    texts.reserve(size_t(arguments.size()) + 1);
    for (const QString &argument : arguments)
        texts.push_back(argument.toLocal8Bit());
    std::vector<char *> argv;
    argv.reserve(texts.size() + 1);
    for (QByteArray &text : texts)
        argv.push_back(text.data());
    argv.push_back(nullptr);
    QTemporaryFile errors;
    Run run;
    if (!errors.open())
        return run;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, errors.handle(), 2);
    QElapsedTimer clock;
    clock.start();
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, program.constData(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        return run;
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid)
        return run;
    run.seconds = double(clock.nsecsElapsed()) / 1e9;
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.peakKb = usage.ru_maxrss;
    if (run.exitCode != 0 && errors.seek(0))
        std::fprintf(stderr, "%s\n", errors.readAll().constData());
    return run;
}

qint64 envCount(const char *name, qint64 fallback)
{
    const qint64 value = qEnvironmentVariableIntValue(name);
    return value > 0 ? value : fallback;
}

// One request per number: 1 ms apart, region and priority from the number's
// hash, queue wait larger for "batch" and one region, stream by output length.
QString generated(qint64 offset, qint64 count)
{
    return QStringLiteral(
               "SELECT 2, 'bench', toUInt32(intDiv(n, 50000)), toUInt32(n), concat('r', toString(n)), n + 1, "
               "toInt32(50 + h % 8000), toInt32(1 + o), "
               "send, send + 1000000 + h % 3000000, send + 4000000 + h % 3000000, "
               "send + 4000000 + h % 3000000 + queue, "
               "send + 4000000 + h % 3000000 + queue + (50 + h % 8000) * 20000, "
               "send + 4000000 + h % 3000000 + queue + (50 + h % 8000) * 20000 + 15000000, "
               "send + 4000000 + h % 3000000 + queue + (50 + h % 8000) * 20000 + 25000000, "
               "send + 4000000 + h % 3000000 + queue + (50 + h % 8000) * 20000 + 25000000 "
               "+ o * 22000000, "
               "['region', 'priority'], [region, priority], emptyArrayString(), emptyArrayFloat64() "
               "FROM (SELECT toInt64(number + %1) AS n, toInt64(cityHash64(n) % 1000000000) AS h, "
               "toInt64(intHash32(n) % 1000) AS o, toInt64(1700000000000000000 + n * 1000000) AS send, "
               "['eu-west', 'us-east', 'ap-south', 'us-west'][h % 4 + 1] AS region, "
               "if(h % 10 = 0, 'batch', 'interactive') AS priority, "
               "toInt64((h % 100000) * if(priority = 'batch', 8000, 1000) * if(region = 'ap-south', 3, 1)) AS queue "
               "FROM numbers(%2))")
        .arg(offset)
        .arg(count);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication application(argc, argv);
    const qint64 rows = envCount("TRACELANE_BENCH_ROWS", 20'000'000);
    const qint64 fileRows = envCount("TRACELANE_BENCH_FILE_ROWS", 1'000'000);
    ClickHouseCluster cluster(2);
    QString error;
    if (!cluster.start(&error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const auto url = [&](int shard) {
        return QStringLiteral("clickhouse://127.0.0.1:%1/tracelane?table=requests&timeout=600")
            .arg(cluster.httpPort(shard));
    };
    const QString classColumns
        = qEnvironmentVariable("TRACELANE_BENCH_CLASS_COLUMNS", QStringLiteral("region,priority"));
    std::printf("class columns: %s\n", qPrintable(classColumns));
    for (int shard = 0; shard < 2; ++shard) {
        QStringList init = {QStringLiteral("clickhouse"), QStringLiteral("init"), url(shard),
                            QStringLiteral("--cluster"), QLatin1String(ClickHouseCluster::kCluster)};
        if (classColumns != QLatin1String("none"))
            init << QStringLiteral("--class-columns") << classColumns;
        if (runCli(init).exitCode != 0)
            return 1;
    }
    // Half the rows straight into each shard's local table.
    QElapsedTimer clock;
    clock.start();
    for (int shard = 0; shard < 2; ++shard) {
        cluster.query(shard,
                      QStringLiteral("INSERT INTO tracelane.requests_local (%1) ")
                              .arg(TracelaneSchema::requestColumns().join(QStringLiteral(", ")))
                          + generated(shard * (rows / 2), rows / 2),
                      &error, 1'800'000);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
    }
    std::printf("generated %lld requests on 2 shards in %.1f s\n", rows, double(clock.elapsed()) / 1000.0);
    double loadBefore[3] = {0, 0, 0};
    if (getloadavg(loadBefore, 3) == 3)
        std::printf("load average before the runs: %.2f %.2f %.2f\n", loadBefore[0], loadBefore[1], loadBefore[2]);
    std::fflush(stdout);
    // TRACELANE_BENCH_HOLD=FILE: keep the cluster up for profiling queries by
    // hand (the URLs are printed) until FILE is removed.
    if (const QString hold = qEnvironmentVariable("TRACELANE_BENCH_HOLD"); !hold.isEmpty()) {
        QFile(hold).open(QIODevice::WriteOnly);
        std::printf("holding the cluster until %s is removed: %s %s\n", qPrintable(hold), qPrintable(url(0)),
                    qPrintable(url(1)));
        std::fflush(stdout);
        while (QFile::exists(hold))
            QThread::sleep(1);
    }

    const QStringList slice = {QStringLiteral("--by"), QStringLiteral("region,priority"), QStringLiteral("--json")};
    const Run serverSlice = runCli(QStringList{QStringLiteral("slice"), url(0)} + slice);
    const Run serverExceed = runCli({QStringLiteral("exceed"), url(0), QStringLiteral("--json")});
    const Run serverFigures
        = runCli({QStringLiteral("exceed"), url(0), QStringLiteral("--json"), QStringLiteral("--no-rankings")});
    const Run serverAnalyse = runCli({QStringLiteral("analyse"), url(0), QStringLiteral("--json")});

    // The reference: M of the same rows as a seed file, loaded into the store.
    QTemporaryDir folder;
    const QString file = folder.filePath(QStringLiteral("bench.jsonl"));
    const QString exportSql
        = QStringLiteral("SELECT request_id, prompt_tokens, output_tokens, client_send_ns / 1e6 AS client_send_ms, "
                         "gateway_arrival_ns / 1e6 AS gateway_arrival_ms, queue_enter_ns / 1e6 AS queue_enter_ms, "
                         "prefill_start_ns / 1e6 AS prefill_start_ms, prefill_end_ns / 1e6 AS prefill_end_ms, "
                         "first_token_server_ns / 1e6 AS first_token_server_ms, first_token_client_ns / 1e6 AS "
                         "first_token_client_ms, last_token_client_ns / 1e6 AS last_token_client_ms, attr_values[1] AS "
                         "region, attr_values[2] AS priority FROM tracelane.requests WHERE row < %1 FORMAT JSONEachRow")
              .arg(fileRows);
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly) || out.write(cluster.query(0, exportSql, &error, 1'800'000)) < 0
        || !error.isEmpty()) {
        std::fprintf(stderr, "export failed: %s\n", qPrintable(error));
        return 1;
    }
    out.close();
    const Run fileSlice = runCli(QStringList{QStringLiteral("slice"), file} + slice);
    const Run fileExceed = runCli({QStringLiteral("exceed"), file, QStringLiteral("--json")});
    const Run fileAnalyse = runCli({QStringLiteral("analyse"), file, QStringLiteral("--json")});

    std::printf("%-44s %10s %12s\n", "", "seconds", "peak RSS MB");
    std::printf("%-44s %10.2f %12.1f\n",
                qPrintable(QStringLiteral("slice --by region,priority, %1 on ClickHouse").arg(rows)),
                serverSlice.seconds, double(serverSlice.peakKb) / 1024.0);
    std::printf("%-44s %10.2f %12.1f\n", qPrintable(QStringLiteral("exceed, %1 on ClickHouse").arg(rows)),
                serverExceed.seconds, double(serverExceed.peakKb) / 1024.0);
    std::printf("%-44s %10.2f %12.1f\n", qPrintable(QStringLiteral("exceed --no-rankings, %1 on ClickHouse").arg(rows)),
                serverFigures.seconds, double(serverFigures.peakKb) / 1024.0);
    std::printf("%-44s %10.2f %12.1f\n", qPrintable(QStringLiteral("analyse, %1 on ClickHouse").arg(rows)),
                serverAnalyse.seconds, double(serverAnalyse.peakKb) / 1024.0);
    std::printf("%-44s %10.2f %12.1f\n",
                qPrintable(QStringLiteral("slice --by region,priority, %1 from a file").arg(fileRows)),
                fileSlice.seconds, double(fileSlice.peakKb) / 1024.0);
    std::printf("%-44s %10.2f %12.1f\n", qPrintable(QStringLiteral("exceed, %1 from a file").arg(fileRows)),
                fileExceed.seconds, double(fileExceed.peakKb) / 1024.0);
    std::printf("%-44s %10.2f %12.1f\n", qPrintable(QStringLiteral("analyse, %1 from a file").arg(fileRows)),
                fileAnalyse.seconds, double(fileAnalyse.peakKb) / 1024.0);
    const double scale = double(rows) / double(fileRows);
    std::printf("file path scaled to %lld rows (linear): slice %.1f s, exceed %.1f s, analyse %.1f s; ClickHouse is "
                "%.1fx / %.1fx / %.1fx faster\n",
                rows, fileSlice.seconds * scale, fileExceed.seconds * scale, fileAnalyse.seconds * scale,
                fileSlice.seconds * scale / serverSlice.seconds, fileExceed.seconds * scale / serverExceed.seconds,
                fileAnalyse.seconds * scale / serverAnalyse.seconds);
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) == 3)
        std::printf("load average at the end: %.2f %.2f %.2f\n", load[0], load[1], load[2]);
    return serverSlice.exitCode == 0 && serverExceed.exitCode == 0 && serverFigures.exitCode == 0
            && serverAnalyse.exitCode == 0 && fileSlice.exitCode == 0 && fileExceed.exitCode == 0
            && fileAnalyse.exitCode == 0
        ? 0
        : 1;
}
