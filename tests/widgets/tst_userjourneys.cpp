// The main window driven as a newcomer drives it (issue 9): keys pressed
// where the focus is, tabs and buttons clicked, files opened and dropped.
// Every test here failed before its defect was fixed.

#include "BackgroundPool.h"
#include "ClassTablePanel.h"
#include "DistributionPanel.h"
#include "ExceedancePanel.h"
#include "MainWindow.h"
#include "RequestTablePanel.h"
#include "SwimlaneCanvas.h"
#include "SwimlaneView.h"
#include "ViewState.h"
#include "analysis/lanes/LaneLayout.h"
#include "analysis/exceedance/ExceedanceAnalysis.h"
#include "SwimlaneCoordinates.h"
#include "store/TraceStore.h"
#include "support/TestData.h"
#include "support/WindowDriver.h"

#include <QAbstractItemView>
#include <QClipboard>
#include <QTableView>
#include <QAbstractScrollArea>
#include <QAction>
#include <QScrollBar>
#include <QComboBox>
#include <QDockWidget>
#include <QDropEvent>
#include <QTabBar>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <cmath>

using namespace WindowDriver;
using TestData::fixture;
using TestData::source;

namespace {

QString mixedClasses()
{
    return source(QStringLiteral("resources/examples/mixed-classes.jsonl"));
}

QString labelText(const QWidget &parent, const char *name)
{
    const auto *label = parent.findChild<QLabel *>(QLatin1String(name));
    return label ? label->text() : QStringLiteral("(no label %1)").arg(QLatin1String(name));
}

// Drops `paths` on the window, as a file manager does.
void dropFiles(MainWindow &window, const QStringList &paths)
{
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString &path : paths)
        urls.append(QUrl::fromLocalFile(path));
    mime.setUrls(urls);
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
}

// Types `text` into the Requests filter after clicking it, and waits for
// the filter to reach every view.
bool typeFilter(MainWindow &window, const QString &text)
{
    QLineEdit *filter = window.requestTable()->filterEdit();
    QTest::mouseClick(filter, Qt::LeftButton, {}, filter->rect().center());
    if (QApplication::focusWidget() != filter)
        return false;
    filter->selectAll();
    QTest::keyClicks(filter, text);
    if (!QTest::qWaitFor([&window] { return window.viewState()->hasSlice(); }, 10'000))
        return false;
    return settle(window);
}

std::unique_ptr<MainWindow> shownWindow(QSize size = QSize(1400, 900))
{
    auto window = std::make_unique<MainWindow>();
    window->setPersistent(false);
    window->resize(size);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return nullptr;
    return window;
}

} // namespace

class tst_UserJourneys : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void stepKeysIgnoreTheHiddenFilter();
    void stepKeysStillTypeInAVisibleField();
    void emptyFilterSaysSoInEveryView();
    void fileThatIsNotATraceKeepsTheTrace_data();
    void fileThatIsNotATraceKeepsTheTrace();
    void lateCancelIsFinal();
    void cancelByKeyKeepsTheTrace();
    void reloadKeepsTheExceedancePosition();
    void extraFilesAreExplained();
    void steppingWhenZoomedShowsTheWholeRequest();
    void laneZoomKeysWorkAfterTheOrderBox();
    void groupedLanesAreLabelled();
    void layoutFitsTheScreen_data();
    void layoutFitsTheScreen();
    void mixtureOfAThirdOfTheTraffic();
    void timeColumnsKeepOneUnitAndFit();
    void oneRequestIsSingular();
};

void tst_UserJourneys::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

// Issue 9, 1: type in the Requests filter, click the Exceedance tab, press N
// as the dock says. The filter field is hidden now; N must step, not type.
void tst_UserJourneys::stepKeysIgnoreTheHiddenFilter()
{
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, mixedClasses()));
    QVERIFY(typeFilter(*window, QStringLiteral("document")));
    QCOMPARE(window->viewState()->scopeSize(), 170);
    QVERIFY(clickTab(*window, QStringLiteral("Exceedance")));
    QVERIFY(settle(*window));
    ExceedancePanel *exceedance = window->exceedance();
    QVERIFY(exceedance->isVisible());
    // Out of sight: Qt moves a dock behind a tab away rather than hiding it.
    QVERIFY(window->requestTable()->filterEdit()->visibleRegion().isEmpty());
    QVERIFY(QApplication::focusWidget() != window->requestTable()->filterEdit());
    const std::vector<qint32> &members = exceedance->analysis()->set.members;
    QCOMPARE(members.size(), size_t(9));   // 170 documents, p95 at rank 160.55: ranks 161..169
    QCOMPARE(labelText(*exceedance, "exceedancePosition"), QStringLiteral("Press N to step through the 9 slow requests."));

    pressKey(*window, Qt::Key_N);
    QCOMPARE(window->requestTable()->filterEdit()->text(), QStringLiteral("document"));
    QCOMPARE(window->viewState()->scopeSize(), 170);
    QCOMPARE(exceedance->position(), 0);
    QCOMPARE(window->viewState()->exceedanceCursor(), members[0]);
    pressKey(*window, Qt::Key_N);
    pressKey(*window, Qt::Key_N);
    QCOMPARE(exceedance->position(), 2);
    pressKey(*window, Qt::Key_P);
    QCOMPARE(exceedance->position(), 1);
    QCOMPARE(window->viewState()->exceedanceCursor(), members[1]);
    QCOMPARE(window->requestTable()->filterEdit()->text(), QStringLiteral("document"));
}

// A visible text field keeps its letters: N types there and steps nothing.
void tst_UserJourneys::stepKeysStillTypeInAVisibleField()
{
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, mixedClasses()));
    QVERIFY(typeFilter(*window, QStringLiteral("docume")));
    pressKey(*window, Qt::Key_N);
    QCOMPARE(window->requestTable()->filterEdit()->text(), QStringLiteral("documen"));
    QCOMPARE(window->exceedance()->position(), -1);
    QCOMPARE(window->viewState()->exceedanceCursor(), -1);
}

// Issue 9, 1: a filter that matches nothing says so in every view it empties.
void tst_UserJourneys::emptyFilterSaysSoInEveryView()
{
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, mixedClasses()));
    QVERIFY(typeFilter(*window, QStringLiteral("documentn")));
    QCOMPARE(window->viewState()->scopeSize(), 0);
    const QString why = QStringLiteral(
        "No request matches the filter: text ~ \"documentn\". Clear or change it to see requests again.");
    QCOMPARE(window->viewState()->emptySliceText(), why);
    QCOMPARE(labelText(*window->swimlanes(), "laneInfo"), why);
    QCOMPARE(window->distributions()->emptyNote(), why);
    QCOMPARE(labelText(*window->classTable(), "classStatus"), why);
    QCOMPARE(labelText(*window->exceedance(), "exceedanceSummary"), why.toHtmlEscaped());   // rich text
    QCOMPARE(labelText(*window->exceedance(), "exceedancePosition"), why);
    QCOMPARE(labelText(*window->requestTable(), "requestCount"), QStringLiteral("No request matches (0 of 2,000)"));
    // The lanes say it where the lanes would be.
    SwimlaneCanvas *canvas = window->swimlanes()->canvas();
    const QImage shown = canvas->grab().toImage();
    int inked = 0;
    const QColor background = canvas->palette().color(QPalette::Base);
    for (int x = 0; x < shown.width(); x += 2)
        inked += QColor(shown.pixel(x, shown.height() / 2)) != background;
    QVERIFY2(inked > 20, qPrintable(QString::number(inked)));
    // Clearing the filter brings everything back, and the notes go.
    window->requestTable()->filterEdit()->clear();
    QTRY_VERIFY(!window->viewState()->hasSlice());
    QVERIFY(settle(*window));
    QVERIFY(window->distributions()->emptyNote().isEmpty());
    QCOMPARE(labelText(*window->requestTable(), "requestCount"), QStringLiteral("2,000 of 2,000 requests"));
}

void tst_UserJourneys::fileThatIsNotATraceKeepsTheTrace_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("why");
    QTest::newRow("empty file") << QByteArray() << QStringLiteral("x.jsonl was not loaded: ");
    QTest::newRow("blank lines") << QByteArray("\n\n  \n")
                                 << QStringLiteral("x.jsonl was not loaded: %1: no records; the file holds only blank "
                                                   "lines. The trace on screen is kept.");
    QTest::newRow("prose") << QByteArray("Dear diary,\ntoday nothing was slow.\n")
                           << QStringLiteral("x.jsonl was not loaded: it is not a trace Tracelane can read. 2 records "
                                             "were rejected, the first: line 1: ");
    QTest::newRow("json, not a trace") << QByteArray("{\"hello\": \"world\"}\n")
                                       << QStringLiteral("x.jsonl was not loaded: it is not a trace Tracelane can "
                                                         "read. 1 record was rejected, the first: line 1: ");
    QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)
                            << QStringLiteral("x.jsonl was not loaded: ");
}

// Issue 9, 4: opening a file that is not a trace, or an empty one, keeps the
// trace on screen and says in the banner why the new file did not load.
void tst_UserJourneys::fileThatIsNotATraceKeepsTheTrace()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, why);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("x.jsonl"));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
    }
    why.replace(QStringLiteral("%1"), path);
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, fixture(QStringLiteral("seed/multiclass.jsonl"))));
    const auto before = window->store();
    const QString summary = window->statusSummary();
    const QString title = window->windowTitle();
    QSignalSpy finished(window.get(), &MainWindow::loadFinished);
    dropFiles(*window, {path});
    QVERIFY(finished.wait(30'000));
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY(settle(*window));
    QCOMPARE(window->store(), before);
    QCOMPARE(window->statusSummary(), summary);
    QCOMPARE(window->windowTitle(), title);
    QCOMPARE(window->currentFile(), QFileInfo(fixture(QStringLiteral("seed/multiclass.jsonl"))).absoluteFilePath());
    QVERIFY2(window->bannerText().startsWith(why), qPrintable(window->bannerText()));
    QVERIFY2(window->bannerText().endsWith(QStringLiteral("The trace on screen is kept.")),
             qPrintable(window->bannerText()));
    auto *banner = window->findChild<QWidget *>(QStringLiteral("messageBanner"));
    QVERIFY(banner && banner->isVisible());
    QVERIFY(banner->height() >= banner->fontMetrics().height());
    // The banner goes when the user closes it, and with the next good load.
    QTest::mouseClick(banner->findChild<QWidget *>(QStringLiteral("messageBannerClose")), Qt::LeftButton);
    QVERIFY(window->bannerText().isEmpty());
    dropFiles(*window, {path});
    QTRY_VERIFY(!window->bannerText().isEmpty());
    QVERIFY(openAndSettle(*window, fixture(QStringLiteral("seed/three-requests.jsonl"))));
    QVERIFY(window->bannerText().isEmpty());
}

// Cancel is final: a Cancel that arrives after the worker finished, but
// before its result reached the window, still keeps the trace on screen.
void tst_UserJourneys::lateCancelIsFinal()
{
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, fixture(QStringLiteral("seed/burst.jsonl"))));
    const auto before = window->store();
    QSignalSpy finished(window.get(), &MainWindow::loadFinished);
    window->openFile(fixture(QStringLiteral("seed/three-requests.jsonl")));
    QVERIFY(window->isLoading());
    // The worker returns; its result waits in the event queue.
    BackgroundPool::instance()->waitForDone();
    window->cancelLoad();
    QVERIFY(!window->isLoading());
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QTest::qWait(200);
    QCOMPARE(finished.size(), 1);
    QCOMPARE(window->store(), before);
    QCOMPARE(window->store()->requests.rowCount(), 10);
    QCOMPARE(window->currentFile(), QFileInfo(fixture(QStringLiteral("seed/burst.jsonl"))).absoluteFilePath());
}

// Esc while a load runs cancels it, with the same guarantee.
void tst_UserJourneys::cancelByKeyKeepsTheTrace()
{
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, fixture(QStringLiteral("seed/burst.jsonl"))));
    const auto before = window->store();
    QSignalSpy finished(window.get(), &MainWindow::loadFinished);
    window->openFile(mixedClasses());
    pressKey(*window, Qt::Key_Escape);
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    BackgroundPool::instance()->waitForDone();
    QTest::qWait(200);
    QCOMPARE(finished.size(), 1);
    QCOMPARE(window->store(), before);
}

// Issue 9, 8: Reload (F5) comes back to the slow request being looked at.
void tst_UserJourneys::reloadKeepsTheExceedancePosition()
{
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, mixedClasses()));
    QVERIFY(clickTab(*window, QStringLiteral("Exceedance")));
    QVERIFY(settle(*window));
    for (int i = 0; i < 4; ++i)
        pressKey(*window, Qt::Key_N);
    ExceedancePanel *exceedance = window->exceedance();
    QCOMPARE(exceedance->position(), 3);
    const QString id = window->store()->requests.idText(window->viewState()->exceedanceCursor());
    const auto before = window->store();
    QSignalSpy finished(window.get(), &MainWindow::loadFinished);
    pressKey(*window, Qt::Key_F5);
    QVERIFY(finished.wait(30'000));
    QVERIFY(settle(*window));
    QVERIFY(window->store() != before);
    QCOMPARE(exceedance->position(), 3);
    QCOMPARE(window->store()->requests.idText(window->viewState()->exceedanceCursor()), id);
    QVERIFY(labelText(*exceedance, "exceedancePosition").startsWith(QStringLiteral("4 of 100: request ") + id));
}

// Issue 9, 8: files given together (command line, drop) that are not opened
// are named, and the note stays after the first file loaded.
void tst_UserJourneys::extraFilesAreExplained()
{
    auto window = shownWindow();
    QVERIFY(window);
    QSignalSpy finished(window.get(), &MainWindow::loadFinished);
    window->openFiles({fixture(QStringLiteral("seed/three-requests.jsonl")), fixture(QStringLiteral("seed/burst.jsonl")),
                       mixedClasses()});
    QVERIFY(finished.wait(30'000));
    QVERIFY(settle(*window));
    QCOMPARE(window->store()->requests.rowCount(), 3);
    QCOMPARE(window->bannerText(),
             QStringLiteral("Opened three-requests.jsonl only; 2 other files were not opened (burst.jsonl, "
                            "mixed-classes.jsonl): Tracelane shows one trace at a time. Open another with File \u2192 "
                            "Open."));
    finished.clear();
    dropFiles(*window, {fixture(QStringLiteral("seed/burst.jsonl")), mixedClasses()});
    QVERIFY(finished.wait(30'000));
    QCOMPARE(window->bannerText(),
             QStringLiteral("Opened burst.jsonl only; 1 other file was not opened (mixed-classes.jsonl): Tracelane "
                            "shows one trace at a time. Open another with File \u2192 Open."));
}

// Issue 9, 2: N / P while zoomed in time bring the member's whole lane into
// the time window: moved at the same zoom when it fits, widened when not.
void tst_UserJourneys::steppingWhenZoomedShowsTheWholeRequest()
{
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, mixedClasses()));
    QVERIFY(clickTab(*window, QStringLiteral("Exceedance")));
    SwimlaneCanvas *canvas = window->swimlanes()->canvas();
    const TimeWindow whole = window->viewState()->timeWindow();
    // Zoom in on the start of the trace with the keyboard, as a user does.
    canvas->setFocus(Qt::MouseFocusReason);
    pressKey(*window, Qt::Key_Home);
    for (int i = 0; i < 8; ++i)
        pressKey(*window, Qt::Key_Plus);
    const TimeWindow zoomed = window->viewState()->timeWindow();
    QCOMPARE(zoomed.duration(), qint64(std::llround(double(whole.duration()) * std::pow(0.7, 8))));
    const RequestTable &table = window->store()->requests;
    auto laneOf = [&table](qint32 row) {
        return std::pair{table.stamp(row, Stamp::ClientSend), table.stamp(row, Stamp::LastTokenClient)};
    };
    int moved = 0;
    int widened = 0;
    TimeWindow previous = zoomed;
    for (int step = 0; step < 20; ++step) {
        pressKey(*window, Qt::Key_N);
        const qint32 row = window->viewState()->exceedanceCursor();
        QCOMPARE(window->exceedance()->position(), step);
        const auto [begin, end] = laneOf(row);
        const TimeWindow shown = window->viewState()->timeWindow();
        QVERIFY2(shown.begin <= begin && end <= shown.end,
                 qPrintable(QStringLiteral("step %1: lane %2..%3 outside %4..%5")
                                .arg(step).arg(begin).arg(end).arg(shown.begin).arg(shown.end)));
        if (begin >= previous.begin && end <= previous.end) {
            QCOMPARE(shown, previous);   // on screen already: nothing moves
        } else if ((end - begin) * 11 / 10 <= previous.duration()) {
            QCOMPARE(shown.duration(), previous.duration());   // fits: same zoom, centred
            const TimeWindow bounds = canvas->timeBounds();
            QVERIFY(shown.begin == bounds.begin || shown.end == bounds.end
                    || std::abs((shown.begin + shown.end) / 2 - (begin + end) / 2) < 20'000);
            ++moved;
        } else {
            // Longer than the window: just wide enough, 5% margins.
            // (The lanes keep times as float ms offsets: equal to a few µs.)
            const qint64 pad = std::llround(double(end - begin) * 0.05);
            QVERIFY(std::abs(shown.begin - (begin - pad)) < 20'000 && std::abs(shown.end - (end + pad)) < 20'000);
            ++widened;
        }
        previous = shown;
    }
    QVERIFY(moved > 0);
    QVERIFY(widened > 0);
}

// Issue 9, 8: after choosing a lane order, Ctrl+Up / Ctrl+Down still zoom
// the lanes, whether the order box was used with the mouse or the keyboard.
void tst_UserJourneys::laneZoomKeysWorkAfterTheOrderBox()
{
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, mixedClasses()));
    SwimlaneCanvas *canvas = window->swimlanes()->canvas();
    auto *order = window->swimlanes()->findChild<QComboBox *>(QStringLiteral("laneOrder"));
    QVERIFY(order);
    // Keyboard: Tab to the box, Down picks the next order.
    order->setFocus(Qt::TabFocusReason);
    QCOMPARE(QApplication::focusWidget(), order);
    pressKey(*window, Qt::Key_Down);
    QCOMPARE(order->currentText(), QStringLiteral("TTFT"));
    QVERIFY(settle(*window));
    const double lanes = canvas->laneWindow().count;
    QCOMPARE(lanes, 2000.0);
    pressKey(*window, Qt::Key_Up, Qt::ControlModifier);
    QCOMPARE(order->currentText(), QStringLiteral("TTFT"));
    QCOMPARE(canvas->laneWindow().count, 2000.0 * SwimlaneCanvas::kKeyZoom);
    pressKey(*window, Qt::Key_Down, Qt::ControlModifier);
    QCOMPARE(order->currentText(), QStringLiteral("TTFT"));
    QCOMPARE(canvas->laneWindow().count, 2000.0);
    // Mouse: a click on the box leaves the keys with the lanes.
    canvas->setFocus(Qt::MouseFocusReason);
    QTest::mouseClick(order, Qt::LeftButton);
    QTRY_VERIFY(order->view()->isVisible());
    QTest::keyClick(order->view(), Qt::Key_Down);
    QTest::keyClick(order->view(), Qt::Key_Return);
    QTRY_VERIFY(!order->view()->isVisible());
    QCOMPARE(order->currentText(), QStringLiteral("ITL"));
    QVERIFY(settle(*window));
    // A window system hands activation back from the closed popup; the
    // offscreen platform does not, so the test does.
    window->activateWindow();
    QTRY_COMPARE(QApplication::activeWindow(), window.get());
    QCOMPARE(QApplication::focusWidget(), canvas);
    pressKey(*window, Qt::Key_Up, Qt::ControlModifier);
    QCOMPARE(order->currentText(), QStringLiteral("ITL"));
    QCOMPARE(canvas->laneWindow().count, 2000.0 * SwimlaneCanvas::kKeyZoom);
    pressKey(*window, Qt::Key_Plus);   // and the time keys too
    QVERIFY(window->viewState()->timeWindow().duration() < window->swimlanes()->canvas()->timeBounds().duration());
}

// Issue 9, 8: Group by draws each group's name on its band (not only in a
// tooltip), and the lane counter counts requests, not the group headers.
void tst_UserJourneys::groupedLanesAreLabelled()
{
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, mixedClasses()));
    SwimlaneCanvas *canvas = window->swimlanes()->canvas();
    auto *groupBy = window->swimlanes()->findChild<QComboBox *>(QStringLiteral("laneGroup"));
    QVERIFY(groupBy);
    // Pick "region" from the box with the mouse and keyboard.
    QTest::mouseClick(groupBy, Qt::LeftButton);
    QTRY_VERIFY(groupBy->view()->isVisible());
    const int region = groupBy->findText(QStringLiteral("region"));
    QVERIFY(region > 0);
    for (int i = groupBy->view()->currentIndex().row(); i < region; ++i)
        QTest::keyClick(groupBy->view(), Qt::Key_Down);
    QTest::keyClick(groupBy->view(), Qt::Key_Return);
    QTRY_VERIFY(!groupBy->view()->isVisible());
    QCOMPARE(groupBy->currentText(), QStringLiteral("region"));
    QVERIFY(settle(*window));
    QTRY_COMPARE(canvas->laneLayout()->groups().size(), size_t(3));

    // The whole trace: 2,003 slots in about 500 px, so the header rows are
    // too thin for the frame to write in; the overlay names every band.
    QVERIFY(!canvas->showsSingleLanes());
    QVERIFY(labelText(*window->swimlanes(), "laneInfo")
                .startsWith(QStringLiteral("Lanes 1\u20132,000 of 2,000 in 3 groups \u00b7 aggregated")));
    QStringList texts;
    for (const auto &label : canvas->groupLabels())
        texts << label.text;
    texts.sort();
    QCOMPARE(texts, QStringList({QStringLiteral("region = ap-south \u00b7 322 lanes"),
                                 QStringLiteral("region = eu-west \u00b7 974 lanes"),
                                 QStringLiteral("region = us-east \u00b7 704 lanes")}));
    // Drawn, in the text colour, inside each label's box.
    const QImage shown = canvas->grab().toImage();
    const QColor text = canvas->palette().color(QPalette::Text);
    for (const auto &label : canvas->groupLabels()) {
        const QRect box = label.rect.toAlignedRect().intersected(shown.rect());
        int ink = 0;
        for (int y = box.top(); y <= box.bottom(); ++y) {
            for (int x = box.left(); x <= box.right(); ++x) {
                const QColor pixel(shown.pixel(x, y));
                ink += std::abs(pixel.lightness() - text.lightness()) < 60;
            }
        }
        QVERIFY2(ink > 40, qPrintable(label.text + QStringLiteral(": %1 text pixels").arg(ink)));
    }
    // Hovering a pixel row names its group and numbers lanes as the counter does.
    const auto &layout = *canvas->laneLayout();
    const qint64 header = layout.groups()[1].headerSlot;
    const auto laneWindow = canvas->laneWindow();
    const int y = int(std::floor(SwimlaneCoordinates::laneToY(double(header) + 5.0, laneWindow, canvas->height())));
    const auto [firstSlot, endSlot] = SwimlaneCoordinates::lanesInPixelRow(y, laneWindow, canvas->height(),
                                                                           layout.slotCount());
    QVERIFY(firstSlot > header && endSlot > firstSlot + 1);   // the row lies in the second group
    const QString tip = canvas->toolTipAt(QPoint(canvas->width() / 2, y));
    QCOMPARE(tip.section(QLatin1Char('\n'), 0, 0),
             QStringLiteral("region = %1, lanes %2\u2013%3: %4 requests in this pixel row, drawn as their phase mix.")
                 .arg(layout.groups()[1].label)
                 .arg(firstSlot - 1)   // two headers above: slot s is request lane s - 1
                 .arg(endSlot - 2)
                 .arg(endSlot - firstSlot));
    const int headerY = int(std::floor(SwimlaneCoordinates::laneToY(double(header) + 0.5, laneWindow, canvas->height())));
    QVERIFY(canvas->toolTipAt(QPoint(canvas->width() / 2, headerY)).startsWith(QStringLiteral("region = ")));

    // Zoomed in on the top: the counter leaves the first group's header out.
    // (The offscreen platform does not hand activation back from the closed popup.)
    window->activateWindow();
    QTRY_COMPARE(QApplication::activeWindow(), window.get());
    canvas->setFocus(Qt::MouseFocusReason);
    QCOMPARE(QApplication::focusWidget(), canvas);
    // Until each lane is tall enough for the header row to hold its name.
    const double textHeight = QFontMetricsF(canvas->font()).height();
    for (int i = 0; i < 40 && canvas->height() / canvas->laneWindow().count < textHeight + 4.0; ++i)
        pressKey(*window, Qt::Key_Up, Qt::ControlModifier);
    QVERIFY(canvas->showsSingleLanes());
    pressKey(*window, Qt::Key_Home, Qt::ControlModifier);
    QVERIFY(settle(*window));
    const auto lanes = canvas->laneWindow();
    QCOMPARE(lanes.first, 0.0);
    const qint64 slotsShown = qint64(std::ceil(lanes.count - 0.001));
    QVERIFY(slotsShown < qint64(layout.groups()[0].laneCount));   // the first group fills the screen
    QCOMPARE(labelText(*window->swimlanes(), "laneInfo"),
             QStringLiteral("Lanes 1\u2013%1 of 2,000 in 3 groups").arg(slotsShown - 1));
    // The frame writes the name in the header row; no second label over it.
    QVERIFY(canvas->groupLabels().empty());
    const int firstHeaderY = int(SwimlaneCoordinates::laneToY(0.5, canvas->laneWindow(), canvas->height()));
    QCOMPARE(canvas->toolTipAt(QPoint(canvas->width() / 2, firstHeaderY)),
             QStringLiteral("region = %1: %2 requests")
                 .arg(layout.groups()[0].label, QLocale().toString(layout.groups()[0].laneCount)));
}

namespace {

QAction *menuAction(const QMainWindow &window, const QString &text)
{
    for (QAction *action : window.findChildren<QAction *>()) {
        if (action->text() == text)
            return action;
    }
    return nullptr;
}

// What a user sees of the window's parts at one size.
struct Glance
{
    QRect lanes;          // the swimlane canvas, in window coordinates
    QRect plot;           // the distribution plot
    QRect requestsDock;
    bool distributionsScroll = true;   // its panel needs scroll bars (cut)
    bool sloVisible = false;           // the SLO box wholly on screen
    bool detailTabbedWithPlot = false;
    QString rightFront;                // the tab in front on the right
};

Glance glance(MainWindow &window)
{
    Glance g;
    const auto where = [&window](QWidget *widget) {
        return QRect(widget->mapTo(&window, QPoint(0, 0)), widget->size());
    };
    g.lanes = where(window.swimlanes()->canvas());
    auto *plot = window.distributions()->findChild<QWidget *>(QStringLiteral("distributionPlot"));
    g.plot = plot->visibleRegion().boundingRect().translated(plot->mapTo(&window, QPoint(0, 0)));
    auto *requests = window.findChild<QDockWidget *>(QStringLiteral("requestsDock"));
    g.requestsDock = where(requests);
    auto *distributions = window.findChild<QDockWidget *>(QStringLiteral("distributionsDock"));
    auto *scroll = qobject_cast<QAbstractScrollArea *>(distributions->widget());
    g.distributionsScroll = scroll->horizontalScrollBar()->isVisible() || scroll->verticalScrollBar()->isVisible();
    auto *slo = window.distributions()->findChild<QWidget *>(QStringLiteral("distributionSlo"));
    g.sloVisible = slo->visibleRegion() == QRegion(slo->rect());
    auto *detail = window.findChild<QDockWidget *>(QStringLiteral("detailDock"));
    g.detailTabbedWithPlot = window.tabifiedDockWidgets(distributions).contains(detail);
    g.rightFront = frontTab(window, QStringLiteral("Distributions"));
    return g;
}

} // namespace

void tst_UserJourneys::layoutFitsTheScreen_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<int>("minLanes");   // px of lanes at least
    QTest::addColumn<int>("minPlot");    // px of distribution plot at least
    QTest::addColumn<bool>("compact");
    QTest::newRow("1280x720 laptop") << QSize(1280, 720) << 200 << 240 << true;
    QTest::newRow("1366x768") << QSize(1366, 768) << 230 << 280 << true;
    QTest::newRow("1920x1080") << QSize(1920, 1080) << 450 << 340 << false;
}

// Issue 9, 5: at 1280x720 the plot was ~80 px tall, the SLO box cut and
// the lanes ~130 px; View -> Reset Layout changed nothing.
void tst_UserJourneys::layoutFitsTheScreen()
{
    QFETCH(QSize, size);
    QFETCH(int, minLanes);
    QFETCH(int, minPlot);
    QFETCH(bool, compact);
    auto window = shownWindow(size);
    QVERIFY(window);
    QCOMPARE(window->size(), size);
    QVERIFY(openAndSettle(*window, mixedClasses()));
    const Glance fresh = glance(*window);
    const auto check = [&](const Glance &g, const char *when) {
        const QString at = QStringLiteral("%1 %2: ").arg(QLatin1String(when)).arg(QLatin1String(QTest::currentDataTag()));
        QVERIFY2(g.lanes.height() >= minLanes, qPrintable(at + QStringLiteral("lanes %1 px").arg(g.lanes.height())));
        QVERIFY2(g.plot.height() >= minPlot, qPrintable(at + QStringLiteral("plot %1 px").arg(g.plot.height())));
        QVERIFY2(!g.distributionsScroll, qPrintable(at + QStringLiteral("the distribution panel is cut")));
        QVERIFY2(g.sloVisible, qPrintable(at + QStringLiteral("the SLO box is cut")));
        QCOMPARE(g.detailTabbedWithPlot, compact);
        QCOMPARE(g.rightFront, QStringLiteral("Distributions"));
        // Nothing off the window's edge.
        QVERIFY(QRect(QPoint(0, 0), size).contains(g.plot));
        QVERIFY(QRect(QPoint(0, 0), size).contains(g.lanes));
        QVERIFY(g.requestsDock.height() >= 180);
    };
    check(fresh, "opened");
    // The lane counter is never cut: beside the controls, or on its own row.
    QLabel *laneInfo = window->swimlanes()->findChild<QLabel *>(QStringLiteral("laneInfo"));
    QCOMPARE(window->swimlanes()->laneInfoHasOwnRow(), compact);
    QVERIFY2(laneInfo->width() >= laneInfo->sizeHint().width(),
             qPrintable(QStringLiteral("%1 < %2").arg(laneInfo->width()).arg(laneInfo->sizeHint().width())));

    // The user rearranges: Distributions floats, Request Detail is closed,
    // the bottom docks take most of the height.
    auto *distributions = window->findChild<QDockWidget *>(QStringLiteral("distributionsDock"));
    auto *detail = window->findChild<QDockWidget *>(QStringLiteral("detailDock"));
    auto *requests = window->findChild<QDockWidget *>(QStringLiteral("requestsDock"));
    detail->toggleViewAction()->trigger();
    window->resizeDocks({requests}, {size.height() * 2 / 3}, Qt::Vertical);
    distributions->setFloating(true);
    QTest::qWait(50);
    QVERIFY(detail->isHidden());
    QVERIFY(glance(*window).lanes.height() < fresh.lanes.height());

    // View -> Reset Layout brings back the arrangement the window opened with.
    QAction *reset = menuAction(*window, QStringLiteral("Reset &Layout"));
    QVERIFY(reset);
    reset->trigger();
    QTest::qWait(50);
    QVERIFY(!distributions->isFloating());
    QVERIFY(!detail->isHidden());
    const Glance again = glance(*window);
    check(again, "reset");
    QVERIFY2(std::abs(again.lanes.height() - fresh.lanes.height()) <= 4,
             qPrintable(QStringLiteral("%1 vs %2").arg(again.lanes.height()).arg(fresh.lanes.height())));
    QVERIFY2(std::abs(again.plot.height() - fresh.plot.height()) <= 4,
             qPrintable(QStringLiteral("%1 vs %2").arg(again.plot.height()).arg(fresh.plot.height())));
    QVERIFY(std::abs(again.plot.width() - fresh.plot.width()) <= 4);
}

namespace {

// Picks `text` in a combo box as a user does: click it, arrow keys, Return.
bool pickInCombo(QComboBox *combo, const QString &text)
{
    const int wanted = combo->findText(text);
    if (wanted < 0)
        return false;
    QTest::mouseClick(combo, Qt::LeftButton);
    if (!QTest::qWaitFor([combo] { return combo->view()->isVisible(); }))
        return false;
    const int from = combo->view()->currentIndex().row();
    for (int i = from; i < wanted; ++i)
        QTest::keyClick(combo->view(), Qt::Key_Down);
    for (int i = from; i > wanted; --i)
        QTest::keyClick(combo->view(), Qt::Key_Up);
    QTest::keyClick(combo->view(), Qt::Key_Return);
    return QTest::qWaitFor([combo] { return !combo->view()->isVisible(); }) && combo->currentText() == text;
}

} // namespace

// Issue 9, 7: by region, ap-south holds the whole p95 set while being a
// third of the requests; the Classes dock said nothing. Split finer (region
// x priority) it named half of the set as one priority's cell.
void tst_UserJourneys::mixtureOfAThirdOfTheTraffic()
{
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, fixture(QStringLiteral("classes/region-tail.jsonl"))));
    QVERIFY(clickTab(*window, QStringLiteral("Classes")));
    ClassTablePanel *classes = window->classTable();
    auto *first = classes->findChild<QComboBox *>(QStringLiteral("classDimension1"));
    auto *second = classes->findChild<QComboBox *>(QStringLiteral("classDimension2"));
    QVERIFY(first && second);
    QLabel *warning = classes->mixtureLabel();
    const QString rule = QStringLiteral(
        "Read the class rows, not the overall row. (Warned when one class holds at least half of the requests above "
        "the percentile and at least twice its share of all requests.)");

    QVERIFY(pickInCombo(first, QStringLiteral("priority")));
    QVERIFY(settle(*window));
    QVERIFY(warning->isHidden());   // half the traffic, 7 of 13 of the set

    QVERIFY(pickInCombo(first, QStringLiteral("region")));
    QVERIFY(settle(*window));
    QVERIFY(warning->isVisible());
    QCOMPARE(warning->text(),
             QStringLiteral("\u26a0 Mixture: the overall p95 TTFT is carried by region = ap-south. 13 of the 13 "
                            "requests above it (100%) are in that class, which is 33.6% of all requests: 3.0 times its "
                            "share. ")
                 + rule);

    QVERIFY(pickInCombo(second, QStringLiteral("priority")));
    QVERIFY(settle(*window));
    QVERIFY(warning->isVisible());
    QCOMPARE(warning->text(),
             QStringLiteral("\u26a0 Mixture: the overall p95 TTFT is carried by region = ap-south (every priority "
                            "together). 13 of the 13 requests above it (100%) are in that class, which is 33.6% of all "
                            "requests: 3.0 times its share. ")
                 + rule);
}

// Issue 9, 8: a time column mixed "9667.7 ms" and "12.35 s", and a column was
// sized on its first rows, so a long queue further down was cut.
void tst_UserJourneys::timeColumnsKeepOneUnitAndFit()
{
    // 40 requests of 2 s, 5 ms of queue each, but request 38 queued 123 s.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("long-queue.jsonl"));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        for (int i = 0; i < 40; ++i) {
            const double send = 1'000.0 * i;
            const double queue = i == 37 ? 123'456.7 : 5.0;
            const double stamps[8] = {send, send + 10, send + 12, send + 12 + queue, send + 52 + queue,
                                      send + 60 + queue, send + 70 + queue, send + 2'000 + queue};
            file.write(QStringLiteral("{\"request_id\": \"q-%1\", \"prompt_tokens\": 100, \"output_tokens\": 50, "
                                      "\"client_send_ms\": %2, \"gateway_arrival_ms\": %3, \"queue_enter_ms\": %4, "
                                      "\"prefill_start_ms\": %5, \"prefill_end_ms\": %6, \"first_token_server_ms\": %7, "
                                      "\"first_token_client_ms\": %8, \"last_token_client_ms\": %9}\n")
                           .arg(i)
                           .arg(stamps[0], 0, 'f', 1).arg(stamps[1], 0, 'f', 1).arg(stamps[2], 0, 'f', 1)
                           .arg(stamps[3], 0, 'f', 1).arg(stamps[4], 0, 'f', 1).arg(stamps[5], 0, 'f', 1)
                           .arg(stamps[6], 0, 'f', 1).arg(stamps[7], 0, 'f', 1)
                           .toUtf8());
        }
    }
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, path));
    QVERIFY(clickTab(*window, QStringLiteral("Requests")));
    auto *view = window->requestTable()->findChild<QTableView *>(QStringLiteral("requestTable"));
    QVERIFY(view);
    const QAbstractItemModel *model = view->model();
    QCOMPARE(model->rowCount(), 40);
    auto columnNamed = [model](const QString &name) {
        for (int c = 0; c < model->columnCount(); ++c) {
            if (model->headerData(c, Qt::Horizontal).toString() == name)
                return c;
        }
        return -1;
    };
    const int queue = columnNamed(QStringLiteral("Queue"));
    const int e2e = columnNamed(QStringLiteral("E2E"));
    QVERIFY(queue >= 0 && e2e >= 0);
    QCOMPARE(model->index(0, e2e).data().toString(), QStringLiteral("2005.0 ms"));
    QCOMPARE(model->index(37, e2e).data().toString(), QStringLiteral("125456.7 ms"));   // not "125.46 s"
    QCOMPARE(model->index(37, queue).data().toString(), QStringLiteral("123456.7 ms"));
    // Every cell of a time column is whole on screen at the width it opened with.
    for (const int column : {queue, e2e}) {
        for (int row = 0; row < model->rowCount(); ++row) {
            const QString text = model->index(row, column).data().toString();
            QVERIFY2(text.endsWith(QStringLiteral(" ms")), qPrintable(text));
            QVERIFY2(view->fontMetrics().horizontalAdvance(text) + 8 <= view->columnWidth(column),
                     qPrintable(QStringLiteral("%1 in %2 px").arg(text).arg(view->columnWidth(column))));
        }
    }
    // One unit per column: Ctrl+C copies "E2E [ms]" over bare numbers.
    view->setFocus(Qt::MouseFocusReason);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(model->index(0, 0)).center());
    pressKey(*window, Qt::Key_A, Qt::ControlModifier);
    pressKey(*window, Qt::Key_C, Qt::ControlModifier);
    const QStringList lines = QGuiApplication::clipboard()->text().split(QLatin1Char('\n'));
    QVERIFY2(lines.size() >= 41, qPrintable(lines.join(QLatin1Char('\n')).left(400)));
    const QStringList header = lines[0].split(QLatin1Char('\t'));
    QVERIFY2(header.contains(QStringLiteral("E2E [ms]")) && header.contains(QStringLiteral("Queue [ms]")),
             qPrintable(lines[0]));
    QCOMPARE(lines[38].split(QLatin1Char('\t'))[header.indexOf(QStringLiteral("E2E [ms]"))],
             QStringLiteral("125456.7"));
}

// Issue 9, 8: "1 lanes", "1 requests". A trace of one request reads in the
// singular wherever it is counted.
void tst_UserJourneys::oneRequestIsSingular()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("one.jsonl"));
    {
        QFile source(fixture(QStringLiteral("seed/three-requests.jsonl")));
        QVERIFY(source.open(QIODevice::ReadOnly));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(source.readLine());
    }
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, path));
    QCOMPARE(window->store()->requests.rowCount(), 1);
    QVERIFY2(window->statusSummary().startsWith(QStringLiteral("1 request | 0 rejected | ")),
             qPrintable(window->statusSummary()));
    QCOMPARE(labelText(*window->swimlanes(), "laneInfo"), QStringLiteral("Lane 1 of 1"));
    QCOMPARE(labelText(*window->requestTable(), "requestCount"), QStringLiteral("1 of 1 request"));
    QVERIFY(clickTab(*window, QStringLiteral("Classes")));
    QVERIFY(settle(*window));
    const QString classes = labelText(*window->classTable(), "classStatus");
    QVERIFY2(classes.startsWith(QStringLiteral("1 request (whole trace) \u00b7 1 class \u00b7 above the overall p95 ("))
                 && classes.contains(QStringLiteral("): 0 requests \u00b7 ")),
             qPrintable(classes));
    QVERIFY(clickTab(*window, QStringLiteral("Exceedance")));
    QVERIFY(settle(*window));
    const QString exceedance = labelText(*window->exceedance(), "exceedanceSummary");
    QVERIFY2(exceedance.contains(QStringLiteral(" of 1 request with TTFT (whole trace)")), qPrintable(exceedance));
    // Filtered to the one request, the status bar counts it once more.
    QVERIFY(typeFilter(*window, window->store()->requests.idText(0)));
    QVERIFY2(window->statusSummary().startsWith(QStringLiteral("1 of 1 request in filter | ")),
             qPrintable(window->statusSummary()));
}

QTEST_MAIN(tst_UserJourneys)
#include "tst_userjourneys.moc"
