#include "LoadProgressBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QToolButton>

#include <cmath>

LoadProgressBar::LoadProgressBar(QWidget *parent)
    : QWidget(parent)
    , m_label(new QLabel(this))
    , m_bar(new QProgressBar(this))
    , m_cancel(new QToolButton(this))
{
    setObjectName(QStringLiteral("loadProgress"));
    m_bar->setRange(0, 1000);
    m_bar->setTextVisible(false);
    m_bar->setFixedWidth(160);
    m_cancel->setObjectName(QStringLiteral("cancelLoad"));
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop loading (Esc)"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, this, &LoadProgressBar::cancelRequested);
}

void LoadProgressBar::start(const QString &fileName)
{
    m_fileName = fileName;
    setProgress(0.0, 0, 0);
}

void LoadProgressBar::setProgress(double fraction, qint64 records, qint64 elapsedMs)
{
    m_bar->setValue(int(std::lround(qBound(0.0, fraction, 1.0) * 1000.0)));
    m_label->setText(tr("Loading %1: %2").arg(m_fileName, describe(fraction, records, elapsedMs)));
}

QString LoadProgressBar::text() const
{
    return m_label->text();
}

QString LoadProgressBar::describe(double fraction, qint64 records, qint64 elapsedMs)
{
    const QLocale locale = QLocale::c();
    QStringList parts{QStringLiteral("%1%").arg(int(std::floor(qBound(0.0, fraction, 1.0) * 100.0)))};
    if (elapsedMs > 0 && records > 0) {
        const double perSecond = double(records) * 1000.0 / double(elapsedMs);
        parts.append(perSecond >= 1e6 ? QStringLiteral("%1 M records/s").arg(locale.toString(perSecond / 1e6, 'f', 1))
                                      : QStringLiteral("%1 records/s").arg(locale.toString(qint64(perSecond))));
    }
    if (elapsedMs > 0 && fraction > 0.02 && fraction < 1.0) {
        const double leftSeconds = double(elapsedMs) / 1000.0 * (1.0 - fraction) / fraction;
        parts.append(leftSeconds < 1.0 ? QStringLiteral("under 1 s left")
                                       : QStringLiteral("about %1 s left").arg(qint64(std::ceil(leftSeconds))));
    }
    return parts.join(QStringLiteral(" \u00b7 "));
}
