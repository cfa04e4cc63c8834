#pragma once

#include "StringArena.h"

#include <QString>

#include <string_view>
#include <vector>

// A workflow (one trace id) groups a contiguous range of span rows
// [firstSpan, firstSpan + spanCount) and, once summarised, owns one row in
// the RequestTable so it slices and forms exceedance sets like a request.
struct WorkflowTable
{
    StringArena traceIds; // normalised (lower-case hex where the source was hex)
    std::vector<qint32> firstSpan;
    std::vector<qint32> spanCount;
    std::vector<qint32> rootSpan;   // earliest-starting span without a parent; -1 if every span is an orphan
    std::vector<qint32> requestRow; // -1 until summarised into a request lane

    qsizetype rowCount() const { return traceIds.size(); }

    QString traceIdText(qsizetype workflow) const
    {
        const auto id = traceIds.view(workflow);
        return QString::fromUtf8(id.data(), static_cast<qsizetype>(id.size()));
    }

    // Index of the workflow with `traceId`, or -1. Linear: for look-ups by
    // a person (CLI --trace), not for inner loops.
    qint32 indexOf(std::string_view traceId) const
    {
        for (qsizetype i = 0; i < rowCount(); ++i) {
            if (traceIds.view(i) == traceId)
                return static_cast<qint32>(i);
        }
        return -1;
    }

    size_t memoryBytes() const
    {
        return traceIds.memoryBytes()
            + (firstSpan.capacity() + spanCount.capacity() + rootSpan.capacity() + requestRow.capacity())
            * sizeof(qint32);
    }
};
