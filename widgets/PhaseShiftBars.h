#pragma once

#include "analysis/compare/PhaseShift.h"

#include <QWidget>

// The mean change of each phase between baseline and candidate as
// horizontal bars from a zero line (left: faster, right: slower), in the
// phase colours, the residual in grey, each with its value in ms; the phase
// that moved most is named in bold. The parts add up to the total change,
// which the title states (from PhaseShift's exact integer-ns split).
class PhaseShiftBars : public QWidget
{
    Q_OBJECT
public:
    explicit PhaseShiftBars(QWidget *parent = nullptr);

    void setShift(PhaseShift shift);
    const PhaseShift &shift() const { return m_shift; }
    // The bars drawn, top to bottom: label and change in ms (for tests).
    QList<QPair<QString, double>> bars() const;

    // Where a bar is drawn (row as in bars()), and the zero line's x.
    QRect barRect(int row) const;
    int zeroLine() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    struct Geometry
    {
        int labelWidth = 0;
        int valueWidth = 0;
        int zeroX = 0;
        int top = 0;
        double scale = 0.0;
    };
    Geometry geometry() const;

    PhaseShift m_shift;
};
