// Orphan spans (parent never exported) inside the tree's time are attached
// to the span enclosing them, and then carry the critical path.

#include "analysis/workflows/WorkflowAnalysis.h"
#include "io/OrphanAdoption.h"
#include "io/TraceFileLoader.h"

#include <QTest>

namespace {

// "R 0 100; A 10 50 R; o1 20 30 ?; o2 60 200 ?" — `?` marks an orphan
// (a parent id that is not in the trace), `-` or nothing a root.
SpanTable tableOf(const QString &spec, std::vector<std::string> *ids)
{
    SpanTable table;
    const auto entries = spec.split(QLatin1Char(';'), Qt::SkipEmptyParts);
    ids->clear();
    for (const QString &entry : entries)
        ids->push_back(entry.trimmed().section(QLatin1Char(' '), 0, 0).toStdString());
    const auto indexOf = [ids](const QString &id) {
        const auto it = std::find(ids->begin(), ids->end(), id.toStdString());
        return it == ids->end() ? -1 : qint32(it - ids->begin());
    };
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const auto parts = entries[i].trimmed().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        SpanTable::Row row;
        row.workflow = 0;
        row.spanId = (*ids)[size_t(i)];
        row.start = parts[1].toLongLong();
        row.end = parts[2].toLongLong();
        const QString parent = parts.size() > 3 ? parts[3] : QStringLiteral("-");
        row.flags = parent == QStringLiteral("?") ? SpanTable::Orphan : SpanTable::NoFlags;
        table.appendSpan(row);
        if (parent != QStringLiteral("?") && parent != QStringLiteral("-"))
            table.setParent(i, indexOf(parent));
        else
            table.setParent(i, -1);
    }
    return table;
}

// "o1>A o2>-" : each orphan's parent after adoption ('-' = still a root).
QString parentsOfOrphans(const SpanTable &table, const std::vector<std::string> &ids)
{
    QStringList parts;
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        if (!(table.flags(row) & SpanTable::Orphan))
            continue;
        const qint32 parent = table.parent(row);
        const bool adopted = (table.flags(row) & SpanTable::Adopted) != 0;
        if (adopted != (parent >= 0))
            return QStringLiteral("flag and parent disagree on %1").arg(QString::fromStdString(ids[size_t(row)]));
        parts << QStringLiteral("%1>%2").arg(QString::fromStdString(ids[size_t(row)]),
                                             parent < 0 ? QStringLiteral("-")
                                                        : QString::fromStdString(ids[size_t(parent)]));
    }
    return parts.join(QLatin1Char(' '));
}

} // namespace

class tst_OrphanAdoption : public QObject
{
    Q_OBJECT
private slots:
    void adoption_data();
    void adoption();
    void googleAgentTraceRunsInSequence();
};

void tst_OrphanAdoption::adoption_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<int>("adoptions");
    QTest::newRow("inside the root") << "R 0 100; o 10 20 ?"
                                     << "o>R" << 1;
    QTest::newRow("tightest enclosing span wins") << "R 0 100; A 5 60 R; B 8 40 A; C 30 90 R; o 10 20 ?"
                                                  << "o>B" << 1;
    QTest::newRow("equal length: the later start wins") << "R 0 100; A 0 50 R; B 5 55 R; o 10 20 ?"
                                                        << "o>B" << 1;
    QTest::newRow("touching ends still enclose") << "R 0 100; A 10 20 R; o 10 20 ?"
                                                 << "o>A" << 1;
    QTest::newRow("outside the root stays a root") << "R 0 100; o 90 120 ?"
                                                   << "o>-" << 0;
    QTest::newRow("before the root stays a root") << "R 50 100; o 10 20 ?"
                                                  << "o>-" << 0;
    QTest::newRow("no real root: nothing to attach to") << "o1 0 100 ?; o2 10 20 ?"
                                                        << "o1>- o2>-" << 0;
    QTest::newRow("an orphan inside an adopted orphan lands under it") << "R 0 100; small 30 40 ?; big 20 80 ?"
                                                                       << "small>big big>R" << 2;
    QTest::newRow("an orphan's own children come along") << "R 0 100; o 10 50 ?; c 20 60 o; p 25 30 ?"
                                                         << "o>R p>c" << 2;
    QTest::newRow("not inside an unattached orphan") << "R 0 100; big 50 200 ?; small 60 70 ?"
                                                     << "big>- small>R" << 1;
    QTest::newRow("zero-length orphan at the root's end") << "R 0 100; o 100 100 ?"
                                                          << "o>R" << 1;
}

void tst_OrphanAdoption::adoption()
{
    QFETCH(QString, spec);
    QFETCH(QString, expected);
    QFETCH(int, adoptions);
    std::vector<std::string> ids;
    SpanTable table = tableOf(spec, &ids);
    bool truncated = false;
    const auto made = OrphanAdoption::adopt(table, 0, table.rowCount(), &truncated);
    QCOMPARE(parentsOfOrphans(table, ids), expected);
    QCOMPARE(int(made.size()), adoptions);
    QVERIFY(!truncated);
}

void tst_OrphanAdoption::googleAgentTraceRunsInSequence()
{
    // any-agent's Google export: six of seven spans name parents that were
    // never exported. Attached to the agent span that encloses them, the
    // critical path runs model call -> tool -> model call -> ... with the
    // agent's own coordination time between them.
    const LoadResult result
        = TraceFileLoader::load(QStringLiteral(TRACELANE_REALDATA_DIR "/any-agent/GOOGLE_trace.json"), {});
    QVERIFY(result.ok());
    const WorkflowAnalysis analysis = WorkflowAnalysis::analyse(*result.store, 0);
    QVERIFY2(analysis.ok(), qPrintable(analysis.error));
    const SpanGraph &graph = analysis.schedule->graph();
    QStringList sequence;
    qint64 covered = 0;
    for (const auto &section : analysis.path) {
        sequence << spanCategoryKey(graph.category(section.span));
        covered += section.duration();
    }
    QCOMPARE(
        sequence.join(QLatin1Char(' ')),
        QStringLiteral("agent model_call agent tool agent model_call agent tool agent model_call agent tool agent"));
    QCOMPARE(covered, analysis.timing.e2e());
    QCOMPARE(analysis.timing.e2e(), 1'591'424'000LL);
    // The three model calls carry 512.09 + 344.02 + 717.84 ms of it.
    qint64 modelCalls = 0;
    for (const auto &section : analysis.path) {
        if (graph.category(section.span) == SpanCategory::ModelCall)
            modelCalls += section.duration();
    }
    QCOMPARE(modelCalls,
             (1758026586853189000LL - 1758026586341103000LL) + (1758026587201860000LL - 1758026586857845000LL)
                 + (1758026587925393000LL - 1758026587207556000LL));
    // Every span is on the path now: none has slack.
    for (const qint64 slack : analysis.slack)
        QCOMPARE(slack, 0);
}

QTEST_GUILESS_MAIN(tst_OrphanAdoption)
#include "tst_orphanadoption.moc"
