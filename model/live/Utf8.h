#pragma once

#include <string_view>

namespace Utf8 {

// Well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing
// past U+10FFFF. Returns the byte offset of the first bad sequence, or -1.
long long firstInvalid(std::string_view text);

inline bool isValid(std::string_view text)
{
    return firstInvalid(text) < 0;
}

} // namespace Utf8
