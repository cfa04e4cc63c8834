#include "SpanTraceBuilder.h"

#include "GenAiSemantics.h"
#include "SpanId.h"
#include "SpanTraceLinker.h"
#include "TracelaneContract.h"
#include "store/Utf8.h"

#include "io/WorkflowSummary.h"

#include <cmath>
#include <limits>

namespace {

using Utf8::fromStd;

SpanTable::EdgeKind edgeKind(SpanLinkRecord::Kind kind)
{
    switch (kind) {
    case SpanLinkRecord::Kind::Dependency:
        return SpanTable::EdgeKind::Dependency;
    case SpanLinkRecord::Kind::FollowsFrom:
        return SpanTable::EdgeKind::FollowsFrom;
    case SpanLinkRecord::Kind::Link:
        break;
    }
    return SpanTable::EdgeKind::Link;
}

} // namespace

SpanTraceBuilder::SpanTraceBuilder(TraceStore &store, QString fileName, SpanFieldNames fields)
    : m_store(store)
    , m_table(store.spans)
    , m_file(std::move(fileName))
    , m_fields(std::move(fields))
{ }

qint32 SpanTraceBuilder::addResource(const RecycledList<SpanAttribute> &attributes)
{
    m_sharedScratch.clear();
    std::string service;
    for (const auto &attribute : attributes) {
        m_sharedScratch.push_back({attribute.key, attribute.value.text, attribute.value.isNumeric()});
        if (attribute.key == "service.name")
            service = attribute.value.text;
        if (attribute.key == TracelaneContract::kVersionKey && attribute.value.integer > TracelaneContract::kVersion
            && !m_versionNoticed) {
            m_versionNoticed = true;
            notice(0,
                   QStringLiteral("the file is written for Tracelane contract version %1; this build reads "
                                  "version %2 and ignores what it does not know")
                       .arg(attribute.value.integer)
                       .arg(TracelaneContract::kVersion));
        }
    }
    m_resourceServices.push_back(std::move(service));
    return m_table.appendResource(m_sharedScratch);
}

qint32 SpanTraceBuilder::addScope(std::string_view name, std::string_view version,
                                  const RecycledList<SpanAttribute> &attributes)
{
    m_sharedScratch.clear();
    for (const auto &attribute : attributes)
        m_sharedScratch.push_back({attribute.key, attribute.value.text, attribute.value.isNumeric()});
    return m_table.appendScope(name, version, m_sharedScratch);
}

void SpanTraceBuilder::rejectSpan(const SpanRecord &record, const QString &field, const QString &reason)
{
    m_store.rejected.push_back({m_file, record.line, fromStd(record.traceId), field, reason,
                                record.spanId.empty() ? QStringLiteral("(no id)") : fromStd(record.spanId)});
}

void SpanTraceBuilder::reject(qint64 line, const QString &field, const QString &reason)
{
    m_store.rejected.push_back({m_file, line, {}, field, reason, {}});
}

void SpanTraceBuilder::notice(qint64 line, const QString &message)
{
    m_store.notices.push_back({m_file, line, message});
}

SpanTraceBuilder::Refusal SpanTraceBuilder::check(const SpanRecord &record, const SpanFieldNames &fields)
{
    if (record.start < 0)
        return {fields.start, QStringLiteral("negative time %1 ns").arg(record.start)};
    if (record.end < 0)
        return {fields.end, QStringLiteral("negative time %1 ns").arg(record.end)};
    if (record.end < record.start)
        return {fields.end, QStringLiteral("the span ends %1 ns before it starts").arg(record.start - record.end)};
    if (record.end - record.start > kMaxSpanNs)
        return {fields.end, TimeLimits::tooLong(QStringLiteral("the span"), record.end - record.start)};
    if (!record.parentSpanId.empty() && record.parentSpanId == record.spanId)
        return {fields.parent, QStringLiteral("the span names itself as its parent")};
    return {};
}

void SpanTraceBuilder::addSpan(const SpanRecord &record)
{
    if (const Refusal refusal = check(record, m_fields); refusal.refused()) {
        rejectSpan(record, refusal.field, refusal.reason);
        return;
    }
    GenAiSemantics::SpanMeaning meaning = GenAiSemantics::interpret(record);
    std::vector<TracelaneContract::Problem> problems;
    const TracelaneContract::SpanContract contract = TracelaneContract::read(record, &problems);
    for (const auto &problem : problems)
        rejectSpan(record, problem.field, problem.reason);
    if (contract.category) {
        meaning.category = *contract.category;
        if (meaning.operation.empty())
            meaning.operation = spanCategoryKey(*contract.category).toStdString();
    }
    if (contract.version > TracelaneContract::kVersion && !m_versionNoticed) {
        m_versionNoticed = true;
        notice(record.line,
               QStringLiteral("the file is written for Tracelane contract version %1; this build reads "
                              "version %2 and ignores what it does not know")
                   .arg(contract.version)
                   .arg(TracelaneContract::kVersion));
    }

    SpanTable::Row row;
    row.start = record.start;
    row.end = record.end;
    row.spanId = record.spanId;
    row.name = record.name;
    row.operation = meaning.operation;
    const bool hasResource = record.resource >= 0 && size_t(record.resource) < m_resourceServices.size();
    row.service = hasResource && !m_resourceServices[size_t(record.resource)].empty()
        ? std::string_view(m_resourceServices[size_t(record.resource)])
        : std::string_view(record.service);
    row.kind = record.kind;
    row.category = meaning.category;
    row.status = record.status;
    row.inputTokens = meaning.inputTokens;
    row.outputTokens = meaning.outputTokens;
    row.resource = record.resource;
    row.scope = record.scope;
    row.sourceLine = quint32(qBound<qint64>(0, record.line, std::numeric_limits<quint32>::max()));
    const auto rowIndex = qint32(m_table.appendSpan(row));
    for (const auto &attribute : record.attributes)
        m_table.appendAttribute(attribute.key, attribute.value.text, attribute.value.isNumeric());
    if (!record.statusMessage.empty())
        m_table.appendAttribute("otel.status_description", record.statusMessage, false);
    for (const auto &event : record.events) {
        m_table.appendEvent(event.time == kNoTime ? record.start : event.time, event.name);
        for (const auto &attribute : event.attributes)
            m_table.appendEventAttribute(attribute.key, attribute.value.text, attribute.value.isNumeric());
    }
    appendModelCall(record, meaning.category == SpanCategory::ModelCall, contract);

    // Staging for finish().
    auto [it, inserted] = m_traceIndex.try_emplace(record.traceId, quint32(m_traceIds.size()));
    if (inserted)
        m_traceIds.push_back(record.traceId);
    m_traceOf.push_back(it->second);
    m_parentIds.append(record.parentSpanId);
    for (const auto &link : record.links) {
        if (link.spanId.empty())
            continue;
        const bool sameTrace = link.traceId.empty() || link.traceId == record.traceId;
        m_references.push_back({rowIndex, sameTrace ? std::string() : link.traceId, link.spanId,
                                edgeKind(TracelaneContract::linkKind(link)), false});
    }
    for (const auto &dependency : contract.dependsOn) {
        std::string id;
        QString error;
        if (SpanId::fromOtlp(dependency, SpanId::kSpanIdDigits, &id, &error) != SpanId::Status::Ok)
            id = dependency;
        m_references.push_back({rowIndex, {}, std::move(id), SpanTable::EdgeKind::Dependency, true});
    }
}

void SpanTraceBuilder::appendModelCall(const SpanRecord &record, bool isModelCall,
                                       const TracelaneContract::SpanContract &contract)
{
    const bool hasTokens = !contract.serverTokens.empty() || !contract.clientTokens.empty();
    if (!isModelCall && !contract.hasStamps && !hasTokens)
        return;
    SpanTable::ModelCall call;
    call.stamps = contract.stamps;
    call.lastTokenServer = contract.lastTokenServer;
    call.contentBearing = contract.contentBearing;
    if (!contract.hasStamps)
        GenAiSemantics::readVllmLatency(record, &call);
    m_table.setModelCall(call, contract.serverTokens, contract.clientTokens);
}

void SpanTraceBuilder::finish()
{
    SpanTraceLinker linker(m_store, m_file, m_fields.parent, m_fields.start, m_fields.end);
    linker.link(m_traceIds, m_traceOf, m_parentIds, m_references);
    m_adoptionTruncated = linker.adoptionTruncated();
    WorkflowSummary::summarise(m_store);

    m_traceIndex.clear();
    m_traceIds.clear();
    m_traceOf = {};
    m_parentIds.clear();
    m_references = {};
    m_resourceServices.clear();
}
