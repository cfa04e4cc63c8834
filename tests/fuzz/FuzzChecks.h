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

// With TRACELANE_FUZZ_VERBOSE set, says what a load made of an input (to
// see what a reproducer or a seed does): fatal error, or counts.
inline void describe(const LoadResult &result)
{
    static const bool verbose = std::getenv("TRACELANE_FUZZ_VERBOSE") != nullptr;
    if (!verbose)
        return;
    if (!result.ok()) {
        std::fprintf(stderr, "fatal: %s\n", qPrintable(result.fatalError));
        return;
    }
    const TraceStore &store = *result.store;
    std::fprintf(stderr, "%s: %lld requests, %lld spans, %zu rejected, %zu notices\n", qPrintable(store.format),
                 qlonglong(store.requests.rowCount()), qlonglong(store.spans.rowCount()), store.rejected.size(),
                 store.notices.size());
    for (size_t i = 0; i < store.rejected.size() && i < 3; ++i)
        std::fprintf(stderr, "  %s\n", qPrintable(store.rejected[i].toString()));
}

} // namespace FuzzChecks
