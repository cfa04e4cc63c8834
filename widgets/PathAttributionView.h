#pragma once

#include "analysis/workflows/SpanKey.h"

#include <QWidget>

class PathAttributionModel;
class QComboBox;
class QLabel;
class QTableView;
struct PathAttribution;

// The Exceedance dock's attribution for workflow traces: the slow set's
// mean excess split over critical-path time by the chosen key (kind,
// service, operation, normalised name), how often each key is critical and
// its slack off the path, the suspect and the next test. Draws what
// PathAttribution computed; a change of key asks for a new one.
class PathAttributionView : public QWidget
{
    Q_OBJECT
public:
    explicit PathAttributionView(QWidget *parent = nullptr);

    void setAttribution(const PathAttribution &attribution);
    void showComputing();
    void clear();

    SpanKeyKind keyKind() const;
    void setKeyKind(SpanKeyKind kind);

    PathAttributionModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QComboBox *keyBox() const { return m_key; }
    QLabel *excessLabel() const { return m_excess; }
    QLabel *suspectLabel() const { return m_suspect; }

signals:
    void keyKindChanged(SpanKeyKind kind);

private:
    PathAttributionModel *m_model = nullptr;
    QComboBox *m_key = nullptr;
    QTableView *m_table = nullptr;
    QLabel *m_excess = nullptr;
    QLabel *m_suspect = nullptr;
    QLabel *m_note = nullptr;
};
