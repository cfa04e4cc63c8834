// The Classes and Exceedance docks inside the main window: a class cell
// filters the swimlanes and the distributions, N / P step through the slow
// requests from anywhere but a text field, and Help lists both keys.

#include "ClassTableModel.h"
#include "ClassTablePanel.h"
#include "DistributionPanel.h"
#include "ExceedancePanel.h"
#include "KeyboardShortcutsDialog.h"
#include "MainWindow.h"
#include "RequestTablePanel.h"
#include "SwimlaneCanvas.h"
#include "SwimlaneView.h"
#include "ViewState.h"
#include "analysis/lanes/LaneLayout.h"
#include "store/TraceStore.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

namespace {

bool settle(MainWindow &window)
{
    return QTest::qWaitFor([&window] { return !window.isBusy(); }, 30'000);
}

// The main window on mixture.jsonl (180 chat, 20 document requests), shown and active.
struct Fixture
{
    MainWindow window;

    Fixture()
    {
        window.setPersistent(false);
        window.resize(1600, 1000);
        window.show();
        if (!QTest::qWaitForWindowActive(&window))
            qFatal("the window did not become active");
        QSignalSpy finished(&window, &MainWindow::loadFinished);
        window.openFile(QStringLiteral(TRACELANE_TEST_DATA_DIR "/classes/mixture.jsonl"));
        if ((finished.isEmpty() && !finished.wait(30'000)) || !settle(window))
            qFatal("the trace did not load");
        window.showPanel(QStringLiteral("classesDock"));
    }
    ViewState &state() const { return *window.viewState(); }
    qint64 laneCount() const { return window.swimlanes()->canvas()->laneLayout()->slotCount(); }
    QString currentId() const
    {
        const qint32 row = state().exceedanceCursor();
        return row < 0 ? QString() : state().requests()->idText(row);
    }
};

} // namespace

class tst_ClassWiring : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }
    void classCellFiltersEveryView();
    void stepKeysInTheWindow();
    void shortcutsAreListed();
};

void tst_ClassWiring::classCellFiltersEveryView()
{
    Fixture f;
    ClassTablePanel *classes = f.window.classTable();
    QCOMPARE(classes->dimensions(), QStringList{QStringLiteral("workload")});
    QCOMPARE(f.laneCount(), 200);
    classes->selectCells({1}); // document
    QVERIFY(settle(f.window));
    QCOMPARE(f.laneCount(), 20);
    QCOMPARE(f.window.distributions()->scopeDistribution().n, 20);
    QCOMPARE(f.window.statusSummary().section(QStringLiteral(" | "), 0, 0),
             QStringLiteral("20 of 200 requests in filter"));
    // The exceedance set now lies within the documents: their own p95.
    QCOMPARE(f.state().exceedance().members.size(), 1);
    classes->view()->clearSelection();
    QVERIFY(settle(f.window));
    QCOMPARE(f.laneCount(), 200);
    QCOMPARE(f.state().exceedance().members.size(), 10);
}

void tst_ClassWiring::stepKeysInTheWindow()
{
    Fixture f;
    SwimlaneCanvas *canvas = f.window.swimlanes()->canvas();
    canvas->setFocus();
    QTest::keyClick(canvas, Qt::Key_N);
    QCOMPARE(f.window.exceedance()->position(), 0);
    const QString first = f.currentId();
    QVERIFY(!first.isEmpty());
    QTest::keyClick(canvas, Qt::Key_N);
    QCOMPARE(f.window.exceedance()->position(), 1);
    QTest::keyClick(canvas, Qt::Key_P);
    QCOMPARE(f.currentId(), first);

    // Typing in the request filter never steps.
    QLineEdit *filter = f.window.requestTable()->filterEdit();
    f.window.showPanel(QStringLiteral("requestsDock"));
    filter->setFocus();
    QSignalSpy cursor(&f.state(), &ViewState::exceedanceCursorChanged);
    QTest::keyClicks(filter, QStringLiteral("np"));
    QCOMPARE(filter->text(), QStringLiteral("np"));
    QCOMPARE(cursor.count(), 0);
}

void tst_ClassWiring::shortcutsAreListed()
{
    Fixture f;
    QStringList keys;
    for (const auto &[shortcut, action] : KeyboardShortcutsDialog::shortcuts())
        keys << shortcut;
    for (QAction *action : {f.window.exceedance()->nextAction(), f.window.exceedance()->previousAction()})
        QVERIFY2(keys.contains(action->shortcut().toString(QKeySequence::NativeText)), qPrintable(action->text()));
    QCOMPARE(f.window.exceedance()->nextAction()->shortcut(), QKeySequence(Qt::Key_N));
    QCOMPARE(f.window.exceedance()->previousAction()->shortcut(), QKeySequence(Qt::Key_P));
}

QTEST_MAIN(tst_ClassWiring)
#include "tst_classwiring.moc"
