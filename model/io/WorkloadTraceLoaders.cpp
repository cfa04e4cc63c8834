#include "WorkloadTraceLoaders.h"

#include "RecordLines.h"

#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <charconv>
#include <unordered_set>

namespace WorkloadTraceLoaders {

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's method).
qint64 daysFromCivil(qint64 year, unsigned month, unsigned day)
{
    year -= month <= 2 ? 1 : 0;
    const qint64 era = (year >= 0 ? year : year - 399) / 400;
    const auto yearOfEra = unsigned(year - era * 400);
    const unsigned dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    const unsigned dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146097 + qint64(dayOfEra) - 719468;
}

bool readInt(std::string_view text, size_t begin, size_t length, int *value)
{
    if (begin + length > text.size())
        return false;
    const auto parsed = std::from_chars(text.data() + begin, text.data() + begin + length, *value);
    return parsed.ec == std::errc() && parsed.ptr == text.data() + begin + length;
}

RequestTable::Row arrivalRow(std::string_view id, qint64 arrival, qint64 prompt, qint64 output, qint64 line)
{
    RequestTable::Row row;
    row.id = id;
    row.promptTokens = qint32(prompt);
    row.outputTokens = qint32(output);
    row.stamps.fill(kNoTime);
    row.stamps[size_t(Stamp::ClientSend)] = arrival;
    row.sourceLine = line;
    return row;
}

bool tokenCount(std::string_view text, qint64 *count)
{
    const auto parsed = std::from_chars(text.data(), text.data() + text.size(), *count);
    return parsed.ec == std::errc() && parsed.ptr == text.data() + text.size() && *count >= 0
        && *count <= std::numeric_limits<qint32>::max();
}

} // namespace

bool parseNaiveDateTime(std::string_view text, qint64 *ns)
{
    int year = 0;
    int month = 0;
    int day = 0;
    int hour = 0;
    int minute = 0;
    int second = 0;
    if (text.size() < 19 || text[4] != '-' || text[7] != '-' || (text[10] != ' ' && text[10] != 'T')
        || text[13] != ':' || text[16] != ':')
        return false;
    if (!readInt(text, 0, 4, &year) || !readInt(text, 5, 2, &month) || !readInt(text, 8, 2, &day)
        || !readInt(text, 11, 2, &hour) || !readInt(text, 14, 2, &minute) || !readInt(text, 17, 2, &second))
        return false;
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
        return false;
    qint64 fraction = 0;
    size_t pos = 19;
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        int digits = 0;
        for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos, ++digits) {
            if (digits < 9)
                fraction = fraction * 10 + (text[pos] - '0');
        }
        if (digits == 0)
            return false;
        for (int d = digits; d < 9; ++d)
            fraction *= 10;
    }
    if (pos != text.size() && !(pos + 1 == text.size() && text[pos] == 'Z'))
        return false;
    const qint64 days = daysFromCivil(year, unsigned(month), unsigned(day));
    *ns = ((days * 24 + hour) * 60 + minute) * 60'000'000'000LL + qint64(second) * 1'000'000'000LL + fraction;
    return true;
}

LoadResult loadAzureCsv(const QString &path, const LoadOptions &options, LoadControl *control)
{
    const QString workload = QFileInfo(path).completeBaseName().section(QLatin1Char('_'), -1);
    std::string id;
    auto result = loadRecordLines(path, QStringLiteral("azure-csv"), options, control,
                                [&](const LineView &line, RequestRowsBuilder &rows) {
        std::string_view text = line.text;
        if (line.number == 1) {
            if (text.starts_with("\xEF\xBB\xBF"))
                text.remove_prefix(3);
            if (text.starts_with("TIMESTAMP") || text.starts_with("\"TIMESTAMP"))
                return;   // the header
        }
        const auto firstComma = text.find(',');
        const auto secondComma = firstComma == std::string_view::npos ? firstComma : text.find(',', firstComma + 1);
        if (secondComma == std::string_view::npos) {
            rows.reject(line.number, {}, {}, QStringLiteral("expected three columns: TIMESTAMP,ContextTokens,GeneratedTokens"));
            return;
        }
        qint64 arrival = 0;
        qint64 prompt = 0;
        qint64 output = 0;
        id = "azure-" + std::to_string(line.number);
        const QString requestId = QString::fromStdString(id);
        if (!parseNaiveDateTime(text.substr(0, firstComma), &arrival)) {
            rows.reject(line.number, requestId, QStringLiteral("TIMESTAMP"),
                        QStringLiteral("not a date and time like 2023-11-16 18:17:03.9799600"));
            return;
        }
        if (!tokenCount(text.substr(firstComma + 1, secondComma - firstComma - 1), &prompt)) {
            rows.reject(line.number, requestId, QStringLiteral("ContextTokens"),
                        QStringLiteral("must be a whole number of tokens"));
            return;
        }
        if (!tokenCount(text.substr(secondComma + 1), &output)) {
            rows.reject(line.number, requestId, QStringLiteral("GeneratedTokens"),
                        QStringLiteral("must be a whole number of tokens"));
            return;
        }
        rows.add(arrivalRow(id, arrival, prompt, output, line.number),
                 {{QStringLiteral("workload"), workload, 0.0}});
    });
    if (result.ok()) {
        result.store->notices.push_back({QFileInfo(path).fileName(), 0,
                                         QStringLiteral("arrivals and token counts only: TIMESTAMP has no time zone "
                                                        "and is read as UTC; no latency is observed")});
    }
    return result;
}

LoadResult loadMooncake(const QString &path, const LoadOptions &options, LoadControl *control)
{
    std::unordered_set<qint64> seenBlocks;
    std::string id;
    auto result = loadRecordLines(path, QStringLiteral("mooncake-jsonl"), options, control,
                                [&](const LineView &line, RequestRowsBuilder &rows) {
        id = "mooncake-" + std::to_string(line.number);
        const QString requestId = QString::fromStdString(id);
        nlohmann::json record;
        try {
            record = nlohmann::json::parse(line.text.begin(), line.text.end());
        } catch (const nlohmann::json::parse_error &error) {
            rows.reject(line.number, requestId, {}, RequestRows::invalidJson(error));
            return;
        }
        const auto integer = [&](const char *key, qint64 *value) {
            const auto it = record.find(key);
            if (it == record.end() || !it->is_number())
                return false;
            *value = std::llround(it->get<double>());
            return *value >= 0;
        };
        qint64 timestampMs = 0;
        qint64 input = 0;
        qint64 output = 0;
        for (const auto &[key, value] : {std::pair{"timestamp", &timestampMs}, std::pair{"input_length", &input},
                                         std::pair{"output_length", &output}}) {
            if (!integer(key, value)) {
                rows.reject(line.number, requestId, QString::fromLatin1(key),
                            QStringLiteral("missing, negative or not a number"));
                return;
            }
        }
        qint64 reused = 0;
        bool stillReusing = true;
        const auto blocks = record.find("hash_ids");
        if (blocks != record.end() && blocks->is_array()) {
            for (const auto &block : *blocks) {
                if (!block.is_number_integer())
                    continue;
                const bool seen = !seenBlocks.insert(block.get<qint64>()).second;
                if (stillReusing && seen)
                    ++reused;
                else
                    stillReusing = false;
            }
        }
        rows.add(arrivalRow(id, timestampMs * 1'000'000, input, output, line.number),
                 {{QStringLiteral("cached_prefix"), reused > 0 ? QStringLiteral("true") : QStringLiteral("false"), 0.0},
                  {QStringLiteral("reused_prefix_blocks"), {}, double(reused)}});
    });
    if (result.ok()) {
        result.store->notices.push_back(
            {QFileInfo(path).fileName(), 0,
             QStringLiteral("arrivals and token counts only: timestamps are ms from the trace start; prefix reuse "
                            "assumes an unbounded cache of 512-token blocks; no latency is observed")});
    }
    return result;
}

} // namespace WorkloadTraceLoaders
