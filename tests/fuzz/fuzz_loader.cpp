// One libFuzzer target per loader: TRACELANE_FUZZ_LOADER names the loader's
// load function (see CMakeLists.txt). Each input is written to an in-memory
// file, loaded, and the result checked against FuzzChecks.

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

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FuzzInput input;
    LoadOptions options;
    options.threads = 1;
    const LoadResult result = TRACELANE_FUZZ_LOADER(input.write(data, size), options, nullptr);
    FuzzChecks::check(result);
    FuzzChecks::describe(result);
    return 0;
}
