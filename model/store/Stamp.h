#pragma once

#include <QString>
#include <QtGlobal>

#include <array>
#include <limits>

// The eight timestamps of a flat request, in the order the seed format defines
// them. Consecutive pairs bound the seven phases.
enum class Stamp : int {
    ClientSend,
    GatewayArrival,
    QueueEnter,
    PrefillStart,
    PrefillEnd,
    FirstTokenServer,
    FirstTokenClient,
    LastTokenClient,
};
inline constexpr int kStampCount = 8;

// Times are integer nanoseconds on the trace's own clock. A stamp the source
// did not observe holds kNoTime; the gap it leaves is residual, never a phase.
inline constexpr qint64 kNoTime = std::numeric_limits<qint64>::min();

inline const char *stampFieldName(Stamp stamp)
{
    static constexpr std::array<const char *, kStampCount> names = {
        "client_send_ms", "gateway_arrival_ms",    "queue_enter_ms",        "prefill_start_ms",
        "prefill_end_ms", "first_token_server_ms", "first_token_client_ms", "last_token_client_ms",
    };
    return names[static_cast<size_t>(stamp)];
}
