#pragma once

class QThreadPool;

// The thread pool for Tracelane's own long jobs (loading, layout, queries,
// distributions, frames). Qt's raster engine splits big fills and image
// conversions across QThreadPool::globalInstance() and waits for them on the
// GUI thread; if our multi-second jobs held those threads, a simple repaint
// would block until they finished. Keeping our work off the global pool
// keeps painting independent of it.
namespace BackgroundPool {

QThreadPool *instance();

// Called by every job as it starts: background threads run at a lower
// priority (nice 5 on Linux) than the GUI thread, so on a busy machine the
// interface keeps its CPU share while the work still uses every idle core.
// Threads a job starts inherit it.
void lowerCurrentThreadPriority();

} // namespace BackgroundPool
