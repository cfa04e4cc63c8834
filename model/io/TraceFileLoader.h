#pragma once

#include "LoadResult.h"
#include "TraceFormat.h"

class LoadControl;

// The one entry point for loading a trace file of any supported format:
// detects the format from content and hands over to its loader.
namespace TraceFileLoader {

TraceFormat detect(const QString &path);
LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control = nullptr);

} // namespace TraceFileLoader
