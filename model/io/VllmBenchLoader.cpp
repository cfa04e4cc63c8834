#include "VllmBenchLoader.h"

#include "LoadControl.h"
#include "RequestRowsBuilder.h"

#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <cmath>

namespace {

using Json = nlohmann::json;

// The i-th element of a per-request array, or nullptr when the array is
// missing or too short.
const Json *element(const Json &root, const char *key, size_t index)
{
    const auto it = root.find(key);
    if (it == root.end() || !it->is_array() || index >= it->size())
        return nullptr;
    return &(*it)[index];
}

bool seconds(const Json *value, double *out)
{
    if (!value || !value->is_number())
        return false;
    *out = value->get<double>();
    return std::isfinite(*out);
}

bool count(const Json *value, qint64 *out)
{
    if (!value || !value->is_number())
        return false;
    const double number = value->get<double>();
    if (!(number >= 0.0 && number <= 2147483647.0) || number != std::floor(number))
        return false;
    *out = qint64(number);
    return true;
}

QString text(const Json &root, const char *key)
{
    const auto it = root.find(key);
    if (it == root.end() || it->is_null())
        return {};
    return it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString::fromStdString(it->dump());
}

} // namespace

namespace VllmBenchLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control)
{
    LoadResult result;
    const QFileInfo info(path);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        result.fatalError = QStringLiteral("%1: cannot open: %2").arg(path, file.errorString());
        return result;
    }
    result.bytes = file.size();
    if (control)
        control->setTotalBytes(result.bytes);
    const QByteArray bytes = file.readAll();
    auto &store = *result.store;
    store.sourceFiles << path;
    store.format = QStringLiteral("vllm-bench-json");
    RequestRowsBuilder rows(store, info.fileName());
    Json root;
    try {
        root = Json::parse(bytes.begin(), bytes.end());
    } catch (const Json::parse_error &error) {
        // Only whole documents are meaningful here: the arrays are parallel.
        const qint64 line = 1 + bytes.left(qsizetype(error.byte)).count('\n');
        result.fatalError = QStringLiteral("%1:%2: %3").arg(path).arg(line).arg(RequestRows::invalidJson(error));
        return result;
    }
    if (!root.is_object() || !root.contains("ttfts") || !root["ttfts"].is_array()) {
        result.fatalError = QStringLiteral("%1: not a vLLM benchmark result: no 'ttfts' array").arg(path);
        return result;
    }
    const size_t requests = root["ttfts"].size();
    const bool hasStarts = root.contains("start_times") && root["start_times"].is_array();
    const bool hasE2e = root.contains("e2els") && root["e2els"].is_array();
    for (size_t i = 0; i < requests; ++i) {
        if (control && control->isCancelled()) {
            result.cancelled = true;
            return result;
        }
        const std::string id = "vllm-bench-" + std::to_string(i + 1);
        const QString requestId = QString::fromStdString(id);
        const auto reject = [&](const char *field, const QString &reason) {
            rows.reject(0, requestId, QStringLiteral("%1[%2]").arg(QLatin1String(field)).arg(i), reason);
        };
        if (const Json *error = element(root, "errors", i); error && error->is_string() && !error->get<std::string>().empty()) {
            reject("errors", QStringLiteral("request failed: %1").arg(QString::fromStdString(error->get<std::string>()).trimmed()));
            if (options.strict)
                break;
            continue;
        }
        double ttft = 0.0;
        if (!seconds(element(root, "ttfts", i), &ttft) || ttft < 0.0) {
            reject("ttfts", QStringLiteral("missing, non-numeric or negative time to first token"));
            if (options.strict)
                break;
            continue;
        }
        qint64 input = 0;
        qint64 output = 0;
        if (!count(element(root, "input_lens", i), &input) || !count(element(root, "output_lens", i), &output)) {
            reject("output_lens", QStringLiteral("token counts must be whole numbers (input_lens and output_lens)"));
            if (options.strict)
                break;
            continue;
        }
        double start = 0.0;
        if (hasStarts && !seconds(element(root, "start_times", i), &start)) {
            reject("start_times", QStringLiteral("missing or non-numeric start time"));
            if (options.strict)
                break;
            continue;
        }
        const qint64 send = RequestRows::secondsToNs(start);
        const qint64 firstToken = send + RequestRows::secondsToNs(ttft);
        std::vector<qint64> tokens{firstToken};
        const Json *gaps = element(root, "itls", i);
        bool gapsOk = gaps && gaps->is_array();
        qint64 at = firstToken;
        for (size_t k = 0; gapsOk && k < gaps->size(); ++k) {
            double gap = 0.0;
            gapsOk = seconds(&(*gaps)[k], &gap) && gap >= 0.0;
            if (!gapsOk) {
                reject("itls", QStringLiteral("timestamps are not monotonic: inter-token gap %1 is missing or "
                                              "negative")
                                   .arg(k + 1));
                break;
            }
            at += RequestRows::secondsToNs(gap);
            tokens.push_back(at);
        }
        if (!gapsOk) {
            if (!gaps || !gaps->is_array())
                reject("itls", QStringLiteral("missing list of inter-token gaps"));
            if (options.strict)
                break;
            continue;
        }
        qint64 last = at;
        double e2e = 0.0;
        if (hasE2e && seconds(element(root, "e2els", i), &e2e)) {
            last = send + RequestRows::secondsToNs(e2e);
            if (last < at) {
                reject("e2els", QStringLiteral("timestamps are not monotonic: end-to-end latency %1 s ends before "
                                               "the last token")
                                    .arg(e2e));
                if (options.strict)
                    break;
                continue;
            }
        }
        RequestTable::Row row;
        row.id = id;
        row.promptTokens = qint32(input);
        row.outputTokens = qint32(output);
        row.stamps.fill(kNoTime);
        row.stamps[size_t(Stamp::ClientSend)] = send;
        row.stamps[size_t(Stamp::FirstTokenClient)] = firstToken;
        row.stamps[size_t(Stamp::LastTokenClient)] = last;
        row.sourceLine = 0;
        rows.add(row, {}, tokens);
    }
    if (control)
        control->addProcessed(result.bytes, qint64(requests));
    rows.finish();
    const QString run = QStringLiteral("vLLM bench run: backend %1, model %2, request rate %3, burstiness %4, max "
                                       "concurrency %5, %6 prompts, date %7")
                            .arg(text(root, "backend"), text(root, "model_id"), text(root, "request_rate"),
                                 text(root, "burstiness"), text(root, "max_concurrency"), text(root, "num_prompts"),
                                 text(root, "date"));
    rows.notice(0, run);
    if (!hasStarts && store.requests.rowCount() > 0) {
        rows.notice(0, QStringLiteral("no start_times in this vLLM result (older benchmark_serving.py): every request "
                                      "is placed at 0, so TTFT, ITL and E2E are exact but arrivals are unknown"));
    }
    if (options.strict && !store.rejected.empty())
        result.fatalError = QStringLiteral("strict mode: %1").arg(store.rejected.front().toString());
    else if (store.requests.isEmpty() && store.rejected.empty())
        result.fatalError = QStringLiteral("%1: no requests in this vLLM result").arg(path);
    return result;
}

} // namespace VllmBenchLoader
