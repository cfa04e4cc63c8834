#include "ExceedancePanel.h"

#include "CountText.h"
#include "FeatureText.h"
#include "InSightWork.h"
#include "MemberComparisonModel.h"
#include "PathAttributionView.h"
#include "PathTreeView.h"
#include "RequestTimeline.h"
#include "SetComparisonView.h"
#include "ViewState.h"
#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/ColumnCache.h"
#include "remote/ServerFigures.h"
#include "store/TraceStore.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <utility>

namespace {

// From the first to the last observed stamp of one request.
qint64 observedSpan(const RequestTable &table, qint32 row)
{
    qint64 first = kNoTime;
    qint64 last = kNoTime;
    for (int s = 0; s < kStampCount; ++s) {
        const qint64 t = table.stamp(row, static_cast<Stamp>(s));
        if (t == kNoTime)
            continue;
        first = first == kNoTime ? t : qMin(first, t);
        last = last == kNoTime ? t : qMax(last, t);
    }
    return first == kNoTime ? 0 : last - first;
}

} // namespace

ExceedancePanel::ExceedancePanel(ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_metric(new QComboBox(this))
    , m_percentile(new QDoubleSpinBox(this))
    , m_order(new QComboBox(this))
    , m_summary(new QLabel(this))
    , m_previousButton(new QPushButton(tr("\u25c0 Previous (P)"), this))
    , m_nextButton(new QPushButton(tr("Next (N) \u25b6"), this))
    , m_positionText(new QLabel(this))
    , m_openWorkflow(new QPushButton(tr("Open Its Workflow\u2026"), this))
    , m_timeline(new RequestTimeline(this))
    , m_member(new MemberComparisonModel(this))
    , m_comparison(new SetComparisonView(this))
    , m_next(new QAction(tr("&Next Slow Request"), this))
    , m_previous(new QAction(tr("&Previous Slow Request"), this))
    , m_present(new InSightWork(this, [this] { present(); }))
{
    setObjectName(QStringLiteral("exceedancePanel"));
    m_rankings = new PopulationRankings(this);
    connect(m_rankings, &PopulationRankings::finished, this, [this] {
        if (m_rankings->rankings())
            m_comparison->setRankings(*m_rankings->rankings());
        updateSummary();
        emit populationRanked();
    });
    m_metric->setObjectName(QStringLiteral("exceedanceMetric"));
    m_percentile->setObjectName(QStringLiteral("exceedancePercentile"));
    m_order->setObjectName(QStringLiteral("exceedanceOrder"));
    m_summary->setObjectName(QStringLiteral("exceedanceSummary"));
    m_positionText->setObjectName(QStringLiteral("exceedancePosition"));
    for (const Metric metric : allMetrics())
        m_metric->addItem(metricLabel(metric), int(metric));
    m_percentile->setRange(50.0, 99.9);
    m_percentile->setDecimals(1);
    m_percentile->setSingleStep(1.0);
    m_percentile->setValue(95.0);
    m_percentile->setPrefix(QStringLiteral("p"));
    m_percentile->setToolTip(tr("Requests strictly above this percentile of the scope form the set"));
    m_order->addItem(tr("slowest first"), int(ExceedanceOrder::MetricDescending));
    m_order->addItem(tr("by arrival"), int(ExceedanceOrder::Arrival));
    m_summary->setWordWrap(true);
    m_timeline->setPlaceholderText(tr("The slow request being stepped through, to the scale of the longest one."));
    QFont bold = m_positionText->font();
    bold.setBold(true);
    m_positionText->setFont(bold);
    // A long position (a fetched member's id and where it came from) wraps
    // instead of widening the dock past the window.
    m_positionText->setWordWrap(true);

    // Window-wide single keys: a text field that has the focus takes plain
    // letters first (it accepts the shortcut override), so typing is safe.
    m_next->setObjectName(QStringLiteral("nextSlowRequest"));
    m_previous->setObjectName(QStringLiteral("previousSlowRequest"));
    m_next->setShortcut(QKeySequence(Qt::Key_N));
    m_previous->setShortcut(QKeySequence(Qt::Key_P));
    for (QAction *action : {m_next, m_previous}) {
        action->setShortcutContext(Qt::WindowShortcut);
        addAction(action);
    }
    connect(m_next, &QAction::triggered, this, &ExceedancePanel::stepNext);
    connect(m_previous, &QAction::triggered, this, &ExceedancePanel::stepPrevious);
    connect(m_nextButton, &QPushButton::clicked, this, &ExceedancePanel::stepNext);
    connect(m_previousButton, &QPushButton::clicked, this, &ExceedancePanel::stepPrevious);
    m_openWorkflow->setObjectName(QStringLiteral("openFetchedWorkflow"));
    m_openWorkflow->setToolTip(tr("This slow workflow is not in the sample: open it alone, spans and critical path "
                                  "fetched from the server, in a window of its own"));
    m_openWorkflow->hide();
    connect(m_openWorkflow, &QPushButton::clicked, this, [this] {
        if (m_fetched && m_fetched->workflows.rowCount() == 1)
            emit workflowWindowRequested(m_fetched->sourceFiles.value(0));
    });

    auto *memberView = new QTableView(this);
    memberView->setObjectName(QStringLiteral("memberComparison"));
    memberView->setModel(m_member);
    memberView->verticalHeader()->hide();
    memberView->setAlternatingRowColors(true);
    memberView->setSelectionBehavior(QAbstractItemView::SelectRows);
    memberView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    memberView->horizontalHeader()->setStretchLastSection(true);

    auto *definition = new QHBoxLayout;
    definition->addWidget(new QLabel(tr("Slow requests:"), this));
    definition->addWidget(m_metric);
    definition->addWidget(new QLabel(tr("above"), this));
    definition->addWidget(m_percentile);
    definition->addWidget(new QLabel(tr("Order:"), this));
    definition->addWidget(m_order);
    definition->addStretch(1);
    auto *stepping = new QHBoxLayout;
    stepping->addWidget(m_previousButton);
    stepping->addWidget(m_nextButton);
    stepping->addWidget(m_openWorkflow);
    stepping->addWidget(m_positionText, 1);

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addLayout(definition);
    leftLayout->addWidget(m_summary);
    leftLayout->addLayout(stepping);
    leftLayout->addWidget(m_timeline);
    leftLayout->addWidget(memberView, 1);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(m_comparison);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(splitter);

    connect(m_metric, &QComboBox::activated, this,
            [this] { m_state->setMetric(static_cast<Metric>(m_metric->currentData().toInt())); });
    connect(m_percentile, &QDoubleSpinBox::valueChanged, this, &ExceedancePanel::recompute);
    connect(m_order, &QComboBox::activated, this, &ExceedancePanel::recompute);
    connect(state, &ViewState::storeChanged, this, [this] {
        // A live refresh comes back to the member being looked at, found by
        // its id in the grown capture's set (or else the same position).
        if (m_state->isStoreRefresh() && m_cache && m_analysis && m_position >= 0 && m_pendingMember.position < 0)
            m_pendingMember = {m_cache->table().idText(m_analysis->set.members[size_t(m_position)]), m_position};
        m_cache = m_state->store() ? std::make_shared<ColumnCache>(m_state->store()) : nullptr;
        // Members of the old trace must not be stepped to in the new one.
        m_analysis.reset();
        m_server.reset();
        m_serverMemberRows.clear();
        m_serverPosition = -1;
        m_fetchJob.cancel();
        m_fetched.reset();
        m_openWorkflow->hide();
        m_pathJob.cancel();
        m_paths.reset();
        m_pathAttribution.reset();
        // A live refresh keeps showing the last set until the new one is in.
        m_presentMayWait = m_state->isStoreRefresh();
        if (!m_presentMayWait) {
            m_comparison->setWorkflowTrace(m_state->store() && m_state->store()->workflows.rowCount() > 0);
            m_comparison->clear();
        }
        showMember(-1);
        recompute();
    });
    connect(m_comparison->pathAttribution(), &PathAttributionView::keyKindChanged, this,
            &ExceedancePanel::recomputePaths);
    connect(state, &ViewState::sliceChanged, this, &ExceedancePanel::recompute);
    connect(state, &ViewState::boundaryChanged, this, &ExceedancePanel::recompute);
    connect(state, &ViewState::metricChanged, this, [this](Metric metric) {
        m_metric->setCurrentIndex(m_metric->findData(int(metric)));
        recompute();
    });
    connect(state, &ViewState::exceedanceCursorChanged, this, &ExceedancePanel::showMember);
    // Clicking a member's lane makes it the member being looked at.
    connect(state, &ViewState::currentRowChanged, this, [this](qint32 row) {
        if (row >= 0 && m_state->isExceedanceMember(row))
            m_state->setExceedanceCursor(row);
    });
    m_metric->setCurrentIndex(m_metric->findData(int(state->metric())));
    if (state->store())
        m_cache = std::make_shared<ColumnCache>(state->store());
    recompute();
}

ExceedancePanel::~ExceedancePanel() = default;

void ExceedancePanel::setPercentile(double q)
{
    m_percentile->setValue(q * 100.0);
}

double ExceedancePanel::percentile() const
{
    return m_percentile->value() / 100.0;
}

void ExceedancePanel::setOrder(ExceedanceOrder order)
{
    m_order->setCurrentIndex(m_order->findData(int(order)));
    recompute();
}

void ExceedancePanel::recompute()
{
    if (!m_cache) {
        m_job.cancel();
        apply({});
        return;
    }
    ExceedanceSpec spec;
    spec.metric = m_state->metric();
    spec.boundary = m_state->boundary();
    spec.q = percentile();
    spec.order = static_cast<ExceedanceOrder>(m_order->currentData().toInt());
    const bool sliced = m_state->hasSlice();
    RowSet scope = sliced ? m_state->slice() : RowSet();
    // A sample's set is judged by its population's threshold, from the
    // server; a filter's rows are the sample's own, so under one the sample
    // answers alone.
    const QString serverUrl = sliced || !m_state->store() ? QString() : m_state->store()->serverUrl;
    if (!m_presentMayWait)
        m_summary->setText(serverUrl.isEmpty() ? tr("Computing\u2026")
                                               : tr("Computing on the server over the whole population\u2026"));
    m_job.start(
        [cache = m_cache, spec, sliced, scope = std::move(scope), serverUrl](const std::atomic<bool> *cancel) {
            const RequestTable &table = cache->table();
            const RequestSlice slice
                = sliced ? RequestSlice::fromRows(table.rowCount(), scope.rows()) : RequestSlice::all(table.rowCount());
            Result result;
            std::shared_ptr<ExceedanceAnalysis> analysis;
            if (serverUrl.isEmpty()) {
                analysis = std::make_shared<ExceedanceAnalysis>(ExceedanceAnalysis::compute(*cache, slice, spec));
            } else {
                ServerFigures::SampleExceedance held
                    = ServerFigures::exceedanceOfSample(*cache, slice, spec, serverUrl, kServerMembers, cancel);
                analysis = std::make_shared<ExceedanceAnalysis>(std::move(held.analysis));
                result.server = std::move(held.server);
                result.serverError = std::move(held.error);
                result.serverMemberRows = std::move(held.memberRows);
            }
            for (const qint32 row : analysis->set.members)
                result.longestMemberNs = qMax(result.longestMemberNs, observedSpan(table, row));
            result.analysis = std::move(analysis);
            return result;
        },
        [this](Result result) { apply(std::move(result)); });
}

void ExceedancePanel::apply(Result result)
{
    m_analysis = std::move(result.analysis);
    m_server = std::move(result.server);
    m_serverError = std::move(result.serverError);
    m_serverMemberRows = std::move(result.serverMemberRows);
    m_serverPosition = -1;
    m_rankings->reset();
    m_fetchJob.cancel();
    m_fetched.reset();
    m_openWorkflow->hide();
    m_timeline->setMinimumSpan(result.longestMemberNs);
    if (!m_analysis) {
        m_present->markDone(); // nothing to show but the empty state, now
        m_comparison->clear();
        m_state->clearExceedance();
        showMember(-1);
        updateSummary();
        emit analysisReady();
        return;
    }
    const ExceedanceSet &set = m_analysis->set;
    ExceedanceMarks marks;
    marks.metric = set.spec.metric;
    marks.boundary = set.boundary;
    marks.thresholdMs = set.threshold;
    marks.label
        = tr("%1 > p%2 (%3), %4 boundary")
              .arg(metricLabel(set.spec.metric), QLocale().toString(set.spec.q * 100.0, 'g', 4),
                   FeatureText::withUnit(set.threshold, metricUnit(set.spec.metric)), boundaryKey(set.boundary));
    marks.members = RowSet::fromRows(set.members);
    m_state->setExceedance(std::move(marks)); // drops the cursor when it left the set
    if (m_pendingMember.position >= 0)
        stepToPending();
    m_present->run(m_presentMayWait);
    emit analysisReady();
    if (m_server && m_state->store())
        m_rankings->start(m_state->store()->serverUrl, m_analysis->set.spec, m_server);
}

// What the panel shows of the set; at once, or once in sight after a refresh.
void ExceedancePanel::present()
{
    if (!m_analysis)
        return;
    m_comparison->setWorkflowTrace(m_state->store() && m_state->store()->workflows.rowCount() > 0);
    m_comparison->setAnalysis(*m_analysis);
    if (m_rankings->rankings())
        m_comparison->setRankings(*m_rankings->rankings());
    showMember(m_state->exceedanceCursor());
    updateSummary();
    recomputePaths();
}

ExceedancePanel::MemberKey ExceedancePanel::memberKey() const
{
    const RequestTable *table = m_state->requests();
    if (m_position < 0 || !m_analysis || !table)
        return {};
    return {table->idText(m_analysis->set.members[size_t(m_position)]), m_position};
}

void ExceedancePanel::restoreMember(const MemberKey &key)
{
    m_pendingMember = key;
}

void ExceedancePanel::stepToPending()
{
    const MemberKey key = std::exchange(m_pendingMember, {});
    const RequestTable *table = m_state->requests();
    const std::vector<qint32> &members = m_analysis->set.members;
    if (!table || members.empty()) {
        showMember(-1);
        return;
    }
    qint32 row = -1;
    for (const qint32 member : members) {
        if (table->idText(member) == key.requestId) {
            row = member;
            break;
        }
    }
    if (row < 0)
        row = members[size_t(qMin<qsizetype>(key.position, qsizetype(members.size()) - 1))];
    if (row == m_state->exceedanceCursor())
        showMember(row);
    else
        m_state->setExceedanceCursor(row);
}

void ExceedancePanel::recomputePaths()
{
    const auto store = m_state->store();
    if (!m_analysis || !store || store->workflows.rowCount() == 0) {
        m_pathJob.cancel();
        m_pathAttribution.reset();
        return;
    }
    // E2E for E2E, ITL and stream sets; the path to the first token otherwise.
    const auto target = PhaseAttribution::totalFor(m_analysis->set.spec.metric) == Metric::E2e
        ? WorkflowPaths::Target::End
        : WorkflowPaths::Target::FirstToken;
    const SpanKeyKind kind = m_comparison->pathAttribution()->keyKind();
    if (!m_paths)
        m_comparison->pathAttribution()->showComputing();
    m_pathJob.start(
        [store, paths = m_paths, analysis = m_analysis, target, kind](const std::atomic<bool> *cancel) {
            PathResult result;
            result.paths
                = paths ? paths : std::make_shared<const WorkflowPaths>(WorkflowPaths::compute(*store, 0, cancel));
            if (result.paths->cancelled())
                return PathResult{};
            const SpanKeys keys = SpanKeys::build(*store, kind);
            const ExceedanceSet &set = analysis->set;
            result.attribution = std::make_shared<const PathAttribution>(
                PathAttribution::compute(*store, *result.paths, keys, set.members, set.rest, target));
            result.tree = std::make_shared<PathTree>(
                PathTree::build(*store, *result.paths, keys, set.members, set.rest, target));
            return result;
        },
        [this](PathResult result) { applyPaths(std::move(result)); });
}

void ExceedancePanel::applyPaths(PathResult result)
{
    if (!result.attribution)
        return;
    m_paths = std::move(result.paths);
    m_pathAttribution = std::move(result.attribution);
    m_comparison->pathAttribution()->setAttribution(*m_pathAttribution);
    m_comparison->pathTree()->setTree(std::move(*result.tree));
    emit pathAttributionReady();
}

void ExceedancePanel::updateSummary()
{
    const QLocale locale;
    if (!m_analysis) {
        m_summary->setText(m_state->store() ? tr("Computing\u2026") : tr("No trace loaded."));
        return;
    }
    const ExceedanceSet &set = m_analysis->set;
    const bool any = !set.isEmpty();
    m_nextButton->setEnabled(any);
    m_previousButton->setEnabled(any);
    if (const QString empty = m_state->emptySliceText(); !empty.isEmpty()) {
        m_summary->setText(empty.toHtmlEscaped());
        return;
    }
    const QString threshold = locale.toString(set.spec.q * 100.0, 'g', 4);
    const QString metric = metricLabel(set.spec.metric);
    if (m_server) {
        const TraceStore &store = *m_state->store();
        m_summary->setText(
            tr("Threshold: p%1 of %2 at the %3 boundary = <b>%4</b> \u00b7 set: <b>%5</b> of %6 with %2 (the whole "
               "population, computed by the server) \u00b7 held: %7 of them in the 1-in-%8 sample, stepped with N "
               "and P; %9")
                .arg(threshold, metric, boundaryKey(set.boundary),
                     FeatureText::withUnit(set.threshold, metricUnit(set.spec.metric)),
                     locale.toString(m_server->setSize),
                     CountText::of(m_server->observedRequests, tr("request"), tr("requests")),
                     locale.toString(set.size()))
                .arg(store.sampleOneIn)
                .arg(m_rankings->whose()));
        return;
    }
    QString scope = m_state->scopeText();
    if (!m_serverError.isEmpty())
        scope += tr("; the server did not compute the whole population's set: %1").arg(m_serverError);
    m_summary->setText(
        tr("Threshold: p%1 of %2 at the %3 boundary = <b>%4</b> \u00b7 set: <b>%5</b> of %6 "
           "with %2 (%7)")
            .arg(threshold, metric, boundaryKey(set.boundary),
                 FeatureText::withUnit(set.threshold, metricUnit(set.spec.metric)), locale.toString(set.size()),
                 CountText::of(set.observedRequests, tr("request"), tr("requests")), scope.toHtmlEscaped()));
}

void ExceedancePanel::stepNext()
{
    step(+1);
}

void ExceedancePanel::stepPrevious()
{
    step(-1);
}

void ExceedancePanel::step(int direction)
{
    if (m_analysis && m_server && !m_server->members.empty()) {
        stepServer(direction);
        return;
    }
    if (!m_analysis || m_analysis->set.isEmpty())
        return;
    const qsizetype size = m_analysis->set.size();
    qsizetype next = m_position < 0 ? (direction > 0 ? 0 : size - 1) : m_position + direction;
    next = qBound<qsizetype>(0, next, size - 1);
    m_state->setExceedanceCursor(m_analysis->set.members[size_t(next)]);
}

void ExceedancePanel::showMember(qint32 row)
{
    const RequestTable *table = m_state->requests();
    m_position = (m_analysis && row >= 0) ? m_analysis->set.positionOf(row) : -1;
    if (m_server && row >= 0) {
        // A held member looked at (stepped to, or its lane clicked): its
        // place among the population's slowest, if listed.
        const auto listed = std::find(m_serverMemberRows.begin(), m_serverMemberRows.end(), row);
        m_serverPosition = listed == m_serverMemberRows.end() ? -1 : listed - m_serverMemberRows.begin();
        m_fetchJob.cancel();
        m_fetched.reset();
        m_openWorkflow->hide();
    }
    if (m_server && row < 0 && m_serverPosition >= 0) {
        if (m_serverMemberRows[size_t(m_serverPosition)] < 0 && !m_present->isPending()) {
            fetchServerMember();
            return;
        }
        m_serverPosition = -1; // the cursor left a held member
    }
    if (m_present->isPending()) {
        emit memberShown(table ? m_position : -1); // drawn once in sight (present)
        return;
    }
    std::array<qint64, kStampCount> stamps;
    stamps.fill(kNoTime);
    if (m_position < 0 || !table) {
        m_member->setComparison({});
        m_timeline->setStamps(stamps);
        const qsizetype size = m_analysis ? m_analysis->set.size() : 0;
        QString text = tr("No request is above the threshold.");
        if (m_server && !m_server->members.empty())
            text = tr("Press N to step through the population's %1 slowest of its %2.")
                       .arg(QLocale().toString(qint64(m_server->members.size())),
                            CountText::of(m_server->setSize, tr("slow request"), tr("slow requests")));
        else if (size > 0)
            text = tr("Press N to step through the %1.")
                       .arg(CountText::of(size, tr("slow request"), tr("slow requests")));
        else if (const QString empty = m_state->emptySliceText(); !empty.isEmpty())
            text = empty;
        m_positionText->setText(text);
        emit memberShown(-1);
        return;
    }
    m_member->setComparison(m_analysis->member(*table, m_position));
    for (int s = 0; s < kStampCount; ++s)
        stamps[size_t(s)] = table->stamp(row, static_cast<Stamp>(s));
    m_timeline->setStamps(stamps);
    const ExceedanceSet &set = m_analysis->set;
    const Metric metric = set.spec.metric;
    const double value = metricValueMs(*table, row, metric, set.spec.boundary);
    if (m_serverPosition >= 0)
        m_positionText->setText(serverPositionText(table->idText(row), value, tr("held in the sample")));
    else
        m_positionText->setText(tr("%1 of %2: request %3 · %4 %5")
                                    .arg(QLocale().toString(m_position + 1), QLocale().toString(set.size()),
                                         table->idText(row), metricLabel(metric),
                                         FeatureText::withUnit(value, metricUnit(metric))));
    emit memberShown(m_position);
}

void ExceedancePanel::stepServer(int direction)
{
    const qsizetype size = qsizetype(m_server->members.size());
    qsizetype next = m_serverPosition < 0 ? (direction > 0 ? 0 : size - 1) : m_serverPosition + direction;
    next = qBound<qsizetype>(0, next, size - 1);
    m_serverPosition = next;
    const qint32 row = m_serverMemberRows[size_t(next)];
    if (row >= 0 && row == m_state->exceedanceCursor())
        showMember(row);
    else if (row >= 0)
        m_state->setExceedanceCursor(row);
    else if (m_state->exceedanceCursor() >= 0)
        m_state->setExceedanceCursor(-1); // shows, and fetches, the member below
    else
        showMember(-1);
}

// The member the sample does not hold: its row comes from the server.
void ExceedancePanel::fetchServerMember()
{
    const ServerExceedance::Member &member = m_server->members[size_t(m_serverPosition)];
    m_member->setComparison({});
    std::array<qint64, kStampCount> stamps;
    stamps.fill(kNoTime);
    m_timeline->setStamps(stamps);
    m_positionText->setText(serverPositionText(member.requestId, member.value, tr("fetching its row\u2026")));
    m_fetched.reset();
    m_openWorkflow->hide();
    const qsizetype position = m_serverPosition;
    m_fetchJob.start([url = m_state->store()->serverUrl, member](
                         const std::atomic<bool> *cancel) { return ServerFigures::fetchMember(url, member, cancel); },
                     [this, position](LoadResult result) {
                         if (position != m_serverPosition || !m_server)
                             return;
                         const ServerExceedance::Member &asked = m_server->members[size_t(position)];
                         if (!result.ok() || result.store->requests.rowCount() != 1) {
                             const QString why = result.ok() ? tr("the server no longer has it") : result.fatalError;
                             m_positionText->setText(serverPositionText(
                                 asked.requestId, asked.value, tr("its row could not be fetched: %1").arg(why)));
                             return;
                         }
                         m_fetched = std::move(result.store);
                         showFetched();
                     });
    emit memberShown(-1);
}

void ExceedancePanel::showFetched()
{
    const RequestTable &fetched = m_fetched->requests;
    const RequestTable *table = m_state->requests();
    if (table)
        m_member->setComparison(MemberComparison::ofFetched(*table, m_analysis->samples, fetched, 0));
    std::array<qint64, kStampCount> stamps;
    for (int s = 0; s < kStampCount; ++s)
        stamps[size_t(s)] = fetched.stamp(0, static_cast<Stamp>(s));
    m_timeline->setStamps(stamps);
    const ServerExceedance::Member &member = m_server->members[size_t(m_serverPosition)];
    m_positionText->setText(
        serverPositionText(member.requestId, member.value, tr("fetched from the server, not held in the sample")));
    m_openWorkflow->setVisible(m_fetched->workflows.rowCount() == 1);
}

QString ExceedancePanel::serverPositionText(const QString &requestId, double value, const QString &where) const
{
    const Metric metric = m_server->spec.metric;
    return tr("%1 of the population's %2 slow requests: request %3 \u00b7 %4 %5 (%6)")
        .arg(QLocale().toString(m_serverPosition + 1), QLocale().toString(m_server->setSize), requestId,
             metricLabel(metric), FeatureText::withUnit(value, metricUnit(metric)), where);
}
