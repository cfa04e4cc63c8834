#pragma once

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <vector>

// Reads a saved document (record, session) tolerantly where it can and
// strictly where it must: a missing field keeps its default, a field of the
// wrong type is an error naming its path ("objectives[1].threshold_ms:
// expected a number, got a string"). The first error wins; later reads are
// skipped.
class JsonReader
{
public:
    using Json = nlohmann::ordered_json;

    bool ok() const { return m_error.isEmpty(); }
    const QString &error() const { return m_error; }
    void fail(const QString &path, const QString &message);

    // Each reads `object[key]` into `value` when present and of the right
    // type; `path` is the object's own path ("" for the root).
    void text(const Json &object, const char *key, const QString &path, QString *value);
    void number(const Json &object, const char *key, const QString &path, double *value); // null = NaN
    void integer(const Json &object, const char *key, const QString &path, qint64 *value);
    void boolean(const Json &object, const char *key, const QString &path, bool *value);
    void texts(const Json &object, const char *key, const QString &path, QStringList *value);
    // The member as an object / array, or nullptr (absent, or an error).
    const Json *object(const Json &object, const char *key, const QString &path);
    const Json *array(const Json &object, const char *key, const QString &path);

    static QString join(const QString &path, const char *key);
    static QString index(const QString &path, size_t i);
    static QString kindOf(const Json &value);

private:
    const Json *member(const Json &object, const char *key);

    QString m_error;
};

namespace JsonText {
inline std::string utf8(const QString &text)
{
    return text.toStdString();
}
inline QString qt(const std::string &text)
{
    return QString::fromStdString(text);
}
nlohmann::ordered_json number(double value); // NaN and infinities as null
} // namespace JsonText
