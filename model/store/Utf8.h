#pragma once

#include <QString>

#include <string>
#include <string_view>

// Text across the parser boundary: the JSON and CSV readers hand out UTF-8
// bytes (std::string_view), Qt keeps UTF-16. One definition for the loaders
// and report writers that each used to carry their own copy.
namespace Utf8 {

inline QString fromStd(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

inline std::string utf8(const QString &text)
{
    return text.toStdString();
}

} // namespace Utf8
