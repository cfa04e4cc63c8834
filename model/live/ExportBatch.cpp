#include "ExportBatch.h"

QString ExportBatch::rejectionMessage() const
{
    if (rejected.empty())
        return {};
    QString message = rejected.size() == 1 ? QStringLiteral("1 span rejected")
                                           : QStringLiteral("%1 spans rejected").arg(rejected.size());
    const size_t shown = qMin<size_t>(rejected.size(), 3);
    for (size_t i = 0; i < shown; ++i) {
        const Rejection &r = rejected[i];
        message += i == 0 ? QStringLiteral(": ") : QStringLiteral("; ");
        message += QStringLiteral("span %1: %2: %3")
                       .arg(r.spanId.empty() ? QStringLiteral("(no id)") : QString::fromStdString(r.spanId), r.field,
                            r.reason);
    }
    if (rejected.size() > shown)
        message += QStringLiteral("; and %1 more").arg(rejected.size() - shown);
    return message;
}

qint32 ExportBatchSink::addResource(const RecycledList<SpanAttribute> &attributes)
{
    m_batch.resources.push_back(attributes);
    m_resourceRefusals.push_back(m_admission.checkAttributes(attributes, QStringLiteral("resource.attributes")));
    return qint32(m_batch.resources.size() - 1);
}

qint32 ExportBatchSink::addScope(std::string_view name, std::string_view version,
                                 const RecycledList<SpanAttribute> &attributes)
{
    m_batch.scopes.push_back({std::string(name), std::string(version), attributes});
    SpanAdmission::Refusal refusal = m_admission.checkText(name, QStringLiteral("scope.name"));
    if (!refusal.refused())
        refusal = m_admission.checkText(version, QStringLiteral("scope.version"));
    if (!refusal.refused())
        refusal = m_admission.checkAttributes(attributes, QStringLiteral("scope.attributes"));
    m_scopeRefusals.push_back(refusal);
    return qint32(m_batch.scopes.size() - 1);
}

void ExportBatchSink::addSpan(const SpanRecord &record)
{
    if (record.resource >= 0 && size_t(record.resource) < m_resourceRefusals.size()
        && m_resourceRefusals[size_t(record.resource)].refused()) {
        const auto &refusal = m_resourceRefusals[size_t(record.resource)];
        rejectSpan(record, refusal.field, refusal.reason);
        return;
    }
    if (record.scope >= 0 && size_t(record.scope) < m_scopeRefusals.size()
        && m_scopeRefusals[size_t(record.scope)].refused()) {
        const auto &refusal = m_scopeRefusals[size_t(record.scope)];
        rejectSpan(record, refusal.field, refusal.reason);
        return;
    }
    if (const auto refusal = m_admission.check(record); refusal.refused()) {
        rejectSpan(record, refusal.field, refusal.reason);
        return;
    }
    m_batch.spans.push_back(record);
}

void ExportBatchSink::rejectSpan(const SpanRecord &record, const QString &field, const QString &reason)
{
    m_batch.rejected.push_back({record.traceId, record.spanId, field, reason});
}
