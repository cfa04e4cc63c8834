#include "ConfigurationManifest.h"

#include "store/TraceStore.h"
#include "store/Utf8.h"

#include <QRegularExpression>

#include <algorithm>
#include <map>

namespace {

// Key -> distinct values in first-seen order, keys in first-seen order.
class ValueCollector
{
public:
    void add(const QString &key, const QString &value)
    {
        if (value.isEmpty())
            return;
        auto it
            = std::find_if(m_entries.begin(), m_entries.end(), [&](const auto &entry) { return entry.first == key; });
        if (it == m_entries.end()) {
            m_entries.emplace_back(key, QStringList{value});
        } else if (!it->second.contains(value)) {
            it->second.append(value);
        }
    }

    void appendTo(std::vector<ManifestEntry> &entries) const
    {
        for (const auto &[key, values] : m_entries) {
            if (qsizetype(entries.size()) >= ConfigurationManifest::kMaxEntries)
                return;
            QString text = values.mid(0, ConfigurationManifest::kMaxValues).join(QStringLiteral(", "));
            if (values.size() > ConfigurationManifest::kMaxValues)
                text += QStringLiteral(" (+%1 more)").arg(values.size() - ConfigurationManifest::kMaxValues);
            entries.push_back({key, text, true});
        }
    }

private:
    std::vector<std::pair<QString, QStringList>> m_entries;
};

bool isResourceConfiguration(std::string_view key)
{
    static constexpr std::string_view prefixes[]
        = {"service.",     "host.",          "deployment.",      "cloud.",
           "k8s.cluster.", "telemetry.sdk.", "process.runtime.", "container.image."};
    return std::any_of(std::begin(prefixes), std::end(prefixes),
                       [key](std::string_view prefix) { return key.substr(0, prefix.size()) == prefix; });
}

constexpr std::string_view kModelCallKeys[] = {
    "gen_ai.system",  "gen_ai.provider.name", "gen_ai.request.model",      "gen_ai.response.model",
    "server.address", "server.port",          "gen_ai.request.max_tokens", "gen_ai.request.temperature",
};

// Enough model calls to name every model and server a trace realistically uses.
constexpr qsizetype kScannedModelCalls = 20'000;

} // namespace

namespace ConfigurationManifest {

std::vector<ManifestEntry> fromTrace(const TraceStore &store, const QString &trace)
{
    std::vector<ManifestEntry> entries;
    if (!trace.isEmpty())
        entries.push_back({QStringLiteral("trace"), trace, true});
    if (!store.format.isEmpty())
        entries.push_back({QStringLiteral("format"), store.format, true});

    const SpanTable &spans = store.spans;
    ValueCollector resource;
    for (const SpanTable::AttributeRange &range : spans.resources()) {
        for (quint32 i = range.begin; i < range.end; ++i) {
            const SpanTable::Attribute &attribute = spans.sharedAttributes()[i];
            const std::string_view key = spans.strings().view(attribute.key());
            if (isResourceConfiguration(key))
                resource.add(spans.text(attribute.key()), spans.text(attribute.value));
        }
    }
    resource.appendTo(entries);

    ValueCollector calls;
    qsizetype scanned = 0;
    for (const SpanTable::ModelCall &call : spans.modelCalls()) {
        if (++scanned > kScannedModelCalls)
            break;
        for (const std::string_view key : kModelCallKeys)
            calls.add(Utf8::fromStd(key), spans.attributeText(call.span, key));
    }
    calls.appendTo(entries);

    static const QRegularExpression configurationName(
        QStringLiteral("model|engine|server|version|gpu|hardware|backend|quantization|dtype|instance_type"),
        QRegularExpression::CaseInsensitiveOption);
    ValueCollector flat;
    for (const AttributeColumn &column : store.requests.attributes()) {
        if (column.isNumeric() || !configurationName.match(column.name()).hasMatch())
            continue;
        for (qsizetype code = 1; code < column.valueCount(); ++code)
            flat.add(column.name(), column.values()[code]);
    }
    flat.appendTo(entries);
    return entries;
}

std::vector<ManifestEntry> merged(const std::vector<ManifestEntry> &current, const std::vector<ManifestEntry> &measured)
{
    std::vector<ManifestEntry> result;
    for (const ManifestEntry &entry : measured) {
        const bool personHasKey = std::any_of(current.begin(), current.end(), [&](const ManifestEntry &own) {
            return !own.fromTrace && own.key == entry.key;
        });
        if (!personHasKey)
            result.push_back(entry);
    }
    for (const ManifestEntry &entry : current) {
        if (!entry.fromTrace)
            result.push_back(entry);
    }
    return result;
}

} // namespace ConfigurationManifest
