#pragma once

#include "store/SpanCategory.h"

#include <QString>

// The next test to run when critical-path time of one kind carries the
// excess of the slow workflows: what would confirm or refute the suspicion.
// `gap` is a span's own time around its children, `overrun` a span's time
// past its parent's end, `idle` time between root spans with no span open.
QString nextPathTestFor(SpanCategory category, bool gap, bool idle, bool overrun = false);
