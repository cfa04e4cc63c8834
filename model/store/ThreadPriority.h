#pragma once

// Thread priorities for work that must yield to the interface. On a busy
// machine (2 cores shared by the window, a receiver decoding exports, the
// views' jobs and whatever else runs there) a thread at the default
// priority can make the GUI thread wait tens of ms for a core; a thread at
// nice 5 takes about a third of a contested core's share against it, and
// still all of an idle one. Linux applies nice per thread, and threads a
// thread starts inherit it. Elsewhere these are no-ops.
namespace ThreadPriority {

// The nice of Tracelane's background threads: the views' jobs, frame
// rendering, and the live receiver's threads in the window.
inline constexpr int kBackgroundNice = 5;

// Lowers the calling thread to kBackgroundNice. Only ever lowers (an
// ordinary user cannot raise it back), so repeated calls are no-ops.
void lowerCurrentThread();

} // namespace ThreadPriority
