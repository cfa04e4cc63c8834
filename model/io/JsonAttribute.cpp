#include "JsonAttribute.h"

#include "AttributeText.h"

#include <charconv>

namespace JsonAttribute {

void read(const nlohmann::json &value, AttributeValue &out)
{
    using Type = AttributeValue::Type;
    out.clear();
    if (value.is_null())
        return;
    if (value.is_string()) {
        out.type = Type::String;
        out.text = value.get<std::string>();
    } else if (value.is_boolean()) {
        out.type = Type::Bool;
        out.text = value.get<bool>() ? "true" : "false";
    } else if (value.is_number_integer()) {
        out.type = Type::Int;
        out.text = value.dump();
        if (value.is_number_unsigned() && value.get<quint64>() > quint64(std::numeric_limits<qint64>::max())) {
            out.type = Type::String; // beyond 64-bit signed: keep the text only
        } else {
            out.integer = value.get<qint64>();
            out.number = double(out.integer);
        }
    } else if (value.is_number()) {
        out.type = Type::Double;
        out.number = value.get<double>();
        out.text = AttributeText::formatDouble(out.number);
    } else if (value.is_array()) {
        out.type = Type::Array;
        out.text = value.dump();
        for (const auto &element : value)
            out.elements.push_back(element.is_string() ? element.get<std::string>() : element.dump());
    } else {
        out.type = Type::Kvlist;
        out.text = value.dump();
    }
}

void readStringified(const nlohmann::json &value, AttributeValue &out)
{
    read(value, out);
    if (out.type != AttributeValue::Type::String || out.text.empty())
        return;
    const char *first = out.text.data();
    const char *last = first + out.text.size();
    qint64 integer = 0;
    const auto parsed = std::from_chars(first, last, integer);
    if (parsed.ec == std::errc() && parsed.ptr == last) {
        out.type = AttributeValue::Type::Int;
        out.integer = integer;
        out.number = double(integer);
        return;
    }
    double number = 0.0;
    const auto real = std::from_chars(first, last, number);
    if (real.ec == std::errc() && real.ptr == last) {
        out.type = AttributeValue::Type::Double;
        out.number = number;
    }
}

void readAll(const nlohmann::json &object, RecycledList<SpanAttribute> &attributes, bool stringified)
{
    if (!object.is_object())
        return;
    for (const auto &[key, value] : object.items()) {
        SpanAttribute &attribute = attributes.add();
        attribute.key = key;
        if (stringified)
            readStringified(value, attribute.value);
        else
            read(value, attribute.value);
    }
}

} // namespace JsonAttribute
