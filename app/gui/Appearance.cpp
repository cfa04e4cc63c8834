#include "Appearance.h"

#include <QApplication>
#include <QPalette>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

namespace Appearance {
namespace {

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2B, 0x2D, 0x31);
    const QColor base(0x1F, 0x21, 0x24);
    const QColor text(0xE6, 0xE6, 0xE6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x27, 0x29, 0x2D));
    p.setColor(QPalette::ToolTipBase, QColor(0x33, 0x36, 0x3A));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9A, 0x9A, 0x9A));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Mid, QColor(0x5A, 0x5D, 0x62));
    p.setColor(QPalette::Highlight, QColor(0x3D, 0x8B, 0xFD));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6C, 0xB4, 0xFF));
    for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x80, 0x80, 0x80));
    return p;
}

} // namespace

void apply(Mode mode)
{
    static const QString systemStyle = QApplication::style()->name();
    switch (mode) {
    case Mode::FollowSystem:
        QApplication::setStyle(QStyleFactory::create(systemStyle));
        QApplication::setPalette(QApplication::style()->standardPalette());
        // An empty palette lets the platform theme (and its later changes) through.
        QApplication::setPalette(QPalette());
        break;
    case Mode::Light:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case Mode::Dark:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
        break;
    }
}

QString key(Mode mode)
{
    switch (mode) {
    case Mode::Light:
        return QStringLiteral("light");
    case Mode::Dark:
        return QStringLiteral("dark");
    case Mode::FollowSystem:
        break;
    }
    return QStringLiteral("system");
}

Mode saved()
{
    const QString value = QSettings().value(QStringLiteral("appearance")).toString();
    for (const Mode mode : {Mode::Light, Mode::Dark}) {
        if (value == key(mode))
            return mode;
    }
    return Mode::FollowSystem;
}

void save(Mode mode)
{
    QSettings().setValue(QStringLiteral("appearance"), key(mode));
}

} // namespace Appearance
