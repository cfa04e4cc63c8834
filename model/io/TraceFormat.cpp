#include "TraceFormat.h"

QString traceFormatName(TraceFormat format)
{
    switch (format) {
    case TraceFormat::SeedJsonl:
        return QStringLiteral("seed JSONL");
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
    if (has("\"inter_chunk_latency\"") || has("\"request_latency\"") || has("\"time_to_first_token\""))
        return TraceFormat::AiperfJsonl;
    if (has("\"ttft_s\"") || has("\"end_to_end_latency_s\""))
        return TraceFormat::LlmperfJson;
    // The per-request arrays can push "ttfts" beyond the sniffed head in a
    // long run; the run-level keys come first.
    if (head.startsWith('{') && (has("\"ttfts\"") || has("\"input_lens\"")
                                 || (has("\"request_throughput\"") && has("\"num_prompts\""))))
        return TraceFormat::VllmBenchJson;
    if (head.startsWith('{'))
        return TraceFormat::SeedJsonl;   // flat records; the loader says what is missing
    return TraceFormat::Unknown;
}
