#pragma once

#include <QLabel>

// Names each phase colour, the residual grey and the highlight marks, so
// the swimlane and the detail panel never need a colour to be guessed.
class PhaseLegend : public QLabel
{
    Q_OBJECT
public:
    explicit PhaseLegend(QWidget *parent = nullptr);

    static QString html(const QPalette &palette);

protected:
    void changeEvent(QEvent *event) override;
};
