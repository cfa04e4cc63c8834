#pragma once

#include <QString>

// File formats Tracelane reads. Detection looks at content, never at the
// extension: a ".json" file may well be JSON Lines.
enum class TraceFormat {
    Unknown,
    SeedJsonl,      // the seed profiler's flat request records
    OtlpJson,       // OpenTelemetry ExportTraceServiceRequest, document or JSON Lines
    JaegerJson,     // Jaeger query API {data:[...]} or a bare trace
    AnyAgent,       // any-agent AgentTrace
    Langfuse,       // Langfuse trace export {trace, observations}
    AiperfJsonl,    // NVIDIA AIPerf per-request records
    LlmperfJson,    // Ray LLMPerf per-request array
    VllmBenchJson,  // vLLM benchmark_serving.py --save-result
    LmbenchCsv,     // llm-d-benchmark LMBench per-request CSV
    AzureCsv,       // Azure LLM inference trace CSV
    MooncakeJsonl,  // Mooncake workload trace
};

QString traceFormatName(TraceFormat format);

// Sniffs the first bytes of a file (BOM and whitespace skipped).
TraceFormat detectTraceFormat(const QByteArray &head);
