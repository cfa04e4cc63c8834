#pragma once

#include "ExportBatch.h"

#include <QMutex>
#include <QString>

#include <map>
#include <string>

// What a receiver has answered so far, for its summary and the status bar:
// requests by HTTP status, spans accepted and rejected (rejections grouped
// by field, each with its count and first reason), requests refused whole
// (grouped by status and message), accepted spans per service. OTLP/gRPC
// calls are counted by gRPC status code beside the HTTP statuses. Written by
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
        std::map<int, qint64> byStatus;   // OTLP/HTTP
        std::map<int, qint64> byGrpcCode; // OTLP/gRPC (0 = OK)
        std::map<QString, Group> rejectionsByField;
        // "413", "415"... and "gRPC 8"... with the first message
        std::map<QString, Group> refusals;
        std::map<std::string, qint64> spansByService;
    };

    void recordBatch(const ExportBatch &batch, qint64 bodyBytes);
    void recordRefusal(int status, const QString &message, qint64 bodyBytes);
    void recordGrpcBatch(const ExportBatch &batch, qint64 messageBytes);
    void recordGrpcRefusal(int grpcCode, const QString &message, qint64 messageBytes);
    // "RESOURCE_EXHAUSTED" for 8 and so on.
    static QString grpcCodeName(int grpcCode);
    Snapshot snapshot() const;
    void reset();

private:
    void addBatch(const ExportBatch &batch, qint64 bodyBytes);
    void addRefusal(const QString &key, const QString &message, qint64 bodyBytes);

    mutable QMutex m_mutex;
    Snapshot m_data;
};
