#include "CliContext.h"

#include "io/LoadControl.h"
#include "remote/TraceSource.h"
#include "report/ReportText.h"
#include "store/TraceStore.h"

#include <QElapsedTimer>

#include <atomic>
#include <chrono>
#include <thread>
#include <unistd.h>

bool loadForCli(const CliContext &context, const QString &path, LoadResult *result,
                const AttributeProjection &attributes)
{
    LoadOptions options = context.loadOptions;
    if (!context.allAttributes)
        options.attributes = attributes;
    LoadControl control;
    const bool showProgress = isatty(STDERR_FILENO) != 0;
    std::atomic<bool> finished{false};
    std::thread worker([&] {
        *result = TraceSource::load(path, options, &control);
        finished.store(true);
    });
    if (showProgress) {
        // Poll rather than call back, so the loader never waits on the terminal.
        QElapsedTimer clock;
        clock.start();
        // A load that fails before it knows the file's size never reaches 100%.
        while (!finished.load() && control.fraction() < 1.0 && clock.elapsed() < 3'600'000) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            context.err << QStringLiteral("\rLoading %1: %2%  ").arg(path).arg(int(control.fraction() * 100.0));
            context.err.flush();
            if (control.totalBytes() > 0 && control.processedBytes() >= control.totalBytes())
                break;
        }
        context.err << QStringLiteral("\r\x1b[K");
        context.err.flush();
    }
    worker.join();
    if (!result->ok()) {
        context.err << QStringLiteral("tracelane-cli: %1\n").arg(result->fatalError);
        return false;
    }
    return true;
}

bool expectOneFile(const CliContext &context, const QString &command)
{
    if (context.arguments.size() == 1)
        return true;
    context.err << QStringLiteral("tracelane-cli %1: expected exactly one FILE\n\n").arg(command)
                << context.parser.helpText();
    return false;
}

bool requireRequests(const CliContext &context, const QString &path, const TraceStore &store)
{
    if (!store.requests.isEmpty())
        return true;
    context.err
        << QStringLiteral("tracelane-cli: %1: no valid records; %2 rejected\n").arg(path).arg(store.rejected.size());
    context.err << ReportText::rejectedSummary(store.rejected) << '\n';
    return false;
}
