#pragma once

#include "io/LoadResult.h"
#include "io/TimeLimits.h"

#include <cstdio>
#include <cstdlib>

// What must hold after any load, whatever the input: a fuzzer finds the
// inputs that break these (silent wrong numbers), not only crashes.
namespace FuzzChecks {

inline void require(bool condition, const char *what)
{
    if (!condition) {
        std::fprintf(stderr, "tracelane fuzz invariant broken: %s\n", what);
        std::abort();
    }
}

inline void check(const LoadResult &result)
{
    require(result.store != nullptr, "a result has a store");
    if (!result.ok()) {
        require(!result.fatalError.isEmpty(), "a failed load says why");
        return;
    }
    const TraceStore &store = *result.store;
    for (const auto &rejected : store.rejected)
        require(!rejected.reason.isEmpty(), "every rejected record has a reason");
    const RequestTable &requests = store.requests;
    for (qsizetype row = 0; row < requests.rowCount(); ++row) {
        require(requests.promptTokens(row) >= 0 && requests.outputTokens(row) >= 0, "token counts are not negative");
        // The stamps a request has are in order, and the request is not
        // longer than any real one.
        qint64 first = kNoTime;
        qint64 previous = kNoTime;
        for (int s = 0; s < kStampCount; ++s) {
            const qint64 t = requests.stamp(row, static_cast<Stamp>(s));
            if (t == kNoTime)
                continue;
            require(previous == kNoTime || t >= previous, "a request's stamps run forwards");
            if (first == kNoTime)
                first = t;
            previous = t;
        }
        if (first != kNoTime)
            require(previous - first <= TimeLimits::kMaxDurationNs, "no request lasts over 30 days");
    }
    const SpanTable &spans = store.spans;
    for (qsizetype row = 0; row < spans.rowCount(); ++row) {
        require(spans.start(row) >= 0 && spans.end(row) >= spans.start(row), "a span ends after it starts");
        require(spans.end(row) - spans.start(row) <= TimeLimits::kMaxDurationNs, "no span lasts over 30 days");
    }
}

} // namespace FuzzChecks
