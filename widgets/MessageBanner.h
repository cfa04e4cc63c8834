#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

// A strip across the top of the window for something the user must see:
// a file that did not load and why, files that were not opened. It stays
// until closed or replaced, unlike a status-bar message that the next
// action overwrites.
class MessageBanner : public QFrame
{
    Q_OBJECT
public:
    explicit MessageBanner(QWidget *parent = nullptr);

    void showMessage(const QString &text);
    void clearMessage();
    QString text() const;

private:
    QLabel *m_text = nullptr;
    QToolButton *m_close = nullptr;
};
