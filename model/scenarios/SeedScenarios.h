#pragma once

#include "io/LoadResult.h"

#include <QString>

// The seed profiler's built-in cases, rebuilt from their description: a
// synthetic burst with constant service time and rising queue delay (the
// positive case) and a record whose prefill ends before it starts (the
// negative control, which must be rejected).
namespace SeedScenarios {

// Ten requests burst-01..burst-10 as one JSONL document.
QByteArray burstJsonl();

// The burst's first record with prefill_end_ms five ms before prefill_start_ms.
QByteArray negativeControlJsonl();

// Loads a JSONL document held in memory through the real loader; rejected
// records carry `label` as their file name.
LoadResult loadJsonl(const QByteArray &jsonl, const QString &label);

} // namespace SeedScenarios
