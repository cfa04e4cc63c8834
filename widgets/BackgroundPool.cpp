#include "BackgroundPool.h"

#include "store/ThreadPriority.h"

#include <QThread>
#include <QThreadPool>
#include <QtGlobal>

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

void lowerCurrentThreadPriority()
{
    ThreadPriority::lowerCurrentThread();
}

} // namespace BackgroundPool
