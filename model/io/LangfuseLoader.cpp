#include "LangfuseLoader.h"

#include "IsoTime.h"
#include "JsonAttribute.h"
#include "JsonDom.h"
#include "SpanDocumentLoad.h"
#include "SpanId.h"
#include "TokenCount.h"
#include "TracelaneContract.h"
#include "store/Utf8.h"

namespace {

using json = nlohmann::json;

using Utf8::fromStd;

std::string stringOf(const json &object, const char *key)
{
    if (!object.contains(key) || !object[key].is_string())
        return {};
    return object[key].get<std::string>();
}

class ObservationReader
{
public:
    explicit ObservationReader(SpanTraceBuilder &builder)
        : m_builder(builder)
    { }

    void readExport(const json &exported, qint64 index)
    {
        if (!exported.is_object() || !exported.contains("observations") || !exported["observations"].is_array()) {
            m_builder.reject(0, QStringLiteral("observations"),
                             QStringLiteral("export %1 has no observations array").arg(index));
            return;
        }
        std::string traceId;
        if (exported.contains("trace") && exported["trace"].is_object())
            SpanId::fromAnyText(stringOf(exported["trace"], "id"), SpanId::kTraceIdDigits, &traceId);
        qint64 position = 0;
        for (const json &observation : exported["observations"])
            readObservation(observation, traceId, position++);
    }

private:
    void readObservation(const json &observation, const std::string &exportTraceId, qint64 index)
    {
        SpanRecord &record = m_record;
        record.clear();
        const QString where = QStringLiteral("observations[%1].").arg(index);
        const auto reject
            = [&](const QString &field, const QString &reason) { m_builder.rejectSpan(record, where + field, reason); };
        if (!observation.is_object()) {
            m_builder.reject(0, where.chopped(1), QStringLiteral("an observation must be a JSON object"));
            return;
        }
        record.traceId = exportTraceId;
        if (observation.contains("traceId") && observation["traceId"].is_string())
            SpanId::fromAnyText(observation["traceId"].get<std::string>(), SpanId::kTraceIdDigits, &record.traceId);
        const std::string id = stringOf(observation, "id");
        if (id.empty()) {
            reject(QStringLiteral("id"), QStringLiteral("missing"));
            return;
        }
        SpanId::fromAnyText(id, SpanId::kSpanIdDigits, &record.spanId);
        const std::string parent = stringOf(observation, "parentObservationId");
        if (!parent.empty())
            SpanId::fromAnyText(parent, SpanId::kSpanIdDigits, &record.parentSpanId);
        record.name = stringOf(observation, "name");
        record.operation = stringOf(observation, "type");
        if (!readTime(observation, "startTime", &record.start, reject))
            return;
        if (observation.contains("endTime") && !observation["endTime"].is_null()) {
            if (!readTime(observation, "endTime", &record.end, reject))
                return;
        } else if (record.operation == "EVENT") {
            record.end = record.start; // events are instants
        } else {
            reject(QStringLiteral("endTime"), QStringLiteral("missing"));
            return;
        }
        if (stringOf(observation, "level") == "ERROR")
            record.status = SpanStatus::Error;
        record.statusMessage = stringOf(observation, "statusMessage");

        readMetadata(observation, record);
        if (observation.contains("usageDetails") && observation["usageDetails"].is_object()) {
            const json &usage = observation["usageDetails"];
            // Usage is optional: a count that breaks TokenCount's rule is not used.
            QString ignored;
            for (const auto &[key, count] :
                 {std::pair{"input", &record.inputTokens}, std::pair{"output", &record.outputTokens}}) {
                qint32 value = 0;
                if (usage.contains(key) && TokenCount::fromJson(usage[key], 0, &value, &ignored))
                    *count = value;
            }
        }
        const std::string model = stringOf(observation, "model");
        if (!model.empty() && !record.findAttribute("gen_ai.request.model")) {
            SpanAttribute &attribute = record.attributes.add();
            attribute.key = "gen_ai.response.model";
            attribute.value.type = AttributeValue::Type::String;
            attribute.value.text = model;
        }
        // Langfuse's completionStartTime is when the first token reached the
        // SDK: the contract's client-side first token.
        const std::string completionStart = stringOf(observation, "completionStartTime");
        qint64 firstToken = 0;
        const std::string firstTokenKey = TracelaneContract::phaseKey(Stamp::FirstTokenClient);
        if (!completionStart.empty() && IsoTime::toNanoseconds(completionStart, &firstToken)
            && !record.findAttribute(firstTokenKey)) {
            SpanAttribute &attribute = record.attributes.add();
            attribute.key = firstTokenKey;
            attribute.value.type = AttributeValue::Type::Int;
            attribute.value.integer = firstToken;
            attribute.value.number = double(firstToken);
            attribute.value.text = std::to_string(firstToken);
        }
        m_builder.addSpan(record);
    }

    template<typename Reject>
    bool readTime(const json &observation, const char *field, qint64 *ns, const Reject &reject)
    {
        if (!observation.contains(field) || observation[field].is_null()) {
            reject(QLatin1String(field), QStringLiteral("missing"));
            return false;
        }
        if (!observation[field].is_string()) {
            reject(QLatin1String(field),
                   QStringLiteral("must be an ISO-8601 time, got %1")
                       .arg(QString::fromUtf8(observation[field].type_name())));
            return false;
        }
        const std::string text = observation[field].get<std::string>();
        if (!IsoTime::toNanoseconds(text, ns)) {
            reject(QLatin1String(field), QStringLiteral("%1 is not an ISO-8601 time").arg(SpanId::describe(text)));
            return false;
        }
        return true;
    }

    // metadata is a JSON string (or, from other exporters, an object) of
    // {attributes, resourceAttributes, scope}.
    void readMetadata(const json &observation, SpanRecord &record)
    {
        if (!observation.contains("metadata"))
            return;
        json parsed;
        const json *metadata = &observation["metadata"];
        if (metadata->is_string()) {
            const JsonDom::Outcome outcome = JsonDom::parse(metadata->get<std::string>(), &parsed);
            if (outcome.tooDeep > 0 && !m_deepNoticed) {
                m_deepNoticed = true;
                m_builder.notice(0,
                                 QStringLiteral("observation %1: metadata holds values nested deeper than %2 "
                                                "levels; they were read as null")
                                     .arg(fromStd(record.spanId))
                                     .arg(JsonDom::kMaxDepth));
            }
            if (!outcome.ok()) {
                m_builder.notice(0,
                                 QStringLiteral("observation %1: metadata is not valid JSON; its attributes are "
                                                "not read")
                                     .arg(fromStd(record.spanId)));
                return;
            }
            metadata = &parsed;
        }
        if (!metadata->is_object())
            return;
        if (metadata->contains("attributes"))
            JsonAttribute::readAll((*metadata)["attributes"], record.attributes, true);
        if (metadata->contains("resourceAttributes"))
            record.resource = m_resources.resource((*metadata)["resourceAttributes"]);
        if (metadata->contains("scope") && (*metadata)["scope"].is_object())
            record.scope = m_resources.scope((*metadata)["scope"]);
    }

    SpanTraceBuilder &m_builder;
    SpanRecord m_record;
    JsonResourceCache m_resources{m_builder, true};
    bool m_deepNoticed = false;
};

} // namespace

namespace LangfuseLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control)
{
    SpanDocumentLoad load(
        path, options, control, QStringLiteral("langfuse"),
        {QStringLiteral("startTime"), QStringLiteral("endTime"), QStringLiteral("parentObservationId")});
    if (!load.read())
        return load.take();
    if (!load.document().parse())
        return load.cancelled();
    const json &root = load.document().root();
    ObservationReader reader(load.builder());
    if (root.is_array()) {
        qint64 index = 0;
        for (const json &exported : root)
            reader.readExport(exported, index++);
    } else if (root.is_object()) {
        reader.readExport(root, 0);
    } else if (!load.document().hadSyntaxError()) {
        load.builder().reject(load.document().firstLine(), {},
                              QStringLiteral("not a Langfuse export: expected {\"trace\", \"observations\"}"));
    }
    return load.finish();
}

} // namespace LangfuseLoader
