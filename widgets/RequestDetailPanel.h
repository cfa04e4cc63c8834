#pragma once

#include "analysis/streams/StallRule.h"

#include <QWidget>

class QLabel;
class QTableWidget;
class RequestTimeline;
class TokenStreamStrip;
class ViewState;

// The current request in full: its timeline to scale and its numbers (class,
// tokens, TTFT/ITL/E2E, every phase and every raw stamp). Follows the
// ViewState's current request; the main window raises it on activation.
class RequestDetailPanel : public QWidget
{
    Q_OBJECT
public:
    explicit RequestDetailPanel(ViewState *state, QWidget *parent = nullptr);

    qint32 shownRow() const { return m_row; }
    void showRow(qint32 row);
    QTableWidget *factsTable() const { return m_facts; }
    TokenStreamStrip *streamStrip() const { return m_stream; }
    // The rule the stream strip marks stalls by (the Streams dock's).
    void setStallRule(const StallRule &rule);

private:
    ViewState *m_state = nullptr;
    qint32 m_row = -1;
    QLabel *m_title = nullptr;
    RequestTimeline *m_timeline = nullptr;
    TokenStreamStrip *m_stream = nullptr;
    StallRule m_stallRule;
    QTableWidget *m_facts = nullptr;
};
