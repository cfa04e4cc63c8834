#pragma once

#include <QString>

#include <functional>
#include <string_view>

class LoadControl;

// Walks a file that holds one JSON array and hands over each top-level
// element's text with the line it starts on, so a loader can parse records
// one at a time (no DOM of the whole file) and name the line of a bad one.
// The walk only finds where elements end (a comma or the closing bracket
// outside strings and brackets); judging an element is the parser's job, so
// a stray '}' stays inside the element it follows and makes that one invalid.
// Every step consumes input: no malformed file loops. A truncated file hands
// over its last, incomplete element like any other. Non-blank text after the
// closing bracket sets `trailingLine` to its line.
// Returns false with `error` set when the file is unreadable or is not an array.
bool forEachJsonArrayElement(const QString &path, LoadControl *control,
                             const std::function<bool(std::string_view element, qint64 line, qint64 index)> &visit,
                             QString *error, qint64 *trailingLine = nullptr);
