#pragma once

#include <QtGlobal>

#include <string_view>

// ISO-8601 / RFC 3339 timestamps ("2025-12-17T09:37:37.258Z",
// "2025-09-16T08:43:13.123456789-04:00") to integer ns since the Unix
// epoch, exactly (no floating point). A timestamp without a zone is taken
// as UTC; `hadZone` says whether it had one.
namespace IsoTime {

bool toNanoseconds(std::string_view text, qint64 *ns, bool *hadZone = nullptr);

} // namespace IsoTime
