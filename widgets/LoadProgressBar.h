#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

// The status-bar strip shown while a trace loads: a bar with the percentage,
// the rate and an estimate of what is left, and a Cancel button.
class LoadProgressBar : public QWidget
{
    Q_OBJECT
public:
    explicit LoadProgressBar(QWidget *parent = nullptr);

    void start(const QString &fileName);
    // `fraction` 0..1 of bytes read, `records` parsed so far, after `elapsedMs`.
    void setProgress(double fraction, qint64 records, qint64 elapsedMs);
    QString text() const;

    // "42% · 1.2 M records/s · about 3 s left" (pieces left out while unknown).
    static QString describe(double fraction, qint64 records, qint64 elapsedMs);

signals:
    void cancelRequested();

private:
    QLabel *m_label = nullptr;
    QProgressBar *m_bar = nullptr;
    QToolButton *m_cancel = nullptr;
    QString m_fileName;
};
