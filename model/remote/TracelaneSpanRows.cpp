#include "TracelaneSpanRows.h"

#include "TabSeparated.h"
#include "io/SpanTraceLinker.h"
#include "io/TimeLimits.h"
#include "io/WorkflowSummary.h"
#include "store/SpanCategory.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <limits>

namespace {

using Json = nlohmann::json;

QString fromStd(const std::string &text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// A 64-bit integer as ClickHouse's JSON writes it: quoted by default
// (output_format_json_quote_64bit_integers), bare otherwise.
bool int64Of(const Json &value, qint64 *out)
{
    if (value.is_number_integer()) {
        if (value.is_number_unsigned() && value.get<quint64>() > quint64(std::numeric_limits<qint64>::max()))
            return false;
        *out = value.get<qint64>();
        return true;
    }
    if (!value.is_string())
        return false;
    const auto &text = value.get_ref<const std::string &>();
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *out);
    return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

bool int64ArrayOf(const Json &value, std::vector<qint64> *out)
{
    out->clear();
    if (!value.is_array())
        return false;
    for (const Json &element : value) {
        qint64 number = 0;
        if (!int64Of(element, &number))
            return false;
        out->push_back(number);
    }
    return true;
}

// A whole number in [low, high].
bool boundedOf(const Json &value, qint64 low, qint64 high, qint64 *out)
{
    return int64Of(value, out) && *out >= low && *out <= high;
}

bool textOf(const Json &value, std::string *out)
{
    if (!value.is_string())
        return false;
    *out = value.get<std::string>();
    return true;
}

// Parallel key, value and is-numeric arrays (CLICKHOUSE-SCHEMA.md).
struct AttributeArrays
{
    std::vector<std::string> keys;
    std::vector<std::string> values;
    std::vector<bool> numeric;

    bool read(const Json &keyArray, const Json &valueArray, const Json &numericArray)
    {
        keys.clear();
        values.clear();
        numeric.clear();
        if (!keyArray.is_array() || !valueArray.is_array() || !numericArray.is_array()
            || keyArray.size() != valueArray.size() || keyArray.size() != numericArray.size())
            return false;
        for (size_t i = 0; i < keyArray.size(); ++i) {
            if (!keyArray[i].is_string() || !valueArray[i].is_string() || !numericArray[i].is_number_integer())
                return false;
            keys.push_back(keyArray[i].get<std::string>());
            values.push_back(valueArray[i].get<std::string>());
            numeric.push_back(numericArray[i].get<qint64>() != 0);
        }
        return true;
    }

    std::vector<SpanTable::AttributeInput> inputs() const
    {
        std::vector<SpanTable::AttributeInput> list;
        for (size_t i = 0; i < keys.size(); ++i)
            list.push_back({keys[i], values[i], numeric[i]});
        return list;
    }
};

// The columns read() reads, in kPlainColumns' order.
enum Column : int {
    Source,
    Row,
    TraceIdColumn,
    SpanIdColumn,
    Name,
    Operation,
    Service,
    StartNs,
    EndNs,
    Status,
    InputTokens,
    OutputTokens,
    SourceLine,
    Kind,
    Category,
    Flags,
    ParentRow,
    Resource,
    Scope,
    AttrKeys,
    AttrValues,
    AttrNumeric,
    Detail,
};

const char *const kPlainColumns[] = {
    "source",     "row",      "trace_id",     "span_id",       "name",        "operation",    "service",  "start_ns",
    "end_ns",     "status",   "input_tokens", "output_tokens", "source_line", "kind",         "category", "flags",
    "parent_row", "resource", "scope",        "attr_keys",     "attr_values", "attr_numeric", "detail",
};

constexpr qint64 kMaxKind = qint64(SpanKind::Consumer);
constexpr qint64 kMaxStatus = qint64(SpanStatus::Error);
constexpr qint64 kMaxEdgeKind = qint64(SpanTable::EdgeKind::Link);

} // namespace

TracelaneSpanRows::TracelaneSpanRows(TraceStore &store, QString file)
    : m_store(store)
    , m_table(store.spans)
    , m_file(std::move(file))
{ }

QString TracelaneSpanRows::columnsSql()
{
    QStringList columns;
    for (const char *column : kPlainColumns)
        columns << QLatin1String(column);
    return columns.join(QStringLiteral(", "));
}

QString TracelaneSpanRows::resourcesSql(const QString &table, const QString &where)
{
    return QStringLiteral("SELECT source, resource AS index, any(resource_keys) AS k, any(resource_values) AS v, "
                          "any(resource_numeric) AS n FROM %1 WHERE (%2) AND resource >= 0 GROUP BY source, resource "
                          "ORDER BY source, resource FORMAT JSONEachRow")
        .arg(table, where);
}

QString TracelaneSpanRows::scopesSql(const QString &table, const QString &where)
{
    return QStringLiteral("SELECT source, scope AS index, any(scope_name) AS name, any(scope_version) AS version, "
                          "any(scope_keys) AS k, any(scope_values) AS v, any(scope_numeric) AS n FROM %1 WHERE (%2) "
                          "AND scope >= 0 GROUP BY source, scope ORDER BY source, scope FORMAT JSONEachRow")
        .arg(table, where);
}

quint32 TracelaneSpanRows::sourceIndex(const std::string &source)
{
    return m_sources.try_emplace(source, quint32(m_sources.size())).first->second;
}

void TracelaneSpanRows::reject(qint64 line, const std::string &traceId, const std::string &spanId, const QString &field,
                               const QString &reason)
{
    m_store.rejected.push_back(
        {m_file, line, fromStd(traceId), field, reason, spanId.empty() ? QStringLiteral("(no id)") : fromStd(spanId)});
}

namespace {

// What a resource row and a scope row share: the source, the index within
// it and the attributes (resourcesSql, scopesSql). False when any is malformed.
bool readOwner(const Json &row, std::string *source, qint64 *index, AttributeArrays *attributes)
{
    return row.is_object() && textOf(row.value("source", Json()), source)
        && boundedOf(row.value("index", Json()), 0, std::numeric_limits<qint32>::max(), index)
        && attributes->read(row.value("k", Json()), row.value("v", Json()), row.value("n", Json()));
}

} // namespace

void TracelaneSpanRows::rejectOwner(const QString &field, const QString &what)
{
    m_store.rejected.push_back({m_file, 0, {}, field, what + QStringLiteral("; its spans load without it"), {}});
}

void TracelaneSpanRows::addResource(std::string_view line)
{
    const Json row = Json::parse(line, nullptr, false);
    std::string source;
    qint64 index = 0;
    AttributeArrays attributes;
    if (!readOwner(row, &source, &index, &attributes)) {
        rejectOwner(QStringLiteral("resource_keys"),
                    QStringLiteral("a resource that is not parallel key, value and numeric arrays"));
        return;
    }
    m_resources[{sourceIndex(source), qint32(index)}] = m_table.appendResource(attributes.inputs());
}

void TracelaneSpanRows::addScope(std::string_view line)
{
    const Json row = Json::parse(line, nullptr, false);
    std::string source;
    std::string name;
    std::string version;
    qint64 index = 0;
    AttributeArrays attributes;
    if (!readOwner(row, &source, &index, &attributes) || !textOf(row.value("name", Json()), &name)
        || !textOf(row.value("version", Json()), &version)) {
        rejectOwner(QStringLiteral("scope_keys"),
                    QStringLiteral("a scope that is not a name, a version and parallel key, value and numeric "
                                   "arrays"));
        return;
    }
    m_scopes[{sourceIndex(source), qint32(index)}] = m_table.appendScope(name, version, attributes.inputs());
}

void TracelaneSpanRows::read(std::string_view line, qint64 fetchRow)
{
    TabSeparated::split(line, &m_fields);
    if (m_fields.size() != std::size(kPlainColumns)) {
        reject(fetchRow, {}, {}, QStringLiteral("row"),
               QStringLiteral("%1 fields where Tracelane's spans table has %2")
                   .arg(m_fields.size())
                   .arg(std::size(kPlainColumns)));
        return;
    }
    const auto text
        = [this](Column column, std::string *out) { TabSeparated::unescapeInto(m_fields[size_t(column)], out); };
    const auto bounded = [this](Column column, qint64 low, qint64 high, qint64 *out) {
        return TabSeparated::integer(m_fields[size_t(column)], out) && *out >= low && *out <= high;
    };
    std::string traceId;
    std::string spanId;
    text(TraceIdColumn, &traceId);
    text(SpanIdColumn, &spanId);
    qint64 sourceLine = 0;
    const bool knownLine = bounded(SourceLine, 0, std::numeric_limits<quint32>::max(), &sourceLine);
    const qint64 at = knownLine && sourceLine > 0 ? sourceLine : fetchRow;
    const auto failAt = [&](Column column, const QString &reason) {
        reject(at, traceId, spanId, QLatin1String(kPlainColumns[column]), reason);
    };
    std::string source;
    text(Source, &source);
    qint64 pushedRow = 0;
    if (source.empty() || !bounded(Row, 0, std::numeric_limits<qint64>::max(), &pushedRow))
        return failAt(Row, QStringLiteral("no source and row"));
    if (traceId.empty())
        return failAt(TraceIdColumn, QStringLiteral("missing or empty"));
    if (spanId.empty())
        return failAt(SpanIdColumn, QStringLiteral("missing or empty"));

    SpanTable::Row span;
    std::string name;
    std::string operation;
    std::string service;
    text(Name, &name);
    text(Operation, &operation);
    text(Service, &service);
    qint64 value = 0;
    if (!bounded(StartNs, 0, std::numeric_limits<qint64>::max(), &span.start))
        return failAt(StartNs, QStringLiteral("not a time in ns"));
    if (!bounded(EndNs, span.start, std::numeric_limits<qint64>::max(), &span.end))
        return failAt(EndNs, QStringLiteral("not a time in ns at or after start_ns"));
    if (span.end - span.start > TimeLimits::kMaxDurationNs)
        return failAt(EndNs, TimeLimits::tooLong(QStringLiteral("the span"), span.end - span.start));
    if (!bounded(Status, 0, kMaxStatus, &value))
        return failAt(Status, QStringLiteral("not 0, 1 or 2"));
    span.status = SpanStatus(value);
    if (!bounded(Kind, 0, kMaxKind, &value))
        return failAt(Kind, QStringLiteral("not a span kind (0 to %1)").arg(kMaxKind));
    span.kind = SpanKind(value);
    if (!bounded(Category, 0, kSpanCategoryCount - 1, &value))
        return failAt(Category, QStringLiteral("not a span category (0 to %1)").arg(kSpanCategoryCount - 1));
    span.category = SpanCategory(value);
    if (!bounded(Flags, 0, 255, &value))
        return failAt(Flags, QStringLiteral("not a byte"));
    span.flags = quint8(value);
    for (const Column column : {InputTokens, OutputTokens}) {
        if (!bounded(column, -1, std::numeric_limits<qint32>::max(), &value))
            return failAt(column, QStringLiteral("not a count of tokens (-1: not reported)"));
        (column == InputTokens ? span.inputTokens : span.outputTokens) = qint32(value);
    }
    qint64 parentRow = -1;
    qint64 resource = -1;
    qint64 scope = -1;
    if (!bounded(ParentRow, -1, std::numeric_limits<qint64>::max(), &parentRow))
        return failAt(ParentRow, QStringLiteral("not a row number (-1: none)"));
    if (!bounded(Resource, -1, std::numeric_limits<qint32>::max(), &resource))
        return failAt(Resource, QStringLiteral("not an index (-1: none)"));
    if (!bounded(Scope, -1, std::numeric_limits<qint32>::max(), &scope))
        return failAt(Scope, QStringLiteral("not an index (-1: none)"));
    if (!TabSeparated::stringArray(m_fields[AttrKeys], &m_keys)
        || !TabSeparated::stringArray(m_fields[AttrValues], &m_values)
        || !TabSeparated::integerArray(m_fields[AttrNumeric], &m_numeric) || m_keys.size() != m_values.size()
        || m_keys.size() != m_numeric.size())
        return failAt(AttrValues,
                      QStringLiteral("attr_keys, attr_values and attr_numeric must be arrays of one length"));
    // Most spans have no detail: "{}" needs no parser.
    std::string detailText;
    text(Detail, &detailText);
    const auto fail = [&](const char *column, const QString &reason) {
        reject(at, traceId, spanId, QLatin1String(column), reason);
    };
    const Json detail = detailText == "{}" ? Json::object() : Json::parse(detailText, nullptr, false);
    if (!detail.is_object())
        return fail("detail", QStringLiteral("not a JSON object"));

    // The detail's parts, checked before anything is added.
    struct Event
    {
        qint64 time = 0;
        std::string name;
        AttributeArrays attributes;
    };
    std::vector<Event> events;
    if (const auto found = detail.find("events"); found != detail.end()) {
        if (!found->is_array())
            return fail("detail", QStringLiteral("events must be an array"));
        for (const Json &entry : *found) {
            Event &event = events.emplace_back();
            if (!entry.is_array() || entry.size() != 3 || !int64Of(entry[0], &event.time)
                || !textOf(entry[1], &event.name) || !entry[2].is_array())
                return fail("detail", QStringLiteral("an event is not [time, name, attributes]"));
            Json keys = Json::array();
            Json values = Json::array();
            Json numeric = Json::array();
            for (const Json &attribute : entry[2]) {
                if (!attribute.is_array() || attribute.size() != 3)
                    return fail("detail", QStringLiteral("an event attribute is not [key, value, numeric]"));
                keys.push_back(attribute[0]);
                values.push_back(attribute[1]);
                numeric.push_back(attribute[2]);
            }
            if (!event.attributes.read(keys, values, numeric))
                return fail("detail", QStringLiteral("an event attribute is not [key, value, numeric]"));
        }
    }
    std::vector<PendingEdge> edges;
    if (const auto found = detail.find("edges"); found != detail.end()) {
        if (!found->is_array())
            return fail("detail", QStringLiteral("edges must be an array"));
        for (const Json &entry : *found) {
            PendingEdge &edge = edges.emplace_back();
            qint64 kind = 0;
            if (!entry.is_array() || entry.size() != 3
                || !boundedOf(entry[0], 0, std::numeric_limits<qint64>::max(), &edge.order)
                || !boundedOf(entry[1], 0, std::numeric_limits<qint64>::max(), &edge.toRow)
                || !boundedOf(entry[2], 0, kMaxEdgeKind, &kind))
                return fail("detail", QStringLiteral("an edge is not [order, row, kind]"));
            edge.kind = SpanTable::EdgeKind(kind);
        }
    }
    std::vector<PendingLink> links;
    if (const auto found = detail.find("links"); found != detail.end()) {
        if (!found->is_array())
            return fail("detail", QStringLiteral("links must be an array"));
        for (const Json &entry : *found) {
            PendingLink &link = links.emplace_back();
            qint64 kind = 0;
            if (!entry.is_array() || entry.size() != 4
                || !boundedOf(entry[0], 0, std::numeric_limits<qint64>::max(), &link.order)
                || !textOf(entry[1], &link.traceId) || !textOf(entry[2], &link.spanId)
                || !boundedOf(entry[3], 0, kMaxEdgeKind, &kind))
                return fail("detail", QStringLiteral("a link is not [order, trace id, span id, kind]"));
            link.kind = SpanTable::EdgeKind(kind);
        }
    }
    bool hasCall = false;
    SpanTable::ModelCall call;
    std::vector<qint64> serverTokens;
    std::vector<qint64> clientTokens;
    if (const auto found = detail.find("call"); found != detail.end()) {
        std::vector<qint64> stamps;
        if (!found->is_object() || !int64ArrayOf(found->value("stamps", Json()), &stamps)
            || stamps.size() != call.stamps.size()
            || !int64Of(found->value("last_token_server", Json()), &call.lastTokenServer)
            || !found->value("content_bearing", Json()).is_boolean()
            || !int64ArrayOf(found->value("server_tokens", Json()), &serverTokens)
            || !int64ArrayOf(found->value("client_tokens", Json()), &clientTokens))
            return fail("detail",
                        QStringLiteral("a model call is not its stamps, last server token, whether it "
                                       "bears content, and its token times"));
        std::copy(stamps.begin(), stamps.end(), call.stamps.begin());
        call.contentBearing = found->value("content_bearing", true);
        hasCall = true;
    }

    const quint32 sourceAt = sourceIndex(source);
    if (m_rowOf.contains(key(sourceAt, pushedRow)))
        return fail("row", QStringLiteral("row %1 of this source was read before").arg(pushedRow));
    // A trace's rows are consecutive: a trace met again after another one
    // would split its workflow.
    std::string traceKey = std::to_string(sourceAt);
    traceKey.push_back(':');
    traceKey += traceId;
    if (traceKey != m_lastTrace) {
        if (!m_tracesSeen.insert(traceKey).second)
            return fail("trace_id", QStringLiteral("its trace's rows are not consecutive (ordered by source and row)"));
        m_lastTrace = traceKey;
        m_traceIds.push_back(traceId);
        m_firstRow.push_back(qint32(m_table.rowCount()));
    }
    m_rowOf.emplace(key(sourceAt, pushedRow), qint32(m_table.rowCount()));

    span.spanId = spanId;
    span.name = name;
    span.operation = operation;
    span.service = service;
    span.sourceLine = quint32(knownLine ? sourceLine : 0);
    const auto shared = [sourceAt](const std::map<std::pair<quint32, qint32>, qint32> &map, qint64 index) {
        const auto found = map.find({sourceAt, qint32(index)});
        return index < 0 || found == map.end() ? -1 : found->second;
    };
    span.resource = shared(m_resources, resource);
    span.scope = shared(m_scopes, scope);
    const auto here = qint32(m_table.appendSpan(span));
    m_sourceOfRow.push_back(sourceAt);
    for (size_t i = 0; i < m_keys.size(); ++i)
        m_table.appendAttribute(m_keys[i], m_values[i], m_numeric[i] != 0);
    for (const Event &event : events) {
        m_table.appendEvent(event.time, event.name);
        for (size_t i = 0; i < event.attributes.keys.size(); ++i)
            m_table.appendEventAttribute(event.attributes.keys[i], event.attributes.values[i],
                                         event.attributes.numeric[i]);
    }
    if (hasCall)
        m_table.setModelCall(call, serverTokens, clientTokens);
    m_parents.push_back({here, parentRow});
    for (PendingEdge &edge : edges) {
        edge.from = here;
        edge.sourceIndex = sourceAt;
        m_edges.push_back(edge);
    }
    for (PendingLink &link : links) {
        link.span = here;
        m_links.push_back(std::move(link));
    }
}

void TracelaneSpanRows::finish()
{
    qint64 lostParents = 0;
    for (const Pending &pending : m_parents) {
        if (pending.parentRow < 0)
            continue;
        const auto found = m_rowOf.find(key(m_sourceOfRow[size_t(pending.row)], pending.parentRow));
        if (found == m_rowOf.end()) {
            ++lostParents;
            continue;
        }
        m_table.setParent(pending.row, found->second);
    }
    std::stable_sort(m_edges.begin(), m_edges.end(),
                     [](const PendingEdge &a, const PendingEdge &b) { return a.order < b.order; });
    qint64 lostEdges = 0;
    for (const PendingEdge &edge : m_edges) {
        const auto found = m_rowOf.find(key(edge.sourceIndex, edge.toRow));
        if (found == m_rowOf.end()) {
            ++lostEdges;
            continue;
        }
        m_table.addEdge({edge.from, found->second, edge.kind});
    }
    std::stable_sort(m_links.begin(), m_links.end(),
                     [](const PendingLink &a, const PendingLink &b) { return a.order < b.order; });
    for (const PendingLink &link : m_links)
        m_table.addExternalLink(link.span, link.traceId, link.spanId, link.kind);
    SpanTraceLinker::appendSummaryNotices(m_table, m_file, false, m_store.notices);
    if (lostParents > 0 || lostEdges > 0)
        m_store.notices.push_back({m_file, 0,
                                   QStringLiteral("%1 parents and %2 dependencies name spans that did not load (their "
                                                  "rows were rejected); those spans are drawn without them")
                                       .arg(lostParents)
                                       .arg(lostEdges)});

    // The workflows, as a load's linker makes them.
    WorkflowTable &workflows = m_store.workflows;
    const auto rows = qint32(m_table.rowCount());
    for (size_t w = 0; w < m_traceIds.size(); ++w) {
        const qint32 first = m_firstRow[w];
        const qint32 last = w + 1 < m_firstRow.size() ? m_firstRow[w + 1] : rows;
        if (last <= first)
            continue;
        SpanTraceLinker::appendWorkflow(workflows, m_table, m_traceIds[w], first, last);
    }
    m_table.shrinkToFit();
    WorkflowSummary::summarise(m_store);

    m_rowOf = {};
    m_sourceOfRow = {};
    m_parents = {};
    m_edges = {};
    m_links = {};
    m_traceIds = {};
    m_firstRow = {};
    m_tracesSeen = {};
}
