#pragma once

#include "store/Phase.h"

#include <QString>

#include <span>

// Where the observer stands when TTFT is measured. Each boundary names the
// stamp TTFT starts from and the stamp of the first token it sees.
enum class Boundary : int {
    Client, // client send -> first token at the client (default; what users feel)
    Server, // queue enter -> first token leaves the server
    Engine, // prefill start -> first token leaves the server
};

inline constexpr Stamp boundaryStart(Boundary boundary)
{
    switch (boundary) {
    case Boundary::Server:
        return Stamp::QueueEnter;
    case Boundary::Engine:
        return Stamp::PrefillStart;
    case Boundary::Client:
        break;
    }
    return Stamp::ClientSend;
}

inline constexpr Stamp boundaryFirstToken(Boundary boundary)
{
    return boundary == Boundary::Client ? Stamp::FirstTokenClient : Stamp::FirstTokenServer;
}

// The phases that lie inside the boundary's TTFT window, in order.
inline std::span<const Phase> ttftPhases(Boundary boundary)
{
    static constexpr Phase client[]
        = {Phase::NetworkIn, Phase::Gateway, Phase::Queue, Phase::Prefill, Phase::FirstDecode, Phase::NetworkToFirst};
    static constexpr Phase server[] = {Phase::Queue, Phase::Prefill, Phase::FirstDecode};
    static constexpr Phase engine[] = {Phase::Prefill, Phase::FirstDecode};
    switch (boundary) {
    case Boundary::Server:
        return server;
    case Boundary::Engine:
        return engine;
    case Boundary::Client:
        break;
    }
    return client;
}

inline QString boundaryKey(Boundary boundary)
{
    switch (boundary) {
    case Boundary::Server:
        return QStringLiteral("server");
    case Boundary::Engine:
        return QStringLiteral("engine");
    case Boundary::Client:
        break;
    }
    return QStringLiteral("client");
}

// "client send -> first client token", for report lines and axis titles.
inline QString boundarySpan(Boundary boundary)
{
    switch (boundary) {
    case Boundary::Server:
        return QStringLiteral("queue enter \u2192 first server token");
    case Boundary::Engine:
        return QStringLiteral("prefill start \u2192 first server token");
    case Boundary::Client:
        break;
    }
    return QStringLiteral("client send \u2192 first client token");
}

inline bool boundaryFromKey(const QString &key, Boundary *boundary)
{
    for (const auto candidate : {Boundary::Client, Boundary::Server, Boundary::Engine}) {
        if (boundaryKey(candidate) == key) {
            *boundary = candidate;
            return true;
        }
    }
    return false;
}
