#include "Utf8.h"

namespace Utf8 {

long long firstInvalid(std::string_view text)
{
    const auto *bytes = reinterpret_cast<const unsigned char *>(text.data());
    const size_t size = text.size();
    size_t i = 0;
    while (i < size) {
        const unsigned char lead = bytes[i];
        if (lead < 0x80) {
            ++i;
            continue;
        }
        int length = 0;
        unsigned char low = 0x80;
        unsigned char high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            if (lead == 0xE0)
                low = 0xA0; // overlong
            else if (lead == 0xED)
                high = 0x9F; // surrogates
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            if (lead == 0xF0)
                low = 0x90; // overlong
            else if (lead == 0xF4)
                high = 0x8F; // past U+10FFFF
        } else {
            return static_cast<long long>(i);
        }
        if (i + size_t(length) > size)
            return static_cast<long long>(i);
        if (bytes[i + 1] < low || bytes[i + 1] > high)
            return static_cast<long long>(i);
        for (int k = 2; k < length; ++k) {
            if (bytes[i + size_t(k)] < 0x80 || bytes[i + size_t(k)] > 0xBF)
                return static_cast<long long>(i);
        }
        i += size_t(length);
    }
    return -1;
}

} // namespace Utf8
