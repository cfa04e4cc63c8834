// Sessions through the main window: everything the session lists survives
// save and reopen; `tracelane --screenshot OUT SESSION` renders the view the
// session saved (pixels compared); a moved trace is reported with its path;
// notes mark their lanes and Gantt rows.

#include "Appearance.h"
#include "ClassTablePanel.h"
#include "ComparePanel.h"
#include "ExceedancePanel.h"
#include "MainWindow.h"
#include "NotesPanel.h"
#include "PhaseLegend.h"
#include "RecordPanel.h"
#include "RequestTablePanel.h"
#include "ReviewWiring.h"
#include "SessionController.h"
#include "SwimlaneCanvas.h"
#include "SwimlaneView.h"
#include "ViewState.h"
#include "WhatIfPanel.h"
#include "WorkflowGantt.h"
#include "WorkflowPanel.h"
#include "analysis/lanes/LaneLayout.h"
#include "review/SessionJson.h"
#include "store/TraceStore.h"

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString example(const char *name)
{
    return QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/") + QString::fromUtf8(name);
}

void settle(MainWindow &window)
{
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 60'000);
    QTest::qWait(150);
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 60'000);
}

void load(MainWindow &window, const QString &path)
{
    QSignalSpy loaded(&window, &MainWindow::loadFinished);
    window.openFile(path);
    QVERIFY(loaded.wait(30'000));
    settle(window);
}

// The window in a known, non-default state on the bundled example.
void arrange(MainWindow &window)
{
    ViewState *state = window.viewState();
    window.classTable()->setDimensions({QStringLiteral("priority"), QStringLiteral("region")});
    QVERIFY(window.classTable()->setBands(QStringLiteral("256, 1k"), QStringLiteral("64")));
    window.exceedance()->setPercentile(0.9);
    // The Compare dock's question, set before any candidate is chosen.
    QVERIFY(window.comparePanel()->setDimensions({QStringLiteral("region")}));
    window.comparePanel()->setPercentile(0.99);
    window.comparePanel()->setSloMs(400.0);
    window.comparePanel()->setPredictedSavingMs(120.5);
    window.requestTable()->setAttributeFilter(QStringLiteral("region"), QStringLiteral("eu-west"));
    settle(window);
    LaneOrder order;
    order.key = LaneOrder::Key::Metric;
    order.metric = Metric::Ttft;
    order.descending = true;
    window.swimlanes()->setLaneOrder(order);
    settle(window);
    window.exceedance()->stepNext();
    window.exceedance()->stepNext();
    settle(window);
    window.swimlanes()->canvas()->setLaneWindow({3.0, 120.0});
    // Zoomed in time, two requests picked.
    const TimeWindow full = state->timeWindow();
    state->setTimeWindow({full.begin + (full.end - full.begin) / 10, full.begin + (full.end - full.begin) / 2});
    state->setSelection(RowSet::fromSortedUnique({state->slice().rows()[0], state->slice().rows()[5]}));
    window.review()->notesPanel()->addNote({state->requests()->idText(state->exceedanceCursor()), QString(),
                                            QStringLiteral("waited behind a document prompt")});
    window.review()
        ->recordPanel()
        ->findChild<QLineEdit *>(QStringLiteral("recordTitle"))
        ->setText(QStringLiteral("Queue tail in eu-west"));
    if (auto *dock = window.findChild<QDockWidget *>(QStringLiteral("exceedanceDock")))
        dock->raise();
    settle(window);
}

} // namespace

class tst_SessionWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void saveAndReopenEveryPiece();
    void screenshotOfASessionIsTheSavedView();
    void movedTraceIsReported();
    void movedTraceIsLocated();
    void changedTraceIsReported();
    void whatIfRestoredExactly_data();
    void whatIfRestoredExactly();
    void notesMarkLanesAndGanttRows();

private:
    QTemporaryDir m_dir;
};

void tst_SessionWindow::initTestCase()
{
    // As the headless application renders: the system style, no saved settings.
    Appearance::apply(Appearance::Mode::FollowSystem);
    QVERIFY(m_dir.isValid());
}

void tst_SessionWindow::saveAndReopenEveryPiece()
{
    MainWindow first;
    first.setPersistent(false);
    first.resize(1400, 900);
    first.show();
    load(first, example("mixed-classes.jsonl"));
    arrange(first);
    const Session saved = first.review()->session()->capture();
    QCOMPARE(saved.exceedanceQ, 0.9);
    QCOMPARE(saved.filterAttribute, QStringLiteral("region"));
    QVERIFY(saved.hasSlice);
    QVERIFY(!saved.exceedanceMember.isEmpty());
    QCOMPARE(saved.notes.size(), size_t(1));
    QCOMPARE(saved.promptBands, QStringLiteral("256, 1024"));
    QCOMPARE(saved.outputBands, QStringLiteral("64"));
    QCOMPARE(saved.selection.size(), 2);
    QCOMPARE(saved.compareClasses, QStringList{QStringLiteral("region")});
    QCOMPARE(saved.compareQ, 0.99);
    QCOMPARE(saved.compareSloMs, 400.0);
    QVERIFY(saved.hasComparePrediction);
    QCOMPARE(saved.comparePredictedMs, 120.5);
    QVERIFY(saved.timeBegin > 0 && saved.timeEnd > saved.timeBegin);
    const QString path = m_dir.filePath(QStringLiteral("review.tracelane"));
    QString error;
    QVERIFY2(first.review()->session()->save(path, &error), qPrintable(error));

    MainWindow second;
    second.setPersistent(false);
    second.resize(1400, 900);
    second.show();
    QSignalSpy restored(second.review()->session(), &SessionController::sessionRestored);
    QVERIFY2(second.review()->session()->open(path, &error), qPrintable(error));
    QVERIFY(restored.wait(60'000));
    QCOMPARE(restored.first().at(0).toBool(), true);
    const Session reopened = second.review()->session()->capture();
    QVERIFY(reopened.traces == saved.traces);
    QCOMPARE(saved.traces.size(), size_t(1));
    QVERIFY(saved.traces.front().fingerprint.isKnown());
    QCOMPARE(reopened.boundary, saved.boundary);
    QCOMPARE(reopened.metric, saved.metric);
    QCOMPARE(reopened.alignedTime, saved.alignedTime);
    QCOMPARE(reopened.timeBegin, saved.timeBegin);
    QCOMPARE(reopened.timeEnd, saved.timeEnd);
    QCOMPARE(reopened.laneFirst, saved.laneFirst);
    QCOMPARE(reopened.laneCount, saved.laneCount);
    QCOMPARE(reopened.laneOrder, saved.laneOrder);
    QCOMPARE(reopened.laneDescending, saved.laneDescending);
    QCOMPARE(reopened.hasSlice, saved.hasSlice);
    QCOMPARE(reopened.sliceLabel, saved.sliceLabel);
    QCOMPARE(reopened.filterAttribute, saved.filterAttribute);
    QCOMPARE(reopened.filterValue, saved.filterValue);
    QCOMPARE(reopened.sliceRequests, saved.sliceRequests);
    QCOMPARE(reopened.selection, saved.selection);
    QCOMPARE(reopened.currentRequest, saved.currentRequest);
    QCOMPARE(reopened.classDimensions, saved.classDimensions);
    QCOMPARE(reopened.promptBands, saved.promptBands);
    QCOMPARE(reopened.outputBands, saved.outputBands);
    QCOMPARE(reopened.exceedanceQ, saved.exceedanceQ);
    QCOMPARE(reopened.exceedanceOrder, saved.exceedanceOrder);
    QCOMPARE(reopened.exceedanceMember, saved.exceedanceMember);
    QCOMPARE(reopened.compareClasses, saved.compareClasses);
    QCOMPARE(reopened.compareQ, saved.compareQ);
    QCOMPARE(reopened.compareSloMs, saved.compareSloMs);
    QCOMPARE(reopened.hasComparePrediction, saved.hasComparePrediction);
    QCOMPARE(reopened.comparePredictedMs, saved.comparePredictedMs);
    QCOMPARE(reopened.workflow, saved.workflow);
    QCOMPARE(reopened.whatIfs, saved.whatIfs);
    QCOMPARE(reopened.notes, saved.notes);
    QCOMPARE(reopened.record, saved.record);
    QCOMPARE(reopened.record.title, QStringLiteral("Queue tail in eu-west"));
    // The bookmarked member's lane is marked.
    QCOMPARE(second.viewState()->bookmarks().size(), 1);
}

void tst_SessionWindow::screenshotOfASessionIsTheSavedView()
{
    MainWindow window;
    window.setPersistent(false);
    window.resize(1400, 900);
    window.show();
    load(window, example("mixed-classes.jsonl"));
    arrange(window);
    const QString path = m_dir.filePath(QStringLiteral("shot.tracelane"));
    QString error;
    QVERIFY2(window.review()->session()->save(path, &error), qPrintable(error));
    const QImage saved = window.grab().toImage().convertToFormat(QImage::Format_RGB32);

    const QString out = m_dir.filePath(QStringLiteral("shot.png"));
    QProcess app;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.path());
    app.setProcessEnvironment(environment);
    app.start(QStringLiteral(TRACELANE_GUI_PATH),
              {QStringLiteral("--screenshot"), out, QStringLiteral("--size"), QStringLiteral("1400x900"), path});
    QVERIFY(app.waitForFinished(180'000));
    QCOMPARE(app.exitCode(), 0);
    const QImage shot = QImage(out).convertToFormat(QImage::Format_RGB32);
    QCOMPARE(shot.size(), saved.size());
    // The lanes (order, zoom, slice, member, bookmark) and the docks, sampled
    // on a grid; the status bar (load time) is left out.
    const QRect lanes(window.swimlanes()->canvas()->mapTo(&window, QPoint(0, 0)), window.swimlanes()->canvas()->size());
    int samples = 0;
    int equal = 0;
    for (int y = 0; y < saved.height() - 40; y += 9) {
        for (int x = 0; x < saved.width(); x += 11) {
            ++samples;
            equal += saved.pixel(x, y) == shot.pixel(x, y) ? 1 : 0;
        }
    }
    int laneSamples = 0;
    int laneEqual = 0;
    for (int y = lanes.top(); y < lanes.bottom(); y += 3) {
        for (int x = lanes.left(); x < lanes.right(); x += 5) {
            ++laneSamples;
            laneEqual += saved.pixel(x, y) == shot.pixel(x, y) ? 1 : 0;
        }
    }
    if (laneEqual != laneSamples || equal < samples * 99 / 100) {
        saved.save(m_dir.filePath(QStringLiteral("saved.png")));
        m_dir.setAutoRemove(false);
        qWarning("compare %s with %s", qPrintable(m_dir.filePath(QStringLiteral("saved.png"))), qPrintable(out));
    }
    QCOMPARE(laneEqual, laneSamples);
    QVERIFY2(equal >= samples * 99 / 100, qPrintable(QStringLiteral("%1 of %2 pixels equal").arg(equal).arg(samples)));
}

void tst_SessionWindow::movedTraceIsReported()
{
    QTemporaryDir dir;
    QVERIFY(QFile::copy(example("burst.jsonl"), dir.filePath(QStringLiteral("burst.jsonl"))));
    Session session;
    session.traces = {{dir.filePath(QStringLiteral("burst.jsonl")), {}}};
    const QString path = dir.filePath(QStringLiteral("moved.tracelane"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(SessionJson::write(session, dir.path()));
    file.close();
    QVERIFY(QFile::remove(dir.filePath(QStringLiteral("burst.jsonl"))));

    MainWindow window;
    window.setPersistent(false);
    window.review()->session()->setInteractive(false);
    QString error;
    QVERIFY(!window.review()->session()->open(path, &error));
    QCOMPARE(error,
             QStringLiteral("The session's trace was not found: %1").arg(dir.filePath(QStringLiteral("burst.jsonl"))));

    QProcess app;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.path());
    app.setProcessEnvironment(environment);
    app.start(QStringLiteral(TRACELANE_GUI_PATH),
              {QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("x.png")), path});
    QVERIFY(app.waitForFinished(60'000));
    QCOMPARE(app.exitCode(), 1);
    QVERIFY(QString::fromUtf8(app.readAllStandardError()).contains(dir.filePath(QStringLiteral("burst.jsonl"))));
}

void tst_SessionWindow::movedTraceIsLocated()
{
    // Saved with its trace and candidate beside it; both then moved to another folder.
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("moved")));
    QVERIFY(QFile::copy(example("burst.jsonl"), dir.filePath(QStringLiteral("burst.jsonl"))));
    QVERIFY(QFile::copy(example("mixed-classes.jsonl"), dir.filePath(QStringLiteral("mixed-classes.jsonl"))));
    Session session;
    session.traces = {{dir.filePath(QStringLiteral("burst.jsonl")), {}}};
    session.candidate = {dir.filePath(QStringLiteral("mixed-classes.jsonl")), {}};
    session.exceedanceQ = 0.9;
    const QString path = dir.filePath(QStringLiteral("moved.tracelane"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(SessionJson::write(session, dir.path()));
    file.close();
    for (const char *name : {"burst.jsonl", "mixed-classes.jsonl"}) {
        QVERIFY(QFile::rename(dir.filePath(QString::fromUtf8(name)),
                              dir.filePath(QStringLiteral("moved/") + QString::fromUtf8(name))));
    }

    MainWindow window;
    window.setPersistent(false);
    window.resize(1400, 900);
    window.show();
    window.review()->session()->setInteractive(false);
    QStringList asked;
    window.review()->session()->setLocator([&](const QString &missing) -> QString {
        asked << missing;
        return QFileInfo(missing).absolutePath() + QStringLiteral("/moved/") + QFileInfo(missing).fileName();
    });
    QSignalSpy restored(window.review()->session(), &SessionController::sessionRestored);
    QString error;
    QVERIFY2(window.review()->session()->open(path, &error), qPrintable(error));
    QVERIFY(restored.wait(60'000));
    QVERIFY2(restored.first().at(0).toBool(), qPrintable(restored.first().at(1).toString()));
    settle(window);
    QCOMPARE(asked,
             QStringList(
                 {dir.filePath(QStringLiteral("burst.jsonl")), dir.filePath(QStringLiteral("mixed-classes.jsonl"))}));
    QCOMPARE(window.exceedance()->percentile(), 0.9);
    QVERIFY(window.viewState()->candidate());
    // Saved again, the session points at the new places.
    const Session again = window.review()->session()->capture();
    QCOMPARE(again.traces.front().path, dir.filePath(QStringLiteral("moved/burst.jsonl")));
    QCOMPARE(again.candidate.path, dir.filePath(QStringLiteral("moved/mixed-classes.jsonl")));

    // Nobody to ask, or the user gave up: the path is reported.
    MainWindow other;
    other.setPersistent(false);
    other.review()->session()->setInteractive(false);
    other.review()->session()->setLocator([](const QString &) { return QString(); });
    QVERIFY(!other.review()->session()->open(path, &error));
    QCOMPARE(error,
             QStringLiteral("The session's trace was not found: %1").arg(dir.filePath(QStringLiteral("burst.jsonl"))));
}

void tst_SessionWindow::changedTraceIsReported()
{
    QTemporaryDir dir;
    const QString trace = dir.filePath(QStringLiteral("burst.jsonl"));
    QVERIFY(QFile::copy(example("burst.jsonl"), trace));
    QFile::setPermissions(trace, QFile::ReadOwner | QFile::WriteOwner);
    const QString path = dir.filePath(QStringLiteral("changed.tracelane"));
    {
        MainWindow window;
        window.setPersistent(false);
        load(window, trace);
        QString error;
        QVERIFY2(window.review()->session()->save(path, &error), qPrintable(error));
    }
    // One request fewer: the same path, other content.
    QFile file(trace);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QByteArray bytes = file.readAll();
    file.close();
    const qint64 savedBytes = bytes.size();
    bytes.truncate(bytes.lastIndexOf('\n', bytes.size() - 2) + 1);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(bytes);
    file.close();

    const QString expected = QStringLiteral("The trace %1 changed since the session was saved (then %2 bytes, SHA-256 ")
                                 .arg(trace)
                                 .arg(savedBytes);
    MainWindow window;
    window.setPersistent(false);
    window.review()->session()->setInteractive(false);
    QSignalSpy restored(window.review()->session(), &SessionController::sessionRestored);
    QString error;
    QVERIFY2(window.review()->session()->open(path, &error), qPrintable(error));
    QVERIFY(restored.wait(60'000));
    QCOMPARE(restored.first().at(0).toBool(), false);
    const QString message = restored.first().at(1).toString();
    QVERIFY2(message.startsWith(expected), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("now %1 bytes").arg(bytes.size())), qPrintable(message));
    // The view is still restored on the new content.
    QCOMPARE(window.viewState()->requestCount(), 9);

    QProcess app;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.path());
    app.setProcessEnvironment(environment);
    app.start(QStringLiteral(TRACELANE_GUI_PATH),
              {QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("x.png")), path});
    QVERIFY(app.waitForFinished(60'000));
    QCOMPARE(app.exitCode(), 1);
    const QString stderrText = QString::fromUtf8(app.readAllStandardError());
    QVERIFY2(stderrText.contains(expected), qPrintable(stderrText));
}

void tst_SessionWindow::whatIfRestoredExactly_data()
{
    QTest::addColumn<int>("change");
    QTest::addColumn<QString>("command");
    QTest::newRow("scale a span") << int(WhatIfPanel::Change::ScaleSpan) << QStringLiteral("scale %1=0.5");
    QTest::newRow("scale a kind") << int(WhatIfPanel::Change::ScaleKind) << QStringLiteral("scale %2=0.5");
    QTest::newRow("scale a phase everywhere")
        << int(WhatIfPanel::Change::ScalePhase) << QStringLiteral("scale-phase prefill=0.5");
    QTest::newRow("shorten the answer") << int(WhatIfPanel::Change::ShortenAnswer)
                                        << QStringLiteral("shorten-answer 12@30");
    QTest::newRow("add a dependency") << int(WhatIfPanel::Change::AddDependency)
                                      << QStringLiteral("add-dependency %3>%1");
}

void tst_SessionWindow::whatIfRestoredExactly()
{
    QFETCH(int, change);
    QFETCH(QString, command);
    MainWindow first;
    first.setPersistent(false);
    first.resize(1400, 900);
    first.show();
    load(first, example("adviser.otlp.json"));
    const WorkflowAnalysis &analysis = first.workflowPanel()->analysis();
    QVERIFY(analysis.ok());
    const SpanGraph &graph = analysis.schedule->graph();
    // The last tool span and the first span of another kind before it.
    qint32 tool = -1;
    for (qint32 span = 0; span < graph.spanCount(); ++span) {
        if (graph.category(span) == SpanCategory::Tool)
            tool = span;
    }
    QVERIFY(tool > 0);
    qint32 other = -1;
    for (qint32 span = 0; span < graph.spanCount() && other < 0; ++span) {
        if (span != tool && graph.operation(span) != graph.operation(tool) && !graph.idText(span).isEmpty())
            other = span;
    }
    QVERIFY(other >= 0);
    WhatIfPanel *panel = first.workflowPanel()->whatIfPanel();
    panel->setChange(WhatIfPanel::Change(change));
    if (change == int(WhatIfPanel::Change::ScaleKind)) {
        auto *target = panel->findChild<QComboBox *>(QStringLiteral("whatIfTarget"));
        target->setCurrentIndex(target->findData(graph.operation(tool)));
    } else if (change != int(WhatIfPanel::Change::ScalePhase) && change != int(WhatIfPanel::Change::ShortenAnswer)) {
        panel->setTargetSpan(tool);
    } else {
        auto *target = panel->findChild<QComboBox *>(QStringLiteral("whatIfTarget"));
        target->setCurrentIndex(target->findData(-1));
    }
    if (change == int(WhatIfPanel::Change::AddDependency)) {
        // "Waits for" offers only spans neither above nor below the target.
        auto *from = panel->findChild<QComboBox *>(QStringLiteral("whatIfFrom"));
        QVERIFY(from->count() > 0);
        other = from->itemData(from->count() - 1).toInt();
        QVERIFY(other != tool && !graph.idText(other).isEmpty());
        from->setCurrentIndex(from->count() - 1);
    }
    if (change == int(WhatIfPanel::Change::ScalePhase)) {
        auto *phase = panel->findChild<QComboBox *>(QStringLiteral("whatIfPhase"));
        phase->setCurrentIndex(phase->findData(int(Phase::Prefill)));
    }
    panel->setFactor(0.5);
    panel->setTokens(12, 30.0);
    // The same change over every workflow, judged at p90.
    panel->setPopulationPercentile(0.9);
    panel->setAppliesToPopulation(true);
    settle(first);
    const QString population = panel->populationLabel()->text();
    // (A new dependency is not carried across workflows: the panel says so.)
    if (change != int(WhatIfPanel::Change::AddDependency))
        QVERIFY2(population.contains(QStringLiteral("p90")), qPrintable(population));
    // %1 the tool span's id, %2 its kind, %3 the other span's id.
    const QString expected = QString(command)
                                 .replace(QStringLiteral("%1"), graph.idText(tool))
                                 .replace(QStringLiteral("%2"), graph.operation(tool))
                                 .replace(QStringLiteral("%3"), graph.idText(other));
    const Session saved = first.review()->session()->capture();
    QCOMPARE(saved.whatIfs, QStringList{expected});
    const QString result = first.workflowPanel()->findChild<QLabel *>(QStringLiteral("whatIfResult"))->text();
    QVERIFY(!result.isEmpty());
    const QString path = m_dir.filePath(QStringLiteral("whatif.tracelane"));
    QString error;
    QVERIFY2(first.review()->session()->save(path, &error), qPrintable(error));

    MainWindow second;
    second.setPersistent(false);
    second.resize(1400, 900);
    second.show();
    second.review()->session()->setInteractive(false);
    QSignalSpy restored(second.review()->session(), &SessionController::sessionRestored);
    QVERIFY2(second.review()->session()->open(path, &error), qPrintable(error));
    QVERIFY(restored.wait(60'000));
    QVERIFY2(restored.first().at(0).toBool(), qPrintable(restored.first().at(1).toString()));
    settle(second);
    QCOMPARE(second.review()->session()->capture().whatIfs, QStringList{expected});
    // The same outcome is shown (new E2E and TTFT, savings).
    QCOMPARE(second.workflowPanel()->findChild<QLabel *>(QStringLiteral("whatIfResult"))->text(), result);
    QVERIFY(second.workflowPanel()->whatIfPanel()->appliesToPopulation());
    QCOMPARE(second.workflowPanel()->whatIfPanel()->populationLabel()->text(), population);
}

void tst_SessionWindow::notesMarkLanesAndGanttRows()
{
    MainWindow window;
    window.setPersistent(false);
    window.resize(1400, 900);
    window.show();
    load(window, example("adviser.otlp.json"));
    const WorkflowAnalysis &analysis = window.workflowPanel()->analysis();
    QVERIFY(analysis.ok());
    const SpanGraph &graph = analysis.schedule->graph();
    // Pick the tool span in the Gantt and bookmark it.
    qint32 tool = -1;
    for (qint32 span = 0; span < graph.spanCount(); ++span) {
        if (graph.category(span) == SpanCategory::Tool)
            tool = span;
    }
    QVERIFY(tool >= 0);
    window.workflowPanel()->gantt()->setSelectedSpan(tool);
    emit window.workflowPanel()->gantt()->spanSelected(tool);
    window.review()->notesPanel()->findChild<QPushButton *>(QStringLiteral("bookmarkSpan"))->click();
    QCOMPARE(window.review()->notesPanel()->notes().size(), size_t(1));
    const SessionNote note = window.review()->notesPanel()->notes().front();
    QCOMPARE(note.requestId, analysis.workflowId);
    QCOMPARE(note.spanId, graph.idText(tool));
    QCOMPARE(window.workflowPanel()->gantt()->bookmarkedSpans(), std::vector<qint32>{tool});
    // The workflow's lane is bookmarked too, and drawn in the right gutter.
    QCOMPARE(window.viewState()->bookmarks().size(), 1);
    const QImage lanes = window.swimlanes()->canvas()->grab().toImage();
    const qint64 slot = window.swimlanes()->canvas()->laneLayout()->slotOf(window.viewState()->bookmarks().rows()[0]);
    QVERIFY(slot >= 0);
    bool marked = false;
    for (int y = 0; y < lanes.height() && !marked; ++y)
        marked = QColor(lanes.pixel(lanes.width() - 2, y)) == QColor(0x5B, 0x2A, 0x86);
    QVERIFY(marked);
    // The legend names the mark while there is one.
    auto *legend = window.swimlanes()->findChild<PhaseLegend *>(QStringLiteral("phaseLegend"));
    QVERIFY(legend->text().contains(QStringLiteral("note (right edge)")));
    QVERIFY(legend->text().contains(QColor(0x5B, 0x2A, 0x86).name()));
    // Removing the note removes both marks, and the legend's entry.
    window.review()->notesPanel()->removeNote(0);
    QVERIFY(window.workflowPanel()->gantt()->bookmarkedSpans().empty());
    QVERIFY(window.viewState()->bookmarks().isEmpty());
    QVERIFY(!legend->text().contains(QStringLiteral("note (right edge)")));
}

QTEST_MAIN(tst_SessionWindow)
#include "tst_sessionwindow.moc"
