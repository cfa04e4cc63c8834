#include "SessionController.h"

#include "ClassSplitBar.h"
#include "ClassTablePanel.h"
#include "ComparePanel.h"
#include "ExceedancePanel.h"
#include "MainWindow.h"
#include "NotesPanel.h"
#include "RecordPanel.h"
#include "RequestTablePanel.h"
#include "SwimlaneCanvas.h"
#include "SwimlaneView.h"
#include "ViewState.h"
#include "WhatIfPanel.h"
#include "WorkflowGantt.h"
#include "WorkflowPanel.h"
#include "analysis/requests/RequestQuery.h"
#include "analysis/workflows/WhatIfEdit.h"
#include "remote/TraceSource.h"
#include "review/SessionJson.h"
#include "store/TraceStore.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSaveFile>
#include <QScopedValueRollback>
#include <QStatusBar>

#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_set>

namespace {

// Slices and selections larger than this are saved by their filter only.
constexpr qsizetype kMaxSavedRows = 200'000;

QString orderText(const LaneOrder &order)
{
    switch (order.key) {
    case LaneOrder::Key::Metric:
        return QStringLiteral("metric:") + metricKey(order.metric);
    case LaneOrder::Key::Attribute:
        return QStringLiteral("attribute:") + order.attribute;
    case LaneOrder::Key::Arrival:
        break;
    }
    return QStringLiteral("arrival");
}

LaneOrder orderFrom(const Session &session)
{
    LaneOrder order;
    order.boundary = session.boundary;
    order.descending = session.laneDescending;
    order.groupBy = session.laneGroupBy;
    const QString kind = session.laneOrder.section(QLatin1Char(':'), 0, 0);
    const QString value = session.laneOrder.section(QLatin1Char(':'), 1);
    if (kind == QStringLiteral("metric") && metricFromKey(value, &order.metric)) {
        order.key = LaneOrder::Key::Metric;
    } else if (kind == QStringLiteral("attribute") && !value.isEmpty()) {
        order.key = LaneOrder::Key::Attribute;
        order.attribute = value;
    }
    return order;
}

QString bandsText(const TokenBands &bands)
{
    QStringList edges;
    for (const qint32 edge : bands.edges())
        edges.append(QString::number(edge));
    return edges.join(QStringLiteral(", "));
}

QStringList idsOf(const RequestTable &table, const RowSet &rows)
{
    QStringList ids;
    if (rows.size() > kMaxSavedRows)
        return ids;
    for (const qint32 row : rows.rows())
        ids.append(table.idText(row));
    return ids;
}

} // namespace

SessionController::SessionController(MainWindow *window, RecordPanel *record, NotesPanel *notes)
    : QObject(window)
    , m_window(window)
    , m_record(record)
    , m_notes(notes)
{
    m_poll.setInterval(50);
    connect(&m_poll, &QTimer::timeout, this, &SessionController::step);
    connect(window, &MainWindow::loadFinished, this, &SessionController::onLoadFinished);
    connect(window->viewState(), &ViewState::candidateChanged, this, &SessionController::fingerprintTraces);
    connect(notes, &NotesPanel::notesChanged, this, &SessionController::updateGanttBookmarks);
    connect(window->workflowPanel(), &WorkflowPanel::analysisShown, this, &SessionController::updateGanttBookmarks);
    // The span picked in the Gantt is the one "Bookmark Span" notes.
    connect(window->workflowPanel()->gantt(), &WorkflowGantt::spanSelected, this, [this](qint32 span) {
        const WorkflowAnalysis &analysis = m_window->workflowPanel()->analysis();
        if (!analysis.ok() || span < 0)
            return;
        const SpanGraph &graph = analysis.schedule->graph();
        m_notes->setCurrentSpan(analysis.workflowId, graph.idText(span), graph.label(span));
    });
    connect(notes, &NotesPanel::noteActivated, this, [this](const SessionNote &note) {
        const qint32 row = rowOf(note.requestId);
        if (row < 0)
            return;
        m_window->viewState()->selectRow(row);
        m_window->viewState()->activateRow(row);
    });
}

qint32 SessionController::rowOf(const QString &id) const
{
    const RequestTable *table = m_window->viewState()->requests();
    if (!table || id.isEmpty())
        return -1;
    const QByteArray wanted = id.toUtf8();
    const std::string_view view(wanted.constData(), size_t(wanted.size()));
    for (qsizetype row = 0; row < table->rowCount(); ++row) {
        if (table->id(row) == view)
            return qint32(row);
    }
    return -1;
}

std::vector<qint32> SessionController::rowsOf(const QStringList &ids) const
{
    const RequestTable *table = m_window->viewState()->requests();
    std::vector<qint32> rows;
    if (!table || ids.isEmpty())
        return rows;
    // Up to a million rows against a saved list: compare UTF-8 bytes, no
    // string built per row.
    std::vector<QByteArray> wanted;
    wanted.reserve(size_t(ids.size()));
    for (const QString &id : ids)
        wanted.push_back(id.toUtf8());
    std::unordered_set<std::string_view> set;
    for (const QByteArray &id : wanted)
        set.emplace(id.constData(), size_t(id.size()));
    for (qsizetype row = 0; row < table->rowCount(); ++row) {
        if (set.contains(table->id(row)))
            rows.push_back(qint32(row));
    }
    return rows;
}

SessionTrace SessionController::traceOf(const QString &path) const
{
    // A table on a server changes as spans arrive: no fingerprint to check.
    if (TraceSource::isUrl(path))
        return {path, TraceFingerprint{}};
    const QString absolute = QFileInfo(path).absoluteFilePath();
    // Hashed after the load; a save before that hash finished reads it here.
    const auto cached = m_fingerprints.constFind(absolute);
    return {absolute, cached != m_fingerprints.constEnd() ? *cached : TraceFingerprint::of(absolute)};
}

void SessionController::fingerprintTraces()
{
    const ViewState *state = m_window->viewState();
    QStringList paths;
    if (!m_window->currentFile().isEmpty() && !TraceSource::isUrl(m_window->currentFile()))
        paths.append(QFileInfo(m_window->currentFile()).absoluteFilePath());
    if (state->candidate() && !state->candidate()->sourceFiles.isEmpty()
        && !TraceSource::isUrl(state->candidate()->sourceFiles.first()))
        paths.append(QFileInfo(state->candidate()->sourceFiles.first()).absoluteFilePath());
    // A file (re)loaded is hashed again: it may have changed on disk.
    m_fingerprints.clear();
    m_hashJob.start(
        [paths](const std::atomic<bool> *cancelled) {
            QHash<QString, TraceFingerprint> hashes;
            for (const QString &path : paths)
                hashes.insert(path, TraceFingerprint::of(path, cancelled));
            return hashes;
        },
        [this](QHash<QString, TraceFingerprint> hashes) { m_fingerprints = std::move(hashes); });
}

QString SessionController::fingerprintProblem(const SessionTrace &saved) const
{
    if (!saved.fingerprint.isKnown())
        return {};
    const SessionTrace now = traceOf(saved.path);
    if (now.fingerprint == saved.fingerprint)
        return {};
    return tr("The trace %1 changed since the session was saved (then %2 bytes, SHA-256 %3\u2026; now %4 bytes, "
              "SHA-256 %5\u2026): the view is restored on its new content, and its numbers may differ.")
        .arg(QDir::toNativeSeparators(saved.path))
        .arg(saved.fingerprint.bytes)
        .arg(saved.fingerprint.sha256.left(12))
        .arg(now.fingerprint.bytes)
        .arg(now.fingerprint.sha256.left(12));
}

Session SessionController::capture() const
{
    const ViewState *state = m_window->viewState();
    Session session;
    if (!m_window->currentFile().isEmpty())
        session.traces.push_back(traceOf(m_window->currentFile()));
    session.boundary = state->boundary();
    session.metric = state->metric();
    session.alignedTime = state->timeAxis() == TimeAxis::AlignedAtSend;
    session.timeBegin = state->timeWindow().begin;
    session.timeEnd = state->timeWindow().end;
    const auto lanes = m_window->swimlanes()->canvas()->laneWindow();
    session.laneFirst = lanes.first;
    session.laneCount = lanes.count;
    const LaneOrder &order = m_window->swimlanes()->laneOrder();
    session.laneOrder = orderText(order);
    session.laneDescending = order.descending;
    session.laneGroupBy = order.groupBy;

    const RequestTablePanel *requests = m_window->requestTable();
    session.filterText = requests->textFilter();
    session.filterAttribute = requests->filterAttribute();
    session.filterValue = requests->filterValue();
    const RequestTable *table = state->requests();
    if (table) {
        session.hasSlice = state->hasSlice();
        if (state->hasSlice()) {
            session.sliceLabel = state->sliceLabel();
            // The request table's filter reproduces its own slice; any other
            // slice (a class cell, a set) is saved by its requests' ids.
            RequestQuery query;
            query.text = session.filterText;
            query.attribute = session.filterAttribute;
            query.value = session.filterValue;
            if (!query.filters() || query.filterLabel() != session.sliceLabel)
                session.sliceRequests = idsOf(*table, state->slice());
        }
        session.selection = idsOf(*table, state->selection());
        if (state->currentRow() >= 0)
            session.currentRequest = table->idText(state->currentRow());
        if (state->exceedanceCursor() >= 0)
            session.exceedanceMember = table->idText(state->exceedanceCursor());
    }
    session.classDimensions = m_window->classTable()->dimensions();
    if (const auto *split = m_window->classTable()->findChild<ClassSplitBar *>()) {
        session.promptBands = bandsText(split->bands().prompt);
        session.outputBands = bandsText(split->bands().output);
    }
    const ExceedancePanel *exceedance = m_window->exceedance();
    session.exceedanceQ = exceedance->percentile();
    if (exceedance->analysis())
        session.exceedanceOrder = ExceedanceSet::orderKey(exceedance->analysis()->set.spec.order);

    if (state->candidate() && !state->candidate()->sourceFiles.isEmpty())
        session.candidate = traceOf(state->candidate()->sourceFiles.first());
    const ComparisonSpec compare = m_window->comparePanel()->spec();
    session.compareClasses = compare.by;
    session.compareQ = compare.q;
    session.compareSloMs = std::isfinite(compare.sloMs) ? compare.sloMs : 0.0;
    session.hasComparePrediction = std::isfinite(compare.predictedSavingMs);
    session.comparePredictedMs = session.hasComparePrediction ? compare.predictedSavingMs : 0.0;
    const WorkflowPanel *workflow = m_window->workflowPanel();
    if (state->store() && workflow->workflow() >= 0)
        session.workflow = state->store()->workflows.traceIdText(workflow->workflow());
    for (const WhatIfEdit &edit : workflow->whatIfPanel()->edits())
        session.whatIfs.append(SessionWhatIf::toCommand(edit));
    session.whatIfPopulation = workflow->whatIfPanel()->appliesToPopulation();
    session.whatIfPopulationQ = workflow->whatIfPanel()->populationPercentile();

    session.windowState = m_window->saveState();
    session.windowGeometry = m_window->saveGeometry();
    session.notes = m_notes->notes();
    session.hasRecord = true;
    session.record = m_record->record();
    return session;
}

bool SessionController::save(const QString &path, QString *error) const
{
    QSaveFile file(path);
    const QByteArray bytes = SessionJson::write(capture(), QFileInfo(path).absolutePath());
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QString SessionController::locate(const QString &missing, const QString &sessionPath)
{
    if (m_locator)
        return m_locator(missing);
    if (!m_interactive)
        return {};
    QMessageBox::warning(
        m_window, tr("Open session"),
        tr("The session's trace was not found: %1\nLocate it to continue.").arg(QDir::toNativeSeparators(missing)));
    return QFileDialog::getOpenFileName(m_window, tr("Locate %1").arg(QFileInfo(missing).fileName()),
                                        QFileInfo(sessionPath).absolutePath());
}

bool SessionController::open(const QString &path, QString *error)
{
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(tr("Could not open %1: %2").arg(path, file.errorString()));
    Session session;
    QString problem;
    if (!SessionJson::read(file.readAll(), QFileInfo(path).absolutePath(), &session, &problem))
        return fail(tr("%1: %2").arg(path, problem));
    if (session.traces.empty())
        return fail(tr("%1: the session names no trace").arg(path));
    QString &trace = session.traces.front().path;
    if (!TraceSource::isUrl(trace) && !QFileInfo::exists(trace)) {
        const QString located = locate(trace, path);
        if (located.isEmpty())
            return fail(tr("The session's trace was not found: %1").arg(trace));
        trace = located;
    }
    if (!session.candidate.isEmpty() && !TraceSource::isUrl(session.candidate.path)
        && !QFileInfo::exists(session.candidate.path)) {
        if (const QString located = locate(session.candidate.path, path); !located.isEmpty())
            session.candidate.path = located; // else reported once the trace has loaded
    }
    m_path = path;
    ViewState *state = m_window->viewState();
    state->setBoundary(session.boundary);
    state->setMetric(session.metric);
    state->setTimeAxis(session.alignedTime ? TimeAxis::AlignedAtSend : TimeAxis::Absolute);
    if (!session.windowState.isEmpty())
        m_window->restoreState(session.windowState);
    if (m_interactive && !session.windowGeometry.isEmpty())
        m_window->restoreGeometry(session.windowGeometry);
    m_pending = session;
    m_problems.clear();
    m_stage = Stage::Loading;
    m_window->openFile(trace);
    return true;
}

void SessionController::onLoadFinished(bool ok)
{
    if (ok)
        fingerprintTraces();
    if (!m_pending || m_stage != Stage::Loading)
        return;
    if (!ok) {
        finish(
            false,
            tr("Could not load the session's trace %1").arg(QDir::toNativeSeparators(m_pending->traces.front().path)));
        return;
    }
    applyViews();
    m_stage = Stage::Views;
    m_poll.start();
}

void SessionController::applyViews()
{
    const Session &session = *m_pending;
    ViewState *state = m_window->viewState();
    if (session.hasRecord)
        m_record->setRecord(session.record);
    m_notes->setNotes(session.notes);
    if (!session.promptBands.isEmpty() || !session.outputBands.isEmpty())
        m_window->classTable()->setBands(session.promptBands, session.outputBands);
    if (!session.classDimensions.isEmpty())
        m_window->classTable()->setDimensions(session.classDimensions);
    m_window->exceedance()->setPercentile(session.exceedanceQ);
    ExceedanceOrder order = ExceedanceOrder::MetricDescending;
    if (ExceedanceSet::orderFromKey(session.exceedanceOrder, &order))
        m_window->exceedance()->setOrder(order);
    if (!session.filterText.isEmpty())
        m_window->requestTable()->setTextFilter(session.filterText);
    if (!session.filterAttribute.isEmpty())
        m_window->requestTable()->setAttributeFilter(session.filterAttribute, session.filterValue);
    m_window->swimlanes()->setLaneOrder(orderFrom(session));
    ComparePanel *compare = m_window->comparePanel();
    if (!compare->setDimensions(session.compareClasses))
        m_problems.append(tr("The session's comparison classes (%1) are not all in the trace")
                              .arg(session.compareClasses.join(QStringLiteral(", "))));
    compare->setPercentile(session.compareQ);
    compare->setSloMs(session.compareSloMs);
    compare->setPredictedSavingMs(session.hasComparePrediction ? session.comparePredictedMs
                                                               : std::numeric_limits<double>::quiet_NaN());
    if (!session.candidate.isEmpty()) {
        if (TraceSource::isUrl(session.candidate.path) || QFileInfo::exists(session.candidate.path))
            m_window->compareWith(session.candidate.path);
        else
            m_problems.append(tr("The session's compared trace was not found: %1")
                                  .arg(QDir::toNativeSeparators(session.candidate.path)));
    }
    if (!session.workflow.isEmpty() && state->store()) {
        const QByteArray id = session.workflow.toUtf8();
        const qint32 workflow = state->store()->workflows.indexOf(std::string_view(id.constData(), size_t(id.size())));
        if (workflow >= 0)
            m_window->workflowPanel()->showWorkflow(workflow);
        else
            m_problems.append(tr("The session's workflow %1 is not in the trace").arg(session.workflow));
    }
}

void SessionController::applyLate()
{
    const Session &session = *m_pending;
    ViewState *state = m_window->viewState();
    const RequestTable *table = state->requests();
    if (!table)
        return;
    // A slice no filter describes (a class cell, a selection) is set by its rows.
    if (session.hasSlice && session.sliceRequests.isEmpty() && session.filterText.isEmpty()
        && session.filterAttribute.isEmpty())
        m_problems.append(tr("The slice \u201c%1\u201d had too many requests to be saved by id; every request is shown")
                              .arg(session.sliceLabel));
    if (session.hasSlice && !session.sliceRequests.isEmpty()) {
        RowSet slice = RowSet::fromSortedUnique(rowsOf(session.sliceRequests));
        if (!state->hasSlice() || state->slice() != slice)
            state->setSlice(std::move(slice), session.sliceLabel);
    }
    // The what-if shown in the Workflow dock (the panel holds one change).
    const WorkflowAnalysis &analysis = m_window->workflowPanel()->analysis();
    if (!session.whatIfs.isEmpty() && analysis.ok()) {
        WhatIfEdit edit;
        QString error;
        if (!SessionWhatIf::fromCommand(session.whatIfs.first(), &edit, &error)
            || !m_window->workflowPanel()->whatIfPanel()->setEdit(edit))
            m_problems.append(
                tr("The session's what-if \u201c%1\u201d does not apply to this workflow%2")
                    .arg(session.whatIfs.first(), error.isEmpty() ? QString() : QStringLiteral(": ") + error));
    }
    WhatIfPanel *whatIf = m_window->workflowPanel()->whatIfPanel();
    whatIf->setPopulationPercentile(session.whatIfPopulationQ);
    whatIf->setAppliesToPopulation(session.whatIfPopulation);
}

bool SessionController::windowBusy() const
{
    // MainWindow::isBusy counts this restore in; asked from here it must not,
    // or the restore would wait for itself. The traces' hashes count.
    const QScopedValueRollback<bool> asking(m_askingWindow, true);
    return m_window->isBusy() || m_hashJob.isRunning();
}

void SessionController::step()
{
    if (!m_pending || windowBusy())
        return;
    const Session &session = *m_pending;
    ViewState *state = m_window->viewState();
    switch (m_stage) {
    case Stage::Loading:
        return;
    case Stage::Views:
        applyLate();
        m_stage = Stage::Late;
        return;
    case Stage::Late: {
        // Last, what depends on everything else: the member stepped to, the
        // selection and current request, and the zoom of time and lanes.
        const qint32 member = rowOf(session.exceedanceMember);
        if (member >= 0)
            state->setExceedanceCursor(member);
        if (!session.selection.isEmpty())
            state->setSelection(RowSet::fromSortedUnique(rowsOf(session.selection)));
        if (const qint32 current = rowOf(session.currentRequest); current >= 0)
            state->setCurrentRow(current);
        // Applying the filter and the member raises their docks; the layout
        // saved (which tab of each dock area is in front) wins.
        if (!session.windowState.isEmpty())
            m_window->restoreState(session.windowState);
        if (session.laneCount > 0.0)
            m_window->swimlanes()->canvas()->setLaneWindow({session.laneFirst, session.laneCount});
        if (session.timeEnd > session.timeBegin)
            state->setTimeWindow({session.timeBegin, session.timeEnd});
        updateGanttBookmarks();
        m_stage = Stage::Settling;
        return;
    }
    case Stage::Settling: {
        // The hashes of the traces just loaded are ready (windowBusy waited).
        bool changed = false;
        for (const SessionTrace &trace : {session.traces.front(), session.candidate}) {
            if (const QString problem = trace.isEmpty() ? QString() : fingerprintProblem(trace); !problem.isEmpty()) {
                m_problems.prepend(problem);
                changed = true;
            }
        }
        const QString opened = tr("Opened session %1.").arg(QFileInfo(m_path).fileName());
        // A headless render of a changed trace is not the figure the session
        // saved: it fails. Interactively the view stays, with the reasons.
        finish(!changed || m_interactive, m_problems.isEmpty() ? opened : m_problems.join(QLatin1Char('\n')));
        return;
    }
    }
}

void SessionController::finish(bool ok, const QString &message)
{
    m_poll.stop();
    m_pending.reset();
    const bool complete = ok && m_problems.isEmpty();
    m_problems.clear();
    if (m_interactive) {
        if (complete)
            m_window->statusBar()->showMessage(message, 10'000);
        else
            QMessageBox::warning(m_window, tr("Open session"), message);
    }
    emit sessionRestored(ok, message);
}

void SessionController::updateGanttBookmarks()
{
    const WorkflowAnalysis &analysis = m_window->workflowPanel()->analysis();
    std::vector<qint32> spans;
    if (analysis.ok()) {
        const SpanGraph &graph = analysis.schedule->graph();
        for (const SessionNote &note : m_notes->notes()) {
            if (note.spanId.isEmpty() || note.requestId != analysis.workflowId)
                continue;
            for (qint32 span = 0; span < graph.spanCount(); ++span) {
                if (graph.idText(span) == note.spanId)
                    spans.push_back(span);
            }
        }
    }
    m_window->workflowPanel()->gantt()->setBookmarkedSpans(std::move(spans));
}

void SessionController::saveWithDialog()
{
    QString path
        = QFileDialog::getSaveFileName(m_window, tr("Save session"), QFileInfo(m_window->currentFile()).absolutePath(),
                                       tr("Tracelane sessions (*.tracelane)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(QStringLiteral(".tracelane")))
        path += QStringLiteral(".tracelane");
    QString error;
    if (!save(path, &error))
        QMessageBox::warning(m_window, tr("Save session"), error);
}

void SessionController::openWithDialog()
{
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open session"), QString(),
                                                      tr("Tracelane sessions (*.tracelane);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!open(path, &error))
        QMessageBox::warning(m_window, tr("Open session"), error);
}
