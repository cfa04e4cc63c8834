#include "LmbenchCsvLoader.h"

#include "DecimalTime.h"
#include "RecordLines.h"
#include "TimeLimits.h"
#include "TokenCount.h"

#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace {

enum Column { PromptTokens, GenerationTokens, Ttft, GenerationTime, LaunchTime, FinishTime, kColumnCount };

constexpr std::array<const char *, kColumnCount> kColumnNames = {
    "prompt_tokens", "generation_tokens", "ttft", "generation_time", "launch_time", "finish_time",
};

std::vector<std::string_view> splitCsv(std::string_view line)
{
    std::vector<std::string_view> cells;
    size_t begin = 0;
    while (true) {
        const size_t comma = line.find(',', begin);
        std::string_view cell
            = line.substr(begin, comma == std::string_view::npos ? std::string_view::npos : comma - begin);
        while (!cell.empty() && (cell.front() == ' ' || cell.front() == '"'))
            cell.remove_prefix(1);
        while (!cell.empty() && (cell.back() == ' ' || cell.back() == '"' || cell.back() == '\r'))
            cell.remove_suffix(1);
        cells.push_back(cell);
        if (comma == std::string_view::npos)
            break;
        begin = comma + 1;
    }
    return cells;
}

} // namespace

namespace LmbenchCsvLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control)
{
    std::array<int, kColumnCount> index{};
    index.fill(-1);
    bool haveHeader = false;
    QString headerError;
    std::string id;
    auto result = loadRecordLines(
        path, TraceFormat::LmbenchCsv, QStringLiteral("lmbench-csv"), options, control,
        [&](const LineView &line, RequestRowsBuilder &rows) {
            std::string_view text = line.text;
            if (!haveHeader) {
                if (text.starts_with("\xEF\xBB\xBF"))
                    text.remove_prefix(3);
                const auto names = splitCsv(text);
                for (int column = 0; column < kColumnCount; ++column) {
                    for (size_t i = 0; i < names.size(); ++i) {
                        if (names[i] == kColumnNames[size_t(column)])
                            index[size_t(column)] = int(i);
                    }
                }
                haveHeader = true;
                QStringList missing;
                for (const Column required : {Ttft, LaunchTime}) {
                    if (index[size_t(required)] < 0)
                        missing << QString::fromLatin1(kColumnNames[size_t(required)]);
                }
                if (index[FinishTime] < 0 && index[GenerationTime] < 0)
                    missing << QStringLiteral("finish_time or generation_time");
                if (!missing.isEmpty())
                    headerError = QStringLiteral("the header lacks %1").arg(missing.join(QStringLiteral(", ")));
                return;
            }
            id = "lmbench-" + std::to_string(line.number);
            const QString requestId = QString::fromStdString(id);
            if (!headerError.isEmpty()) {
                rows.reject(line.number, requestId, {}, headerError);
                return;
            }
            const auto cells = splitCsv(text);
            const auto cell = [&](Column column) -> std::string_view {
                const int at = index[size_t(column)];
                return at >= 0 && size_t(at) < cells.size() ? cells[size_t(at)] : std::string_view();
            };
            const auto field = [](Column column) { return QString::fromLatin1(kColumnNames[size_t(column)]); };
            std::array<qint64, kColumnCount> ns{};
            for (const Column column : {Ttft, GenerationTime, LaunchTime, FinishTime}) {
                ns[size_t(column)] = kNoTime;
                if (index[size_t(column)] < 0)
                    continue;
                const auto status = DecimalTime::toNanoseconds(cell(column), 1'000'000'000, &ns[size_t(column)]);
                if (status != DecimalTime::Status::Ok) {
                    rows.reject(line.number, requestId, field(column),
                                status == DecimalTime::Status::OutOfRange
                                    ? QStringLiteral("time out of range")
                                    : QStringLiteral("not a number of seconds: '%1'")
                                          .arg(QString::fromUtf8(cell(column).data(), qsizetype(cell(column).size()))));
                    return;
                }
            }
            // TokenCount's rule, the same as every loader's ("689.0" is whole).
            qint32 prompt = 0;
            qint32 output = 0;
            for (const auto &[column, target] :
                 {std::pair{PromptTokens, &prompt}, std::pair{GenerationTokens, &output}}) {
                QString reason;
                if (index[size_t(column)] >= 0 && !TokenCount::fromText(cell(column), 1, target, &reason)) {
                    rows.reject(line.number, requestId, field(column), reason);
                    return;
                }
            }
            const qint64 send = ns[LaunchTime];
            if (ns[Ttft] < 0) {
                rows.reject(line.number, requestId, field(Ttft), QStringLiteral("negative time to first token"));
                return;
            }
            qint64 first = 0;
            qint64 last = ns[FinishTime];
            qint64 duration = 0;
            if (__builtin_add_overflow(send, ns[Ttft], &first)
                || (last == kNoTime && __builtin_add_overflow(first, ns[GenerationTime], &last))
                || __builtin_sub_overflow(last, send, &duration)) {
                rows.reject(line.number, requestId, field(LaunchTime),
                            QStringLiteral("the request's times do not fit in 64-bit nanoseconds"));
                return;
            }
            if (last < first || (ns[GenerationTime] != kNoTime && ns[GenerationTime] < 0)) {
                rows.reject(
                    line.number, requestId, field(ns[FinishTime] != kNoTime ? FinishTime : GenerationTime),
                    QStringLiteral("timestamps are not monotonic: the request finishes before its first token"));
                return;
            }
            if (duration > TimeLimits::kMaxDurationNs) {
                rows.reject(line.number, requestId, field(ns[FinishTime] != kNoTime ? FinishTime : GenerationTime),
                            TimeLimits::tooLong(QStringLiteral("the request"), duration));
                return;
            }
            RequestTable::Row row;
            row.id = id;
            row.promptTokens = prompt;
            row.outputTokens = output;
            row.stamps.fill(kNoTime);
            row.stamps[size_t(Stamp::ClientSend)] = send;
            row.stamps[size_t(Stamp::FirstTokenClient)] = first;
            row.stamps[size_t(Stamp::LastTokenClient)] = last;
            row.sourceLine = line.number;
            rows.add(row, {});
        });
    if (result.ok() && !headerError.isEmpty() && result.store->requests.isEmpty())
        result.fatalError = QStringLiteral("%1: not an LMBench CSV: %2").arg(path, headerError);
    return result;
}

} // namespace LmbenchCsvLoader
