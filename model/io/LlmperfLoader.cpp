#include "LlmperfLoader.h"

#include "JsonArrayElements.h"
#include "LoadControl.h"
#include "RequestRowsBuilder.h"

#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <cmath>

namespace {

using Json = nlohmann::json;

bool secondsField(const Json &record, const char *name, double *seconds)
{
    const auto it = record.find(name);
    if (it == record.end() || !it->is_number())
        return false;
    *seconds = it->get<double>();
    return std::isfinite(*seconds);
}

} // namespace

namespace LlmperfLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control)
{
    LoadResult result;
    const QFileInfo info(path);
    result.bytes = info.size();
    if (control)
        control->setTotalBytes(result.bytes);
    auto &store = *result.store;
    store.sourceFiles << path;
    store.format = QStringLiteral("llmperf-json");
    RequestRowsBuilder rows(store, info.fileName());
    const auto visit = [&](std::string_view element, qint64 line, qint64 index) {
        const auto rejectedBefore = store.rejected.size();
        const std::string id = "llmperf-" + std::to_string(index + 1);
        const QString requestId = QString::fromStdString(id);
        Json record;
        try {
            record = Json::parse(element.begin(), element.end());
        } catch (const Json::parse_error &error) {
            rows.reject(line, requestId, {}, RequestRows::invalidJson(error));
            return !options.strict;
        }
        if (!record.is_object()) {
            rows.reject(line, requestId, {}, QStringLiteral("a record must be a JSON object"));
            return !options.strict;
        }
        if (record.contains("error_code") && !record["error_code"].is_null()) {
            rows.reject(line, requestId, QStringLiteral("error_code"),
                        QStringLiteral("request failed (error_code %1): %2")
                            .arg(QString::fromStdString(record["error_code"].dump()),
                                 QString::fromStdString(record.value("error_msg", std::string()))));
            return !options.strict;
        }
        double ttft = 0.0;
        double e2e = 0.0;
        if (!secondsField(record, "ttft_s", &ttft) || !secondsField(record, "end_to_end_latency_s", &e2e)) {
            rows.reject(line, requestId, QStringLiteral("ttft_s"),
                        QStringLiteral("missing or non-numeric ttft_s / end_to_end_latency_s"));
            return !options.strict;
        }
        if (ttft < 0.0 || e2e < ttft) {
            rows.reject(line, requestId, QStringLiteral("end_to_end_latency_s"),
                        QStringLiteral("timestamps are not monotonic: end-to-end latency %1 s is shorter than "
                                       "TTFT %2 s")
                            .arg(e2e)
                            .arg(ttft));
            return !options.strict;
        }
        RequestTable::Row row;
        row.id = id;
        row.promptTokens = qint32(record.value("number_input_tokens", 0));
        row.outputTokens = qint32(record.value("number_output_tokens", 0));
        row.stamps.fill(kNoTime);
        row.stamps[size_t(Stamp::ClientSend)] = 0;
        row.stamps[size_t(Stamp::FirstTokenClient)] = RequestRows::secondsToNs(ttft);
        row.stamps[size_t(Stamp::LastTokenClient)] = RequestRows::secondsToNs(e2e);
        row.sourceLine = line;
        std::vector<RequestRowsBuilder::Attribute> attributes;
        double reportedItl = 0.0;
        if (secondsField(record, "inter_token_latency_s", &reportedItl))
            attributes.push_back({QStringLiteral("llmperf_itl_ms"), {}, reportedItl * 1000.0});
        rows.add(row, attributes);
        return !(options.strict && store.rejected.size() > rejectedBefore);
    };
    QString error;
    if (!forEachJsonArrayElement(path, control, visit, &error)) {
        result.fatalError = QStringLiteral("%1: %2").arg(path, error);
        return result;
    }
    if (control && control->isCancelled()) {
        result.cancelled = true;
        return result;
    }
    rows.finish();
    if (store.requests.rowCount() > 0) {
        rows.notice(0, QStringLiteral("LLMPerf records carry no start times: every request is placed at 0, so "
                                      "TTFT and E2E are exact but arrivals and concurrency are unknown"));
    }
    if (options.strict && !store.rejected.empty())
        result.fatalError = QStringLiteral("strict mode: %1").arg(store.rejected.front().toString());
    return result;
}

} // namespace LlmperfLoader
