#pragma once

#include <QString>

// File formats Tracelane reads. Detection looks at content, never at the
// extension: a ".json" file may well be JSON Lines.
enum class TraceFormat {
    Unknown,
    SeedJsonl,     // the seed profiler's flat request records
    SeedJsonArray, // the same records as one JSON array
    OtlpJson,      // OpenTelemetry ExportTraceServiceRequest, document or JSON Lines
    JaegerJson,    // Jaeger query API {data:[...]} or a bare trace
    AnyAgent,      // any-agent AgentTrace
    Langfuse,      // Langfuse trace export {trace, observations}
    AiperfJsonl,   // NVIDIA AIPerf per-request records
    LlmperfJson,   // Ray LLMPerf per-request array
    VllmBenchJson, // vLLM benchmark_serving.py --save-result
    LmbenchCsv,    // llm-d-benchmark LMBench per-request CSV
    AzureCsv,      // Azure LLM inference trace CSV
    MooncakeJsonl, // Mooncake workload trace
};

QString traceFormatName(TraceFormat format);

// Sniffs a piece of text: the first bytes of a file, or one line of it (BOM
// and surrounding whitespace skipped). Looks for the formats' key names
// anywhere in it.
TraceFormat detectTraceFormat(const QByteArray &head);

// What a file's content says it is.
struct FileFormat
{
    TraceFormat format = TraceFormat::Unknown;
    bool unreadable = false; // cannot be opened
    bool blank = false;      // nothing but whitespace (or nothing)
    bool utf16 = false;      // starts with a UTF-16 byte-order mark
};

// Detects a file's format from its first record however long it is: blank
// lines before it are skipped, and the keys of the whole first record (one
// JSON Lines record, a whole document, or an array's first element) are
// looked at, not the first 64 KiB. Reads at most 64 MiB.
FileFormat detectFileFormat(const QString &path);
