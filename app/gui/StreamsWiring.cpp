#include "StreamsWiring.h"

#include "LoadPanel.h"
#include "MainWindow.h"
#include "RequestDetailPanel.h"
#include "StreamPanel.h"
#include "SwimlaneView.h"
#include "ViewState.h"
#include "analysis/streams/StallMarks.h"
#include "store/TraceStore.h"

#include <QDockWidget>

StreamsWiring::StreamsWiring(MainWindow *window, ViewState *state)
    : QObject(window)
    , m_window(window)
    , m_state(state)
    , m_load(new LoadPanel(state, window))
    , m_streams(new StreamPanel(state, window))
{
    QDockWidget *load = window->addDock(QStringLiteral("loadDock"), tr("Load"), m_load, Qt::BottomDockWidgetArea);
    QDockWidget *streams
        = window->addDock(QStringLiteral("streamsDock"), tr("Streams"), m_streams, Qt::BottomDockWidgetArea);
    if (auto *requests = window->findChild<QDockWidget *>(QStringLiteral("requestsDock"))) {
        window->tabifyDockWidget(requests, load);
        window->tabifyDockWidget(requests, streams);
        requests->raise();
    }
    connect(m_streams, &StreamPanel::stallRuleChanged, this, [this](const StallRule &rule) {
        m_window->requestDetail()->setStallRule(rule);
        rebuildStallMarks();
    });
    connect(state, &ViewState::storeChanged, this, &StreamsWiring::rebuildStallMarks);
}

bool StreamsWiring::isBusy() const
{
    return m_load->isComputing() || m_streams->isComputing() || m_marksJob.isRunning();
}

void StreamsWiring::rebuildStallMarks()
{
    SwimlaneView *lanes = m_window->swimlanes();
    const std::shared_ptr<const TraceStore> store = m_state->store();
    if (!store || (store->requests.clientTokens().isEmpty() && store->requests.serverTokens().isEmpty())) {
        m_marksJob.cancel();
        lanes->setStallMarks(nullptr);
        return;
    }
    const StallRule rule = m_streams->stallRule();
    m_marksJob.start(
        [store, rule](const std::atomic<bool> *) {
            return std::make_shared<const StallMarks>(StallMarks::compute(store->requests, rule));
        },
        [lanes](std::shared_ptr<const StallMarks> marks) { lanes->setStallMarks(std::move(marks)); });
}
