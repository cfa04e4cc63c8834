#include "VllmBenchLoader.h"

#include "JsonDom.h"
#include "LoadControl.h"
#include "RequestRowsBuilder.h"
#include "TimeLimits.h"
#include "TokenCount.h"

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
    const JsonDom::Outcome parsed = JsonDom::parse(std::string_view(bytes.constData(), size_t(bytes.size())), &root);
    if (!parsed.ok()) {
        // Only whole documents are meaningful here: the arrays are parallel.
        const qint64 line = 1 + bytes.left(qsizetype(parsed.errorByte)).count('\n');
        result.fatalError = QStringLiteral("%1:%2: invalid JSON: %3").arg(path).arg(line).arg(parsed.message);
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
        if (const Json *error = element(root, "errors", i);
            error && error->is_string() && !error->get<std::string>().empty()) {
            double sent = 0.0;
            qint64 sentNs = kNoTime;
            if (!hasStarts || !seconds(element(root, "start_times", i), &sent)
                || !RequestRows::toNs(sent, 1e9, &sentNs))
                sentNs = kNoTime;
            rows.rejectFailure(
                0, requestId, QStringLiteral("errors[%1]").arg(i),
                QStringLiteral("request failed: %1").arg(QString::fromStdString(error->get<std::string>()).trimmed()),
                sentNs);
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
        // TokenCount's rule, the same as every loader's.
        qint32 input = 0;
        qint32 output = 0;
        QString reason;
        const char *badCount = nullptr;
        for (const auto &[key, target] : {std::pair{"input_lens", &input}, std::pair{"output_lens", &output}}) {
            const Json *value = element(root, key, i);
            if (!badCount
                && !(value ? TokenCount::fromJson(*value, 1, target, &reason)
                           : (reason = QStringLiteral("missing"), false)))
                badCount = key;
        }
        if (badCount) {
            reject(badCount, reason);
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
        qint64 send = 0;
        qint64 ttftNs = 0;
        qint64 firstToken = 0;
        if (!RequestRows::toNs(start, 1e9, &send) || !RequestRows::toNs(ttft, 1e9, &ttftNs)
            || __builtin_add_overflow(send, ttftNs, &firstToken)) {
            reject("start_times", QStringLiteral("times do not fit in 64-bit nanoseconds"));
            if (options.strict)
                break;
            continue;
        }
        std::vector<qint64> tokens{firstToken};
        const Json *gaps = element(root, "itls", i);
        bool gapsOk = gaps && gaps->is_array();
        qint64 at = firstToken;
        for (size_t k = 0; gapsOk && k < gaps->size(); ++k) {
            double gap = 0.0;
            qint64 gapNs = 0;
            gapsOk = seconds(&(*gaps)[k], &gap) && gap >= 0.0;
            if (!gapsOk) {
                reject("itls",
                       QStringLiteral("timestamps are not monotonic: inter-token gap %1 is missing or "
                                      "negative")
                           .arg(k + 1));
                break;
            }
            gapsOk = RequestRows::toNs(gap, 1e9, &gapNs) && !__builtin_add_overflow(at, gapNs, &at);
            if (!gapsOk) {
                reject("itls", QStringLiteral("inter-token gap %1 does not fit in 64-bit nanoseconds").arg(k + 1));
                break;
            }
            tokens.push_back(at);
        }
        if (!gapsOk) {
            if (!gaps || !gaps->is_array())
                reject("itls", QStringLiteral("missing list of inter-token gaps"));
            if (options.strict)
                break;
            continue;
        }
        // One gap per token after the first; a list of another length cannot
        // be placed on the tokens: the request loads without its token times.
        if (output >= 1 && qint64(tokens.size()) != output) {
            rows.notice(0,
                        QStringLiteral("request %1: itls[%2] has %3 gaps for %4 output tokens (one per token "
                                       "after the first); its token times are not used")
                            .arg(requestId)
                            .arg(i)
                            .arg(tokens.size() - 1)
                            .arg(output));
            tokens.resize(1);
        }
        qint64 last = at;
        double e2e = 0.0;
        qint64 e2eNs = 0;
        if (hasE2e && seconds(element(root, "e2els", i), &e2e)) {
            if (!RequestRows::toNs(e2e, 1e9, &e2eNs) || __builtin_add_overflow(send, e2eNs, &last)) {
                reject("e2els", QStringLiteral("%1 s does not fit in 64-bit nanoseconds").arg(e2e));
                if (options.strict)
                    break;
                continue;
            }
            if (last < at) {
                reject("e2els",
                       QStringLiteral("timestamps are not monotonic: end-to-end latency %1 s ends before "
                                      "the last token")
                           .arg(e2e));
                if (options.strict)
                    break;
                continue;
            }
        }
        if (last - send > TimeLimits::kMaxDurationNs) {
            reject("e2els", TimeLimits::tooLong(QStringLiteral("the request"), last - send));
            if (options.strict)
                break;
            continue;
        }
        RequestTable::Row row;
        row.id = id;
        row.promptTokens = input;
        row.outputTokens = output;
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
    const QString run
        = QStringLiteral("vLLM bench run: backend %1, model %2, request rate %3, burstiness %4, max "
                         "concurrency %5, %6 prompts, date %7")
              .arg(text(root, "backend"), text(root, "model_id"), text(root, "request_rate"), text(root, "burstiness"),
                   text(root, "max_concurrency"), text(root, "num_prompts"), text(root, "date"));
    rows.notice(0, run);
    if (!hasStarts && store.requests.rowCount() > 0) {
        rows.notice(0,
                    QStringLiteral("no start_times in this vLLM result (older benchmark_serving.py): every request "
                                   "is placed at 0, so TTFT, ITL and E2E are exact but arrivals are unknown"));
        store.arrivalsUnknown = QStringLiteral("this vLLM result has no start_times (older benchmark_serving.py)");
    }
    if (options.strict && !store.rejected.empty())
        result.fatalError = QStringLiteral("strict mode: %1").arg(store.rejected.front().toString());
    else if (store.requests.isEmpty() && store.rejected.empty())
        result.fatalError = QStringLiteral("%1: no requests in this vLLM result").arg(path);
    return result;
}

} // namespace VllmBenchLoader
