#include "JsonReader.h"

#include <cmath>
#include <limits>

void JsonReader::fail(const QString &path, const QString &message)
{
    if (m_error.isEmpty())
        m_error = path.isEmpty() ? message : path + QStringLiteral(": ") + message;
}

QString JsonReader::join(const QString &path, const char *key)
{
    const QString name = QString::fromUtf8(key);
    return path.isEmpty() ? name : path + QLatin1Char('.') + name;
}

QString JsonReader::index(const QString &path, size_t i)
{
    return path + QStringLiteral("[%1]").arg(i);
}

QString JsonReader::kindOf(const Json &value)
{
    switch (value.type()) {
    case Json::value_t::null:
        return QStringLiteral("null");
    case Json::value_t::boolean:
        return QStringLiteral("a boolean");
    case Json::value_t::string:
        return QStringLiteral("a string");
    case Json::value_t::array:
        return QStringLiteral("an array");
    case Json::value_t::object:
        return QStringLiteral("an object");
    default:
        return QStringLiteral("a number");
    }
}

const JsonReader::Json *JsonReader::member(const Json &object, const char *key)
{
    if (!ok() || !object.is_object())
        return nullptr;
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

void JsonReader::text(const Json &object, const char *key, const QString &path, QString *value)
{
    const Json *found = member(object, key);
    if (!found)
        return;
    if (!found->is_string())
        return fail(join(path, key), QStringLiteral("expected a string, got %1").arg(kindOf(*found)));
    *value = QString::fromStdString(found->get<std::string>());
}

void JsonReader::number(const Json &object, const char *key, const QString &path, double *value)
{
    const Json *found = member(object, key);
    if (!found)
        return;
    if (found->is_null()) {
        *value = std::numeric_limits<double>::quiet_NaN();
        return;
    }
    if (!found->is_number())
        return fail(join(path, key), QStringLiteral("expected a number, got %1").arg(kindOf(*found)));
    *value = found->get<double>();
}

void JsonReader::integer(const Json &object, const char *key, const QString &path, qint64 *value)
{
    const Json *found = member(object, key);
    if (!found)
        return;
    if (!found->is_number_integer())
        return fail(join(path, key), QStringLiteral("expected a whole number, got %1").arg(kindOf(*found)));
    *value = found->get<qint64>();
}

void JsonReader::boolean(const Json &object, const char *key, const QString &path, bool *value)
{
    const Json *found = member(object, key);
    if (!found)
        return;
    if (!found->is_boolean())
        return fail(join(path, key), QStringLiteral("expected true or false, got %1").arg(kindOf(*found)));
    *value = found->get<bool>();
}

void JsonReader::texts(const Json &object, const char *key, const QString &path, QStringList *value)
{
    const Json *found = array(object, key, path);
    if (!found)
        return;
    QStringList result;
    for (size_t i = 0; i < found->size(); ++i) {
        const Json &item = (*found)[i];
        if (!item.is_string())
            return fail(index(join(path, key), i), QStringLiteral("expected a string, got %1").arg(kindOf(item)));
        result.append(QString::fromStdString(item.get<std::string>()));
    }
    *value = result;
}

const JsonReader::Json *JsonReader::object(const Json &parent, const char *key, const QString &path)
{
    const Json *found = member(parent, key);
    if (!found)
        return nullptr;
    if (!found->is_object()) {
        fail(join(path, key), QStringLiteral("expected an object, got %1").arg(kindOf(*found)));
        return nullptr;
    }
    return found;
}

const JsonReader::Json *JsonReader::array(const Json &parent, const char *key, const QString &path)
{
    const Json *found = member(parent, key);
    if (!found)
        return nullptr;
    if (!found->is_array()) {
        fail(join(path, key), QStringLiteral("expected an array, got %1").arg(kindOf(*found)));
        return nullptr;
    }
    return found;
}

namespace JsonText {

nlohmann::ordered_json number(double value)
{
    return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
}

} // namespace JsonText
