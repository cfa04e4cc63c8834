// The Record dock on the bundled example: drafted on load with the objectives
// checked against the trace, measured again on a slice keeping what the
// author wrote, saved and reopened unchanged, a newer version refused.

#include "RecordPanel.h"
#include "ViewState.h"
#include "io/TraceFileLoader.h"
#include "review/RecordJson.h"
#include "store/TraceStore.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

namespace {

std::shared_ptr<TraceStore> loadExample()
{
    const LoadResult result
        = TraceFileLoader::load(QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/mixed-classes.jsonl"), {});
    if (!result.ok())
        qFatal("cannot load the example: %s", qPrintable(result.fatalError));
    return result.store;
}

void waitFor(QSignalSpy &spy)
{
    if (spy.isEmpty())
        QVERIFY(spy.wait(20'000));
}

} // namespace

class tst_RecordPanel : public QObject
{
    Q_OBJECT
private slots:
    void draftedOnLoad();
    void measureOnSliceKeepsAuthorsWords();
    void editingATraceEntryMakesItTheAuthors();
    void saveAndReopen();
    void newerVersionRefused();
};

void tst_RecordPanel::draftedOnLoad()
{
    ViewState state;
    RecordPanel panel(&state);
    QSignalSpy replaced(&panel, &RecordPanel::recordReplaced);
    state.setStore(loadExample());
    waitFor(replaced);
    QTableWidget *objectives = panel.objectivesTable();
    QCOMPARE(objectives->rowCount(), 2);
    QCOMPARE(objectives->item(0, 4)->text(), QStringLiteral("met"));
    QCOMPARE(objectives->item(0, 4)->toolTip(),
             QStringLiteral("met by 452.9 ms: p95 747.1 ms [95% interval 710.8\u2013788.4 ms], n = 2,000"));
    const QStringList checks
        = panel.findChild<QLabel *>(QStringLiteral("recordChecks"))->text().split(QLatin1Char('\n'));
    QCOMPARE(checks.size(), 3);
    QCOMPARE(checks[0], QStringLiteral("Against mixed-classes.jsonl:"));
    QCOMPARE(checks[1],
             QStringLiteral("p95 client TTFT < 1,200 ms: met by 452.9 ms: p95 747.1 ms [95% interval "
                            "710.8\u2013788.4 ms], n = 2,000"));
    QVERIFY(
        checks[2].startsWith(QStringLiteral("p95 client ITL < 80 ms/token: met by 54.4 ms/token: p95 25.6 ms/token")));
    const DiagnosisRecord record = panel.record();
    QCOMPARE(record.title, QStringLiteral("Latency diagnosis: mixed-classes.jsonl"));
    QCOMPARE(record.measuredOn, QStringLiteral("mixed-classes.jsonl"));
    QCOMPARE(record.coordinates.arrival.peakInFlight, 569);
    QCOMPARE(panel.findChild<QLabel *>(QStringLiteral("recordArrival"))->text(),
             QStringLiteral("135.0 requests/s over 14.81 s, gap CV 1.06 (about Poisson), peak 307 arrivals in one "
                            "second, up to 569 in flight (mean 184.9)"));
    QCOMPARE(record.suspect.source, SuspectedPhase::Source::PhaseAttribution);
    QVERIFY(!record.suspect.phase.isEmpty());
    QVERIFY(!record.experiment.test.isEmpty());
    QVERIFY(panel.statusLabel()->text().startsWith(QStringLiteral("Measured on mixed-classes.jsonl")));
    // The configuration names the trace and its format, from the trace.
    QCOMPARE(panel.configurationTable()->item(0, 0)->text(), QStringLiteral("trace"));
    QCOMPARE(panel.configurationTable()->item(0, 2)->text(), QStringLiteral("trace"));
}

void tst_RecordPanel::measureOnSliceKeepsAuthorsWords()
{
    ViewState state;
    RecordPanel panel(&state);
    QSignalSpy replaced(&panel, &RecordPanel::recordReplaced);
    state.setStore(loadExample());
    waitFor(replaced);
    panel.findChild<QLineEdit *>(QStringLiteral("recordTitle"))->setText(QStringLiteral("My review"));
    QLineEdit *suspect = panel.findChild<QLineEdit *>(QStringLiteral("recordSuspect"));
    suspect->clear();
    QTest::keyClicks(suspect, QStringLiteral("prefill"));
    // Tighten the first objective to 700 ms: the slice of the first 100 requests misses it.
    qobject_cast<QDoubleSpinBox *>(panel.objectivesTable()->cellWidget(0, 3))->setValue(700.0);
    std::vector<qint32> rows(100);
    std::iota(rows.begin(), rows.end(), 0);
    state.setSlice(RowSet::fromSortedUnique(rows), QStringLiteral("first 100"));
    replaced.clear();
    panel.measure();
    waitFor(replaced);
    const DiagnosisRecord record = panel.record();
    QCOMPARE(record.title, QStringLiteral("My review"));
    QCOMPARE(record.suspect.phase, QStringLiteral("prefill"));
    QCOMPARE(record.suspect.source, SuspectedPhase::Source::Person);
    QCOMPARE(record.measuredOn, QStringLiteral("mixed-classes.jsonl (first 100)"));
    QCOMPARE(record.checks[0].n, 100);
    QCOMPARE(record.checks[0].objective.thresholdMs, 700.0);
    // p95 of the first 100 is 481.6 ms, but its interval [394.0, 1,312.2] straddles 700 ms.
    QCOMPARE(record.checks[0].valueMs, 481.5741);
    QCOMPARE(record.checks[0].upperMs, 1312.175);
    QCOMPARE(panel.objectivesTable()->item(0, 4)->text(), QStringLiteral("met (not decided at 95%)"));
    QCOMPARE(record.coordinates.arrival.requests, 100);
    QCOMPARE(record.boundaries.requests, 100);
}

void tst_RecordPanel::editingATraceEntryMakesItTheAuthors()
{
    ViewState state;
    RecordPanel panel(&state);
    QSignalSpy replaced(&panel, &RecordPanel::recordReplaced);
    state.setStore(loadExample());
    waitFor(replaced);
    QTableWidget *table = panel.configurationTable();
    table->item(1, 1)->setText(QStringLiteral("seed JSONL v2"));
    QCOMPARE(table->item(1, 2)->text(), QStringLiteral("author"));
    const DiagnosisRecord record = panel.record();
    QCOMPARE(record.configuration[1],
             (ManifestEntry{QStringLiteral("format"), QStringLiteral("seed JSONL v2"), false}));
    QCOMPARE(record.configuration[0].fromTrace, true);
}

void tst_RecordPanel::saveAndReopen()
{
    ViewState state;
    RecordPanel panel(&state);
    QSignalSpy replaced(&panel, &RecordPanel::recordReplaced);
    state.setStore(loadExample());
    waitFor(replaced);
    panel.findChild<QLineEdit *>(QStringLiteral("recordTitle"))->setText(QStringLiteral("Queue <b>tail</b>"));
    const DiagnosisRecord saved = panel.record();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("review.record.json"));
    QString error;
    QVERIFY2(panel.saveTo(path, &error), qPrintable(error));

    ViewState empty;
    RecordPanel other(&empty);
    QVERIFY2(other.openFrom(path, &error), qPrintable(error));
    QCOMPARE(other.record(), saved);
    QCOMPARE(other.objectivesTable()->item(0, 4)->toolTip(), panel.objectivesTable()->item(0, 4)->toolTip());
    QVERIFY(other.statusLabel()->text().startsWith(QStringLiteral("Opened review.record.json")));
}

void tst_RecordPanel::newerVersionRefused()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("future.record.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format":"tracelane.diagnosis-record","version":7,"title":"from the future"})");
    file.close();
    ViewState state;
    RecordPanel panel(&state);
    panel.findChild<QLineEdit *>(QStringLiteral("recordTitle"))->setText(QStringLiteral("kept"));
    QString error;
    QVERIFY(!panel.openFrom(path, &error));
    QVERIFY2(error.contains(QStringLiteral("written by a newer Tracelane (diagnosis record version 7)")),
             qPrintable(error));
    QVERIFY(error.startsWith(path));
    QCOMPARE(panel.record().title, QStringLiteral("kept"));
}

QTEST_MAIN(tst_RecordPanel)
#include "tst_recordpanel.moc"
