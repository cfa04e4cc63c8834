#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

// The fuzz targets by name: one per loader, `any_file` (detection,
// decompression and every loader behind TraceFileLoader::load) and
// `analysis` (what the commands compute on whatever loaded). libFuzzer builds
// one executable per target (LibFuzzerMain.cpp); the ordinary presets build
// one replay driver for all of them (ReplayMain.cpp). tests/fuzz/CMakeLists.txt
// lists the same names with their seeds.
struct FuzzTarget
{
    const char *name;
    // Loads the bytes as a file and checks the result (FuzzChecks): aborts
    // when an invariant breaks.
    void (*run)(const uint8_t *data, size_t size);
};

namespace FuzzTargets {

std::span<const FuzzTarget> all();
// nullptr when no target has that name.
const FuzzTarget *find(const char *name);

// The `analysis` target (FuzzAnalysis.cpp).
void analysis(const uint8_t *data, size_t size);

} // namespace FuzzTargets
