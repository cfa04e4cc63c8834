#include "WorkloadTraceLoaders.h"

#include "RecordLines.h"
#include "TokenCount.h"

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

RequestTable::Row arrivalRow(std::string_view id, qint64 arrival, qint32 prompt, qint32 output, qint64 line)
{
    RequestTable::Row row;
    row.id = id;
    row.promptTokens = prompt;
    row.outputTokens = output;
    row.stamps.fill(kNoTime);
    row.stamps[size_t(Stamp::ClientSend)] = arrival;
    row.sourceLine = line;
    return row;
}

// Years whose every instant fits in signed 64-bit ns since 1970
// (1677-09-21 to 2262-04-11).
constexpr int kFirstYear = 1678;
constexpr int kLastYear = 2261;

} // namespace

bool parseNaiveDateTime(std::string_view text, qint64 *ns)
{
    int year = 0;
    int month = 0;
    int day = 0;
    int hour = 0;
    int minute = 0;
    int second = 0;
    if (text.size() < 19 || text[4] != '-' || text[7] != '-' || (text[10] != ' ' && text[10] != 'T') || text[13] != ':'
        || text[16] != ':')
        return false;
    if (!readInt(text, 0, 4, &year) || !readInt(text, 5, 2, &month) || !readInt(text, 8, 2, &day)
        || !readInt(text, 11, 2, &hour) || !readInt(text, 14, 2, &minute) || !readInt(text, 17, 2, &second))
        return false;
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
        return false;
    if (year < kFirstYear || year > kLastYear)
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
    auto result = loadRecordLines(
        path, TraceFormat::AzureCsv, QStringLiteral("azure-csv"), options, control,
        [&](const LineView &line, RequestRowsBuilder &rows) {
            std::string_view text = line.text;
            if (line.number == 1) {
                if (text.starts_with("\xEF\xBB\xBF"))
                    text.remove_prefix(3);
                if (text.starts_with("TIMESTAMP") || text.starts_with("\"TIMESTAMP"))
                    return; // the header
            }
            const auto firstComma = text.find(',');
            const auto secondComma = firstComma == std::string_view::npos ? firstComma : text.find(',', firstComma + 1);
            if (secondComma == std::string_view::npos) {
                rows.reject(line.number, {}, {},
                            QStringLiteral("expected three columns: TIMESTAMP,ContextTokens,GeneratedTokens"));
                return;
            }
            qint64 arrival = 0;
            qint32 prompt = 0;
            qint32 output = 0;
            id = "azure-" + std::to_string(line.number);
            const QString requestId = QString::fromStdString(id);
            const std::string_view timestamp = text.substr(0, firstComma);
            if (!parseNaiveDateTime(timestamp, &arrival)) {
                int year = 0;
                const bool outOfRange = readInt(timestamp, 0, 4, &year) && (year < kFirstYear || year > kLastYear);
                rows.reject(line.number, requestId, QStringLiteral("TIMESTAMP"),
                            outOfRange ? QStringLiteral("the year %1 is outside %2-%3, the years a time in 64-bit "
                                                        "nanoseconds can hold")
                                             .arg(year)
                                             .arg(kFirstYear)
                                             .arg(kLastYear)
                                       : QStringLiteral("not a date and time like 2023-11-16 18:17:03.9799600"));
                return;
            }
            QString reason;
            if (!TokenCount::fromText(text.substr(firstComma + 1, secondComma - firstComma - 1), 1, &prompt, &reason)) {
                rows.reject(line.number, requestId, QStringLiteral("ContextTokens"), reason);
                return;
            }
            if (!TokenCount::fromText(text.substr(secondComma + 1), 1, &output, &reason)) {
                rows.reject(line.number, requestId, QStringLiteral("GeneratedTokens"), reason);
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
    auto result = loadRecordLines(
        path, TraceFormat::MooncakeJsonl, QStringLiteral("mooncake-jsonl"), options, control,
        [&](const LineView &line, RequestRowsBuilder &rows) {
            id = "mooncake-" + std::to_string(line.number);
            const QString requestId = QString::fromStdString(id);
            nlohmann::json record;
            if (!rows.parseRecord(line.text, line.number, requestId, &record))
                return;
            if (!record.is_object()) {
                rows.reject(line.number, requestId, {}, QStringLiteral("a record must be a JSON object"));
                return;
            }
            // timestamp: ms from the trace start, fractions kept to the ns.
            const auto timestamp = record.find("timestamp");
            qint64 arrival = 0;
            if (timestamp == record.end() || !timestamp->is_number()
                || !RequestRows::toNs(timestamp->get<double>(), 1e6, &arrival) || arrival < 0) {
                rows.reject(line.number, requestId, QStringLiteral("timestamp"),
                            timestamp == record.end() ? QStringLiteral("missing")
                                                      : QStringLiteral("must be a non-negative number of milliseconds "
                                                                       "that fits in 64-bit nanoseconds"));
                return;
            }
            qint32 input = 0;
            qint32 output = 0;
            for (const auto &[key, count] : {std::pair{"input_length", &input}, std::pair{"output_length", &output}}) {
                const auto it = record.find(key);
                QString reason = QStringLiteral("missing");
                if (it == record.end() || !TokenCount::fromJson(*it, 1, count, &reason)) {
                    rows.reject(line.number, requestId, QString::fromLatin1(key), reason);
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
            rows.add(
                arrivalRow(id, arrival, input, output, line.number),
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
