#include "OtlpJsonRequest.h"

#include "io/JsonEventScanner.h"
#include "io/JsonSaxAdapter.h"
#include "io/OtlpSpanReader.h"
#include "io/SpanSink.h"

namespace {

// Holds back every span until the body parsed: a request that turns out to
// be malformed is refused whole, never half-kept.
class DeferredSink final : public SpanSink
{
public:
    qint32 addResource(const RecycledList<SpanAttribute> &attributes) override
    {
        m_resources.push_back(attributes);
        return qint32(m_resources.size() - 1);
    }
    qint32 addScope(std::string_view name, std::string_view version,
                    const RecycledList<SpanAttribute> &attributes) override
    {
        m_scopes.push_back({std::string(name), std::string(version), attributes});
        return qint32(m_scopes.size() - 1);
    }
    void addSpan(const SpanRecord &record) override { m_spans.push_back({record, {}, {}}); }
    void rejectSpan(const SpanRecord &record, const QString &field, const QString &reason) override
    {
        m_spans.push_back({record, field, reason});
    }

    // Replays in order, mapping resource and scope indices to the target's.
    void replay(SpanSink &target)
    {
        std::vector<qint32> resources;
        for (const auto &attributes : m_resources)
            resources.push_back(target.addResource(attributes));
        std::vector<qint32> scopes;
        for (const auto &scope : m_scopes)
            scopes.push_back(target.addScope(scope.name, scope.version, scope.attributes));
        for (auto &span : m_spans) {
            if (span.record.resource >= 0)
                span.record.resource = resources[size_t(span.record.resource)];
            if (span.record.scope >= 0)
                span.record.scope = scopes[size_t(span.record.scope)];
            if (span.reason.isEmpty())
                target.addSpan(span.record);
            else
                target.rejectSpan(span.record, span.field, span.reason);
        }
    }

private:
    struct Scope
    {
        std::string name;
        std::string version;
        RecycledList<SpanAttribute> attributes;
    };
    struct Span
    {
        SpanRecord record;
        QString field;
        QString reason;
    };
    std::vector<RecycledList<SpanAttribute>> m_resources;
    std::vector<Scope> m_scopes;
    std::vector<Span> m_spans;
};

} // namespace

namespace OtlpJsonRequest {

bool decode(std::string_view body, SpanSink &sink, qint64 line, QString *error)
{
    if (body.starts_with("\xEF\xBB\xBF"))
        body.remove_prefix(3);
    DeferredSink fastSpans;
    OtlpSpanReader fastReader(fastSpans, &line);
    std::string scratch;
    fastReader.beginValue();
    const bool fast = JsonEventScanner::scan(body, fastReader, scratch) == JsonEventScanner::Result::Ok;
    fastReader.endValue();

    // When the fast scanner refuses the body, nlohmann (the authority, which
    // also checks UTF-8) reads it again from the start.
    DeferredSink saxSpans;
    OtlpSpanReader saxReader(saxSpans, &line);
    if (!fast) {
        JsonSaxAdapter<OtlpSpanReader> adapter(saxReader);
        saxReader.beginValue();
        nlohmann::json::sax_parse(body, &adapter);
        saxReader.endValue();
        if (adapter.failed()) {
            *error = adapter.message().contains(QLatin1String("unexpected end of input"))
                ? QStringLiteral("the JSON body ends early at byte %1 (truncated): %2")
                      .arg(adapter.position())
                      .arg(adapter.message())
                : QStringLiteral("invalid JSON at byte %1: %2").arg(adapter.position()).arg(adapter.message());
            return false;
        }
    }
    const OtlpSpanReader &reader = fast ? fastReader : saxReader;
    if (!reader.structureError().isEmpty()) {
        *error = reader.structureField().isEmpty()
            ? reader.structureError()
            : QStringLiteral("%1: %2").arg(reader.structureField(), reader.structureError());
        return false;
    }
    if (!reader.sawTraces() && reader.sawOtherSignal()) {
        *error = QStringLiteral("a metrics or logs request, not traces (send it to its own endpoint)");
        return false;
    }
    (fast ? fastSpans : saxSpans).replay(sink);
    return true;
}

} // namespace OtlpJsonRequest
