#pragma once

#include "LatestJob.h"
#include "analysis/streams/StreamSummary.h"

#include <QWidget>

class InSightWork;

class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class ViewState;

// The Streams dock: what happens after the first token, for the requests in
// scope. The stall rule (both thresholds editable) drives every stall mark in
// the window; the verdict names the mechanism when server and client token
// times both exist; the report below gives every gap pooled per side beside
// the per-request ITL and TPOT, stalls, chunking and the worst requests.
class StreamPanel : public QWidget
{
    Q_OBJECT
public:
    explicit StreamPanel(ViewState *state, QWidget *parent = nullptr);
    ~StreamPanel() override;

    StallRule stallRule() const;
    void setStallRule(const StallRule &rule);
    const StreamSummary &summary() const { return m_summary; }
    QString reportText() const;
    QString verdictText() const;
    bool isComputing() const { return m_job.isRunning(); }

signals:
    void stallRuleChanged(const StallRule &rule);
    void summaryReady();

private:
    void recompute();
    void apply(StreamSummary summary);

    ViewState *m_state = nullptr;
    QDoubleSpinBox *m_factor = nullptr;
    QDoubleSpinBox *m_minimum = nullptr;
    QLabel *m_verdict = nullptr;
    QPlainTextEdit *m_report = nullptr;
    StreamSummary m_summary;
    LatestJob m_job{this};
    // A live refresh while out of sight: recomputed once it is looked at.
    InSightWork *m_refresh = nullptr;
};
