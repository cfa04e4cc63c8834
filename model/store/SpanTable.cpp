#include "SpanTable.h"

#include "Utf8.h"

#include <charconv>
#include <limits>
#include <vector>

namespace {

template<typename T> void permute(std::vector<T> &column, const std::vector<qint32> &order)
{
    std::vector<T> sorted;
    sorted.reserve(order.size());
    for (const qint32 row : order)
        sorted.push_back(column[static_cast<size_t>(row)]);
    column.swap(sorted);
}

// Copies the ranges [begin[row], begin[row + 1]) of `items` in the new row
// order and rewrites the offsets to match.
template<typename T>
void permuteRanges(std::vector<T> &items, std::vector<quint32> &begin, const std::vector<qint32> &order)
{
    std::vector<T> sorted;
    sorted.reserve(items.size());
    std::vector<quint32> offsets;
    offsets.reserve(begin.size());
    offsets.push_back(0);
    for (const qint32 row : order) {
        const auto first = begin[static_cast<size_t>(row)];
        const auto last = begin[static_cast<size_t>(row) + 1];
        sorted.insert(sorted.end(), items.begin() + first, items.begin() + last);
        offsets.push_back(static_cast<quint32>(sorted.size()));
    }
    items.swap(sorted);
    begin.swap(offsets);
}

} // namespace

QString SpanTable::spanIdText(qsizetype row) const
{
    return Utf8::fromStd(spanId(row));
}

const SpanTable::Attribute *SpanTable::findAttribute(qsizetype row, std::string_view key) const
{
    const quint32 code = m_strings.find(key);
    if (code == 0)
        return nullptr;
    const auto [first, last] = attributeRange(row);
    for (size_t i = first; i < last; ++i) {
        if (m_attributes[i].key() == code)
            return &m_attributes[i];
    }
    return nullptr;
}

QString SpanTable::attributeText(qsizetype row, std::string_view key) const
{
    const Attribute *attribute = findAttribute(row, key);
    return attribute ? m_strings.text(attribute->value) : QString();
}

double SpanTable::number(const Attribute &attribute) const
{
    if (!attribute.isNumeric())
        return std::numeric_limits<double>::quiet_NaN();
    const std::string_view text = m_strings.view(attribute.value);
    if (text == "NaN")
        return std::numeric_limits<double>::quiet_NaN();
    if (text == "Infinity" || text == "-Infinity")
        return text.front() == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    double value = std::numeric_limits<double>::quiet_NaN();
    std::from_chars(text.data(), text.data() + text.size(), value);
    return value;
}

SpanTable::Attribute SpanTable::makeAttribute(std::string_view key, std::string_view value, bool numeric)
{
    return {m_strings.intern(key) | (numeric ? Attribute::kNumeric : 0u), m_strings.intern(value)};
}

std::span<const SpanTable::Event> SpanTable::events(qsizetype row) const
{
    const auto first = m_eventBegin[at(row)];
    const auto last = m_eventBegin[at(row) + 1];
    return {m_events.data() + first, last - first};
}

qsizetype SpanTable::appendSpan(const Row &row)
{
    if (m_attributeBegin.empty()) {
        m_attributeBegin.push_back(0);
        m_eventBegin.push_back(0);
    }
    m_workflow.push_back(row.workflow);
    m_parent.push_back(row.parent);
    m_start.push_back(row.start);
    m_end.push_back(row.end);
    m_spanIds.append(row.spanId);
    m_name.push_back(m_strings.intern(row.name));
    m_operation.push_back(m_strings.intern(row.operation));
    m_service.push_back(m_strings.intern(row.service));
    m_kind.push_back(row.kind);
    m_category.push_back(row.category);
    m_status.push_back(row.status);
    m_flags.push_back(static_cast<quint8>(row.flags | (row.status == SpanStatus::Error ? Error : NoFlags)));
    m_inputTokens.push_back(row.inputTokens);
    m_outputTokens.push_back(row.outputTokens);
    m_sourceLine.push_back(row.sourceLine);
    m_resource.push_back(row.resource);
    m_scope.push_back(row.scope);
    m_modelCall.push_back(-1);
    m_attributeBegin.push_back(static_cast<quint32>(m_attributes.size()));
    m_eventBegin.push_back(static_cast<quint32>(m_events.size()));
    return rowCount() - 1;
}

void SpanTable::appendAttribute(std::string_view key, std::string_view value, bool numeric)
{
    m_attributes.push_back(makeAttribute(key, value, numeric));
    m_attributeBegin.back() = static_cast<quint32>(m_attributes.size());
}

void SpanTable::appendAttribute(const QString &key, const QString &value, bool numeric)
{
    const QByteArray keyText = key.toUtf8();
    const QByteArray valueText = value.toUtf8();
    appendAttribute(std::string_view(keyText.constData(), size_t(keyText.size())),
                    std::string_view(valueText.constData(), size_t(valueText.size())), numeric);
}

void SpanTable::appendEvent(qint64 time, std::string_view name)
{
    const auto first = static_cast<quint32>(m_eventAttributes.size());
    m_events.push_back({time, m_strings.intern(name), {first, first}});
    m_eventBegin.back() = static_cast<quint32>(m_events.size());
}

void SpanTable::appendEventAttribute(std::string_view key, std::string_view value, bool numeric)
{
    m_eventAttributes.push_back(makeAttribute(key, value, numeric));
    m_events.back().attributes.end = static_cast<quint32>(m_eventAttributes.size());
}

qint32 SpanTable::appendResource(std::span<const AttributeInput> attributes)
{
    const auto first = static_cast<quint32>(m_sharedAttributes.size());
    for (const auto &attribute : attributes)
        m_sharedAttributes.push_back(makeAttribute(attribute.key, attribute.value, attribute.numeric));
    m_resources.push_back({first, static_cast<quint32>(m_sharedAttributes.size())});
    return static_cast<qint32>(m_resources.size() - 1);
}

qint32 SpanTable::appendScope(std::string_view name, std::string_view version,
                              std::span<const AttributeInput> attributes)
{
    const auto first = static_cast<quint32>(m_sharedAttributes.size());
    for (const auto &attribute : attributes)
        m_sharedAttributes.push_back(makeAttribute(attribute.key, attribute.value, attribute.numeric));
    m_scopes.push_back(
        {m_strings.intern(name), m_strings.intern(version), {first, static_cast<quint32>(m_sharedAttributes.size())}});
    return static_cast<qint32>(m_scopes.size() - 1);
}

void SpanTable::setModelCall(ModelCall call, std::span<const qint64> serverTokens, std::span<const qint64> clientTokens)
{
    call.span = static_cast<qint32>(rowCount() - 1);
    auto first = static_cast<quint32>(m_tokenTimes.size());
    m_tokenTimes.insert(m_tokenTimes.end(), serverTokens.begin(), serverTokens.end());
    call.serverTokens = {first, static_cast<quint32>(m_tokenTimes.size())};
    first = static_cast<quint32>(m_tokenTimes.size());
    m_tokenTimes.insert(m_tokenTimes.end(), clientTokens.begin(), clientTokens.end());
    call.clientTokens = {first, static_cast<quint32>(m_tokenTimes.size())};
    m_modelCall.back() = static_cast<qint32>(m_modelCalls.size());
    m_modelCalls.push_back(call);
}

void SpanTable::addExternalLink(qint32 span, std::string_view traceId, std::string_view spanId, EdgeKind kind)
{
    m_externalLinks.push_back({span, m_strings.intern(traceId), m_strings.intern(spanId), kind});
}

void SpanTable::reorder(const std::vector<qint32> &order)
{
    std::vector<qint32> newRow(static_cast<size_t>(rowCount()), -1);
    for (size_t i = 0; i < order.size(); ++i)
        newRow[static_cast<size_t>(order[i])] = static_cast<qint32>(i);
    const auto remap = [&](qint32 row) { return row < 0 ? row : newRow[static_cast<size_t>(row)]; };

    visitRowColumns(*this, [&order](auto &column) { permute(column, order); });
    for (auto &parent : m_parent)
        parent = remap(parent);
    StringArena ids;
    ids.reserve(rowCount(), static_cast<qsizetype>(m_spanIds.byteSize()));
    for (const qint32 row : order)
        ids.append(m_spanIds.view(row));
    m_spanIds = std::move(ids);
    permuteRanges(m_attributes, m_attributeBegin, order);
    permuteRanges(m_events, m_eventBegin, order);
    // Model calls in the new row order (dropping those of dropped rows);
    // their token times stay where they are.
    std::vector<ModelCall> calls;
    calls.reserve(m_modelCalls.size());
    for (size_t row = 0; row < m_modelCall.size(); ++row) {
        qint32 &index = m_modelCall[row];
        if (index < 0)
            continue;
        calls.push_back(m_modelCalls[static_cast<size_t>(index)]);
        calls.back().span = static_cast<qint32>(row);
        index = static_cast<qint32>(calls.size() - 1);
    }
    m_modelCalls.swap(calls);
    std::erase_if(m_edges, [&](Edge &edge) {
        edge.from = remap(edge.from);
        edge.to = remap(edge.to);
        return edge.from < 0 || edge.to < 0;
    });
    std::erase_if(m_externalLinks, [&](ExternalLink &link) {
        link.span = remap(link.span);
        return link.span < 0;
    });
}

void SpanTable::reserve(qsizetype rows, qsizetype attributes)
{
    const auto n = static_cast<size_t>(rows);
    visitRowColumns(*this, [n](auto &column) { column.reserve(n); });
    m_spanIds.reserve(rows, rows * 16);
    m_attributeBegin.reserve(n + 1);
    m_eventBegin.reserve(n + 1);
    m_attributes.reserve(static_cast<size_t>(attributes));
}

void SpanTable::shrinkToFit()
{
    const auto shrink = [](auto &column) { column.shrink_to_fit(); };
    visitRowColumns(*this, shrink);
    visitOtherColumns(*this, shrink);
    m_spanIds.shrinkToFit();
}

size_t SpanTable::memoryBytes() const
{
    size_t total = m_spanIds.memoryBytes() + m_strings.memoryBytes();
    const auto add = [&total](const auto &column) { total += column.capacity() * sizeof(column[0]); };
    visitRowColumns(*this, add);
    visitOtherColumns(*this, add);
    return total;
}
