#include "ReceiveStats.h"

void ReceiveStats::recordBatch(const ExportBatch &batch, qint64 bodyBytes)
{
    QMutexLocker locker(&m_mutex);
    ++m_data.requests;
    ++m_data.byStatus[200];
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
    ++m_data.requests;
    ++m_data.byStatus[status];
    m_data.bytes += bodyBytes;
    Group &group = m_data.refusals[QString::number(status)];
    if (group.count++ == 0)
        group.example = message;
}

ReceiveStats::Snapshot ReceiveStats::snapshot() const
{
    QMutexLocker locker(&m_mutex);
    return m_data;
}
