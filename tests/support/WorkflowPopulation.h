#pragma once

// Builds span traces in code for tests and benchmarks: each workflow is a
// list of spans with times in ms from the workflow's start, loaded through
// the same SpanTraceBuilder as every span format (linking, orphans,
// workflow summary rows).

#include "io/SpanTraceBuilder.h"
#include "store/TraceStore.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

struct PopulationSpan
{
    std::string id;     // unique within the workflow
    std::string parent; // id of the parent, empty for the root
    std::string name;
    std::string operation; // gen_ai.operation.name: chat, execute_tool, retrieval, invoke_agent...
    std::string service;
    double startMs = 0.0;
    double endMs = 0.0;
};

class WorkflowPopulation
{
public:
    // One workflow whose times start at `originMs` on the trace clock.
    void add(const std::vector<PopulationSpan> &spans, double originMs = 0.0)
    {
        m_workflows.push_back({spans, originMs});
    }
    qsizetype size() const { return qsizetype(m_workflows.size()); }

    std::shared_ptr<TraceStore> store() const
    {
        auto store = std::make_shared<TraceStore>();
        store->format = QStringLiteral("population");
        SpanTraceBuilder builder(*store, QStringLiteral("population"));
        SpanRecord record;
        char buffer[40];
        qint64 line = 0;
        for (size_t w = 0; w < m_workflows.size(); ++w) {
            const auto &[spans, origin] = m_workflows[w];
            std::snprintf(buffer, sizeof buffer, "%032llx", static_cast<unsigned long long>(w + 1));
            const std::string traceId = buffer;
            const auto spanIdOf = [&](const std::string &local) {
                for (size_t i = 0; i < spans.size(); ++i) {
                    if (spans[i].id == local) {
                        char id[40];
                        std::snprintf(id, sizeof id, "%08llx%08llx", static_cast<unsigned long long>(w + 1),
                                      static_cast<unsigned long long>(i + 1));
                        return std::string(id);
                    }
                }
                return std::string("ffffffffffffffff"); // not in the trace: an orphan
            };
            for (const auto &span : spans) {
                record.clear();
                record.traceId = traceId;
                record.spanId = spanIdOf(span.id);
                record.parentSpanId = span.parent.empty() ? std::string() : spanIdOf(span.parent);
                record.name = span.name;
                record.service = span.service;
                record.start = std::llround((origin + span.startMs) * 1e6);
                record.end = std::llround((origin + span.endMs) * 1e6);
                record.line = ++line;
                if (!span.operation.empty()) {
                    auto &attribute = record.attributes.add();
                    attribute.key = "gen_ai.operation.name";
                    attribute.value.type = AttributeValue::Type::String;
                    attribute.value.text = span.operation;
                }
                builder.addSpan(record);
            }
        }
        builder.finish();
        return store;
    }

private:
    struct Workflow
    {
        std::vector<PopulationSpan> spans;
        double originMs = 0.0;
    };
    std::vector<Workflow> m_workflows;
};
