#pragma once

#include "SpanAdmission.h"

#include "io/SpanSink.h"

#include <QString>

#include <string>
#include <vector>

// The spans of one OTLP export request after decoding and admission: the
// accepted ones with their resources and scopes (indices local to the
// batch), and every rejected span with its field and reason. A batch
// stands alone: it is answered, queued, written to the capture and handed
// to the store's SpanTraceBuilder without its request.
struct ExportBatch
{
    struct Scope
    {
        std::string name;
        std::string version;
        RecycledList<SpanAttribute> attributes;
    };
    struct Rejection
    {
        std::string traceId;
        std::string spanId;
        QString field;
        QString reason;
    };

    qint64 sequence = 0; // 1-based number of the request at its receiver
    std::vector<RecycledList<SpanAttribute>> resources;
    std::vector<Scope> scopes;
    std::vector<SpanRecord> spans;
    std::vector<Rejection> rejected;

    // "2 spans rejected: span 00f0…: attributes: 300 attributes, over …; …"
    // (the first three reasons), for partial_success.error_message.
    QString rejectionMessage() const;
};

// Collects a reader's or decoder's output into an ExportBatch, rejecting the
// spans SpanAdmission refuses. A resource or scope whose own attributes are
// refused takes its spans with it (their records name the resource's field).
class ExportBatchSink final : public SpanSink
{
public:
    ExportBatchSink(ExportBatch &batch, const SpanAdmission &admission)
        : m_batch(batch)
        , m_admission(admission)
    { }

    qint32 addResource(const RecycledList<SpanAttribute> &attributes) override;
    qint32 addScope(std::string_view name, std::string_view version,
                    const RecycledList<SpanAttribute> &attributes) override;
    void addSpan(const SpanRecord &record) override;
    void rejectSpan(const SpanRecord &record, const QString &field, const QString &reason) override;

private:
    ExportBatch &m_batch;
    const SpanAdmission &m_admission;
    std::vector<SpanAdmission::Refusal> m_resourceRefusals;
    std::vector<SpanAdmission::Refusal> m_scopeRefusals;
};
