#pragma once

#include <QObject>

class MainWindow;
class QMenu;
class RecordPanel;
class ViewState;

// The design-review features in the main window, kept out of MainWindow:
// the Record dock, its File menu entries and what they need from the
// window. Computes nothing; the model drafts and renders.
class ReviewWiring : public QObject
{
    Q_OBJECT
public:
    ReviewWiring(MainWindow *window, ViewState *state);

    RecordPanel *recordPanel() const { return m_record; }
    void addFileActions(QMenu *file);
    bool isBusy() const;

private:
    MainWindow *m_window = nullptr;
    ViewState *m_state = nullptr;
    RecordPanel *m_record = nullptr;
};
