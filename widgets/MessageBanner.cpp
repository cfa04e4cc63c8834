#include "MessageBanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

MessageBanner::MessageBanner(QWidget *parent)
    : QFrame(parent)
    , m_text(new QLabel(this))
    , m_close(new QToolButton(this))
{
    setObjectName(QStringLiteral("messageBanner"));
    m_text->setObjectName(QStringLiteral("messageBannerText"));
    m_close->setObjectName(QStringLiteral("messageBannerClose"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close->setText(QStringLiteral("\u2715"));
    m_close->setToolTip(tr("Dismiss"));
    m_close->setAutoRaise(true);
    // Amber with dark text: legible on the light and the dark palette alike.
    setStyleSheet(
        QStringLiteral("#messageBanner { background: #FFF1C2; border: 1px solid #D9A400; border-radius: 3px; }"
                       "#messageBanner QLabel, #messageBanner QToolButton { color: #3A2E00; }"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    connect(m_close, &QToolButton::clicked, this, &MessageBanner::clearMessage);
    hide();
}

void MessageBanner::showMessage(const QString &text)
{
    m_text->setText(text);
    show();
}

void MessageBanner::clearMessage()
{
    m_text->clear();
    hide();
}

QString MessageBanner::text() const
{
    return m_text->text();
}
