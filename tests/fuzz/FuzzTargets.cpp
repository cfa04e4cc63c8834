#include "FuzzTargets.h"

#include "FuzzChecks.h"
#include "FuzzInput.h"

#include "io/AiperfLoader.h"
#include "io/AnyAgentLoader.h"
#include "io/JaegerJsonLoader.h"
#include "io/LangfuseLoader.h"
#include "io/LlmperfLoader.h"
#include "io/LmbenchCsvLoader.h"
#include "io/OtlpJsonLoader.h"
#include "io/SeedJsonlLoader.h"
#include "io/TraceFileLoader.h"
#include "io/VllmBenchLoader.h"
#include "io/WorkloadTraceLoaders.h"

#include <array>
#include <cstring>

namespace {

using LoadFunction = LoadResult (*)(const QString &, const LoadOptions &, LoadControl *);

// One loader on the input written as a file, one thread (deterministic).
template<LoadFunction load> void loader(const uint8_t *data, size_t size)
{
    static FuzzInput input;
    LoadOptions options;
    options.threads = 1;
    const LoadResult result = load(input.write(data, size), options, nullptr);
    FuzzChecks::check(result);
    FuzzChecks::describe(result);
}

LoadResult anyFile(const QString &path, const LoadOptions &options, LoadControl *control)
{
    return TraceFileLoader::load(path, options, control);
}

constexpr std::array kTargets{
    FuzzTarget{"seed_jsonl", &loader<&SeedJsonlLoader::load>},
    FuzzTarget{"seed_array", &loader<&SeedJsonlLoader::loadArray>},
    FuzzTarget{"otlp", &loader<&OtlpJsonLoader::load>},
    FuzzTarget{"jaeger", &loader<&JaegerJsonLoader::load>},
    FuzzTarget{"anyagent", &loader<&AnyAgentLoader::load>},
    FuzzTarget{"langfuse", &loader<&LangfuseLoader::load>},
    FuzzTarget{"aiperf", &loader<&AiperfLoader::load>},
    FuzzTarget{"llmperf", &loader<&LlmperfLoader::load>},
    FuzzTarget{"vllm_bench", &loader<&VllmBenchLoader::load>},
    FuzzTarget{"lmbench", &loader<&LmbenchCsvLoader::load>},
    FuzzTarget{"azure", &loader<&WorkloadTraceLoaders::loadAzureCsv>},
    FuzzTarget{"mooncake", &loader<&WorkloadTraceLoaders::loadMooncake>},
    FuzzTarget{"any_file", &loader<&anyFile>},
    FuzzTarget{"analysis", &FuzzTargets::analysis},
};

} // namespace

std::span<const FuzzTarget> FuzzTargets::all()
{
    return kTargets;
}

const FuzzTarget *FuzzTargets::find(const char *name)
{
    for (const FuzzTarget &target : kTargets) {
        if (std::strcmp(target.name, name) == 0)
            return &target;
    }
    return nullptr;
}
