#pragma once

#include "analysis/classes/ClassDimension.h"
#include "analysis/requests/Metric.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class RequestTable;

// The controls that say how the class table splits the requests: one or
// two dimensions the trace offers, the metric, the prompt / output band
// edges (typed as "512, 2k, 8k") and where the cached-prefix status is read.
class ClassSplitBar : public QWidget
{
    Q_OBJECT
public:
    explicit ClassSplitBar(QWidget *parent = nullptr);

    // Offers the dimensions of this trace (none for nullptr); keeps the bands.
    void setTable(const RequestTable *table);
    void showMetric(Metric metric);
    void showBoundary(Boundary boundary);

    // Keys of the chosen dimensions (one or two); {""} when the trace has none.
    QStringList keys() const;
    std::vector<ClassDimension> chosen() const;
    bool setKeys(const QStringList &keys);
    const ClassBands &bands() const { return m_bands; }
    // Band edges as typed; false with the reason on bad input.
    bool setBands(const QString &prompt, const QString &output, QString *error = nullptr);

signals:
    // Dimensions or bands changed (not emitted by setTable).
    void splitChanged();
    void metricPicked(Metric metric);
    void bandsRefused(const QString &reason);

private:
    void applyBandEdits();

    std::vector<ClassDimension> m_dimensions;
    ClassBands m_bands;
    QComboBox *m_first = nullptr;
    QComboBox *m_second = nullptr;
    QComboBox *m_metric = nullptr;
    QLabel *m_boundary = nullptr;
    QLineEdit *m_promptBands = nullptr;
    QLineEdit *m_outputBands = nullptr;
    QLabel *m_cacheStatus = nullptr;
};
