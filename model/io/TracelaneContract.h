#pragma once

#include "SpanRecord.h"

#include "store/SpanCategory.h"
#include "store/Stamp.h"

#include <QString>

#include <array>
#include <optional>
#include <string>
#include <vector>

// Tracelane's attribute contract (TRACELANE-CONTRACT.md): the few span
// attributes the OpenTelemetry conventions do not define yet: phase
// timestamps on a model call, explicit dependencies, per-token times.
namespace TracelaneContract {

inline constexpr int kVersion = 2;
inline constexpr std::string_view kVersionKey = "tracelane.contract.version";
inline constexpr std::string_view kDependsOnKey = "tracelane.depends_on";
inline constexpr std::string_view kCategoryKey = "tracelane.category";
inline constexpr std::string_view kContentBearingKey = "tracelane.content_bearing";
inline constexpr std::string_view kWorkflowTypeKey = "tracelane.workflow.type";
inline constexpr std::string_view kServerTokensKey = "tracelane.tokens.server_unix_nano";
inline constexpr std::string_view kClientTokensKey = "tracelane.tokens.client_unix_nano";
inline constexpr std::string_view kClientCountsKey = "tracelane.tokens.client_counts"; // v2
inline constexpr std::string_view kLastTokenServerKey = "tracelane.phase.last_token_server_unix_nano";
inline constexpr std::string_view kLinkTypeKey = "tracelane.link.type";
inline constexpr std::string_view kTokenEventName = "tracelane.token";
inline constexpr std::string_view kTokenSideKey = "tracelane.token.side";
inline constexpr std::string_view kTokenCountKey = "tracelane.token.count"; // v2

// "tracelane.phase.queue_enter_unix_nano" for Stamp::QueueEnter, ...
std::string phaseKey(Stamp stamp);

struct Problem
{
    QString field;
    QString reason;
};

struct SpanContract
{
    std::array<qint64, kStampCount> stamps;
    qint64 lastTokenServer = kNoTime;
    bool hasStamps = false;
    std::vector<qint64> serverTokens;
    std::vector<qint64> clientTokens;
    std::vector<std::string> dependsOn; // span ids as written
    std::optional<SpanCategory> category;
    bool contentBearing = true;
    int version = 0; // 0: the span does not say

    SpanContract() { stamps.fill(kNoTime); }
};

// Reads the contract's attributes (and "tracelane.token" events) of one
// span. Unusable values are left out and explained in `problems`; the span
// itself always loads.
SpanContract read(const SpanRecord &record, std::vector<Problem> *problems);

// The link's meaning from its attributes: tracelane.link.type
// ("depends_on" / "follows_from") or OpenTracing's opentracing.ref_type.
SpanLinkRecord::Kind linkKind(const SpanLinkRecord &link);

} // namespace TracelaneContract
