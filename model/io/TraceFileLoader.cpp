#include "TraceFileLoader.h"

#include "AnyAgentLoader.h"
#include "JaegerJsonLoader.h"
#include "LangfuseLoader.h"
#include "AiperfLoader.h"
#include "LlmperfLoader.h"
#include "LmbenchCsvLoader.h"
#include "OtlpJsonLoader.h"
#include "SeedJsonlLoader.h"
#include "VllmBenchLoader.h"
#include "WorkloadTraceLoaders.h"

#include <QFile>

namespace TraceFileLoader {

TraceFormat detect(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return TraceFormat::Unknown;
    return detectTraceFormat(file.read(64 * 1024));
}

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control)
{
    QFile file(path);
    if (!file.exists()) {
        LoadResult result;
        result.fatalError = QStringLiteral("%1: no such file").arg(path);
        return result;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        LoadResult result;
        result.fatalError = QStringLiteral("%1: cannot open: %2").arg(path, file.errorString());
        return result;
    }
    const QByteArray head = file.read(64 * 1024);
    file.close();
    if (head.startsWith("\xFF\xFE") || head.startsWith("\xFE\xFF")) {
        LoadResult result;
        result.fatalError = QStringLiteral("%1: the file is UTF-16 encoded; save it as UTF-8").arg(path);
        return result;
    }
    const TraceFormat format = detectTraceFormat(head);
    switch (format) {
    case TraceFormat::SeedJsonl:
        return SeedJsonlLoader::load(path, options, control);
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
        if (!head.isEmpty() && head.trimmed().isEmpty()) {
            LoadResult result;
            result.fatalError = QStringLiteral("%1: no records; the file holds only blank lines").arg(path);
            return result;
        }
        // Let the seed loader explain line by line what is wrong.
        return SeedJsonlLoader::load(path, options, control);
    default: {
        LoadResult result;
        result.fatalError = QStringLiteral("%1: looks like %2, which this build cannot load yet")
                                .arg(path, traceFormatName(format));
        return result;
    }
    }
}

} // namespace TraceFileLoader
