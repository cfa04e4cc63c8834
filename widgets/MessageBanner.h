#pragma once

#include <QFrame>

#include <functional>

class QLabel;
class QPushButton;
class QToolButton;

// A strip across the top of the window for something the user must see:
// a file that did not load and why, files that were not opened. It stays
// until closed or replaced, unlike a status-bar message that the next
// action overwrites. It may offer one way out as a button beside the text
// (open a sample of a table too large to hold).
class MessageBanner : public QFrame
{
    Q_OBJECT
public:
    explicit MessageBanner(QWidget *parent = nullptr);

    void showMessage(const QString &text);
    // With a button labelled `action` that calls `act` (and closes the banner).
    void showMessage(const QString &text, const QString &action, std::function<void()> act);
    void clearMessage();
    QString text() const;

private:
    void triggerAction();

    QLabel *m_text = nullptr;
    QToolButton *m_close = nullptr;
    QPushButton *m_action = nullptr;
    std::function<void()> m_act;
};
