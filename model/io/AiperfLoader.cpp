#include "AiperfLoader.h"

#include "RecordLines.h"


#include <nlohmann/json.hpp>

#include <cmath>

namespace {

using Json = nlohmann::json;

QString text(const std::string &value) { return QString::fromStdString(value); }

// A {value, unit} metric as nanoseconds; false when absent or not a time.
bool metricNs(const Json &metrics, const char *name, qint64 *ns)
{
    const auto it = metrics.find(name);
    if (it == metrics.end() || !it->is_object() || !it->contains("value") || !(*it)["value"].is_number())
        return false;
    const double value = (*it)["value"].get<double>();
    const std::string unit = it->value("unit", std::string("ms"));
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
    if (!std::isfinite(value))
        return false;
    // Integer ns stay exact; the rest are rounded once.
    *ns = (*it)["value"].is_number_integer() && scale == 1.0 ? (*it)["value"].get<qint64>()
                                                             : std::llround(value * scale);
    return true;
}

bool metricCount(const Json &metrics, const char *name, qint64 *count)
{
    const auto it = metrics.find(name);
    if (it == metrics.end() || !it->is_object() || !(*it)["value"].is_number())
        return false;
    *count = std::llround((*it)["value"].get<double>());
    return true;
}

qint64 metadataNs(const Json &metadata, const char *name)
{
    const auto it = metadata.find(name);
    return it != metadata.end() && it->is_number_integer() ? it->get<qint64>() : kNoTime;
}

void readLine(std::string_view line, qint64 lineNumber, RequestRowsBuilder &rows)
{
    Json record;
    try {
        record = Json::parse(line.begin(), line.end());
    } catch (const Json::parse_error &error) {
        rows.reject(lineNumber, {}, {}, RequestRows::invalidJson(error));
        return;
    }
    if (!record.is_object()) {
        rows.reject(lineNumber, {}, {}, QStringLiteral("a record must be a JSON object"));
        return;
    }
    const Json metadata = record.value("metadata", Json::object());
    const Json metrics = record.value("metrics", Json::object());
    std::string id = metadata.value("x_request_id", std::string());
    if (id.empty())
        id = "line-" + std::to_string(lineNumber);
    const QString requestId = text(id);
    if (record.contains("error") && !record["error"].is_null()) {
        const Json &error = record["error"];
        rows.reject(lineNumber, requestId, QStringLiteral("error"),
                    QStringLiteral("request failed: %1 %2: %3")
                        .arg(error.value("code", 0))
                        .arg(text(error.value("type", std::string())), text(error.value("message", std::string()))));
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
    if (!metricNs(metrics, "max_response_timestamp", &end)) {
        end = metadataNs(metadata, "request_end_ns");
        qint64 latency = 0;
        if (end == kNoTime && send != kNoTime && metricNs(metrics, "request_latency", &latency))
            end = send + latency;
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
    if (ttft < 0 || end < send + ttft) {
        rows.reject(lineNumber, requestId, QStringLiteral("request_latency"),
                    QStringLiteral("timestamps are not monotonic: the request ends before its first token"));
        return;
    }
    qint64 input = 0;
    qint64 output = 0;
    metricCount(metrics, "input_sequence_length", &input);
    if (!metricCount(metrics, "output_sequence_length", &output))
        metricCount(metrics, "output_token_count", &output);

    RequestTable::Row row;
    row.id = id;
    row.promptTokens = qint32(input);
    row.outputTokens = qint32(output);
    row.stamps.fill(kNoTime);
    row.stamps[size_t(Stamp::ClientSend)] = send;
    row.stamps[size_t(Stamp::FirstTokenClient)] = send + ttft;
    row.stamps[size_t(Stamp::LastTokenClient)] = end;
    row.sourceLine = lineNumber;

    std::vector<qint64> tokens;
    const auto chunks = metrics.find("inter_chunk_latency");
    if (chunks != metrics.end() && chunks->is_object() && (*chunks)["value"].is_array()) {
        const std::string unit = chunks->value("unit", std::string("ms"));
        const double scale = unit == "ns" ? 1.0 : unit == "us" ? 1e3 : unit == "s" ? 1e9 : 1e6;
        qint64 at = send + ttft;
        tokens.push_back(at);
        for (const auto &gap : (*chunks)["value"]) {
            if (!gap.is_number())
                break;
            at += std::llround(gap.get<double>() * scale);
            tokens.push_back(at);
        }
    }

    std::vector<RequestRowsBuilder::Attribute> attributes;
    for (const char *key : {"worker_id", "credit_phase", "benchmark_phase"}) {
        if (metadata.contains(key) && metadata[key].is_string())
            attributes.push_back({QString::fromLatin1(key), text(metadata[key].get<std::string>()), 0.0});
    }
    if (metadata.contains("turn_index") && metadata["turn_index"].is_number())
        attributes.push_back({QStringLiteral("turn_index"), {}, metadata["turn_index"].get<double>()});
    qint64 reasoning = 0;
    if (metricCount(metrics, "reasoning_token_count", &reasoning))
        attributes.push_back({QStringLiteral("reasoning_tokens"), {}, double(reasoning)});
    rows.add(row, attributes, tokens);
}

} // namespace

namespace AiperfLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control)
{
    return loadRecordLines(path, QStringLiteral("aiperf-jsonl"), options, control,
                           [](const LineView &line, RequestRowsBuilder &rows) {
        readLine(line.text, line.number, rows);
    });
}

} // namespace AiperfLoader
