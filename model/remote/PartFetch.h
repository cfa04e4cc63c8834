#pragma once

#include "io/LoadResult.h"

#include <QString>

#include <functional>
#include <string_view>
#include <vector>

class ClickHouseClient;
class LoadControl;

// What the loaders of server tables share: rows fetched in parts, one SELECT
// after another, each answer read line by line into the store.
namespace PartFetch {

// A load that ends early: cancelled when the user asked, else failed with `error`.
LoadResult stopped(LoadResult &&result, const LoadControl *control, const QString &error);

// Runs each SELECT of `parts` in turn and hands every non-empty line of its
// answer to `read`, with the line's number in the whole fetch (from 1). The
// next part is fetched while this one is read (two parts' answers in memory
// at most); `read` is called on the caller's thread, in the parts' order.
// Progress counts lines; cancel is looked at between parts. False when a
// request failed or the load was cancelled (`error` from the client), or,
// with options.strict, once a line was rejected: `error` then names the
// first rejection ("<where> N, field: reason", `where` being "row" or "line").
bool readParts(const ClickHouseClient &client, const std::vector<QString> &parts, LoadResult &result,
               const LoadOptions &options, LoadControl *control, const QString &where,
               const std::function<void(std::string_view line, qint64 number)> &read, QString *error);

} // namespace PartFetch
