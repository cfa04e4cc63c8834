// Times loading an OTLP/JSON trace file through the same entry point the app
// uses, and reports throughput, the store's bytes per span and the process's
// peak RSS. bench_otlp.py runs it beside a reference on the same file.
//
//   tracelane-bench-otlp FILE [REPEATS]

#include "io/TraceFileLoader.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <vector>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: tracelane-bench-otlp FILE [REPEATS]\n");
        return 2;
    }
    const QString path = QString::fromLocal8Bit(argv[1]);
    const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
    const double megabytes = double(QFileInfo(path).size()) / 1e6;
    std::vector<double> seconds;
    LoadResult result;
    for (int i = 0; i < repeats; ++i) {
        result = LoadResult(); // release the previous store before timing the next load
        QElapsedTimer timer;
        timer.start();
        result = TraceFileLoader::load(path, {});
        seconds.push_back(double(timer.nsecsElapsed()) / 1e9);
        if (!result.ok()) {
            std::fprintf(stderr, "load failed: %s\n", qPrintable(result.fatalError));
            return 1;
        }
    }
    std::sort(seconds.begin(), seconds.end());
    const TraceStore &store = *result.store;
    const double spans = double(store.spans.rowCount());
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const double peakMb = double(usage.ru_maxrss) / 1024.0;
    std::printf("{\"file_mb\": %.1f, \"best_s\": %.3f, \"median_s\": %.3f, \"mb_per_s\": %.1f, \"spans\": %.0f, "
                "\"workflows\": %lld, \"rejected\": %zu, \"span_table_bytes_per_span\": %.1f, "
                "\"store_bytes_per_span\": %.1f, \"peak_rss_mb\": %.1f}\n",
                megabytes, seconds.front(), seconds[seconds.size() / 2], megabytes / seconds.front(), spans,
                static_cast<long long>(store.workflows.rowCount()), store.rejected.size(),
                double(store.spans.memoryBytes()) / spans, double(store.memoryBytes()) / spans, peakMb);
    return 0;
}
