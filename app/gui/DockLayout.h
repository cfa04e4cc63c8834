#pragma once

#include <QByteArray>
#include <QObject>
#include <QSize>

#include <map>
#include <set>

class QDockWidget;
class QMainWindow;

// The main window's default dock arrangement, fitted to the window's size.
// The structure (which dock sits where, what is tabbed with what) is the
// one the window built; this adds what depends on the screen:
// - Roomy (at least kRoomy): Distributions (tabbed with the Profile Report)
//   above the Request Detail on the right, the bottom docks a third of the
//   height.
// - Compact (a laptop, 1280×720): the right-hand docks share one tab group,
//   so the distribution plot gets the column's whole height, and the bottom
//   docks give the lanes more room.
// Applied when the window is first shown (unless a saved layout was
// restored) and by View → Reset Layout, which returns to it at any time.
class DockLayout : public QObject
{
    Q_OBJECT
public:
    enum class Density { Roomy, Compact };
    static constexpr QSize kRoomy{1500, 900};
    static Density densityFor(QSize windowSize);

    // Call after every dock exists: remembers their arrangement.
    explicit DockLayout(QMainWindow *window);

    // A saved layout was restored: the first show keeps it.
    void keepRestoredLayout() { m_fitOnShow = false; }
    // The default arrangement, fitted to the window's current size.
    void reset();
    Density density() const { return m_density; }
    // A bottom dock the user turns to (the Compare dock when a comparison
    // starts) gets at least `share` of the window's height; a dock already
    // taller, or one floating, is left as it is.
    void giveRoom(QDockWidget *dock, double share);
    // `dock` gets giveRoom(dock, share) when it comes to the front (its tab
    // picked, or raised by --panel or a command): once after each fit, so a
    // user who then makes it shorter keeps that. Before the window is first
    // shown, it is given once the docks are fitted.
    void giveRoomWhenShown(QDockWidget *dock, double share);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void fit();

    void turnedTo(QDockWidget *dock, bool front);

    QMainWindow *m_window = nullptr;
    std::map<QDockWidget *, double> m_roomy; // giveRoomWhenShown's docks and shares
    std::map<QDockWidget *, bool> m_front;   // whether each of them is in front
    std::set<QDockWidget *> m_givenSinceFit;
    QByteArray m_structure;
    bool m_fitOnShow = true;
    Density m_density = Density::Roomy;
};
