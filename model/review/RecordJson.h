#pragma once

#include "DiagnosisRecord.h"

#include <QByteArray>

#include <nlohmann/json.hpp>

// The diagnosis record as a versioned JSON document (schema:
// model/review/RECORD-SCHEMA.md). Writing always produces the current
// version; reading accepts it and every older one, and refuses a newer one
// with a message that says so instead of guessing at fields it does not know.
namespace RecordJson {

inline constexpr int kVersion = 1;
inline constexpr const char *kFormat = "tracelane.diagnosis-record";

nlohmann::ordered_json toJson(const DiagnosisRecord &record);
QByteArray write(const DiagnosisRecord &record); // indented, UTF-8, ends with a newline

// False with `error` ("stop_rule.material_share: expected a number, got a string").
bool fromJson(const nlohmann::ordered_json &json, DiagnosisRecord *record, QString *error);
bool read(const QByteArray &bytes, DiagnosisRecord *record, QString *error);

// The version check alone, shared by the session reader: `what` names the
// document ("record", "session").
bool checkVersion(const nlohmann::ordered_json &json, const char *format, int version, const QString &what,
                  QString *error);

} // namespace RecordJson
