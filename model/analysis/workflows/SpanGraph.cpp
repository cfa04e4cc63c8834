#include "SpanGraph.h"

#include "store/Utf8.h"

QString SpanGraph::idText(qint32 span) const
{
    return Utf8::fromStd(id(span));
}

QString SpanGraph::label(qint32 span) const
{
    if (!name(span).isEmpty())
        return name(span);
    if (!operation(span).isEmpty())
        return operation(span);
    return idText(span);
}

std::span<const SpanGraph::PhaseInterval> SpanGraph::phases(qint32 span) const
{
    const auto begin = m_phaseBegin[size_t(span)];
    const auto end = m_phaseBegin[size_t(span) + 1];
    return {m_phases.data() + begin, size_t(end - begin)};
}

qint32 SpanGraph::appendSpan(const Span &span)
{
    if (m_phaseBegin.empty())
        m_phaseBegin.push_back(0);
    m_parent.push_back(span.parent);
    m_start.push_back(span.start);
    m_end.push_back(span.end);
    m_blocksParent.push_back(span.blocksParent ? 1 : 0);
    m_firstToken.push_back(span.firstToken);
    m_outputTokens.push_back(span.outputTokens);
    m_sourceRow.push_back(span.sourceRow);
    m_name.push_back(m_strings.intern(span.name));
    m_operation.push_back(m_strings.intern(span.operation));
    m_category.push_back(span.category);
    m_kind.push_back(span.kind);
    m_ids.append(span.id);
    m_phaseBegin.push_back(quint32(m_phases.size()));
    return spanCount() - 1;
}

void SpanGraph::appendPhase(const PhaseInterval &phase)
{
    m_phases.push_back(phase);
    m_phaseBegin.back() = quint32(m_phases.size());
}

void SpanGraph::reserve(qint32 spans, qint64 idBytes)
{
    const auto count = size_t(spans);
    m_parent.reserve(count);
    m_start.reserve(count);
    m_end.reserve(count);
    m_blocksParent.reserve(count);
    m_firstToken.reserve(count);
    m_outputTokens.reserve(count);
    m_sourceRow.reserve(count);
    m_name.reserve(count);
    m_operation.reserve(count);
    m_category.reserve(count);
    m_kind.reserve(count);
    m_phaseBegin.reserve(count + 1);
    m_ids.reserve(spans, idBytes);
}

size_t SpanGraph::memoryBytes() const
{
    return (m_parent.capacity() + m_outputTokens.capacity() + m_sourceRow.capacity()) * sizeof(qint32)
        + (m_start.capacity() + m_end.capacity() + m_firstToken.capacity()) * sizeof(qint64) + m_blocksParent.capacity()
        + m_category.capacity() + m_kind.capacity() + (m_name.capacity() + m_operation.capacity()) * sizeof(quint32)
        + m_ids.memoryBytes() + m_phaseBegin.capacity() * sizeof(quint32) + m_phases.capacity() * sizeof(PhaseInterval)
        + m_dependencies.capacity() * sizeof(Dependency);
}
