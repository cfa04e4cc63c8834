#pragma once

#include <QString>
#include <QWidget>

#include <array>

#include "store/Stamp.h"

// One request's timeline to scale: its phases as coloured segments from
// client send to the last token, residual where a stamp is missing, a time
// axis in ms below and each phase named above its segment when it fits.
class RequestTimeline : public QWidget
{
    Q_OBJECT
public:
    explicit RequestTimeline(QWidget *parent = nullptr);

    // The eight stamps (kNoTime where missing); all missing clears it.
    void setStamps(const std::array<qint64, kStampCount> &stamps);
    // Draws against an axis at least this long (ns), so that several
    // requests shown one after another share a scale; 0 fits the request.
    void setMinimumSpan(qint64 ns);
    // Shown while there is no request.
    void setPlaceholderText(const QString &text);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    std::array<qint64, kStampCount> m_stamps{};
    bool m_empty = true;
    qint64 m_minimumSpanNs = 0;
    QString m_placeholder;
};
