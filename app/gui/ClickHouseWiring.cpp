#include "ClickHouseWiring.h"

#include "ClickHouseOpenDialog.h"
#include "MainWindow.h"
#include "ViewState.h"

#include "clickhouse/ClickHouseSource.h"
#include "remote/TraceSource.h"
#include "store/TraceStore.h"

#include <QAction>
#include <QDateTime>
#include <QKeySequence>
#include <QMenu>
#include <QSettings>

namespace {

// A client send time as people read it (UTC, to the millisecond).
QString sendTime(qint64 ns)
{
    return QDateTime::fromMSecsSinceEpoch(ns / 1'000'000, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

} // namespace

ClickHouseWiring::ClickHouseWiring(MainWindow *window, ViewState *state)
    : QObject(window)
    , m_window(window)
    , m_state(state)
    , m_allInView(new QAction(tr("Open All Requests Sent in &View"), this))
{
    m_allInView->setObjectName(QStringLiteral("openAllInView"));
    m_allInView->setIconText(tr("All in View"));
    m_allInView->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    m_allInView->setShortcutContext(Qt::WindowShortcut);
    connect(m_allInView, &QAction::triggered, this, &ClickHouseWiring::openAllInView);
    connect(state, &ViewState::storeChanged, this, &ClickHouseWiring::updateAllInView);
    connect(state, &ViewState::timeAxisChanged, this, &ClickHouseWiring::updateAllInView);
    updateAllInView();
}

void ClickHouseWiring::addFileActions(QMenu *file)
{
    file->addAction(tr("Open from C&lickHouse\u2026"), this, &ClickHouseWiring::openFromClickHouse)
        ->setToolTip(tr("Open a Tracelane table or an OpenTelemetry Collector otel_traces table in a time range"));
    file->addAction(tr("Compare With ClickHo&use\u2026"), this, &ClickHouseWiring::compareWithClickHouse)
        ->setToolTip(tr("Put a ClickHouse table's requests in a time range beside the loaded trace"));
}

QString ClickHouseWiring::askUrl(const QString &title)
{
    ClickHouseOpenDialog dialog(m_window);
    dialog.setWindowTitle(title);
    const QString key = QStringLiteral("clickHouseUrl");
    if (m_window->isPersistent())
        dialog.setUrl(QSettings().value(key).toString());
    if (TraceSource::isUrl(m_window->currentFile()))
        dialog.setUrl(m_window->currentFile());
    if (dialog.exec() != QDialog::Accepted || dialog.url().isEmpty())
        return {};
    if (m_window->isPersistent())
        QSettings().setValue(key, dialog.url());
    return dialog.url();
}

void ClickHouseWiring::openFromClickHouse()
{
    if (const QString url = askUrl(tr("Open from ClickHouse")); !url.isEmpty())
        m_window->openFile(url);
}

void ClickHouseWiring::compareWithClickHouse()
{
    if (!m_window->store()) {
        m_window->tell(tr("Open the baseline trace first; then compare it with a candidate."));
        return;
    }
    if (const QString url = askUrl(tr("Compare with a candidate from ClickHouse")); !url.isEmpty())
        m_window->compareWith(url);
}

QString ClickHouseWiring::allInViewUrl() const
{
    const auto &store = m_state->store();
    const TimeWindow window = m_state->timeWindow();
    if (!store || store->serverUrl.isEmpty() || store->sampleOneIn <= 1 || m_state->timeAxis() != TimeAxis::Absolute
        || !window.isValid())
        return {};
    return ClickHouseSource::withinRange(store->serverUrl, window.begin, window.end);
}

void ClickHouseWiring::updateAllInView()
{
    const auto &store = m_state->store();
    const bool sample = store && !store->serverUrl.isEmpty() && store->sampleOneIn > 1;
    m_allInView->setVisible(sample);
    const bool absolute = m_state->timeAxis() == TimeAxis::Absolute;
    m_allInView->setEnabled(sample && absolute);
    if (!sample)
        return;
    m_allInView->setToolTip(
        absolute ? tr("This window holds a 1-in-%1 sample. Open every request of the population sent in the visible "
                      "time range, fetched from the server into a window of its own (%2)")
                       .arg(store->sampleOneIn)
                       .arg(m_allInView->shortcut().toString(QKeySequence::NativeText))
                 : tr("Aligned lanes share no time range: choose Time: absolute to open every request sent in view"));
}

void ClickHouseWiring::openAllInView()
{
    const QString target = allInViewUrl();
    if (target.isEmpty()) {
        m_window->tell(tr("No request of the population is sent in the visible time range"));
        return;
    }
    const TimeWindow window = m_state->timeWindow();
    m_window->tell(tr("Opening every request sent from %1 to %2 UTC in a window of its own")
                       .arg(sendTime(window.begin), sendTime(window.end)));
    m_window->openWindowOn(target);
}
