#pragma once

#include "LatestJob.h"
#include "analysis/streams/StallRule.h"

#include <QObject>

class LoadPanel;
class MainWindow;
class QDockWidget;
class StreamPanel;
class ViewState;

// Streams and load in the main window, kept out of MainWindow: the Load and
// Streams docks, and the stall rule carried to everything that marks stalls
// (the request detail's stream strip, the swimlanes). The stall marks of the
// whole trace are built off the GUI thread whenever the trace or rule changes.
class StreamsWiring : public QObject
{
    Q_OBJECT
public:
    StreamsWiring(MainWindow *window, ViewState *state);

    LoadPanel *loadPanel() const { return m_load; }
    StreamPanel *streamPanel() const { return m_streams; }
    bool isBusy() const;

private:
    void rebuildStallMarks();

    MainWindow *m_window = nullptr;
    ViewState *m_state = nullptr;
    LoadPanel *m_load = nullptr;
    StreamPanel *m_streams = nullptr;
    LatestJob m_marksJob{this};
};
