#pragma once

#include "SpanRecord.h"

#include <QString>

#include <string_view>

// Where a span format's reader delivers what it read: the SpanTraceBuilder
// for a file, or a live receiver's export batch, which checks each span
// before the same builder sees it. Resource and scope indices returned here
// are what the reader writes into SpanRecord::resource and ::scope.
class SpanSink
{
public:
    virtual ~SpanSink() = default;

    virtual qint32 addResource(const RecycledList<SpanAttribute> &attributes) = 0;
    virtual qint32 addScope(std::string_view name, std::string_view version,
                            const RecycledList<SpanAttribute> &attributes)
        = 0;
    virtual void addSpan(const SpanRecord &record) = 0;
    virtual void rejectSpan(const SpanRecord &record, const QString &field, const QString &reason) = 0;
};
