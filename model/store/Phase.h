#pragma once

#include "Stamp.h"

#include <QString>

#include <array>

// The seven phases of a flat request: the consecutive differences of the
// eight stamps. Phase i runs from Stamp i to Stamp i+1.
enum class Phase : int {
    NetworkIn,
    Gateway,
    Queue,
    Prefill,
    FirstDecode,
    NetworkToFirst,
    Stream,
};
inline constexpr int kPhaseCount = 7;

inline constexpr std::array<Phase, kPhaseCount> kAllPhases = {
    Phase::NetworkIn,   Phase::Gateway,        Phase::Queue,  Phase::Prefill,
    Phase::FirstDecode, Phase::NetworkToFirst, Phase::Stream,
};

inline constexpr Stamp phaseBegin(Phase phase)
{
    return static_cast<Stamp>(static_cast<int>(phase));
}
inline constexpr Stamp phaseEnd(Phase phase)
{
    return static_cast<Stamp>(static_cast<int>(phase) + 1);
}

// Machine name, as the seed profiler and the JSON output spell it.
inline QString phaseKey(Phase phase)
{
    static const std::array<QString, kPhaseCount> keys = {
        QStringLiteral("network_in"), QStringLiteral("gateway"),      QStringLiteral("queue"),
        QStringLiteral("prefill"),    QStringLiteral("first_decode"), QStringLiteral("network_to_first"),
        QStringLiteral("stream"),
    };
    return keys[static_cast<size_t>(phase)];
}

// Human label for legends and tables.
inline QString phaseLabel(Phase phase)
{
    static const std::array<QString, kPhaseCount> labels = {
        QStringLiteral("Network in"), QStringLiteral("Gateway"),      QStringLiteral("Queue"),
        QStringLiteral("Prefill"),    QStringLiteral("First decode"), QStringLiteral("Network to first token"),
        QStringLiteral("Stream"),
    };
    return labels[static_cast<size_t>(phase)];
}

inline bool phaseFromKey(const QString &key, Phase *phase)
{
    for (const Phase candidate : kAllPhases) {
        if (phaseKey(candidate) == key) {
            *phase = candidate;
            return true;
        }
    }
    return false;
}
