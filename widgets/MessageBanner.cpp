#include "MessageBanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>

#include <utility>

MessageBanner::MessageBanner(QWidget *parent)
    : QFrame(parent)
    , m_text(new QLabel(this))
    , m_close(new QToolButton(this))
    , m_action(new QPushButton(this))
{
    setObjectName(QStringLiteral("messageBanner"));
    m_text->setObjectName(QStringLiteral("messageBannerText"));
    m_close->setObjectName(QStringLiteral("messageBannerClose"));
    m_action->setObjectName(QStringLiteral("messageBannerAction"));
    m_action->hide();
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
    layout->addWidget(m_action, 0, Qt::AlignTop);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    connect(m_close, &QToolButton::clicked, this, &MessageBanner::clearMessage);
    connect(m_action, &QPushButton::clicked, this, &MessageBanner::triggerAction);
    hide();
}

void MessageBanner::showMessage(const QString &text)
{
    showMessage(text, {}, {});
}

void MessageBanner::showMessage(const QString &text, const QString &action, std::function<void()> act)
{
    m_text->setText(text);
    m_act = std::move(act);
    m_action->setText(action);
    m_action->setVisible(!action.isEmpty() && m_act);
    show();
}

void MessageBanner::clearMessage()
{
    m_text->clear();
    m_act = nullptr;
    m_action->hide();
    hide();
}

void MessageBanner::triggerAction()
{
    // Closed first: what it does may show a message of its own.
    const std::function<void()> act = std::exchange(m_act, nullptr);
    clearMessage();
    if (act)
        act();
}

QString MessageBanner::text() const
{
    return m_text->text();
}
