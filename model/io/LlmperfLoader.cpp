#include "LlmperfLoader.h"

#include "JsonArrayElements.h"
#include "LoadControl.h"
#include "RequestRowsBuilder.h"
#include "TimeLimits.h"
#include "TokenCount.h"

#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <cmath>

namespace {

using Json = nlohmann::json;

// A latency in seconds as ns; false when absent, not a number or beyond
// 64-bit nanoseconds.
bool secondsField(const Json &record, const char *name, qint64 *ns)
{
    const auto it = record.find(name);
    return it != record.end() && it->is_number() && RequestRows::toNs(it->get<double>(), 1e9, ns);
}

QString textOf(const Json &value)
{
    return QString::fromStdString(value.is_string()     ? value.get<std::string>()
                                      : value.is_null() ? std::string()
                                                        : value.dump());
}

// One element of the array; rejects it (with its reason) or adds a row.
void readRecord(const Json &record, qint64 line, const std::string &id, RequestRowsBuilder &rows)
{
    const QString requestId = QString::fromStdString(id);
    if (!record.is_object()) {
        rows.reject(line, requestId, {}, QStringLiteral("a record must be a JSON object"));
        return;
    }
    if (const auto code = record.find("error_code"); code != record.end() && !code->is_null()) {
        const auto message = record.find("error_msg");
        rows.reject(line, requestId, QStringLiteral("error_code"),
                    QStringLiteral("request failed (error_code %1): %2")
                        .arg(textOf(*code), message == record.end() ? QString() : textOf(*message)));
        return;
    }
    qint64 ttft = 0;
    qint64 e2e = 0;
    if (!secondsField(record, "ttft_s", &ttft) || !secondsField(record, "end_to_end_latency_s", &e2e)) {
        rows.reject(line, requestId, QStringLiteral("ttft_s"),
                    QStringLiteral("missing or non-numeric ttft_s / end_to_end_latency_s"));
        return;
    }
    if (ttft < 0 || e2e < ttft) {
        rows.reject(line, requestId, QStringLiteral("end_to_end_latency_s"),
                    QStringLiteral("timestamps are not monotonic: end-to-end latency %1 s is shorter than "
                                   "TTFT %2 s")
                        .arg(record["end_to_end_latency_s"].get<double>())
                        .arg(record["ttft_s"].get<double>()));
        return;
    }
    if (e2e > TimeLimits::kMaxDurationNs) {
        rows.reject(line, requestId, QStringLiteral("end_to_end_latency_s"),
                    TimeLimits::tooLong(QStringLiteral("the request"), e2e));
        return;
    }
    RequestTable::Row row;
    row.id = id;
    for (const auto &[key, count] :
         {std::pair{"number_input_tokens", &row.promptTokens}, std::pair{"number_output_tokens", &row.outputTokens}}) {
        // An absent count stays 0, "not reported" (RequestTable's rule); a
        // present one must be a valid count.
        const auto it = record.find(key);
        QString reason;
        if (it != record.end() && !TokenCount::fromJson(*it, 1, count, &reason)) {
            rows.reject(line, requestId, QString::fromLatin1(key), reason);
            return;
        }
    }
    std::vector<RequestRowsBuilder::Attribute> attributes;
    if (const auto itl = record.find("inter_token_latency_s"); itl != record.end() && itl->is_number()) {
        // LLMPerf's own per-request ITL, kept beside ours for comparison; an
        // absurd one is refused like an absurd latency.
        qint64 ns = 0;
        if (!RequestRows::toNs(itl->get<double>(), 1e9, &ns) || ns < 0 || ns > TimeLimits::kMaxDurationNs) {
            rows.reject(line, requestId, QStringLiteral("inter_token_latency_s"),
                        QStringLiteral("%1 s is not an inter-token latency (negative or over 30 days)")
                            .arg(itl->get<double>()));
            return;
        }
        attributes.push_back({QStringLiteral("llmperf_itl_ms"), {}, double(ns) / 1e6});
    }
    row.stamps.fill(kNoTime);
    row.stamps[size_t(Stamp::ClientSend)] = 0;
    row.stamps[size_t(Stamp::FirstTokenClient)] = ttft;
    row.stamps[size_t(Stamp::LastTokenClient)] = e2e;
    row.sourceLine = line;
    rows.add(row, attributes);
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
        Json record;
        if (rows.parseRecord(element, line, QString::fromStdString(id), &record)) {
            try {
                readRecord(record, line, id, rows);
            } catch (const Json::exception &error) {
                rows.rejectUnreadable(line, QString::fromStdString(id), error);
            }
        }
        return !(options.strict && store.rejected.size() > rejectedBefore);
    };
    QString error;
    qint64 trailingLine = 0;
    if (!forEachJsonArrayElement(path, control, visit, &error, &trailingLine)) {
        result.fatalError = QStringLiteral("%1: %2").arg(path, error);
        return result;
    }
    if (trailingLine > 0) {
        rows.reject(trailingLine, {}, {},
                    QStringLiteral("trailing data after the end of the JSON array (two documents in one file?); "
                                   "the records before it were read, the rest was not"));
    }
    if (control && control->isCancelled()) {
        result.cancelled = true;
        return result;
    }
    rows.finish();
    if (store.requests.rowCount() > 0) {
        rows.notice(0,
                    QStringLiteral("LLMPerf records carry no start times: every request is placed at 0, so "
                                   "TTFT and E2E are exact but arrivals and concurrency are unknown"));
        store.arrivalsUnknown = QStringLiteral("LLMPerf records carry no start times");
    }
    if (options.strict && !store.rejected.empty())
        result.fatalError = QStringLiteral("strict mode: %1").arg(store.rejected.front().toString());
    return result;
}

} // namespace LlmperfLoader
