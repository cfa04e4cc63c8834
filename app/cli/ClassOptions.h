#pragma once

#include "analysis/classes/ClassDimension.h"
#include "analysis/classes/ClassFilter.h"
#include "analysis/exceedance/ExceedanceSet.h"
#include "analysis/requests/Metric.h"

#include <QCommandLineParser>

struct CliContext;

// Options of the class commands (slice, exceed), registered on the shared
// parser and read back into plain values.
namespace ClassOptions {

void addTo(QCommandLineParser &parser);

struct Values
{
    Metric metric = Metric::Ttft;
    double percentile = 0.95;
    ExceedanceOrder order = ExceedanceOrder::MetricDescending;
    ClassBands bands;
    ClassFilter where;
    QStringList by;       // dimension keys for `slice`
    qsizetype member = 0; // 0-based position for `exceed`
    int members = 20;     // members listed by `exceed`
    bool rankings = true; // `exceed` on a URL: the server ranks the features
};

// Prints a usage message to context.err and returns false on a bad value.
bool read(const CliContext &context, Values *values);

} // namespace ClassOptions
