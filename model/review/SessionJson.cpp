#include "SessionJson.h"

#include "JsonReader.h"
#include "RecordJson.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>

#include <cmath>
#include <limits>

using Json = nlohmann::ordered_json;
using JsonText::number;
using JsonText::utf8;

namespace {

Json texts(const QStringList &list)
{
    Json array = Json::array();
    for (const QString &text : list)
        array.push_back(utf8(text));
    return array;
}

// A trace opened from a server (clickhouse://, clickhouses://) is named by
// its URL, kept as it is; a file by its path relative to the session.
bool isServerUrl(const QString &path)
{
    return path.startsWith(QLatin1String("clickhouse://")) || path.startsWith(QLatin1String("clickhouses://"));
}

Json traceJson(const SessionTrace &trace, const QDir &dir)
{
    Json json{
        {"path",
         utf8(isServerUrl(trace.path) ? trace.path : QDir::fromNativeSeparators(dir.relativeFilePath(trace.path)))}};
    if (trace.fingerprint.isKnown()) {
        json["bytes"] = trace.fingerprint.bytes;
        json["sha256"] = utf8(trace.fingerprint.sha256);
    }
    return json;
}

// {"path", "bytes", "sha256"}; the fingerprint is optional (a session
// written by hand), but when present it must be whole.
void readTrace(JsonReader &in, const Json &json, const QString &path, const QDir &dir, SessionTrace *trace)
{
    QString relative;
    in.text(json, "path", path, &relative);
    in.integer(json, "bytes", path, &trace->fingerprint.bytes);
    in.text(json, "sha256", path, &trace->fingerprint.sha256);
    if (!in.ok())
        return;
    if (relative.isEmpty()) {
        in.fail(path, QStringLiteral("a trace needs a \"path\""));
        return;
    }
    const bool hasBytes = json.contains("bytes");
    const bool hasHash = json.contains("sha256");
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
    if (hasBytes != hasHash || (hasBytes && trace->fingerprint.bytes < 0))
        in.fail(path, QStringLiteral("\"bytes\" (0 or more) and \"sha256\" come together"));
    else if (hasHash && !hex.match(trace->fingerprint.sha256).hasMatch())
        in.fail(JsonReader::join(path, "sha256"), QStringLiteral("expected 64 lowercase hex digits"));
    trace->path = isServerUrl(relative) ? relative : QDir::cleanPath(dir.absoluteFilePath(relative));
}

QString base64(const QByteArray &bytes)
{
    return QString::fromLatin1(bytes.toBase64());
}

Json compareJson(const Session &session, const QDir &dir)
{
    Json compare{{"classes", texts(session.compareClasses)},
                 {"percentile", number(session.compareQ)},
                 {"slo_ms", number(session.compareSloMs)}};
    if (!session.candidate.isEmpty())
        compare["candidate"] = traceJson(session.candidate, dir);
    if (session.hasComparePrediction)
        compare["predicted_saving_ms"] = number(session.comparePredictedMs);
    return compare;
}

} // namespace

namespace SessionJson {

QByteArray write(const Session &session, const QString &folder)
{
    const QDir dir(folder);
    Json traces = Json::array();
    for (const SessionTrace &trace : session.traces)
        traces.push_back(traceJson(trace, dir));
    Json notes = Json::array();
    for (const SessionNote &note : session.notes) {
        notes.push_back(
            Json{{"request", utf8(note.requestId)}, {"span", utf8(note.spanId)}, {"text", utf8(note.text)}});
    }
    Json json{
        {"format", kFormat},
        {"version", kVersion},
        {"traces", traces},
        {"view",
         Json{{"boundary", utf8(boundaryKey(session.boundary))},
              {"metric", utf8(metricKey(session.metric))},
              {"time_axis", session.alignedTime ? "aligned" : "absolute"},
              {"time_window_ns", Json::array({session.timeBegin, session.timeEnd})},
              {"lanes", Json{{"first", number(session.laneFirst)}, {"count", number(session.laneCount)}}},
              {"lane_order",
               Json{{"by", utf8(session.laneOrder)},
                    {"descending", session.laneDescending},
                    {"group_by", utf8(session.laneGroupBy)}}}}},
        {"slice",
         Json{{"active", session.hasSlice},
              {"label", utf8(session.sliceLabel)},
              {"filter",
               Json{{"text", utf8(session.filterText)},
                    {"attribute", utf8(session.filterAttribute)},
                    {"value", utf8(session.filterValue)}}},
              {"requests", texts(session.sliceRequests)}}},
        {"selection", Json{{"requests", texts(session.selection)}, {"current", utf8(session.currentRequest)}}},
        {"classes",
         Json{{"dimensions", texts(session.classDimensions)},
              {"prompt_bands", utf8(session.promptBands)},
              {"output_bands", utf8(session.outputBands)}}},
        {"exceedance",
         Json{{"percentile", number(session.exceedanceQ)},
              {"order", utf8(session.exceedanceOrder)},
              {"member", utf8(session.exceedanceMember)}}},
        {"compare", compareJson(session, dir)},
        {"workflow",
         Json{{"trace", utf8(session.workflow)},
              {"what_ifs", texts(session.whatIfs)},
              {"population",
               Json{{"active", session.whatIfPopulation}, {"percentile", number(session.whatIfPopulationQ)}}}}},
        {"layout",
         Json{{"state", utf8(base64(session.windowState))}, {"geometry", utf8(base64(session.windowGeometry))}}},
        {"notes", notes},
    };
    if (session.hasRecord)
        json["record"] = RecordJson::toJson(session.record);
    const std::string text = json.dump(2) + '\n';
    return QByteArray(text.data(), qsizetype(text.size()));
}

bool read(const QByteArray &bytes, const QString &folder, Session *session, QString *error)
{
    Json json = Json::parse(bytes.begin(), bytes.end(), nullptr, false);
    if (json.is_discarded()) {
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
    if (!RecordJson::checkVersion(json, kFormat, kVersion, QStringLiteral("session"), error))
        return false;
    JsonReader in;
    Session result;
    const QDir dir(folder);
    if (const Json *traces = in.array(json, "traces", QString())) {
        for (size_t i = 0; i < traces->size() && in.ok(); ++i) {
            SessionTrace trace;
            readTrace(in, (*traces)[i], JsonReader::index(QStringLiteral("traces"), i), dir, &trace);
            result.traces.push_back(trace);
        }
    }
    if (const Json *view = in.object(json, "view", QString())) {
        const QString path = QStringLiteral("view");
        QString key;
        in.text(*view, "boundary", path, &key);
        if (!key.isEmpty() && !boundaryFromKey(key, &result.boundary))
            in.fail(path + QStringLiteral(".boundary"), QStringLiteral("unknown boundary '%1'").arg(key));
        key.clear();
        in.text(*view, "metric", path, &key);
        if (!key.isEmpty() && !metricFromKey(key, &result.metric))
            in.fail(path + QStringLiteral(".metric"), QStringLiteral("unknown metric '%1'").arg(key));
        QString axis;
        in.text(*view, "time_axis", path, &axis);
        result.alignedTime = axis == QStringLiteral("aligned");
        if (const Json *window = in.array(*view, "time_window_ns", path)) {
            if (window->size() != 2 || !(*window)[0].is_number_integer() || !(*window)[1].is_number_integer())
                in.fail(path + QStringLiteral(".time_window_ns"), QStringLiteral("expected [begin, end] in whole ns"));
            else {
                result.timeBegin = (*window)[0].get<qint64>();
                result.timeEnd = (*window)[1].get<qint64>();
            }
        }
        if (const Json *lanes = in.object(*view, "lanes", path)) {
            in.number(*lanes, "first", path + QStringLiteral(".lanes"), &result.laneFirst);
            in.number(*lanes, "count", path + QStringLiteral(".lanes"), &result.laneCount);
        }
        if (const Json *order = in.object(*view, "lane_order", path)) {
            const QString own = path + QStringLiteral(".lane_order");
            in.text(*order, "by", own, &result.laneOrder);
            in.boolean(*order, "descending", own, &result.laneDescending);
            in.text(*order, "group_by", own, &result.laneGroupBy);
        }
    }
    if (const Json *slice = in.object(json, "slice", QString())) {
        const QString path = QStringLiteral("slice");
        in.boolean(*slice, "active", path, &result.hasSlice);
        in.text(*slice, "label", path, &result.sliceLabel);
        if (const Json *filter = in.object(*slice, "filter", path)) {
            in.text(*filter, "text", path + QStringLiteral(".filter"), &result.filterText);
            in.text(*filter, "attribute", path + QStringLiteral(".filter"), &result.filterAttribute);
            in.text(*filter, "value", path + QStringLiteral(".filter"), &result.filterValue);
        }
        in.texts(*slice, "requests", path, &result.sliceRequests);
    }
    if (const Json *selection = in.object(json, "selection", QString())) {
        in.texts(*selection, "requests", QStringLiteral("selection"), &result.selection);
        in.text(*selection, "current", QStringLiteral("selection"), &result.currentRequest);
    }
    if (const Json *classes = in.object(json, "classes", QString())) {
        in.texts(*classes, "dimensions", QStringLiteral("classes"), &result.classDimensions);
        in.text(*classes, "prompt_bands", QStringLiteral("classes"), &result.promptBands);
        in.text(*classes, "output_bands", QStringLiteral("classes"), &result.outputBands);
    }
    if (const Json *exceedance = in.object(json, "exceedance", QString())) {
        in.number(*exceedance, "percentile", QStringLiteral("exceedance"), &result.exceedanceQ);
        in.text(*exceedance, "order", QStringLiteral("exceedance"), &result.exceedanceOrder);
        in.text(*exceedance, "member", QStringLiteral("exceedance"), &result.exceedanceMember);
        if (in.ok() && !(result.exceedanceQ > 0.0 && result.exceedanceQ < 1.0))
            in.fail(QStringLiteral("exceedance.percentile"),
                    QStringLiteral("a percentile is a fraction between 0 and 1, got %1").arg(result.exceedanceQ));
    }
    if (const Json *compare = in.object(json, "compare", QString())) {
        const QString path = QStringLiteral("compare");
        if (const Json *candidate = in.object(*compare, "candidate", path))
            readTrace(in, *candidate, QStringLiteral("compare.candidate"), dir, &result.candidate);
        in.texts(*compare, "classes", path, &result.compareClasses);
        in.number(*compare, "percentile", path, &result.compareQ);
        if (in.ok() && !(result.compareQ > 0.0 && result.compareQ < 1.0))
            in.fail(path + QStringLiteral(".percentile"),
                    QStringLiteral("a percentile is a fraction between 0 and 1, got %1").arg(result.compareQ));
        in.number(*compare, "slo_ms", path, &result.compareSloMs);
        if (in.ok() && !(result.compareSloMs >= 0.0))
            in.fail(path + QStringLiteral(".slo_ms"),
                    QStringLiteral("an SLO is 0 (none) or a positive number of ms, got %1").arg(result.compareSloMs));
        result.comparePredictedMs = std::numeric_limits<double>::quiet_NaN();
        in.number(*compare, "predicted_saving_ms", path, &result.comparePredictedMs);
        result.hasComparePrediction = std::isfinite(result.comparePredictedMs); // absent or null: none
        if (!result.hasComparePrediction)
            result.comparePredictedMs = 0.0;
    }
    if (const Json *workflow = in.object(json, "workflow", QString())) {
        in.text(*workflow, "trace", QStringLiteral("workflow"), &result.workflow);
        in.texts(*workflow, "what_ifs", QStringLiteral("workflow"), &result.whatIfs);
        if (const Json *population = in.object(*workflow, "population", QStringLiteral("workflow"))) {
            const QString path = QStringLiteral("workflow.population");
            in.boolean(*population, "active", path, &result.whatIfPopulation);
            in.number(*population, "percentile", path, &result.whatIfPopulationQ);
            if (in.ok() && !(result.whatIfPopulationQ >= 0.5 && result.whatIfPopulationQ < 1.0))
                in.fail(path + QStringLiteral(".percentile"),
                        QStringLiteral("a percentile between 0.5 and 1, got %1").arg(result.whatIfPopulationQ));
        }
    }
    if (const Json *layout = in.object(json, "layout", QString())) {
        QString state;
        QString geometry;
        in.text(*layout, "state", QStringLiteral("layout"), &state);
        in.text(*layout, "geometry", QStringLiteral("layout"), &geometry);
        result.windowState = QByteArray::fromBase64(state.toLatin1());
        result.windowGeometry = QByteArray::fromBase64(geometry.toLatin1());
    }
    if (const Json *notes = in.array(json, "notes", QString())) {
        for (size_t i = 0; i < notes->size() && in.ok(); ++i) {
            const QString path = JsonReader::index(QStringLiteral("notes"), i);
            SessionNote note;
            in.text((*notes)[i], "request", path, &note.requestId);
            in.text((*notes)[i], "span", path, &note.spanId);
            in.text((*notes)[i], "text", path, &note.text);
            if (in.ok() && note.requestId.isEmpty())
                in.fail(path, QStringLiteral("a note needs the \"request\" it is on"));
            result.notes.push_back(note);
        }
    }
    if (!in.ok()) {
        if (error)
            *error = in.error();
        return false;
    }
    if (json.contains("record")) {
        QString recordError;
        if (!RecordJson::fromJson(json["record"], &result.record, &recordError)) {
            if (error)
                *error = QStringLiteral("record: ") + recordError;
            return false;
        }
        result.hasRecord = true;
    }
    *session = std::move(result);
    return true;
}

bool isSession(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    // The format tag is near the top of every session this program writes.
    const QByteArray head = file.read(4096);
    return head.trimmed().startsWith('{') && head.contains("\"tracelane.session\"");
}

} // namespace SessionJson
