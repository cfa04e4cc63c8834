#pragma once

#include "LoadResult.h"

#include <QString>

// Whether a finished load gave anything to show, and if not, why — in words
// for the person who opened the file. A file that is not a trace parses
// "successfully" into zero requests with every line rejected; a window must
// not replace the trace on screen with that.
namespace LoadVerdict {

// True when the load holds at least one request or span.
bool loadedSomething(const LoadResult &result);

// Empty when `result` loaded something; otherwise one or two sentences:
// the fatal error, or that no request or span was found, how many records
// were rejected and the first rejection's line, field and reason.
QString whyNothingLoaded(const LoadResult &result, const QString &fileName);

} // namespace LoadVerdict
