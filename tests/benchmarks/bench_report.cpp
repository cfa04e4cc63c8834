// The one-page report of a large trace: how long it takes to draft the
// record and build and write the report (HTML, PDF, Markdown), against the
// load + profiler analysis of the same trace in the same run (what
// `tracelane-cli analyse` does), and how long the GUI thread is ever blocked
// while File > Export Report runs through the main window.
//
//   tracelane-bench-report TRACE.jsonl [OUT_DIR]
//   (TRACE from `tracelane-gen TRACE.jsonl 1000000`)
//
// Goals (issue 12): a 1M-request report in at most 5 s; the GUI thread never
// blocked over 50 ms.

#include "MainWindow.h"
#include "ReportWriter.h"
#include "ReviewWiring.h"
#include "analysis/requests/ProfileReport.h"
#include "io/TraceFileLoader.h"
#include "review/DesignReport.h"
#include "review/RecordDraft.h"
#include "store/TraceStore.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>
#include <ctime>

namespace {

qint64 cpuNs(clockid_t clock)
{
    timespec now{};
    clock_gettime(clock, &now);
    return qint64(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

qint64 threadCpuNs()
{
    return cpuNs(CLOCK_THREAD_CPUTIME_ID);
}

// Every thread of the process: on a shared machine the wall time waits for
// cores, the CPU time is what the export itself costs.
qint64 processCpuNs()
{
    return cpuNs(CLOCK_PROCESS_CPUTIME_ID);
}

QString loadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    return file.open(QIODevice::ReadOnly) ? QString::fromLatin1(file.readAll()).section(QLatin1Char(' '), 0, 2)
                                          : QStringLiteral("unknown");
}

double seconds(const QElapsedTimer &clock)
{
    return double(clock.nsecsElapsed()) / 1e9;
}

// Runs the GUI's Export Report for `path` with a 5 ms event-loop probe.
void guiExport(MainWindow &window, const QString &path)
{
    QElapsedTimer clock;
    clock.start();
    const qint64 processCpuStart = processCpuNs();
    qint64 last = clock.nsecsElapsed();
    qint64 lastCpu = threadCpuNs();
    qint64 worst = 0;
    qint64 worstCpu = 0;
    qint64 busiest = 0;
    int over50 = 0;
    int ticks = 0;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(5);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        const qint64 cpu = threadCpuNs();
        if (now - last > worst) {
            worst = now - last;
            worstCpu = cpu - lastCpu;
        }
        busiest = std::max(busiest, cpu - lastCpu);
        over50 += now - last > 50'000'000;
        ++ticks;
        last = now;
        lastCpu = cpu;
    });
    bool done = false;
    bool ok = false;
    const auto connection
        = QObject::connect(window.review(), &ReviewWiring::reportWritten, [&](bool success, const QString &) {
              done = true;
              ok = success;
          });
    probe.start();
    window.review()->exportReport(path);
    while (!done)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    probe.stop();
    QObject::disconnect(connection);
    const double processCpu = double(processCpuNs() - processCpuStart) / 1e9;
    std::printf("  %-4s via File > Export Report: %.2f s wall, %.2f s CPU (all threads)%s; event-loop probe: %d ticks, "
                "max gap %.1f ms (GUI thread computed %.1f ms of it), %d gaps over 50 ms, most GUI-thread CPU between "
                "ticks %.1f ms\n",
                qPrintable(QFileInfo(path).suffix()), seconds(clock), processCpu, ok ? "" : " (FAILED)", ticks,
                double(worst) / 1e6, double(worstCpu) / 1e6, over50, double(busiest) / 1e6);
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: tracelane-bench-report TRACE.jsonl [OUT_DIR]\n");
        return 2;
    }
    const QString trace = QString::fromLocal8Bit(argv[1]);
    const QDir out(argc > 2 ? QString::fromLocal8Bit(argv[2]) : QDir::tempPath());
    std::printf("tracelane-bench-report %s (load average %s)\n", argv[1], qPrintable(loadAverage()));

    // Reference: load + the profiler's analysis, as `tracelane-cli analyse`.
    QElapsedTimer clock;
    clock.start();
    LoadResult load = TraceFileLoader::load(trace, {});
    const double loadSeconds = seconds(clock);
    if (!load.ok()) {
        std::fprintf(stderr, "cannot load %s: %s\n", argv[1], qPrintable(load.fatalError));
        return 1;
    }
    clock.restart();
    const ProfileReport profile = profileRequests(load.store->requests, Boundary::Client, QString(), QString());
    const double analyseSeconds = seconds(clock);
    const double reference = loadSeconds + analyseSeconds;
    std::printf("  %lld requests; reference: load %.2f s + analyse %.2f s = %.2f s (p95 TTFT %.1f ms)\n",
                static_cast<long long>(load.store->requests.rowCount()), loadSeconds, analyseSeconds, reference,
                profile.ttft.p95);

    const std::shared_ptr<const TraceStore> store = load.store;
    RecordDraft::Scope scope;
    scope.trace = QFileInfo(trace).fileName();
    clock.restart();
    const DiagnosisRecord record = RecordDraft::draft(*store, scope, Boundary::Client, Metric::Ttft, 0.95);
    const double draftSeconds = seconds(clock);
    DesignReport::Options options;
    options.trace = scope.trace;
    clock.restart();
    const ReportDocument document = DesignReport::build(record, store, options);
    const double buildSeconds = seconds(clock);
    std::printf("  record drafted %.2f s, report built %.2f s (%zu figures)\n", draftSeconds, buildSeconds,
                document.figures().size());
    for (const char *suffix : {"html", "pdf", "md"}) {
        const QString path = out.filePath(QStringLiteral("bench-report.") + QLatin1String(suffix));
        clock.restart();
        QString error;
        const bool ok = ReportWriter::write(document, path, &error);
        const double writeSeconds = seconds(clock);
        const double total = loadSeconds + draftSeconds + buildSeconds + writeSeconds;
        const double report = draftSeconds + buildSeconds + writeSeconds;
        std::printf("  %-4s written %.2f s%s: report %.2f s after loading (goal <= 5 s) = %.2fx the analyse step; "
                    "load + report %.2f s = %.2fx the reference\n",
                    suffix, writeSeconds, ok ? "" : qPrintable(QStringLiteral(" FAILED: ") + error), report,
                    report / std::max(1e-9, analyseSeconds), total, total / std::max(1e-9, reference));
    }
    load = {};

    // The same through the main window: the GUI thread only copies the
    // options and hands over; drafting happened when the trace loaded.
    MainWindow window;
    window.setPersistent(false);
    window.resize(1600, 1000);
    window.show();
    bool loaded = false;
    QObject::connect(&window, &MainWindow::loadFinished, [&](bool ok) { loaded = ok; });
    window.openFile(trace);
    QElapsedTimer settle;
    settle.start();
    while (!loaded || window.isBusy())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    std::printf("  main window loaded and settled in %.2f s\n", seconds(settle));
    for (const char *suffix : {"html", "pdf", "md"})
        guiExport(window, out.filePath(QStringLiteral("bench-gui.") + QLatin1String(suffix)));
    return 0;
}
