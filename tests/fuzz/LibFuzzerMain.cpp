// libFuzzer's entry point for one target, named at compile time by
// TRACELANE_FUZZ_TARGET (tests/fuzz/CMakeLists.txt).

#include "FuzzTargets.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const FuzzTarget *const target = FuzzTargets::find(TRACELANE_FUZZ_TARGET);
    if (!target)
        std::abort();
    target->run(data, size);
    return 0;
}
