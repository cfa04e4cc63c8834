#include "TraceFormat.h"

#include "FileCharStream.h"

#include <QFile>

#include <nlohmann/json.hpp>

#include <set>
#include <string>

QString traceFormatName(TraceFormat format)
{
    switch (format) {
    case TraceFormat::SeedJsonl:
        return QStringLiteral("seed JSONL");
    case TraceFormat::SeedJsonArray:
        return QStringLiteral("seed records as a JSON array");
    case TraceFormat::OtlpJson:
        return QStringLiteral("OTLP/JSON");
    case TraceFormat::JaegerJson:
        return QStringLiteral("Jaeger JSON");
    case TraceFormat::AnyAgent:
        return QStringLiteral("any-agent trace");
    case TraceFormat::Langfuse:
        return QStringLiteral("Langfuse trace export");
    case TraceFormat::AiperfJsonl:
        return QStringLiteral("AIPerf JSONL");
    case TraceFormat::LlmperfJson:
        return QStringLiteral("LLMPerf JSON");
    case TraceFormat::VllmBenchJson:
        return QStringLiteral("vLLM bench JSON");
    case TraceFormat::LmbenchCsv:
        return QStringLiteral("LMBench CSV");
    case TraceFormat::AzureCsv:
        return QStringLiteral("Azure LLM inference CSV");
    case TraceFormat::MooncakeJsonl:
        return QStringLiteral("Mooncake JSONL");
    case TraceFormat::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

TraceFormat detectTraceFormat(const QByteArray &rawHead)
{
    QByteArray head = rawHead;
    if (head.startsWith("\xEF\xBB\xBF"))
        head.remove(0, 3);
    head = head.trimmed();
    if (head.isEmpty())
        return TraceFormat::Unknown;
    const QByteArray firstLine = head.left(head.indexOf('\n') < 0 ? head.size() : head.indexOf('\n'));
    const auto has = [&](const char *key) { return head.contains(key); };
    if (head.startsWith("TIMESTAMP,") || head.startsWith("\"TIMESTAMP\","))
        return TraceFormat::AzureCsv;
    if (!firstLine.contains('{') && firstLine.contains("ttft")
        && (firstLine.contains("launch_time") || firstLine.contains("generation_tokens")))
        return TraceFormat::LmbenchCsv;
    if (has("\"resourceSpans\"") || has("\"resourceMetrics\"") || has("\"resourceLogs\""))
        return TraceFormat::OtlpJson;
    if (has("\"observations\"") && has("\"trace\""))
        return TraceFormat::Langfuse;
    if (has("\"traceID\"") && (has("\"spanID\"") || has("\"processes\"")))
        return TraceFormat::JaegerJson;
    if (has("\"context\"") && has("\"span_id\"") && has("\"start_time\""))
        return TraceFormat::AnyAgent;
    if (firstLine.contains("\"hash_ids\"") && firstLine.contains("\"input_length\""))
        return TraceFormat::MooncakeJsonl;
    if (has("\"inter_chunk_latency\"") || has("\"request_latency\"") || has("\"time_to_first_token\"")
        || has("\"x_correlation_id\"") || has("\"error_request_count\""))
        return TraceFormat::AiperfJsonl;
    if (has("\"ttft_s\"") || has("\"end_to_end_latency_s\""))
        return TraceFormat::LlmperfJson;
    // The per-request arrays can push "ttfts" beyond the sniffed head in a
    // long run; the run-level keys come first.
    if (head.startsWith('{')
        && (has("\"ttfts\"") || has("\"input_lens\"") || (has("\"request_throughput\"") && has("\"num_prompts\""))))
        return TraceFormat::VllmBenchJson;
    if (head.startsWith('{'))
        return TraceFormat::SeedJsonl; // flat records; the loader says what is missing
    return TraceFormat::Unknown;
}

namespace {

constexpr qint64 kMaxSniffBytes = 64LL * 1024 * 1024;

// Collects the key names of a file's first record from nlohmann's SAX
// events and stops when the record ends: the root value, or the first
// element of a root array. OTLP's top-level keys decide at once (a single
// OTLP document can be gigabytes).
class FirstRecordKeys final : public nlohmann::json_sax<nlohmann::json>
{
public:
    explicit FirstRecordKeys(const FileCharStream &stream)
        : m_stream(stream)
    { }

    bool null() override { return scalar(); }
    bool boolean(bool) override { return scalar(); }
    bool number_integer(number_integer_t) override { return scalar(); }
    bool number_unsigned(number_unsigned_t) override { return scalar(); }
    bool number_float(number_float_t, const string_t &) override { return scalar(); }
    bool string(string_t &) override { return scalar(); }
    bool binary(binary_t &) override { return scalar(); }
    bool start_object(std::size_t) override { return open(false); }
    bool start_array(std::size_t) override { return open(true); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t &key) override
    {
        if (m_keys.size() < 4096)
            m_keys.insert(key);
        if (m_depth == 1 && !m_rootIsArray
            && (key == "resourceSpans" || key == "resourceMetrics" || key == "resourceLogs")) {
            m_complete = true; // decided
            return false;
        }
        return withinBudget();
    }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) override
    {
        m_failed = true;
        return false;
    }

    bool has(const char *key) const { return m_keys.count(key) > 0; }
    bool complete() const { return m_complete; }
    bool failed() const { return m_failed && !m_complete; }
    bool rootIsArray() const { return m_rootIsArray; }
    bool elementIsObject() const { return m_elementIsObject; }

private:
    bool scalar()
    {
        if (m_depth == 0 || (m_depth == 1 && m_rootIsArray))
            m_complete = true; // a scalar root, or a scalar first element
        return !m_complete && withinBudget();
    }
    bool open(bool array)
    {
        if (m_depth == 0)
            m_rootIsArray = array;
        else if (m_depth == 1 && m_rootIsArray)
            m_elementIsObject = !array;
        ++m_depth;
        return withinBudget();
    }
    bool close()
    {
        --m_depth;
        if (m_depth == 0 || (m_depth == 1 && m_rootIsArray)) {
            m_complete = true;
            return false;
        }
        return withinBudget();
    }
    bool withinBudget() const { return m_stream.consumed() < kMaxSniffBytes; }

    const FileCharStream &m_stream;
    std::set<std::string, std::less<>> m_keys;
    int m_depth = 0;
    bool m_rootIsArray = false;
    bool m_elementIsObject = false;
    bool m_complete = false;
    bool m_failed = false;
};

TraceFormat classify(const FirstRecordKeys &keys)
{
    const auto has = [&](const char *key) { return keys.has(key); };
    if (has("observations") && has("trace"))
        return TraceFormat::Langfuse;
    if (has("traceID") && (has("spanID") || has("processes")))
        return TraceFormat::JaegerJson;
    if (has("context") && has("span_id") && has("start_time"))
        return TraceFormat::AnyAgent;
    if (has("hash_ids") && has("input_length") && !keys.rootIsArray())
        return TraceFormat::MooncakeJsonl;
    // A failed AIPerf request has none of the latency metrics, only its ids.
    if (has("inter_chunk_latency") || has("request_latency") || has("time_to_first_token") || has("x_correlation_id")
        || has("error_request_count"))
        return TraceFormat::AiperfJsonl;
    if (has("ttft_s") || has("end_to_end_latency_s"))
        return TraceFormat::LlmperfJson;
    if (keys.rootIsArray())
        return keys.elementIsObject() && has("request_id") ? TraceFormat::SeedJsonArray : TraceFormat::Unknown;
    if (has("ttfts") || has("input_lens") || (has("request_throughput") && has("num_prompts")))
        return TraceFormat::VllmBenchJson;
    return TraceFormat::SeedJsonl; // flat records; the loader says what is missing
}

} // namespace

FileFormat detectFileFormat(const QString &path)
{
    FileFormat result;
    QByteArray mark;
    {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            result.unreadable = true;
            return result;
        }
        mark = file.read(3);
    }
    if (mark.startsWith("\xFF\xFE") || mark.startsWith("\xFE\xFF")) {
        result.utf16 = true;
        return result;
    }
    FileCharStream stream(path);
    QString error;
    if (!stream.open(&error)) {
        result.unreadable = true;
        return result;
    }
    auto it = stream.begin();
    const auto end = stream.end();
    if (mark.startsWith("\xEF\xBB\xBF")) {
        for (int i = 0; i < 3; ++i)
            ++it;
    }
    // Blank lines before the first record, however many.
    while (it != end && (*it == ' ' || *it == '\t' || *it == '\r' || *it == '\n'))
        ++it;
    if (it == end) {
        result.blank = true;
        return result;
    }
    const qint64 contentStart = stream.consumed();
    const char first = *it;
    if (first != '{' && first != '[') {
        // Not JSON: CSV and the like are told by their first line.
        QByteArray line;
        for (; it != end && *it != '\n' && line.size() < qsizetype{64} * 1024; ++it)
            line.append(*it);
        result.format = detectTraceFormat(line);
        return result;
    }
    FirstRecordKeys keys(stream);
    nlohmann::json::sax_parse(it, end, &keys, nlohmann::json::input_format_t::json, false);
    if (keys.complete() || (!keys.failed() && stream.consumed() >= kMaxSniffBytes)) {
        result.format = keys.has("resourceSpans") || keys.has("resourceMetrics") || keys.has("resourceLogs")
            ? TraceFormat::OtlpJson
            : classify(keys);
        // A first record with none of any format's keys (an AIPerf failed
        // request, say) does not make the file seed JSONL: the records after
        // it may say more.
        if (result.format != TraceFormat::SeedJsonl || keys.has("request_id"))
            return result;
    }
    // The first record is not valid JSON, or says nothing: look for the
    // formats' key names in the first MiB after the blank lines; the loader
    // then names what is wrong.
    QFile file(path);
    if (file.open(QIODevice::ReadOnly) && file.seek(contentStart))
        result.format = detectTraceFormat(file.read(qMin<qint64>(file.size() - contentStart, 1024 * 1024)));
    return result;
}
