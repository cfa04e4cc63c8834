#pragma once

#include "TimeWindow.h"

#include <QWidget>

class ViewState;

// The swimlane's time axis: a title naming what the axis measures and its
// unit, then tick labels in that unit (µs, ms, s or min, chosen for the
// visible span) on the same grid the lanes draw.
class TimeRuler : public QWidget
{
    Q_OBJECT
public:
    explicit TimeRuler(ViewState *state, QWidget *parent = nullptr);

    // Ticks count from here: the first request's send on the absolute axis.
    void setTickOrigin(qint64 origin);
    // Left inset so ticks line up with a canvas that starts further right.
    void setLeftInset(int pixels);
    // "Time since first request sent (s)" or "Time since client send (ms)".
    QString axisTitle() const;
    QStringList tickLabels() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    int axisWidth() const;

    ViewState *m_state = nullptr;
    qint64 m_tickOrigin = 0;
    int m_leftInset = 0;
};
