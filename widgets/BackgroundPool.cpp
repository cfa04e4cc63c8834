#include "BackgroundPool.h"

#include <QThread>
#include <QThreadPool>
#include <QtGlobal>

#ifdef Q_OS_LINUX
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace BackgroundPool {

QThreadPool *instance()
{
    static QThreadPool *pool = [] {
        auto *created = new QThreadPool;
        // One more than the cores: a job that blocks on I/O leaves the CPU to another.
        created->setMaxThreadCount(qMax(2, QThread::idealThreadCount() + 1));
        created->setObjectName(QStringLiteral("Tracelane background jobs"));
        return created;
    }();
    return pool;
}

// Nice 5: a contested core goes about 3:1 to the GUI thread, while the jobs
// still get a fair share next to other programs' work.
[[maybe_unused]] constexpr int kBackgroundNice = 5;

void lowerCurrentThreadPriority()
{
#ifdef Q_OS_LINUX
    // Linux applies nice per thread; only ever lower it, so repeated calls are no-ops.
    const auto tid = id_t(syscall(SYS_gettid));
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, tid);
    if (errno == 0 && current < kBackgroundNice)
        setpriority(PRIO_PROCESS, tid, kBackgroundNice);
#endif
}

} // namespace BackgroundPool
