#pragma once

#include "ReceiveLimits.h"

#include "io/SpanRecord.h"
#include "io/SpanTraceBuilder.h"

// The rules a span received live must pass before it is answered as
// accepted: well-formed UTF-8 in every text, the receiver's per-span limits
// (attribute count and size, events, links), times near the receiver's
// clock, and then the file loaders' own rules (SpanTraceBuilder::check), so
// the count of rejected spans in the response is exact.
class SpanAdmission
{
public:
    using Refusal = SpanTraceBuilder::Refusal;

    SpanAdmission(const ReceiveLimits &limits, qint64 nowNs)
        : m_limits(limits)
        , m_now(nowNs)
    { }

    Refusal check(const SpanRecord &record) const;
    // A resource's or scope's attributes; `field` names them ("resource.attributes").
    Refusal checkAttributes(const RecycledList<SpanAttribute> &attributes, const QString &field) const;
    Refusal checkText(std::string_view text, const QString &field) const;

    const ReceiveLimits &limits() const { return m_limits; }

private:
    Refusal checkTime(qint64 time, const QString &field) const;

    ReceiveLimits m_limits;
    qint64 m_now = 0;
};
