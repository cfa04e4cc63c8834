#pragma once

#include <QString>

#include <exception>

class QObject;

// What a background job that threw becomes: a message, never an abort or a
// view that waits forever. LatestJob catches a job's exception (running out
// of memory on a trace too large for the machine, or a defect) on the job's
// thread and hands it here on the GUI thread.
namespace JobFailure {

// The sentence shown to the user for `error` (a QUnhandledException is
// unwrapped to what it holds).
QString message(const std::exception_ptr &error);

// Tells the user (a warning box on `context`'s window, if it has one, and
// the log); the window keeps working.
void report(QObject *context, const std::exception_ptr &error);

} // namespace JobFailure
