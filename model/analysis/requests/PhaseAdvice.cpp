#include "PhaseAdvice.h"

QString nextTestFor(Phase phase)
{
    switch (phase) {
    case Phase::NetworkIn:
        return QStringLiteral("send the same request from a client next to the gateway; if the gap closes, "
                              "look at connection reuse, TLS set-up and upload size");
    case Phase::Gateway:
        return QStringLiteral("time each gateway step (authentication, policy, rate limiting, tokenisation) "
                              "on the slow requests and remove them one at a time");
    case Phase::Queue:
        return QStringLiteral("replay the same arrivals at lower offered load, or with another admission "
                              "or scheduling policy, and check that queue time falls with it");
    case Phase::Prefill:
        return QStringLiteral("compare equal-length prompts with and without a cached prefix, then try "
                              "shorter context or chunked prefill");
    case Phase::FirstDecode:
        return QStringLiteral("time the first decode step on its own: sampler set-up, host-device "
                              "synchronisation and the first kernel launches");
    case Phase::NetworkToFirst:
        return QStringLiteral("log the first token at the server and at the client for the same requests; "
                              "a gap points at proxy buffering or unflushed stream chunks");
    case Phase::Stream:
        return QStringLiteral("compare server token times with client arrivals, then vary batch size, "
                              "decode kernels or answer length and watch the per-token gap");
    }
    return {};
}
