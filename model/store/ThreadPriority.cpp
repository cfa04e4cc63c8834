#include "ThreadPriority.h"

#include <QtGlobal>

#ifdef Q_OS_LINUX
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace ThreadPriority {

void lowerCurrentThread()
{
#ifdef Q_OS_LINUX
    const auto tid = id_t(syscall(SYS_gettid));
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, tid);
    if (errno == 0 && current < kBackgroundNice)
        setpriority(PRIO_PROCESS, tid, kBackgroundNice);
#endif
}

} // namespace ThreadPriority
