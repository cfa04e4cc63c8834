#include "RecordJson.h"

#include "JsonReader.h"

using Json = nlohmann::ordered_json;
using JsonText::number;
using JsonText::utf8;

namespace {

// Writing -------------------------------------------------------------------

Json objectiveJson(const Objective &objective)
{
    return Json{{"metric", utf8(metricKey(objective.metric))},
                {"boundary", utf8(boundaryKey(objective.boundary))},
                {"percentile", number(objective.q)},
                {"threshold_ms", number(objective.thresholdMs)}};
}

Json spreadJson(const TokenSpread &spread)
{
    return Json{{"n", spread.n}, {"p50", number(spread.p50)}, {"p95", number(spread.p95)}, {"max", number(spread.max)}};
}

Json textsJson(const QStringList &texts)
{
    Json array = Json::array();
    for (const QString &text : texts)
        array.push_back(utf8(text));
    return array;
}

Json coordinatesJson(const Coordinates &coordinates)
{
    const ArrivalProcess &arrival = coordinates.arrival;
    const RequestShape &shape = coordinates.shape;
    Json classes = Json::array();
    for (const ClassMix &mix : shape.classes) {
        Json values = Json::array();
        for (const auto &[value, share] : mix.shares)
            values.push_back(Json{{"value", utf8(value)}, {"share", number(share)}});
        classes.push_back(
            Json{{"dimension", utf8(mix.dimension)}, {"values", values}, {"other_values", mix.otherValues}});
    }
    return Json{
        {"boundary", utf8(boundaryKey(coordinates.boundary))},
        {"metric", utf8(metricKey(coordinates.metric))},
        {"percentile", number(coordinates.q)},
        {"arrival_process",
         Json{{"requests", arrival.requests},
              {"window_s", number(arrival.windowSeconds)},
              {"rate_per_s", number(arrival.ratePerSecond)},
              {"gap_cv", number(arrival.gapCv)},
              {"peak_per_s", number(arrival.peakPerSecond)},
              {"peak_in_flight", arrival.peakInFlight},
              {"mean_in_flight", number(arrival.meanInFlight)},
              {"note", utf8(coordinates.arrivalNote)}}},
        {"request_shape",
         Json{{"prompt_tokens", spreadJson(shape.prompt)},
              {"output_tokens", spreadJson(shape.output)},
              {"classes", classes},
              {"workflows", shape.workflows},
              {"spans_per_workflow_p50", number(shape.spansPerWorkflowP50)},
              {"spans_per_workflow_max", shape.spansPerWorkflowMax},
              {"model_calls_per_workflow_p50", number(shape.modelCallsPerWorkflowP50)},
              {"note", utf8(coordinates.shapeNote)}}},
    };
}

Json boundariesJson(const TraceBoundaries &boundaries)
{
    Json phases = Json::array();
    for (const auto &[phase, observed] : boundaries.phases)
        phases.push_back(Json{{"phase", utf8(phaseKey(phase))}, {"observed", observed}});
    Json reasons = Json::array();
    for (const ReasonCount &reason : boundaries.rejectedReasons)
        reasons.push_back(Json{{"reason", utf8(reason.reason)}, {"count", reason.count}});
    return Json{{"trace", utf8(boundaries.trace)},
                {"format", utf8(boundaries.format)},
                {"requests", boundaries.requests},
                {"spans", boundaries.spans},
                {"workflows", boundaries.workflows},
                {"phases", phases},
                {"rejected", boundaries.rejected},
                {"rejected_reasons", reasons},
                {"clock_caveats", textsJson(boundaries.clockCaveats)},
                {"note", utf8(boundaries.note)}};
}

// Reading -------------------------------------------------------------------

struct Reader : JsonReader
{
    void metric(const Json &object, const char *key, const QString &path, Metric *value)
    {
        QString text;
        JsonReader::text(object, key, path, &text);
        if (!text.isEmpty() && !metricFromKey(text, value))
            fail(join(path, key), QStringLiteral("unknown metric '%1' (ttft, itl, e2e or a phase)").arg(text));
    }

    void boundary(const Json &object, const char *key, const QString &path, Boundary *value)
    {
        QString text;
        JsonReader::text(object, key, path, &text);
        if (!text.isEmpty() && !boundaryFromKey(text, value))
            fail(join(path, key), QStringLiteral("unknown boundary '%1' (client, server or engine)").arg(text));
    }

    void percentile(const Json &object, const char *key, const QString &path, double *value)
    {
        number(object, key, path, value);
        if (ok() && object.contains(key) && !(*value > 0.0 && *value < 1.0))
            fail(join(path, key), QStringLiteral("a percentile is a fraction between 0 and 1, got %1").arg(*value));
    }

    Objective objective(const Json &json, const QString &path)
    {
        Objective objective;
        metric(json, "metric", path, &objective.metric);
        boundary(json, "boundary", path, &objective.boundary);
        percentile(json, "percentile", path, &objective.q);
        number(json, "threshold_ms", path, &objective.thresholdMs);
        return objective;
    }

    TokenSpread spread(const Json &parent, const char *key, const QString &path)
    {
        TokenSpread spread;
        if (const Json *json = object(parent, key, path)) {
            const QString own = join(path, key);
            integer(*json, "n", own, &spread.n);
            number(*json, "p50", own, &spread.p50);
            number(*json, "p95", own, &spread.p95);
            number(*json, "max", own, &spread.max);
        }
        return spread;
    }

    template<typename Item, typename ReadItem>
    void items(const Json &parent, const char *key, const QString &path, std::vector<Item> *out, ReadItem readItem)
    {
        const Json *list = array(parent, key, path);
        if (!list)
            return;
        out->clear();
        for (size_t i = 0; i < list->size() && ok(); ++i) {
            const QString itemPath = index(join(path, key), i);
            if (!(*list)[i].is_object()) {
                fail(itemPath, QStringLiteral("expected an object, got %1").arg(kindOf((*list)[i])));
                return;
            }
            out->push_back(readItem((*list)[i], itemPath));
        }
    }

    void coordinates(const Json &json, const QString &path, Coordinates *coordinates)
    {
        boundary(json, "boundary", path, &coordinates->boundary);
        metric(json, "metric", path, &coordinates->metric);
        percentile(json, "percentile", path, &coordinates->q);
        if (const Json *arrival = object(json, "arrival_process", path)) {
            const QString own = join(path, "arrival_process");
            ArrivalProcess &a = coordinates->arrival;
            integer(*arrival, "requests", own, &a.requests);
            number(*arrival, "window_s", own, &a.windowSeconds);
            number(*arrival, "rate_per_s", own, &a.ratePerSecond);
            number(*arrival, "gap_cv", own, &a.gapCv);
            number(*arrival, "peak_per_s", own, &a.peakPerSecond);
            integer(*arrival, "peak_in_flight", own, &a.peakInFlight);
            number(*arrival, "mean_in_flight", own, &a.meanInFlight);
            text(*arrival, "note", own, &coordinates->arrivalNote);
        }
        if (const Json *shapeJson = object(json, "request_shape", path)) {
            const QString own = join(path, "request_shape");
            RequestShape &shape = coordinates->shape;
            shape.prompt = spread(*shapeJson, "prompt_tokens", own);
            shape.output = spread(*shapeJson, "output_tokens", own);
            items(*shapeJson, "classes", own, &shape.classes, [this](const Json &item, const QString &itemPath) {
                ClassMix mix;
                text(item, "dimension", itemPath, &mix.dimension);
                std::vector<std::pair<QString, double>> shares;
                items(item, "values", itemPath, &shares, [this](const Json &value, const QString &valuePath) {
                    std::pair<QString, double> share;
                    text(value, "value", valuePath, &share.first);
                    number(value, "share", valuePath, &share.second);
                    return share;
                });
                mix.shares = std::move(shares);
                integer(item, "other_values", itemPath, &mix.otherValues);
                return mix;
            });
            integer(*shapeJson, "workflows", own, &shape.workflows);
            number(*shapeJson, "spans_per_workflow_p50", own, &shape.spansPerWorkflowP50);
            integer(*shapeJson, "spans_per_workflow_max", own, &shape.spansPerWorkflowMax);
            number(*shapeJson, "model_calls_per_workflow_p50", own, &shape.modelCallsPerWorkflowP50);
            text(*shapeJson, "note", own, &coordinates->shapeNote);
        }
    }

    void boundaries(const Json &json, const QString &path, TraceBoundaries *boundaries)
    {
        text(json, "trace", path, &boundaries->trace);
        text(json, "format", path, &boundaries->format);
        integer(json, "requests", path, &boundaries->requests);
        integer(json, "spans", path, &boundaries->spans);
        integer(json, "workflows", path, &boundaries->workflows);
        items(json, "phases", path, &boundaries->phases, [this](const Json &item, const QString &itemPath) {
            std::pair<Phase, qint64> observed{Phase::Queue, 0};
            QString key;
            text(item, "phase", itemPath, &key);
            if (!phaseFromKey(key, &observed.first))
                fail(join(itemPath, "phase"), QStringLiteral("unknown phase '%1'").arg(key));
            integer(item, "observed", itemPath, &observed.second);
            return observed;
        });
        integer(json, "rejected", path, &boundaries->rejected);
        items(json, "rejected_reasons", path, &boundaries->rejectedReasons,
              [this](const Json &item, const QString &itemPath) {
                  ReasonCount reason;
                  text(item, "reason", itemPath, &reason.reason);
                  integer(item, "count", itemPath, &reason.count);
                  return reason;
              });
        texts(json, "clock_caveats", path, &boundaries->clockCaveats);
        text(json, "note", path, &boundaries->note);
    }
};

} // namespace

namespace RecordJson {

Json toJson(const DiagnosisRecord &record)
{
    Json objectives = Json::array();
    for (const Objective &objective : record.objectives)
        objectives.push_back(objectiveJson(objective));
    Json checks = Json::array();
    for (const ObjectiveCheck &check : record.checks) {
        Json json = objectiveJson(check.objective);
        json["observed_at"] = utf8(boundaryKey(check.observedAt));
        json["n"] = check.n;
        json["value_ms"] = number(check.valueMs);
        json["lower_ms"] = number(check.lowerMs);
        json["upper_ms"] = number(check.upperMs);
        json["met"] = check.met;
        json["decided"] = check.decided;
        checks.push_back(json);
    }
    Json configuration = Json::array();
    for (const ManifestEntry &entry : record.configuration) {
        configuration.push_back(
            Json{{"key", utf8(entry.key)}, {"value", utf8(entry.value)}, {"from_trace", entry.fromTrace}});
    }
    return Json{
        {"format", kFormat},
        {"version", kVersion},
        {"title", utf8(record.title)},
        {"author", utf8(record.author)},
        {"date", utf8(record.date)},
        {"claim", utf8(record.claim)},
        {"objectives", objectives},
        {"measured_on", utf8(record.measuredOn)},
        {"checks", checks},
        {"coordinates", coordinatesJson(record.coordinates)},
        {"configuration", configuration},
        {"trace_boundaries", boundariesJson(record.boundaries)},
        {"workload_note", utf8(record.workloadNote)},
        {"suspected_phase",
         Json{{"source", utf8(SuspectedPhase::sourceKey(record.suspect.source))},
              {"phase", utf8(record.suspect.phase)},
              {"evidence", utf8(record.suspect.evidence)}}},
        {"experiment", Json{{"symptom", utf8(record.experiment.symptom)}, {"test", utf8(record.experiment.test)}}},
        {"stop_rule",
         Json{{"material_share", number(record.stopRule.materialShare)},
              {"minimum_gain_ms", number(record.stopRule.minimumGainMs)},
              {"representative_load", utf8(record.stopRule.representativeLoad)},
              {"guardrails", textsJson(record.stopRule.guardrails)}}},
        {"verdict",
         Json{{"outcome", utf8(StopVerdict::outcomeKey(record.verdict.outcome))},
              {"candidate", utf8(record.verdict.candidate)},
              {"baseline_ms", number(record.verdict.baselineMs)},
              {"candidate_ms", number(record.verdict.candidateMs)},
              {"detail", utf8(record.verdict.detail)}}},
    };
}

QByteArray write(const DiagnosisRecord &record)
{
    const std::string text = toJson(record).dump(2) + '\n';
    return QByteArray(text.data(), qsizetype(text.size()));
}

bool checkVersion(const Json &json, const char *format, int version, const QString &what, QString *error)
{
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    if (!json.is_object())
        return fail(
            QStringLiteral("not a Tracelane %1: expected a JSON object, got %2").arg(what, JsonReader::kindOf(json)));
    const auto formatIt = json.find("format");
    if (formatIt == json.end() || !formatIt->is_string() || formatIt->get<std::string>() != format) {
        return fail(
            QStringLiteral("not a Tracelane %1: \"format\" must be \"%2\"").arg(what, QString::fromUtf8(format)));
    }
    const auto versionIt = json.find("version");
    if (versionIt == json.end() || !versionIt->is_number_integer() || versionIt->get<qint64>() < 1)
        return fail(QStringLiteral("version: expected a whole number from 1"));
    const qint64 found = versionIt->get<qint64>();
    if (found > version) {
        return fail(QStringLiteral("this %1 was written by a newer Tracelane (%1 version %2); this build reads "
                                   "versions up to %3. Open it with a newer Tracelane.")
                        .arg(what)
                        .arg(found)
                        .arg(version));
    }
    return true;
}

bool fromJson(const Json &json, DiagnosisRecord *record, QString *error)
{
    if (!checkVersion(json, kFormat, kVersion, QStringLiteral("diagnosis record"), error))
        return false;
    Reader in;
    DiagnosisRecord result;
    const QString root;
    in.text(json, "title", root, &result.title);
    in.text(json, "author", root, &result.author);
    in.text(json, "date", root, &result.date);
    in.text(json, "claim", root, &result.claim);
    in.items(json, "objectives", root, &result.objectives,
             [&in](const Json &item, const QString &path) { return in.objective(item, path); });
    in.text(json, "measured_on", root, &result.measuredOn);
    in.items(json, "checks", root, &result.checks, [&in](const Json &item, const QString &path) {
        ObjectiveCheck check;
        check.objective = in.objective(item, path);
        in.boundary(item, "observed_at", path, &check.observedAt);
        in.integer(item, "n", path, &check.n);
        in.number(item, "value_ms", path, &check.valueMs);
        in.number(item, "lower_ms", path, &check.lowerMs);
        in.number(item, "upper_ms", path, &check.upperMs);
        in.boolean(item, "met", path, &check.met);
        in.boolean(item, "decided", path, &check.decided);
        return check;
    });
    if (const Json *coordinates = in.object(json, "coordinates", root))
        in.coordinates(*coordinates, QStringLiteral("coordinates"), &result.coordinates);
    in.items(json, "configuration", root, &result.configuration, [&in](const Json &item, const QString &path) {
        ManifestEntry entry;
        in.text(item, "key", path, &entry.key);
        in.text(item, "value", path, &entry.value);
        in.boolean(item, "from_trace", path, &entry.fromTrace);
        return entry;
    });
    if (const Json *boundaries = in.object(json, "trace_boundaries", root))
        in.boundaries(*boundaries, QStringLiteral("trace_boundaries"), &result.boundaries);
    in.text(json, "workload_note", root, &result.workloadNote);
    if (const Json *suspect = in.object(json, "suspected_phase", root)) {
        const QString path = QStringLiteral("suspected_phase");
        QString source;
        in.text(*suspect, "source", path, &source);
        if (!source.isEmpty() && !SuspectedPhase::sourceFromKey(source, &result.suspect.source))
            in.fail(path + QStringLiteral(".source"),
                    QStringLiteral("unknown source '%1' (none, phase-attribution, critical-path, person)").arg(source));
        in.text(*suspect, "phase", path, &result.suspect.phase);
        in.text(*suspect, "evidence", path, &result.suspect.evidence);
    }
    if (const Json *experiment = in.object(json, "experiment", root)) {
        in.text(*experiment, "symptom", QStringLiteral("experiment"), &result.experiment.symptom);
        in.text(*experiment, "test", QStringLiteral("experiment"), &result.experiment.test);
    }
    if (const Json *stop = in.object(json, "stop_rule", root)) {
        const QString path = QStringLiteral("stop_rule");
        in.number(*stop, "material_share", path, &result.stopRule.materialShare);
        in.number(*stop, "minimum_gain_ms", path, &result.stopRule.minimumGainMs);
        in.text(*stop, "representative_load", path, &result.stopRule.representativeLoad);
        in.texts(*stop, "guardrails", path, &result.stopRule.guardrails);
    }
    if (const Json *verdict = in.object(json, "verdict", root)) {
        const QString path = QStringLiteral("verdict");
        QString outcome;
        in.text(*verdict, "outcome", path, &outcome);
        if (!outcome.isEmpty() && !StopVerdict::outcomeFromKey(outcome, &result.verdict.outcome))
            in.fail(
                path + QStringLiteral(".outcome"),
                QStringLiteral("unknown outcome '%1' (not-judged, worked, did-not-work, inconclusive)").arg(outcome));
        in.text(*verdict, "candidate", path, &result.verdict.candidate);
        in.number(*verdict, "baseline_ms", path, &result.verdict.baselineMs);
        in.number(*verdict, "candidate_ms", path, &result.verdict.candidateMs);
        in.text(*verdict, "detail", path, &result.verdict.detail);
    }
    if (!in.ok()) {
        if (error)
            *error = in.error();
        return false;
    }
    *record = std::move(result);
    return true;
}

bool read(const QByteArray &bytes, DiagnosisRecord *record, QString *error)
{
    Json json = Json::parse(bytes.begin(), bytes.end(), nullptr, false);
    if (json.is_discarded()) {
        // Parse again with exceptions for the position of the problem.
        try {
            json = Json::parse(bytes.begin(), bytes.end());
        } catch (const Json::parse_error &problem) {
            if (error)
                *error = QStringLiteral("not valid JSON (byte %1): %2")
                             .arg(problem.byte)
                             .arg(QString::fromUtf8(problem.what()));
            return false;
        }
    }
    return fromJson(json, record, error);
}

} // namespace RecordJson
