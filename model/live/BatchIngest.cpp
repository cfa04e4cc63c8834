#include "BatchIngest.h"

#include "io/SpanTraceBuilder.h"

namespace BatchIngest {

void feed(const ExportBatch &batch, SpanTraceBuilder &builder)
{
    // Only the resources and scopes some accepted span uses reach the store.
    std::vector<qint32> resources(batch.resources.size(), -1);
    std::vector<qint32> scopes(batch.scopes.size(), -1);
    SpanRecord record;
    for (const SpanRecord &span : batch.spans) {
        qint32 resource = -1;
        if (span.resource >= 0 && size_t(span.resource) < resources.size()) {
            qint32 &mapped = resources[size_t(span.resource)];
            if (mapped < 0)
                mapped = builder.addResource(batch.resources[size_t(span.resource)]);
            resource = mapped;
        }
        qint32 scope = -1;
        if (span.scope >= 0 && size_t(span.scope) < scopes.size()) {
            qint32 &mapped = scopes[size_t(span.scope)];
            if (mapped < 0) {
                const auto &s = batch.scopes[size_t(span.scope)];
                mapped = builder.addScope(s.name, s.version, s.attributes);
            }
            scope = mapped;
        }
        if (resource == span.resource && scope == span.scope) {
            builder.addSpan(span);
            continue;
        }
        record = span;
        record.resource = resource;
        record.scope = scope;
        builder.addSpan(record);
    }
}

} // namespace BatchIngest
