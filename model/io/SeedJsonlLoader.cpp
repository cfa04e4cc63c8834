#include "SeedJsonlLoader.h"

#include "IdRepeatCheck.h"
#include "JsonArrayElements.h"
#include "LineStream.h"
#include "LoadControl.h"
#include "MixedFormats.h"
#include "SeedRecord.h"
#include "store/ColumnMemory.h"
#include "store/IdIndex.h"
#include "store/Utf8.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <array>
#include <string>
#include <thread>
#include <unordered_map>

using Utf8::fromStd;

namespace {

QString megabytes(qint64 bytes)
{
    return QString::number(double(bytes) / (1024.0 * 1024.0), 'f', 1) + QStringLiteral(" MiB");
}

struct StringHash
{
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

// What one worker produced from its byte range. Line numbers are local to
// the range until the merge adds the lines of the ranges before it.
struct ChunkOutput
{
    RequestTable table;
    TokenTimeline serverTokens; // rows of `table`, when any record had per-token times
    TokenTimeline clientTokens;
    std::vector<RejectedRecord> rejected;
    std::vector<LoadNotice> notices;
    qint64 lines = 0;
    bool crlf = false;
    bool failed = false; // strict mode stopped here, or a read error
    QString readError;
    MixedFormats mixed{TraceFormat::SeedJsonl};
    IdRepeatCheck::Hashes idHashes; // by part: IdRepeatCheck::hashIds
};

// Turns parsed records into columns, interning attribute values through a
// per-column cache so repeated values cost one hash lookup, not an allocation.
class ChunkBuilder
{
public:
    explicit ChunkBuilder(ChunkOutput &out)
        : m_out(out)
    { }

    void append(const SeedRecord &record, qint64 line)
    {
        RequestTable::Row row;
        row.id = record.requestId;
        row.promptTokens = qint32(record.tokens[0]);
        row.outputTokens = qint32(record.tokens[1]);
        row.stamps = record.stamps;
        row.sourceLine = line;
        auto &table = m_out.table;
        table.appendRow(row);
        for (int i = 0; i < record.attributeCount; ++i)
            appendAttribute(record.attributes[size_t(i)]);
        table.finishRow();
        appendTokenTimes(record, line);
        for (const auto &field : record.nonScalarFields) {
            if (m_ignoredFields.emplace(field, line).second) {
                m_out.notices.push_back({{},
                                         line,
                                         QStringLiteral("field '%1' is not a scalar and is not used as a class "
                                                        "attribute (first seen here)")
                                             .arg(fromStd(field))});
            }
        }
    }

private:
    // Per-token times (contract v2); rows before the first record that had
    // any stay empty, added only when a timeline is started.
    void appendTokenTimes(const SeedRecord &record, qint64 line)
    {
        const auto &times = record.tokenTimes;
        if (!times.droppedReason.isEmpty()) {
            m_out.notices.push_back({{},
                                     line,
                                     QStringLiteral("request %1: field '%2' %3")
                                         .arg(fromStd(record.requestId), times.droppedField, times.droppedReason)});
        }
        const qsizetype rows = m_out.table.rowCount();
        if (!times.server.empty()) {
            m_out.serverTokens.padTo(rows - 1);
            m_out.serverTokens.appendRow(std::span<const qint64>(times.server));
        }
        if (!times.client.empty()) {
            m_out.clientTokens.padTo(rows - 1);
            if (times.clientCounts.size() == times.client.size()) {
                m_events.clear();
                for (size_t i = 0; i < times.client.size(); ++i)
                    m_events.push_back({times.client[i], qint32(times.clientCounts[i]), i == 0});
                m_out.clientTokens.appendRow(std::span<const TokenTimeline::Event>(m_events));
            } else {
                m_out.clientTokens.appendRow(std::span<const qint64>(times.client));
            }
        }
    }

    struct ColumnCache
    {
        qsizetype column = -1;
        std::unordered_map<std::string, quint32, StringHash, std::equal_to<>> codes;
    };

    ColumnCache &cacheFor(const std::string &key, AttributeColumn::Kind kind)
    {
        for (auto &[name, cache] : m_columns) {
            if (name == key)
                return cache;
        }
        auto &table = m_out.table;
        table.attributeColumn(fromStd(key), kind);
        m_columns.emplace_back(key, ColumnCache{table.attributeIndex(fromStd(key)), {}});
        return m_columns.back().second;
    }

    void appendAttribute(const SeedRecord::Attribute &attribute)
    {
        using Type = SeedRecord::Attribute::Type;
        if (attribute.type == Type::Null)
            return;
        const auto kind
            = attribute.type == Type::Number ? AttributeColumn::Kind::Numeric : AttributeColumn::Kind::Categorical;
        auto &cache = cacheFor(attribute.key, kind);
        auto &column = m_out.table.mutableAttributes()[size_t(cache.column)];
        if (column.rowCount() >= m_out.table.rowCount())
            return; // the key appeared twice in one record: the first wins
        column.padTo(m_out.table.rowCount() - 1);
        if (attribute.type == Type::Number) {
            if (column.isNumeric()) {
                column.appendNumber(attribute.number);
                return;
            }
            column.appendText(QString::number(attribute.number, 'g', 15));
            return;
        }
        const std::string_view text
            = attribute.type == Type::Bool ? (attribute.boolean ? "true" : "false") : std::string_view(attribute.text);
        if (column.isNumeric()) {
            column.convertToCategorical();
            cache.codes.clear();
        }
        auto it = cache.codes.find(text);
        if (it == cache.codes.end())
            it = cache.codes.emplace(std::string(text), column.internValue(fromStd(text))).first;
        column.appendCode(it->second);
    }

    ChunkOutput &m_out;
    std::vector<TokenTimeline::Event> m_events;
    std::vector<std::pair<std::string, ColumnCache>> m_columns;
    std::unordered_map<std::string, qint64> m_ignoredFields;
};

void parseRange(const QString &path, qint64 fileBytes, ByteRange range, bool firstRange, bool lastRange,
                const LoadOptions &options, LoadControl *control, ChunkOutput &out)
{
    ChunkBuilder builder(out);
    SeedRecord record;
    record.projection = options.attributes.all ? nullptr : &options.attributes;
    qint64 sampledBytes = 0;
    const auto visit = [&](const LineView &line) {
        // After a sample of lines, the columns are reserved for the rows the
        // range will hold (a fifth more): no regrowth copies, and reserved
        // pages never written cost no memory. The first range reserves for
        // the whole file: the store adopts its table and appends the others.
        constexpr qint64 kSampleLines = 512;
        if (line.number <= kSampleLines) {
            sampledBytes += qint64(line.text.size()) + 1;
            if (line.number == kSampleLines && out.table.rowCount() > 0) {
                const qint64 bytes = firstRange ? fileBytes : range.end - range.begin;
                const qint64 rows = bytes / qMax<qint64>(1, sampledBytes / kSampleLines) * 6 / 5;
                const auto idBytes = qint64(out.table.idBytes()) / out.table.rowCount() * rows * 6 / 5;
                out.table.reserve(rows, idBytes);
                for (auto &column : out.table.mutableAttributes())
                    column.reserve(rows);
            }
        }
        out.lines = line.number;
        out.crlf = out.crlf || line.crlf;
        std::string_view text = line.text;
        if (firstRange && line.number == 1 && text.starts_with("\xEF\xBB\xBF")) {
            text.remove_prefix(3);
            out.notices.push_back({{}, 1, QStringLiteral("the file starts with a UTF-8 byte-order mark; ignored")});
        }
        if (line.oversizeBytes > 0) {
            out.rejected.push_back({{},
                                    line.number,
                                    {},
                                    {},
                                    QStringLiteral("record is %1 long, over the %2 limit for one record")
                                        .arg(megabytes(line.oversizeBytes), megabytes(options.maxRecordBytes))});
            out.failed = options.strict;
            return !options.strict;
        }
        if (text.find_first_not_of(" \t") == std::string_view::npos)
            return true; // blank lines separate nothing and cost nothing
        if (parseSeedRecord(text, record)) {
            builder.append(record, line.number);
            return true;
        }
        RejectedRecord rejected{{}, line.number, fromStd(record.requestId), record.errorField, record.errorReason};
        if (lastRange && !line.terminated && record.errorReason.contains(QLatin1String("truncated"))) {
            rejected.reason = QStringLiteral("the file ends in the middle of this record (truncated last line)");
        } else if (const QString foreign = out.mixed.foreignReason(text); !foreign.isEmpty()) {
            rejected.field.clear();
            rejected.reason = foreign;
        }
        out.rejected.push_back(std::move(rejected));
        out.failed = options.strict;
        return !options.strict;
    };
    QString error;
    // A worker thread must not let an exception escape (that ends the
    // process): running out of memory becomes this range's read error.
    try {
        if (!streamLines(path, range, options.maxRecordBytes, control, visit, &error)) {
            out.failed = true;
            out.readError = error;
        }
    } catch (const std::bad_alloc &) {
        out.failed = true;
        out.readError = QStringLiteral("out of memory");
    }
}

// Appends the rows of `chunk` to `into`, remapping attribute codes and
// rejecting request ids already seen.
class ChunkMerger
{
public:
    ChunkMerger(TraceStore &store, const QString &file, qsizetype rows)
        : m_store(store)
        , m_file(file)
    {
        m_seen.reserve(rows);
    }

    void merge(ChunkOutput &chunk, qint64 lineBase)
    {
        auto &into = m_store.requests;
        const auto &from = chunk.table;
        // Global column for each chunk column, and code remaps for categorical ones.
        std::vector<qsizetype> target(from.attributes().size());
        std::vector<std::vector<quint32>> remap(from.attributes().size());
        for (size_t c = 0; c < from.attributes().size(); ++c) {
            const auto &column = from.attributes()[c];
            auto &global = into.attributeColumn(column.name(), column.kind());
            global.padTo(into.rowCount());
            target[c] = into.attributeIndex(column.name());
            if (!column.isNumeric()) {
                global.convertToCategorical();
                remap[c].resize(size_t(column.valueCount()));
                for (qsizetype v = 0; v < column.valueCount(); ++v)
                    remap[c][size_t(v)] = global.internValue(column.values()[v]);
            }
        }
        const qsizetype base = into.rowCount();
        std::vector<qsizetype> kept; // chunk rows merged, in order
        kept.reserve(size_t(from.rowCount()));
        for (qsizetype row = 0; row < from.rowCount(); ++row) {
            const auto id = from.id(row);
            const qint64 line = from.sourceLine(row) + lineBase;
            // The merged arena was reserved to its final size, so ids already
            // merged stay where they are while chunks are released one by one.
            const auto &merged = into;
            const qint64 earlier
                = m_seen.findOrInsert(id, quint32(into.rowCount()), [&merged](quint32 r) { return merged.id(r); });
            if (earlier != IdIndex::kNotFound) {
                m_store.rejected.push_back(
                    {m_file, line, fromStd(id), QStringLiteral("request_id"),
                     QStringLiteral("duplicate request_id; first seen on line %1").arg(into.sourceLine(earlier))});
                continue;
            }
            RequestTable::Row out;
            out.id = id;
            out.promptTokens = from.promptTokens(row);
            out.outputTokens = from.outputTokens(row);
            for (int s = 0; s < kStampCount; ++s)
                out.stamps[size_t(s)] = from.stamp(row, static_cast<Stamp>(s));
            out.sourceLine = line;
            into.appendRow(out);
            kept.push_back(row);
            auto &globals = into.mutableAttributes();
            for (size_t c = 0; c < target.size(); ++c) {
                const auto &column = from.attributes()[c];
                auto &global = globals[size_t(target[c])];
                global.padTo(into.rowCount() - 1);
                if (column.isNumeric())
                    global.appendNumber(column.number(row));
                else
                    global.appendCode(remap[c][column.code(row)]);
            }
            into.finishRow();
        }
        mergeTokens(m_serverTokens, chunk.serverTokens, base, &kept, from.rowCount());
        mergeTokens(m_clientTokens, chunk.clientTokens, base, &kept, from.rowCount());
        mergeMessages(chunk, lineBase);
    }

    // The chunk's rejected records and notices, on the lines of the whole file.
    void mergeMessages(ChunkOutput &chunk, qint64 lineBase)
    {
        for (auto rejected : chunk.rejected) {
            rejected.file = m_file;
            rejected.line += lineBase;
            m_store.rejected.push_back(std::move(rejected));
        }
        for (auto notice : chunk.notices) {
            notice.file = m_file;
            notice.line += lineBase;
            m_store.notices.push_back(std::move(notice));
        }
    }

    // The per-token rows of a chunk appended column by column at merged row
    // `base`: all of its `rows` rows stayed.
    void appendWholeTokens(ChunkOutput &chunk, qsizetype base, qsizetype rows)
    {
        mergeTokens(m_serverTokens, chunk.serverTokens, base, nullptr, rows);
        mergeTokens(m_clientTokens, chunk.clientTokens, base, nullptr, rows);
    }

    // The chunk's per-token rows for its merged rows `kept` (all of its
    // `chunkRows` rows when null), which start at merged row `base`: in one
    // piece when every row stayed.
    static void mergeTokens(TokenTimeline &merged, TokenTimeline &chunk, qsizetype base,
                            const std::vector<qsizetype> *kept, qsizetype chunkRows)
    {
        if (chunk.isEmpty() && merged.isEmpty())
            return;
        merged.padTo(base);
        if (!kept || qsizetype(kept->size()) == chunkRows) {
            merged.appendAllFrom(std::move(chunk));
        } else {
            for (const qsizetype row : *kept)
                merged.appendRowFrom(chunk, row);
        }
        merged.padTo(base + (kept ? qsizetype(kept->size()) : chunkRows));
    }

    // Hands the merged per-token times to the store, if any record had them.
    void finish()
    {
        if (m_serverTokens.isEmpty() && m_clientTokens.isEmpty())
            return;
        const qsizetype rows = m_store.requests.rowCount();
        m_serverTokens.padTo(rows);
        m_clientTokens.padTo(rows);
        m_serverTokens.squeeze();
        m_clientTokens.squeeze();
        m_store.requests.setTokenTimelines(std::move(m_serverTokens), std::move(m_clientTokens));
    }

private:
    TraceStore &m_store;
    QString m_file;
    IdIndex m_seen;
    TokenTimeline m_serverTokens;
    TokenTimeline m_clientTokens;
};

} // namespace

namespace SeedJsonlLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control)
{
    LoadResult result;
    const QFileInfo info(path);
    const QString fileName = info.fileName();
    result.bytes = info.size();
    if (control)
        control->setTotalBytes(result.bytes);
    if (!info.exists()) {
        result.fatalError = QStringLiteral("%1: no such file").arg(path);
        return result;
    }
    if (result.bytes == 0) {
        result.fatalError
            = QStringLiteral("%1: the file is empty; expected one JSON request record per line").arg(path);
        return result;
    }
    const int hardware = int(std::thread::hardware_concurrency());
    int threads = options.threads > 0 ? options.threads : qMax(1, hardware);
    threads = int(qMin<qint64>(threads, qMax<qint64>(1, result.bytes / (qint64{1024} * 1024))));
    const auto ranges = splitFileIntoLineRanges(path, result.bytes, threads);

    std::vector<ChunkOutput> outputs(ranges.size());
    {
        const auto parseAndHash = [&](size_t i) {
            parseRange(path, result.bytes, ranges[i], i == 0, i + 1 == ranges.size(), options, control, outputs[i]);
            // A cancelled or unreadable load ends below: no ids to check.
            if (!(control && control->isCancelled()) && outputs[i].readError.isEmpty())
                outputs[i].idHashes = IdRepeatCheck::hashIds(outputs[i].table, ranges.size());
        };
        std::vector<std::thread> workers;
        for (size_t i = 1; i < ranges.size(); ++i)
            workers.emplace_back(parseAndHash, i);
        parseAndHash(0);
        for (auto &worker : workers)
            worker.join();
    }
    if (control && control->isCancelled()) {
        result.cancelled = true;
        return result;
    }
    for (const auto &output : outputs) {
        if (!output.readError.isEmpty()) {
            result.fatalError = QStringLiteral("%1: cannot read: %2").arg(path, output.readError);
            return result;
        }
    }

    auto &store = *result.store;
    store.sourceFiles << path;
    store.format = QStringLiteral("seed-jsonl");
    qsizetype rows = 0;
    qsizetype idBytes = 0;
    for (const auto &output : outputs) {
        rows += output.table.rowCount();
        idBytes += qsizetype(output.table.idBytes());
    }
    // Without repeated ids (the common case) the store adopts the first
    // chunk's table, whose columns were reserved for the whole file, and the
    // others are appended to it column by column, their per-token times
    // whole: the first chunk is never copied, and the peak is the store plus
    // one chunk's column. Otherwise the chunks are merged row by row, which
    // rejects each repeat with the line it was first seen on.
    std::vector<IdRepeatCheck::Hashes> hashes;
    hashes.reserve(outputs.size());
    for (auto &output : outputs)
        hashes.push_back(std::move(output.idHashes));
    const bool rowByRow = IdRepeatCheck::mayRepeat(std::move(hashes));
    if (rowByRow)
        store.requests.reserve(rows, idBytes);
    ChunkMerger merger(store, fileName, rowByRow ? rows : 0);
    qint64 lineBase = 0;
    bool crlf = false;
    MixedFormats mixed(TraceFormat::SeedJsonl);
    for (auto &output : outputs) {
        if (rowByRow) {
            merger.merge(output, lineBase);
        } else {
            const qsizetype base = store.requests.rowCount();
            const qsizetype chunkRows = output.table.rowCount();
            if (&output == &outputs.front())
                store.requests = std::move(output.table); // its lines need no offset
            else
                store.requests.appendTable(std::move(output.table), lineBase);
            merger.appendWholeTokens(output, base, chunkRows);
            merger.mergeMessages(output, lineBase);
        }
        lineBase += output.lines;
        crlf = crlf || output.crlf;
        mixed.merge(output.mixed);
        output.table = RequestTable(); // release the chunk's memory early
        output.serverTokens = TokenTimeline();
        output.clientTokens = TokenTimeline();
    }
    merger.finish();
    store.requests.squeeze();
    if (mixed.any())
        store.notices.push_back({fileName, 0, mixed.summary()});
    if (crlf)
        store.notices.push_back({fileName, 0, QStringLiteral("the file uses CRLF line ends; accepted")});
    if (options.strict && !store.rejected.empty()) {
        const auto first = std::min_element(store.rejected.begin(), store.rejected.end(),
                                            [](const auto &a, const auto &b) { return a.line < b.line; });
        result.fatalError = QStringLiteral("strict mode: %1").arg(first->toString());
        return result;
    }
    if (store.requests.isEmpty() && store.rejected.empty()) {
        result.fatalError = QStringLiteral("%1: no records; the file holds only blank lines").arg(path);
        return result;
    }
    return result;
}

LoadResult loadArray(const QString &path, const LoadOptions &options, LoadControl *control)
{
    LoadResult result;
    const QFileInfo info(path);
    const QString fileName = info.fileName();
    result.bytes = info.size();
    if (control)
        control->setTotalBytes(result.bytes);
    // One chunk: the array is walked element by element and judged exactly
    // like JSON Lines records (the same parser and builder), lines being
    // where each element starts.
    ChunkOutput chunk;
    ChunkBuilder builder(chunk);
    SeedRecord record;
    record.projection = options.attributes.all ? nullptr : &options.attributes;
    const auto visit = [&](std::string_view element, qint64 line, qint64) {
        if (qint64(element.size()) > options.maxRecordBytes) {
            chunk.rejected.push_back({{},
                                      line,
                                      {},
                                      {},
                                      QStringLiteral("record is %1 long, over the %2 limit for one record")
                                          .arg(megabytes(qint64(element.size())), megabytes(options.maxRecordBytes))});
            return !options.strict;
        }
        if (parseSeedRecord(element, record)) {
            builder.append(record, line);
            return true;
        }
        const QString foreign = chunk.mixed.foreignReason(element);
        chunk.rejected.push_back({{},
                                  line,
                                  fromStd(record.requestId),
                                  foreign.isEmpty() ? record.errorField : QString(),
                                  foreign.isEmpty() ? record.errorReason : foreign});
        return !options.strict;
    };
    QString error;
    qint64 trailingLine = 0;
    if (!forEachJsonArrayElement(path, control, visit, &error, &trailingLine)) {
        result.fatalError = QStringLiteral("%1: %2").arg(path, error);
        return result;
    }
    if (control && control->isCancelled()) {
        result.cancelled = true;
        return result;
    }
    if (trailingLine > 0) {
        chunk.rejected.push_back({{},
                                  trailingLine,
                                  {},
                                  {},
                                  QStringLiteral("trailing data after the end of the JSON array (two documents in "
                                                 "one file?); the records before it were read, the rest was not")});
    }
    auto &store = *result.store;
    store.sourceFiles << path;
    store.format = QStringLiteral("seed-json-array");
    store.requests.reserve(chunk.table.rowCount(), qsizetype(chunk.table.idBytes()));
    ChunkMerger merger(store, fileName, chunk.table.rowCount());
    merger.merge(chunk, 0);
    merger.finish();
    store.requests.squeeze();
    if (chunk.mixed.any())
        store.notices.push_back({fileName, 0, chunk.mixed.summary()});
    store.notices.insert(store.notices.begin(),
                         {fileName, 0,
                          QStringLiteral("the records are one JSON array rather than one record per "
                                         "line; each is read as a seed JSONL record")});
    if (options.strict && !store.rejected.empty()) {
        result.fatalError = QStringLiteral("strict mode: %1").arg(store.rejected.front().toString());
        return result;
    }
    if (store.requests.isEmpty() && store.rejected.empty())
        result.fatalError = QStringLiteral("%1: no records; the array is empty").arg(path);
    return result;
}

} // namespace SeedJsonlLoader
