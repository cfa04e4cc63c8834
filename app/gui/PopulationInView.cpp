#include "PopulationInView.h"

#include "MainWindow.h"
#include "ViewState.h"

#include "clickhouse/ClickHouseSource.h"
#include "store/TraceStore.h"

#include <QAction>
#include <QDateTime>
#include <QKeySequence>

namespace {

// A client send time as people read it (UTC, to the millisecond).
QString sendTime(qint64 ns)
{
    return QDateTime::fromMSecsSinceEpoch(ns / 1'000'000, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

} // namespace

PopulationInView::PopulationInView(MainWindow *window, ViewState *state)
    : QObject(window)
    , m_window(window)
    , m_state(state)
    , m_action(new QAction(tr("Open All Requests Sent in &View"), this))
{
    m_action->setObjectName(QStringLiteral("openAllInView"));
    m_action->setIconText(tr("All in View"));
    m_action->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    m_action->setShortcutContext(Qt::WindowShortcut);
    connect(m_action, &QAction::triggered, this, &PopulationInView::open);
    connect(state, &ViewState::storeChanged, this, &PopulationInView::update);
    connect(state, &ViewState::timeAxisChanged, this, &PopulationInView::update);
    update();
}

QString PopulationInView::url() const
{
    const auto &store = m_state->store();
    const TimeWindow window = m_state->timeWindow();
    if (!store || store->serverUrl.isEmpty() || store->sampleOneIn <= 1 || m_state->timeAxis() != TimeAxis::Absolute
        || !window.isValid())
        return {};
    return ClickHouseSource::withinRange(store->serverUrl, window.begin, window.end);
}

void PopulationInView::update()
{
    const auto &store = m_state->store();
    const bool sample = store && !store->serverUrl.isEmpty() && store->sampleOneIn > 1;
    m_action->setVisible(sample);
    const bool absolute = m_state->timeAxis() == TimeAxis::Absolute;
    m_action->setEnabled(sample && absolute);
    if (!sample)
        return;
    m_action->setToolTip(
        absolute ? tr("This window holds a 1-in-%1 sample. Open every request of the population sent in the visible "
                      "time range, fetched from the server into a window of its own (%2)")
                       .arg(store->sampleOneIn)
                       .arg(m_action->shortcut().toString(QKeySequence::NativeText))
                 : tr("Aligned lanes share no time range: choose Time: absolute to open every request sent in view"));
}

void PopulationInView::open()
{
    const QString target = url();
    if (target.isEmpty()) {
        m_window->tell(tr("No request of the population is sent in the visible time range"));
        return;
    }
    const TimeWindow window = m_state->timeWindow();
    m_window->tell(tr("Opening every request sent from %1 to %2 UTC in a window of its own")
                       .arg(sendTime(window.begin), sendTime(window.end)));
    m_window->openWindowOn(target);
}
