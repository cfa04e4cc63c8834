#include "TracePush.h"

#include "ClickHouseClient.h"
#include "TracelaneSchema.h"
#include "store/TraceStore.h"

#include <QCryptographicHash>
#include <QFile>

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <memory>

namespace TracePush {

namespace {

std::string utf8(std::string_view text)
{
    return std::string(text);
}
std::string utf8(const QString &text)
{
    return text.toStdString();
}

void appendLine(QByteArray *rows, const nlohmann::json &row)
{
    // Invalid UTF-8 from a source becomes U+FFFD rather than failing the batch.
    rows->append(row.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    rows->append('\n');
}

QByteArray requestRows(const RequestTable &table, const QString &digest, qint64 batch, qsizetype begin, qsizetype end)
{
    QByteArray rows;
    const auto &attributes = table.attributes();
    for (qsizetype row = begin; row < end; ++row) {
        nlohmann::json record = {{"schema_version", TracelaneSchema::kVersion},
                                 {"source", utf8(digest)},
                                 {"batch", batch},
                                 {"row", row},
                                 {"request_id", utf8(table.id(row))},
                                 {"source_line", table.sourceLine(row)},
                                 {"prompt_tokens", table.promptTokens(row)},
                                 {"output_tokens", table.outputTokens(row)}};
        for (int i = 0; i < kStampCount; ++i) {
            const auto stamp = static_cast<Stamp>(i);
            record[utf8(TracelaneSchema::stampColumn(stamp))] = table.stamp(row, stamp);
        }
        auto keys = nlohmann::json::array();
        auto values = nlohmann::json::array();
        auto numKeys = nlohmann::json::array();
        auto numValues = nlohmann::json::array();
        for (const auto &column : attributes) {
            if (!column.isPresent(row))
                continue;
            if (column.isNumeric()) {
                numKeys.push_back(utf8(column.name()));
                numValues.push_back(column.number(row));
            } else {
                keys.push_back(utf8(column.name()));
                values.push_back(utf8(column.values()[column.code(row)]));
            }
        }
        record["attr_keys"] = std::move(keys);
        record["attr_values"] = std::move(values);
        record["num_keys"] = std::move(numKeys);
        record["num_values"] = std::move(numValues);
        appendLine(&rows, record);
    }
    return rows;
}

// Each span's outgoing edges and external links, as indices into the
// table's lists (their order there is kept: a read puts them back in it).
struct SpanReferences
{
    std::vector<std::vector<size_t>> edges;
    std::vector<std::vector<size_t>> links;

    explicit SpanReferences(const SpanTable &spans)
        : edges(size_t(spans.rowCount()))
        , links(size_t(spans.rowCount()))
    {
        for (size_t i = 0; i < spans.edges().size(); ++i)
            edges[size_t(spans.edges()[i].from)].push_back(i);
        for (size_t i = 0; i < spans.externalLinks().size(); ++i)
            links[size_t(spans.externalLinks()[i].span)].push_back(i);
    }
};

// Parallel key, value and is-numeric arrays of a range of attributes.
void putAttributes(nlohmann::json &record, const char *prefix, const SpanTable &spans,
                   const std::vector<SpanTable::Attribute> &list, size_t first, size_t last)
{
    auto keys = nlohmann::json::array();
    auto values = nlohmann::json::array();
    auto numeric = nlohmann::json::array();
    for (size_t i = first; i < last; ++i) {
        keys.push_back(utf8(spans.strings().view(list[i].key())));
        values.push_back(utf8(spans.strings().view(list[i].value)));
        numeric.push_back(list[i].isNumeric() ? 1 : 0);
    }
    const std::string name(prefix);
    record[name + "keys"] = std::move(keys);
    record[name + "values"] = std::move(values);
    record[name + "numeric"] = std::move(numeric);
}

// What a span holds beyond plain columns, as JSON text
// (CLICKHOUSE-SCHEMA.md, "detail").
std::string spanDetail(const SpanTable &spans, const SpanReferences &references, qsizetype row)
{
    nlohmann::json detail = nlohmann::json::object();
    const auto text = [&spans](quint32 code) { return utf8(spans.strings().view(code)); };
    if (const auto events = spans.events(row); !events.empty()) {
        auto list = nlohmann::json::array();
        for (const SpanTable::Event &event : events) {
            auto attributes = nlohmann::json::array();
            for (quint32 i = event.attributes.begin; i < event.attributes.end; ++i) {
                const SpanTable::Attribute &attribute = spans.eventAttributes()[i];
                attributes.push_back({text(attribute.key()), text(attribute.value), attribute.isNumeric() ? 1 : 0});
            }
            list.push_back({event.time, text(event.name), std::move(attributes)});
        }
        detail["events"] = std::move(list);
    }
    if (const auto &edges = references.edges[size_t(row)]; !edges.empty()) {
        auto list = nlohmann::json::array();
        for (const size_t i : edges)
            list.push_back({i, spans.edges()[i].to, int(spans.edges()[i].kind)});
        detail["edges"] = std::move(list);
    }
    if (const auto &links = references.links[size_t(row)]; !links.empty()) {
        auto list = nlohmann::json::array();
        for (const size_t i : links) {
            const SpanTable::ExternalLink &link = spans.externalLinks()[i];
            list.push_back({i, text(link.traceId), text(link.spanId), int(link.kind)});
        }
        detail["links"] = std::move(list);
    }
    if (const SpanTable::ModelCall *call = spans.modelCall(row)) {
        const auto tokens = [&spans](SpanTable::AttributeRange range) {
            const auto times = spans.tokenTimes(range);
            return nlohmann::json(std::vector<qint64>(times.begin(), times.end()));
        };
        detail["call"] = {{"stamps", std::vector<qint64>(call->stamps.begin(), call->stamps.end())},
                          {"last_token_server", call->lastTokenServer},
                          {"content_bearing", call->contentBearing},
                          {"server_tokens", tokens(call->serverTokens)},
                          {"client_tokens", tokens(call->clientTokens)}};
    }
    return detail.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

QByteArray spanRows(const TraceStore &store, const SpanReferences &references, const QString &digest, qint64 batch,
                    qsizetype begin, qsizetype end)
{
    QByteArray rows;
    const auto &spans = store.spans;
    for (qsizetype row = begin; row < end; ++row) {
        const qint32 workflow = spans.workflow(row);
        const qint32 parent = spans.parent(row);
        nlohmann::json record
            = {{"schema_version", TracelaneSchema::kVersion},
               {"source", utf8(digest)},
               {"batch", batch},
               {"row", row},
               {"trace_id", workflow >= 0 ? utf8(store.workflows.traceIds.view(workflow)) : std::string()},
               {"span_id", utf8(spans.spanId(row))},
               {"parent_span_id", parent >= 0 ? utf8(spans.spanId(parent)) : std::string()},
               {"name", utf8(spans.nameUtf8(row))},
               {"operation", utf8(spans.operationUtf8(row))},
               {"service", utf8(spans.service(row))},
               {"start_ns", spans.start(row)},
               {"end_ns", spans.end(row)},
               {"status", int(spans.status(row))},
               {"input_tokens", spans.inputTokens(row)},
               {"output_tokens", spans.outputTokens(row)},
               {"source_line", spans.sourceLine(row)},
               {"kind", int(spans.kind(row))},
               {"category", int(spans.category(row))},
               {"flags", int(spans.flags(row))},
               {"parent_row", parent},
               {"resource", spans.resource(row)},
               {"scope", spans.scope(row)}};
        const auto [first, last] = spans.attributeRange(row);
        putAttributes(record, "attr_", spans, spans.attributeRows(), first, last);
        const qint32 resource = spans.resource(row);
        const bool hasResource = resource >= 0 && size_t(resource) < spans.resources().size();
        const SpanTable::AttributeRange resourceRange
            = hasResource ? spans.resources()[size_t(resource)] : SpanTable::AttributeRange{};
        putAttributes(record, "resource_", spans, spans.sharedAttributes(), resourceRange.begin, resourceRange.end);
        const qint32 scope = spans.scope(row);
        const bool hasScope = scope >= 0 && size_t(scope) < spans.scopes().size();
        const SpanTable::Scope scopeRow = hasScope ? spans.scopes()[size_t(scope)] : SpanTable::Scope{};
        record["scope_name"] = hasScope ? utf8(spans.strings().view(scopeRow.name)) : std::string();
        record["scope_version"] = hasScope ? utf8(spans.strings().view(scopeRow.version)) : std::string();
        putAttributes(record, "scope_", spans, spans.sharedAttributes(), scopeRow.attributes.begin,
                      scopeRow.attributes.end);
        record["detail"] = spanDetail(spans, references, row);
        appendLine(&rows, record);
    }
    return rows;
}

// Batches of this source already in `table`, with their row counts.
bool presentBatches(const ClickHouseClient &client, const QString &table, const QString &digest,
                    std::map<qint64, qint64> *present, QString *error)
{
    std::vector<QStringList> rows;
    if (!client.select(QStringLiteral("SELECT batch, count() FROM %1 WHERE source = %2 GROUP BY batch")
                           .arg(table, clickHouseString(digest)),
                       &rows, error, 2))
        return false;
    for (const auto &row : rows)
        (*present)[row[0].toLongLong()] = row[1].toLongLong();
    return true;
}

} // namespace

QString fileDigest(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return {};
    }
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&file)) {
        *error = QStringLiteral("%1: cannot read it to the end").arg(path);
        return {};
    }
    return QString::fromLatin1(hash.result().toHex());
}

PushResult push(const ClickHouseClient &client, const TraceStore &store, const QString &digest, int batchRows,
                const std::function<void(const PushProgress &)> &progress)
{
    PushResult result;
    result.requestRows = store.requests.rowCount();
    result.spanRows = store.spans.rowCount();
    const qint64 size = std::max(1, batchRows);
    const qint64 requestBatches = (result.requestRows + size - 1) / size;
    const qint64 spanBatches = (result.spanRows + size - 1) / size;
    result.batches = requestBatches + spanBatches;
    const auto &source = client.source();
    std::map<qint64, qint64> requestsPresent;
    std::map<qint64, qint64> spansPresent;
    if (!presentBatches(client, source.requestsTable(), digest, &requestsPresent, &result.error)
        || !presentBatches(client, source.spansTable(), digest, &spansPresent, &result.error))
        return result;

    // Version 3's span columns must be there (tables made by an older init lack them).
    std::unique_ptr<SpanReferences> references;
    if (result.spanRows > 0) {
        bool complete = false;
        if (!TracelaneSchema::hasSpanStoreColumns(client, &result.error, &complete))
            return result;
        if (!complete) {
            result.error = QStringLiteral("%1 was made by an older `clickhouse init` and cannot hold this file's "
                                          "spans whole: run `tracelane-cli clickhouse init` on it again (with the "
                                          "same --cluster) to add schema version %2's span columns, then push")
                               .arg(source.spansTable())
                               .arg(TracelaneSchema::kVersion);
            return result;
        }
        references = std::make_unique<SpanReferences>(store.spans);
    }

    PushProgress state;
    state.batchesTotal = result.batches;
    const auto send = [&](bool spans, qint64 batch, qint64 rows) {
        const auto &present = spans ? spansPresent : requestsPresent;
        const auto found = present.find(batch);
        if (found != present.end()) {
            if (found->second != rows) {
                result.error = QStringLiteral("%1 holds %2 of the %3 rows of batch %4 of this file: delete its rows "
                                              "(ALTER TABLE ... DELETE WHERE source = '%5') and push again")
                                   .arg(spans ? source.spansTable() : source.requestsTable())
                                   .arg(found->second)
                                   .arg(rows)
                                   .arg(batch)
                                   .arg(digest);
                return false;
            }
            ++result.skippedBatches;
            return true;
        }
        const qsizetype begin = qsizetype(batch * size);
        const qsizetype end = qsizetype(begin + rows);
        const QByteArray data = spans ? spanRows(store, *references, digest, batch, begin, end)
                                      : requestRows(store.requests, digest, batch, begin, end);
        // The requests' columns named: the server fills a class column
        // (schema version 2) from its DEFAULT, which a JSONEachRow key left
        // out would not get on 18.16 (the type's default, '', instead).
        const QString insert = spans
            ? QStringLiteral("INSERT INTO %1 FORMAT JSONEachRow").arg(source.spansTable())
            : QStringLiteral("INSERT INTO %1 (%2) FORMAT JSONEachRow")
                  .arg(source.requestsTable(), TracelaneSchema::requestColumns().join(QStringLiteral(", ")));
        if (!client.run(insert, nullptr, &result.error, data))
            return false;
        result.rowsSent += rows;
        state.rowsSent += rows;
        return true;
    };
    for (int table = 0; table < 2; ++table) {
        const bool spans = table == 1;
        const qint64 total = spans ? result.spanRows : result.requestRows;
        const qint64 batches = spans ? spanBatches : requestBatches;
        for (qint64 batch = 0; batch < batches; ++batch) {
            if (!send(spans, batch, std::min(size, total - batch * size)))
                return result;
            ++state.batchesDone;
            if (progress)
                progress(state);
        }
    }
    result.ok = true;
    return result;
}

} // namespace TracePush
