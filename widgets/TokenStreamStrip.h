#pragma once

#include "analysis/stats/Histogram.h"
#include "analysis/streams/RequestStream.h"
#include "analysis/streams/StallRule.h"

#include <QWidget>

class RequestTable;

// One request's stream: server token ticks and client event ticks on two
// rows over one time axis (so a cluster at the client lines up with the
// smooth server ticks that fed it), stalls hatched on the row they happened,
// an event that carried several tokens drawn taller with its count, and the
// histogram of the request's gaps beside it with the stall threshold.
class TokenStreamStrip : public QWidget
{
    Q_OBJECT
public:
    explicit TokenStreamStrip(QWidget *parent = nullptr);

    // Reads the row's token times (a few hundred events: cheap on the GUI
    // thread). A row without any hides nothing itself; hasStream() says.
    void setRequest(const RequestTable *table, qint32 row, const StallRule &rule);
    bool hasStream() const { return !m_server.events.empty() || !m_client.events.empty(); }
    QString caption() const { return m_caption; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

    // Where the gap histogram goes at the current size: beside the tick rows
    // when the strip is wide enough, else below them, so the rows keep the
    // width (a narrow dock must not squeeze a 2 s stream into 180 px).
    QRect histogramArea() const;
    QRect tickArea() const; // both rows, the axis and the caption

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    struct Side
    {
        std::vector<TokenTimeline::Event> events;
        std::vector<StreamGap> stalls;
        RequestStreamStats stats;
    };

    void paintRow(QPainter &painter, const Side &side, const QRect &band, const QString &label) const;
    void paintHistogram(QPainter &painter, const QRect &area) const;

    Side m_server;
    Side m_client;
    qint64 m_begin = 0;
    qint64 m_end = 1;
    Histogram m_gaps; // of the shown side's gaps, ms
    double m_stallThresholdMs = 0.0;
    bool m_logBins = false;
    QString m_histogramSide;
    QString m_caption;
};
