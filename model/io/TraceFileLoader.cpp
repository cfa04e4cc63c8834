#include "TraceFileLoader.h"

#include "AiperfLoader.h"
#include "AnyAgentLoader.h"
#include "JaegerJsonLoader.h"
#include "LangfuseLoader.h"
#include "LlmperfLoader.h"
#include "LmbenchCsvLoader.h"
#include "OtlpJsonLoader.h"
#include "SeedJsonlLoader.h"
#include "TraceInput.h"
#include "VllmBenchLoader.h"
#include "WorkloadTraceLoaders.h"

#include <QFile>
#include <QFileInfo>

#include <exception>
#include <new>

namespace TraceFileLoader {

TraceFormat detect(const QString &path)
{
    return detectFileFormat(path).format;
}

namespace {

LoadResult fatal(const QString &message)
{
    LoadResult result;
    result.fatalError = message;
    return result;
}

// Loads a regular file by what its content says it is.
LoadResult loadFile(const QString &path, const LoadOptions &options, LoadControl *control)
{
    const FileFormat detected = detectFileFormat(path);
    if (detected.unreadable)
        return fatal(QStringLiteral("%1: cannot open: %2").arg(path, QFile(path).errorString()));
    if (detected.utf16)
        return fatal(QStringLiteral("%1: the file is UTF-16 encoded; save it as UTF-8").arg(path));
    if (detected.blank && QFileInfo(path).size() > 0)
        return fatal(QStringLiteral("%1: no records; the file holds only blank lines").arg(path));
    const TraceFormat format = detected.format;
    switch (format) {
    case TraceFormat::SeedJsonl:
        return SeedJsonlLoader::load(path, options, control);
    case TraceFormat::SeedJsonArray:
        return SeedJsonlLoader::loadArray(path, options, control);
    case TraceFormat::OtlpJson:
        return OtlpJsonLoader::load(path, options, control);
    case TraceFormat::JaegerJson:
        return JaegerJsonLoader::load(path, options, control);
    case TraceFormat::AnyAgent:
        return AnyAgentLoader::load(path, options, control);
    case TraceFormat::Langfuse:
        return LangfuseLoader::load(path, options, control);
    case TraceFormat::AiperfJsonl:
        return AiperfLoader::load(path, options, control);
    case TraceFormat::LlmperfJson:
        return LlmperfLoader::load(path, options, control);
    case TraceFormat::VllmBenchJson:
        return VllmBenchLoader::load(path, options, control);
    case TraceFormat::LmbenchCsv:
        return LmbenchCsvLoader::load(path, options, control);
    case TraceFormat::AzureCsv:
        return WorkloadTraceLoaders::loadAzureCsv(path, options, control);
    case TraceFormat::MooncakeJsonl:
        return WorkloadTraceLoaders::loadMooncake(path, options, control);
    case TraceFormat::Unknown:
        // Let the seed loader explain line by line what is wrong.
        return SeedJsonlLoader::load(path, options, control);
    default: {
        LoadResult result;
        result.fatalError
            = QStringLiteral("%1: looks like %2, which this build cannot load yet").arg(path, traceFormatName(format));
        return result;
    }
    }
}

} // namespace

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control)
{
    // The one boundary every load passes: no exception leaves it. Loaders
    // catch their own per record; what is left is running out of memory (a
    // file far larger than the machine can hold) or a defect.
    try {
        TraceInput input;
        QString error;
        if (!input.open(path, control, &error)) {
            LoadResult result;
            result.cancelled = input.cancelled();
            if (!result.cancelled)
                result.fatalError = QStringLiteral("%1: %2").arg(input.toUserPath(path), error);
            return result;
        }
        LoadResult result = loadFile(input.loadPath(), options, control);
        if (input.isCopy()) {
            result.fatalError = input.toUserPath(result.fatalError);
            for (QString &file : result.store->sourceFiles)
                file = input.toUserPath(file);
            if (result.ok() && !input.howRead().isEmpty()) {
                auto &notices = result.store->notices;
                notices.insert(notices.begin(), {QFileInfo(input.loadPath()).fileName(), 0, input.howRead()});
            }
        }
        return result;
    } catch (const std::bad_alloc &) {
        LoadResult result;
        result.fatalError = QStringLiteral("%1: out of memory while loading (the file is %2 MB); close other "
                                           "programs or load a smaller part of it")
                                .arg(path)
                                .arg(QFileInfo(path).size() / 1'000'000);
        return result;
    } catch (const std::exception &error) {
        LoadResult result;
        result.fatalError = QStringLiteral("%1: the load failed: %2").arg(path, QString::fromUtf8(error.what()));
        return result;
    }
}

} // namespace TraceFileLoader
