#include "AiperfLoader.h"

#include "RecordLines.h"
#include "TimeLimits.h"
#include "TokenCount.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

namespace {

using Json = nlohmann::json;

QString text(const std::string &value)
{
    return QString::fromStdString(value);
}

// A JSON integer that fits in qint64 (nlohmann keeps non-negative ones unsigned).
bool exactInteger(const Json &value, qint64 *out)
{
    if (value.is_number_unsigned()) {
        if (value.get<quint64>() > quint64(std::numeric_limits<qint64>::max()))
            return false;
        *out = qint64(value.get<quint64>());
        return true;
    }
    if (!value.is_number_integer())
        return false;
    *out = value.get<qint64>();
    return true;
}

// A {value, unit} metric as nanoseconds; false when absent, not a time or
// beyond 64-bit nanoseconds.
bool metricNs(const Json &metrics, const char *name, qint64 *ns)
{
    const auto it = metrics.find(name);
    if (it == metrics.end() || !it->is_object() || !it->contains("value") || !(*it)["value"].is_number())
        return false;
    const double value = (*it)["value"].get<double>();
    const auto unitIt = it->find("unit");
    const std::string unit = unitIt == it->end() ? std::string("ms")
        : unitIt->is_string()                    ? unitIt->get<std::string>()
                                                 : std::string();
    double scale = 0.0;
    if (unit == "ns")
        scale = 1.0;
    else if (unit == "us")
        scale = 1e3;
    else if (unit == "ms")
        scale = 1e6;
    else if (unit == "s" || unit == "sec")
        scale = 1e9;
    else
        return false;
    // Integer ns stay exact; the rest are rounded once.
    if (scale == 1.0 && exactInteger((*it)["value"], ns))
        return true;
    return RequestRows::toNs(value, scale, ns);
}

// A {value, unit} metric's value, when the record has one.
const Json *metricValue(const Json &metrics, const char *name)
{
    const auto it = metrics.find(name);
    if (it == metrics.end() || !it->is_object())
        return nullptr;
    const auto value = it->find("value");
    return value == it->end() ? nullptr : &*value;
}

qint64 metadataNs(const Json &metadata, const char *name)
{
    const auto it = metadata.find(name);
    qint64 ns = kNoTime;
    return it != metadata.end() && exactInteger(*it, &ns) ? ns : kNoTime;
}

QString textOf(const Json &value)
{
    return value.is_string() ? text(value.get<std::string>()) : value.is_null() ? QString() : text(value.dump());
}

// The member `key` of `object` when both exist, else null.
const Json &member(const Json &object, const char *key)
{
    static const Json null;
    if (!object.is_object())
        return null;
    const auto it = object.find(key);
    return it == object.end() ? null : *it;
}

void readRecord(const Json &record, qint64 lineNumber, RequestRowsBuilder &rows)
{
    if (!record.is_object()) {
        rows.reject(lineNumber, {}, {}, QStringLiteral("a record must be a JSON object"));
        return;
    }
    // References into the record, never copies: a copy of a DOM recurses.
    const Json &metadata = member(record, "metadata");
    const Json &metrics = member(record, "metrics");
    const Json &requestIdValue = member(metadata, "x_request_id");
    std::string id = requestIdValue.is_string() ? requestIdValue.get<std::string>()
        : requestIdValue.is_number_integer()    ? requestIdValue.dump()
                                                : std::string();
    if (id.empty())
        id = "line-" + std::to_string(lineNumber);
    const QString requestId = text(id);
    if (const Json &error = member(record, "error"); !error.is_null()) {
        qint64 sent = metadataNs(metadata, "request_start_ns");
        if (sent == kNoTime)
            sent = metadataNs(metadata, "timestamp_ns");
        rows.rejectFailure(
            lineNumber, requestId, QStringLiteral("error"),
            QStringLiteral("request failed: %1 %2: %3")
                .arg(textOf(member(error, "code")), textOf(member(error, "type")), textOf(member(error, "message"))),
            sent);
        return;
    }
    qint64 send = kNoTime;
    if (!metricNs(metrics, "min_request_timestamp", &send)) {
        send = metadataNs(metadata, "request_start_ns");
        if (send == kNoTime)
            send = metadataNs(metadata, "timestamp_ns");
    }
    qint64 ttft = 0;
    const bool hasTtft = metricNs(metrics, "ttft", &ttft) || metricNs(metrics, "time_to_first_token", &ttft);
    qint64 end = kNoTime;
    bool fits = true; // every sum of times below stays within 64-bit ns
    if (!metricNs(metrics, "max_response_timestamp", &end)) {
        end = metadataNs(metadata, "request_end_ns");
        qint64 latency = 0;
        if (end == kNoTime && send != kNoTime && metricNs(metrics, "request_latency", &latency))
            fits = !__builtin_add_overflow(send, latency, &end);
    }
    qint64 firstToken = 0;
    qint64 duration = 0;
    if (send != kNoTime && hasTtft && end != kNoTime) {
        fits
            = fits && !__builtin_add_overflow(send, ttft, &firstToken) && !__builtin_sub_overflow(end, send, &duration);
    }
    if (!fits) {
        rows.reject(lineNumber, requestId, QStringLiteral("request_latency"),
                    QStringLiteral("the request's times do not fit in 64-bit nanoseconds"));
        return;
    }
    if (send == kNoTime) {
        rows.reject(lineNumber, requestId, QStringLiteral("timestamp_ns"), QStringLiteral("no request start time"));
        return;
    }
    if (!hasTtft || end == kNoTime) {
        rows.reject(lineNumber, requestId, hasTtft ? QStringLiteral("request_latency") : QStringLiteral("ttft"),
                    QStringLiteral("no %1; a streamed request needs its first-token and end times")
                        .arg(hasTtft ? QStringLiteral("end time") : QStringLiteral("time to first token")));
        return;
    }
    if (ttft < 0 || end < firstToken) {
        rows.reject(lineNumber, requestId, QStringLiteral("request_latency"),
                    QStringLiteral("timestamps are not monotonic: the request ends before its first token"));
        return;
    }
    if (duration > TimeLimits::kMaxDurationNs) {
        rows.reject(lineNumber, requestId, QStringLiteral("request_latency"),
                    TimeLimits::tooLong(QStringLiteral("the request"), duration));
        return;
    }
    RequestTable::Row row;
    row.id = id;
    // AIPerf's early schema names the output count output_token_count.
    const char *outputKey
        = metricValue(metrics, "output_sequence_length") ? "output_sequence_length" : "output_token_count";
    for (const auto &[key, count] :
         {std::pair{"input_sequence_length", &row.promptTokens}, std::pair{outputKey, &row.outputTokens}}) {
        // An absent count stays 0, "not reported" (RequestTable's rule); a
        // present one must be a valid count.
        const Json *value = metricValue(metrics, key);
        QString reason;
        if (value && !TokenCount::fromJson(*value, 1, count, &reason)) {
            rows.reject(lineNumber, requestId, QString::fromLatin1(key), reason);
            return;
        }
    }
    row.stamps.fill(kNoTime);
    row.stamps[size_t(Stamp::ClientSend)] = send;
    row.stamps[size_t(Stamp::FirstTokenClient)] = firstToken;
    row.stamps[size_t(Stamp::LastTokenClient)] = end;
    row.sourceLine = lineNumber;

    std::vector<qint64> tokens;
    const Json *gaps = metricValue(metrics, "inter_chunk_latency");
    if (gaps && gaps->is_array()) {
        const Json &unitValue = member(member(metrics, "inter_chunk_latency"), "unit");
        const std::string unit = unitValue.is_string() ? unitValue.get<std::string>() : std::string("ms");
        const double scale = unit == "ns" ? 1.0 : unit == "us" ? 1e3 : unit == "s" ? 1e9 : 1e6;
        qint64 at = firstToken;
        tokens.push_back(at);
        for (const auto &gap : *gaps) {
            qint64 ns = 0;
            if (gap.is_number() && gap.get<double>() < 0.0) {
                // A chunk before the one it follows is a broken clock, not a fast token.
                rows.reject(lineNumber, requestId, QStringLiteral("inter_chunk_latency"),
                            QStringLiteral("element %1 is %2, not a non-negative time: chunk times must not go "
                                           "backwards")
                                .arg(tokens.size() - 1)
                                .arg(QString::fromStdString(gap.dump())));
                return;
            }
            if (!gap.is_number() || !RequestRows::toNs(gap.get<double>(), scale, &ns) || ns < 0
                || __builtin_add_overflow(at, ns, &at))
                break; // the chunk times stop where they stop making sense
            tokens.push_back(at);
        }
    }

    std::vector<RequestRowsBuilder::Attribute> attributes;
    for (const char *key : {"worker_id", "credit_phase", "benchmark_phase"}) {
        if (const Json &value = member(metadata, key); value.is_string())
            attributes.push_back({QString::fromLatin1(key), text(value.get<std::string>()), 0.0});
    }
    if (const Json &turn = member(metadata, "turn_index"); turn.is_number())
        attributes.push_back({QStringLiteral("turn_index"), {}, turn.get<double>()});
    qint32 reasoning = 0;
    QString ignored;
    if (const Json *value = metricValue(metrics, "reasoning_token_count");
        value && TokenCount::fromJson(*value, 0, &reasoning, &ignored))
        attributes.push_back({QStringLiteral("reasoning_tokens"), {}, double(reasoning)});
    // AIPerf counts a closing chunk (finish reason, usage) that carries no
    // token: one chunk more than output tokens is that one, left out.
    const qint64 output = row.outputTokens;
    if (output > 0 && qint64(tokens.size()) == output + 1)
        tokens.pop_back();
    if (output > 0 && qint64(tokens.size()) > output) {
        rows.notice(lineNumber,
                    QStringLiteral("request %1: field 'inter_chunk_latency' has %2 chunks for %3 output "
                                   "tokens (a chunk carries at least one); its chunk times are not used")
                        .arg(requestId)
                        .arg(tokens.size())
                        .arg(output));
        tokens.clear();
    }
    rows.add(row, attributes, tokens);
}

} // namespace

namespace AiperfLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control)
{
    return loadRecordLines(path, TraceFormat::AiperfJsonl, QStringLiteral("aiperf-jsonl"), options, control,
                           [](const LineView &line, RequestRowsBuilder &rows) {
                               Json record;
                               if (!rows.parseRecord(line.text, line.number, {}, &record))
                                   return;
                               try {
                                   readRecord(record, line.number, rows);
                               } catch (const Json::exception &error) {
                                   rows.rejectUnreadable(line.number, {}, error);
                               }
                           });
}

} // namespace AiperfLoader
