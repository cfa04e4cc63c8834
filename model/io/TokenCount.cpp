#include "TokenCount.h"

#include <charconv>
#include <cmath>

namespace TokenCount {

bool check(qint64 count, qint64 minimum, QString *reason)
{
    if (count < minimum) {
        *reason = minimum > 0 ? QStringLiteral("token counts must be positive, got %1").arg(count)
                              : QStringLiteral("token counts cannot be negative, got %1").arg(count);
        return false;
    }
    if (count > kMax) {
        *reason = QStringLiteral("%1 tokens is beyond any real request").arg(count);
        return false;
    }
    return true;
}

bool checkReal(double value, std::string_view lexeme, qint64 minimum, qint64 *count, QString *reason)
{
    const QString text
        = lexeme.empty() ? QString::number(value, 'g', 17) : QString::fromUtf8(lexeme.data(), qsizetype(lexeme.size()));
    if (!std::isfinite(value)) {
        *reason = QStringLiteral("non-finite number %1").arg(text);
        return false;
    }
    if (value != std::floor(value)) {
        *reason = QStringLiteral("must be a whole number of tokens, got %1").arg(text);
        return false;
    }
    if (value > double(kMax) || value < double(minimum)) {
        *reason = value > double(kMax) ? QStringLiteral("%1 tokens is beyond any real request").arg(text)
            : minimum > 0              ? QStringLiteral("token counts must be positive, got %1").arg(text)
                                       : QStringLiteral("token counts cannot be negative, got %1").arg(text);
        return false;
    }
    *count = qint64(value);
    return true;
}

QString kindName(const nlohmann::json &value)
{
    if (value.is_string())
        return QStringLiteral("a string");
    if (value.is_boolean())
        return QStringLiteral("a boolean");
    if (value.is_null())
        return QStringLiteral("null");
    if (value.is_structured())
        return QStringLiteral("an object or array");
    return QStringLiteral("a number");
}

bool fromJson(const nlohmann::json &value, qint64 minimum, qint32 *count, QString *reason)
{
    qint64 whole = 0;
    if (value.is_number_unsigned()) {
        const auto n = value.get<quint64>();
        if (n > quint64(kMax)) {
            *reason = QStringLiteral("%1 tokens is beyond any real request").arg(n);
            return false;
        }
        whole = qint64(n);
    } else if (value.is_number_integer()) {
        whole = value.get<qint64>();
    } else if (value.is_number_float()) {
        if (!checkReal(value.get<double>(), {}, minimum, &whole, reason))
            return false;
    } else {
        *reason = QStringLiteral("must be a whole number of tokens, got %1").arg(kindName(value));
        return false;
    }
    if (!check(whole, minimum, reason))
        return false;
    *count = qint32(whole);
    return true;
}

bool fromText(std::string_view text, qint64 minimum, qint32 *count, QString *reason)
{
    qint64 whole = 0;
    const auto parsed = std::from_chars(text.data(), text.data() + text.size(), whole);
    const QString shown = QString::fromUtf8(text.data(), qsizetype(text.size()));
    if (parsed.ec == std::errc::result_out_of_range) {
        *reason = QStringLiteral("%1 tokens is beyond any real request").arg(shown);
        return false;
    }
    if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size() || text.empty()) {
        // "689.0" (a float column) is as whole as JSON's 689.0; "12.5" is not.
        double real = 0.0;
        const auto decimal = std::from_chars(text.data(), text.data() + text.size(), real);
        if (!text.empty() && decimal.ptr == text.data() + text.size()
            && (decimal.ec == std::errc() || decimal.ec == std::errc::result_out_of_range)) {
            if (decimal.ec == std::errc::result_out_of_range)
                real = std::numeric_limits<double>::infinity();
            if (!checkReal(real, text, minimum, &whole, reason))
                return false;
        } else {
            *reason = QStringLiteral("must be a whole number of tokens, got '%1'").arg(shown);
            return false;
        }
    }
    if (!check(whole, minimum, reason))
        return false;
    *count = qint32(whole);
    return true;
}

} // namespace TokenCount
