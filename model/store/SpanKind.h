#pragma once

#include <QString>

#include <array>

// OpenTelemetry span kind, as OTLP numbers it (0..5). Jaeger's `span.kind`
// tag and any-agent's lower-case kind map onto the same values.
enum class SpanKind : quint8 { Unspecified, Internal, Server, Client, Producer, Consumer };
inline constexpr int kSpanKindCount = 6;

inline QString spanKindKey(SpanKind kind)
{
    static const std::array<QString, kSpanKindCount> keys = {
        QString(),
        QStringLiteral("internal"),
        QStringLiteral("server"),
        QStringLiteral("client"),
        QStringLiteral("producer"),
        QStringLiteral("consumer"),
    };
    return keys[static_cast<size_t>(kind)];
}

// Status of a span. Only Error carries meaning for latency analysis; Ok and
// Unset are kept apart because OTLP does.
enum class SpanStatus : quint8 { Unset, Ok, Error };

inline QString spanStatusKey(SpanStatus status)
{
    switch (status) {
    case SpanStatus::Ok:
        return QStringLiteral("ok");
    case SpanStatus::Error:
        return QStringLiteral("error");
    case SpanStatus::Unset:
        break;
    }
    return QStringLiteral("unset");
}
