#include "IsoTime.h"

#include <limits>

namespace {

bool digits(std::string_view text, size_t at, size_t count, int *value)
{
    if (at + count > text.size())
        return false;
    int result = 0;
    for (size_t i = at; i < at + count; ++i) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        result = result * 10 + (text[i] - '0');
    }
    *value = result;
    return true;
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
qint64 daysFromCivil(qint64 year, unsigned month, unsigned day)
{
    year -= month <= 2 ? 1 : 0;
    const qint64 era = (year >= 0 ? year : year - 399) / 400;
    const auto yearOfEra = unsigned(year - era * 400);
    const unsigned dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
    const unsigned dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146097 + qint64(dayOfEra) - 719468;
}

int daysInMonth(int year, int month)
{
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : kDays[month - 1];
}

} // namespace

namespace IsoTime {

bool toNanoseconds(std::string_view text, qint64 *ns, bool *hadZone)
{
    int year = 0;
    int month = 0;
    int day = 0;
    int hour = 0;
    int minute = 0;
    int second = 0;
    if (!digits(text, 0, 4, &year) || text.size() < 19 || text[4] != '-' || !digits(text, 5, 2, &month)
        || text[7] != '-' || !digits(text, 8, 2, &day) || (text[10] != 'T' && text[10] != 't' && text[10] != ' ')
        || !digits(text, 11, 2, &hour) || text[13] != ':' || !digits(text, 14, 2, &minute) || text[16] != ':'
        || !digits(text, 17, 2, &second)) {
        return false;
    }
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59
        || second > 60) {
        return false;
    }
    size_t at = 19;
    qint64 fraction = 0;
    if (at < text.size() && (text[at] == '.' || text[at] == ',')) {
        ++at;
        int place = 0;
        const size_t first = at;
        while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
            if (place < 9) {
                fraction = fraction * 10 + (text[at] - '0');
                ++place;
            }
            ++at; // digits past ns are below our resolution
        }
        if (at == first)
            return false;
        for (; place < 9; ++place)
            fraction *= 10;
    }
    qint64 offsetSeconds = 0;
    bool zone = false;
    if (at < text.size()) {
        if (text[at] == 'Z' || text[at] == 'z') {
            zone = true;
            ++at;
        } else if (text[at] == '+' || text[at] == '-') {
            const int sign = text[at] == '-' ? -1 : 1;
            int zoneHour = 0;
            int zoneMinute = 0;
            if (!digits(text, at + 1, 2, &zoneHour))
                return false;
            size_t next = at + 3;
            if (next < text.size() && text[next] == ':')
                ++next;
            if (!digits(text, next, 2, &zoneMinute) || zoneHour > 23 || zoneMinute > 59)
                return false;
            offsetSeconds = sign * (qint64(zoneHour) * 3600 + qint64(zoneMinute) * 60);
            zone = true;
            at = next + 2;
        }
    }
    if (at != text.size())
        return false;
    if (hadZone)
        *hadZone = zone;
    const qint64 days = daysFromCivil(year, unsigned(month), unsigned(day));
    const qint64 seconds = days * 86400 + qint64(hour) * 3600 + qint64(minute) * 60 + second - offsetSeconds;
    constexpr qint64 kLimit = std::numeric_limits<qint64>::max() / 1'000'000'000 - 1;
    if (seconds > kLimit || seconds < -kLimit)
        return false;
    *ns = seconds * 1'000'000'000 + fraction;
    return true;
}

} // namespace IsoTime
