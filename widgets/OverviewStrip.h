#pragma once

#include "TimeWindow.h"

#include <QWidget>

#include <memory>

class LaneActivity;
class ViewState;
class WorkActivity;

// The whole trace at a glance under the lanes: how many requests are in
// each phase over time, and how many workflows have each kind on their
// critical path (stacked), with the visible time window framed. Clicking
// or dragging moves the window there.
class OverviewStrip : public QWidget
{
    Q_OBJECT
public:
    explicit OverviewStrip(ViewState *state, QWidget *parent = nullptr);

    // `profile` (request phases) and `kinds` (workflow kinds) cover
    // `bounds` in their bins; null leaves that part out.
    void setProfile(std::shared_ptr<const LaneActivity> profile, TimeWindow bounds,
                    std::shared_ptr<const WorkActivity> kinds = nullptr);
    void setLeftInset(int pixels);

    QSize sizeHint() const override { return {400, 56}; }
    QSize minimumSizeHint() const override { return {100, 40}; }

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    void centreWindowAt(double x);
    QRect plotRect() const;

    ViewState *m_state = nullptr;
    std::shared_ptr<const LaneActivity> m_profile;
    std::shared_ptr<const WorkActivity> m_kinds;
    TimeWindow m_bounds;
    int m_leftInset = 0;
};
