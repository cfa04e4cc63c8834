#pragma once

#include "ExportBatch.h"

#include <QMutex>
#include <QString>

#include <map>
#include <string>

// What a receiver has answered so far, for its summary and the status bar:
// requests by HTTP status, spans accepted and rejected (rejections grouped
// by field, each with its count and first reason), requests refused whole
// (grouped by status and message), accepted spans per service. Written by
// the receiver's thread, read as a snapshot by any other.
class ReceiveStats
{
public:
    struct Group
    {
        qint64 count = 0;
        QString example;
    };
    struct Snapshot
    {
        qint64 requests = 0;
        qint64 bytes = 0;
        qint64 acceptedSpans = 0;
        qint64 rejectedSpans = 0;
        std::map<int, qint64> byStatus;
        std::map<QString, Group> rejectionsByField;
        std::map<QString, Group> refusals; // "413", "415"... with the first message
        std::map<std::string, qint64> spansByService;
    };

    void recordBatch(const ExportBatch &batch, qint64 bodyBytes);
    void recordRefusal(int status, const QString &message, qint64 bodyBytes);
    Snapshot snapshot() const;

private:
    mutable QMutex m_mutex;
    Snapshot m_data;
};
