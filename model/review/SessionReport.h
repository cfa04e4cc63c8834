#pragma once

#include "DesignReport.h"
#include "Session.h"

#include <QStringList>

class TraceStore;

// The report a session describes, for `tracelane-cli report SESSION`: the
// slice it saved (its requests by id, else the request table's filter), its
// class dimensions and token bands, the workflow in its Gantt and the
// what-if applied there. What no longer matches the trace (an id, the
// workflow, a what-if that does not parse, bad bands) is listed in
// `problems` and left out; the rest applies.
namespace SessionReport {

DesignReport::Options options(const Session &session, const TraceStore &store, QStringList *problems);

// The rows of `store` whose request ids are in `ids`, ascending.
std::vector<qint32> rowsOf(const TraceStore &store, const QStringList &ids);

} // namespace SessionReport
