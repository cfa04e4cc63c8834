#pragma once

#include "store/Phase.h"

#include <QString>

// The experiment that would confirm or clear a phase as the cause, in our
// own words: what to vary, what to hold fixed, what to watch.
QString nextTestFor(Phase phase);
