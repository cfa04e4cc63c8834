#include "ReceiveStats.h"

void ReceiveStats::recordBatch(const ExportBatch &batch, qint64 bodyBytes)
{
    QMutexLocker locker(&m_mutex);
    ++m_data.byStatus[200];
    addBatch(batch, bodyBytes);
}

void ReceiveStats::recordGrpcBatch(const ExportBatch &batch, qint64 messageBytes)
{
    QMutexLocker locker(&m_mutex);
    ++m_data.byGrpcCode[0];
    addBatch(batch, messageBytes);
}

void ReceiveStats::addBatch(const ExportBatch &batch, qint64 bodyBytes)
{
    ++m_data.requests;
    m_data.bytes += bodyBytes;
    m_data.acceptedSpans += qint64(batch.spans.size());
    m_data.rejectedSpans += qint64(batch.rejected.size());
    for (const auto &rejection : batch.rejected) {
        Group &group = m_data.rejectionsByField[rejection.field];
        if (group.count++ == 0)
            group.example = rejection.reason;
    }
    // service.name of each accepted span's resource ("" when none).
    std::vector<const std::string *> services(batch.resources.size(), nullptr);
    for (size_t r = 0; r < batch.resources.size(); ++r) {
        for (const auto &attribute : batch.resources[r]) {
            if (attribute.key == "service.name")
                services[r] = &attribute.value.text;
        }
    }
    static const std::string kNone;
    for (const auto &span : batch.spans) {
        const bool known
            = span.resource >= 0 && size_t(span.resource) < services.size() && services[size_t(span.resource)];
        ++m_data.spansByService[known ? *services[size_t(span.resource)] : kNone];
    }
}

void ReceiveStats::recordRefusal(int status, const QString &message, qint64 bodyBytes)
{
    QMutexLocker locker(&m_mutex);
    ++m_data.byStatus[status];
    addRefusal(QString::number(status), message, bodyBytes);
}

void ReceiveStats::recordGrpcRefusal(int grpcCode, const QString &message, qint64 messageBytes)
{
    QMutexLocker locker(&m_mutex);
    ++m_data.byGrpcCode[grpcCode];
    addRefusal(QStringLiteral("gRPC ") + grpcCodeName(grpcCode), message, messageBytes);
}

void ReceiveStats::addRefusal(const QString &key, const QString &message, qint64 bodyBytes)
{
    ++m_data.requests;
    m_data.bytes += bodyBytes;
    Group &group = m_data.refusals[key];
    if (group.count++ == 0)
        group.example = message;
}

QString ReceiveStats::grpcCodeName(int grpcCode)
{
    static const char *const names[]
        = {"OK",        "CANCELLED",      "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
           "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
           "ABORTED",   "OUT_OF_RANGE",   "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
           "DATA_LOSS", "UNAUTHENTICATED"};
    if (grpcCode >= 0 && grpcCode < int(std::size(names)))
        return QString::fromLatin1(names[grpcCode]);
    return QString::number(grpcCode);
}

ReceiveStats::Snapshot ReceiveStats::snapshot() const
{
    QMutexLocker locker(&m_mutex);
    return m_data;
}

void ReceiveStats::reset()
{
    QMutexLocker locker(&m_mutex);
    m_data = {};
}
