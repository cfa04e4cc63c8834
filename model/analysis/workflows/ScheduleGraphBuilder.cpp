// Construction of the ScheduleGraph: events, predecessor lists in
// preference order, baseline delays, topological order and cycle check.
// Start and end events have predecessor counts known in advance, so their
// lists are written in place; join events are appended as they are made.

#include "ScheduleGraph.h"

#include "PathClipping.h"
#include "SpanGraph.h"
#include "SpanTree.h"
#include "store/Stamp.h"

#include <algorithm>

class ScheduleGraphBuilder
{
public:
    ScheduleGraphBuilder(const SpanGraph &graph, const SpanTree &tree, const ClippedSpans &clipped)
        : m_graph(graph)
        , m_tree(tree)
        , m_clipped(clipped)
        , m_n(graph.spanCount())
    { }

    std::optional<ScheduleGraph> build(QString *error, QStringList *notices);

private:
    qint64 clippedStart(qint32 span) const { return span == m_n ? m_rootStart : m_clipped.start[size_t(span)]; }
    qint64 clippedEnd(qint32 span) const { return span == m_n ? m_rootEnd : m_clipped.end[size_t(span)]; }
    bool gates(qint32 span) const { return m_clipped.gatesParent[size_t(span)] != 0 || m_tree.parent(span) < 0; }
    qint32 startNode(qint32 span) const { return span; }
    qint32 endNode(qint32 span) const { return m_n + 1 + span; }
    qint32 parentSlot(qint32 span) const { return m_tree.parent(span) < 0 ? m_n : m_tree.parent(span); }
    // A child that does not gate its parent and starts before it floats.
    bool floats(qint32 span) const { return !gates(span) && clippedStart(span) < clippedStart(parentSlot(span)); }

    void checkDependencies(QStringList *notices);
    void layOutLists();
    void addChildren(qint32 parent, std::span<const qint32> children);
    bool orderTopologically(QString *error);

    const SpanGraph &m_graph;
    const SpanTree &m_tree;
    const ClippedSpans &m_clipped;
    const qint32 m_n;
    qint64 m_rootStart = 0;
    qint64 m_rootEnd = 0;
    ScheduleGraph m_out;
    std::vector<std::pair<qint32, qint32>> m_dependencies; // usable (from, to)
    std::vector<qint32> m_dependencyCount;                 // per span
    std::vector<qint64> m_latestDependencyEnd;             // per span, over recorded dependencies
    std::vector<quint8> m_hasRecordedDependency;           // per span
    std::vector<qint32> m_gating;                          // scratch, per parent
    std::vector<qint32> m_byEnd;                           // scratch, per parent
};

void ScheduleGraphBuilder::checkDependencies(QStringList *notices)
{
    m_dependencyCount.assign(size_t(m_n), 0);
    m_latestDependencyEnd.assign(size_t(m_n), kNoTime);
    m_hasRecordedDependency.assign(size_t(m_n), 0);
    for (const auto &dependency : m_graph.dependencies()) {
        const qint32 from = dependency.from;
        const qint32 to = dependency.to;
        if (from < 0 || from >= m_n || to < 0 || to >= m_n) {
            notices->append(
                QStringLiteral("dependency %1 → %2 names a span outside the workflow; ignored").arg(from).arg(to));
            continue;
        }
        if (from == to || m_tree.contains(from, to) || m_tree.contains(to, from)) {
            notices->append(QStringLiteral("dependency %1 → %2 joins a span to itself or its own ancestor; "
                                           "the parent relation already orders them; ignored")
                                .arg(describeSpan(m_graph, from), describeSpan(m_graph, to)));
            continue;
        }
        if (!dependency.hypothetical) {
            if (clippedEnd(from) > clippedStart(to)) {
                notices->append(QStringLiteral("dependency %1 → %2 contradicts the recorded times: the second "
                                               "starts %3 ns before the first ends; ignored")
                                    .arg(describeSpan(m_graph, from), describeSpan(m_graph, to))
                                    .arg(clippedEnd(from) - clippedStart(to)));
                continue;
            }
            auto &latest = m_latestDependencyEnd[size_t(to)];
            latest = std::max(latest, clippedEnd(from));
            m_hasRecordedDependency[size_t(to)] = 1;
        }
        m_dependencies.emplace_back(from, to);
        ++m_dependencyCount[size_t(to)];
    }
}

void ScheduleGraphBuilder::layOutLists()
{
    // S(x): its dependencies, then its join or parent start (none when it
    // floats). E(x): its gating children, then S(x). S(root) is the source.
    const auto slotCount = size_t(m_n) + 1;
    auto &begin = m_out.m_predBegin;
    begin.assign(2 * slotCount + 1, 0);
    for (qint32 span = 0; span < m_n; ++span) {
        begin[size_t(startNode(span)) + 1] = m_dependencyCount[size_t(span)] + (floats(span) ? 0 : 1);
        if (gates(span))
            ++begin[size_t(endNode(parentSlot(span))) + 1];
    }
    for (qint32 span = 0; span <= m_n; ++span)
        ++begin[size_t(endNode(span)) + 1];
    for (size_t i = 1; i < begin.size(); ++i)
        begin[i] += begin[i - 1];
    m_out.m_preds.resize(size_t(begin.back()));
    // Dependencies first: they win ties in S(to)'s preference order.
    std::vector<qint32> fill(m_dependencies.empty() ? 0 : m_dependencyCount.size(), 0);
    for (const auto &[from, to] : m_dependencies)
        m_out.m_preds[size_t(begin[size_t(startNode(to))]) + size_t(fill[size_t(to)]++)] = endNode(from);
}

void ScheduleGraphBuilder::addChildren(qint32 parent, std::span<const qint32> children)
{
    auto &preds = m_out.m_preds;
    const auto &begin = m_out.m_predBegin;
    const auto lastSlot = [&begin](qint32 node) { return size_t(begin[size_t(node) + 1] - 1); };
    m_gating.clear();
    for (const qint32 child : children) {
        if (gates(child))
            m_gating.push_back(child);
    }

    // The parent ends after its tail, once its gating children have ended.
    qint64 lastChildEnd = clippedStart(parent);
    auto at = size_t(begin[size_t(endNode(parent))]);
    for (const qint32 child : m_gating) {
        preds[at++] = endNode(child);
        lastChildEnd = std::max(lastChildEnd, clippedEnd(child));
    }
    preds[at] = startNode(parent);
    m_out.m_delay[size_t(endNode(parent))] = clippedEnd(parent) - lastChildEnd;
    m_out.m_owner[size_t(endNode(parent))] = parent == m_n ? ScheduleGraph::kNoOwner : parent;

    // Join chain: walking the distinct child start times upwards, a join
    // absorbs the siblings that ended by then. A zero-length sibling at
    // exactly that time waits for the next join, so no event precedes itself.
    if (m_gating.size() > 1) {
        std::sort(m_gating.begin(), m_gating.end(),
                  [this](qint32 a, qint32 b) { return std::pair(clippedStart(a), a) < std::pair(clippedStart(b), b); });
    }
    m_byEnd = m_gating;
    std::sort(m_byEnd.begin(), m_byEnd.end(), [this](qint32 a, qint32 b) {
        const auto key
            = [this](qint32 s) { return std::tuple(clippedEnd(s), clippedEnd(s) == clippedStart(s) ? 1 : 0, s); };
        return key(a) < key(b);
    });
    qint32 join = startNode(parent);
    qint64 joinTime = clippedStart(parent);
    size_t ended = 0;
    for (size_t i = 0; i < m_gating.size();) {
        const qint64 t = clippedStart(m_gating[i]);
        const size_t bucket = ended;
        while (ended < m_byEnd.size()
               && (clippedEnd(m_byEnd[ended]) < t
                   || (clippedEnd(m_byEnd[ended]) == t && clippedStart(m_byEnd[ended]) < t)))
            ++ended;
        if (ended > bucket) {
            for (size_t k = bucket; k < ended; ++k) {
                joinTime = std::max(joinTime, clippedEnd(m_byEnd[k]));
                m_out.m_joinPreds.push_back(endNode(m_byEnd[k]));
            }
            m_out.m_joinPreds.push_back(join);
            join = qint32(m_out.m_delay.size());
            m_out.m_delay.push_back(0);
            m_out.m_owner.push_back(ScheduleGraph::kNoOwner);
            m_out.m_baselineTimes.push_back(joinTime);
            m_out.m_predBegin.push_back(qint32(m_out.m_joinPreds.size()));
        }
        for (; i < m_gating.size() && clippedStart(m_gating[i]) == t; ++i) {
            const qint32 child = m_gating[i];
            // Recorded dependencies replace the order inferred from timing:
            // such a child waits for them and its parent's start only.
            const bool explicitOnly = m_hasRecordedDependency[size_t(child)] != 0;
            preds[lastSlot(startNode(child))] = explicitOnly ? startNode(parent) : join;
            const qint64 ready
                = std::max(explicitOnly ? clippedStart(parent) : joinTime, m_latestDependencyEnd[size_t(child)]);
            m_out.m_delay[size_t(startNode(child))] = t - ready;
            m_out.m_owner[size_t(startNode(child))] = parent;
        }
    }

    // Children that do not gate the parent still start relative to it when
    // they start inside it; one that starts before its parent floats at its
    // recorded time (or after its dependencies).
    if (parent == m_n)
        return;
    for (const qint32 child : children) {
        if (gates(child))
            continue;
        const qint64 start = clippedStart(child);
        const qint64 dependencyEnd = m_latestDependencyEnd[size_t(child)];
        auto &delay = m_out.m_delay[size_t(startNode(child))];
        m_out.m_owner[size_t(startNode(child))] = parent;
        if (!floats(child)) {
            preds[lastSlot(startNode(child))] = startNode(parent);
            delay = start - std::max(clippedStart(parent), dependencyEnd);
        } else if (m_dependencyCount[size_t(child)] > 0) {
            // Only hypothetical dependencies: it starts as soon as they end.
            delay = dependencyEnd == kNoTime ? 0 : start - dependencyEnd;
        } else {
            delay = start;
            m_out.m_owner[size_t(startNode(child))] = ScheduleGraph::kNoOwner;
        }
    }
}

bool ScheduleGraphBuilder::orderTopologically(QString *error)
{
    // Post-order depth-first search over predecessors with an explicit stack:
    // predecessors come out before the events that wait for them. Meeting an
    // event that is still on the stack means a cycle; it is reported, never
    // followed.
    const qint32 nodes = m_out.nodeCount();
    enum : quint8 { Unseen, OnStack, Done };
    std::vector<quint8> state(size_t(nodes), Unseen);
    struct Frame
    {
        qint32 node;
        const qint32 *next; // into its predecessor list, up to `end`
        const qint32 *end;
    };
    const auto frameOf = [this](qint32 node) {
        const auto preds = m_out.predecessors(node);
        return Frame{node, preds.data(), preds.data() + preds.size()};
    };
    // Each node is pushed once at most: the reserve keeps `frame` valid.
    std::vector<Frame> stack;
    stack.reserve(size_t(nodes));
    m_out.m_order.reserve(size_t(nodes));
    for (qint32 root = nodes - 1; root >= 0; --root) {
        if (state[size_t(root)] != Unseen)
            continue;
        stack.push_back(frameOf(root));
        state[size_t(root)] = OnStack;
        while (!stack.empty()) {
            Frame &frame = stack.back();
            if (frame.next == frame.end) {
                state[size_t(frame.node)] = Done;
                m_out.m_order.push_back(frame.node);
                stack.pop_back();
                continue;
            }
            const qint32 pred = *frame.next++;
            if (state[size_t(pred)] == Unseen) {
                state[size_t(pred)] = OnStack;
                stack.push_back(frameOf(pred));
            } else if (state[size_t(pred)] == OnStack) {
                QStringList members;
                auto it = std::find_if(stack.begin(), stack.end(), [pred](const Frame &f) { return f.node == pred; });
                for (; it != stack.end(); ++it) {
                    const qint32 node = it->node;
                    const qint32 span = node <= m_n ? node : node <= 2 * m_n + 1 ? node - m_n - 1 : -1;
                    if (span < 0 || span == m_n)
                        continue;
                    const QString text = describeSpan(m_graph, span);
                    if (members.isEmpty() || members.back() != text)
                        members.append(text);
                }
                *error = QStringLiteral("dependency cycle through spans %1").arg(members.join(QStringLiteral(", ")));
                return false;
            }
        }
    }
    return true;
}

std::optional<ScheduleGraph> ScheduleGraphBuilder::build(QString *error, QStringList *notices)
{
    if (m_n == 0) {
        *error = QStringLiteral("the workflow has no spans");
        return std::nullopt;
    }
    m_rootStart = clippedStart(m_tree.roots().front());
    m_rootEnd = clippedEnd(m_tree.roots().front());
    for (const qint32 root : m_tree.roots()) {
        m_rootStart = std::min(m_rootStart, clippedStart(root));
        m_rootEnd = std::max(m_rootEnd, clippedEnd(root));
    }
    m_out.m_spanCount = m_n;
    const auto slotCount = size_t(m_n) + 1;
    m_out.m_firstJoin = qint32(2 * slotCount);
    m_out.m_delay.assign(2 * slotCount, 0);
    m_out.m_owner.assign(2 * slotCount, ScheduleGraph::kNoOwner);
    m_out.m_delay[size_t(startNode(m_n))] = m_rootStart; // the source: absolute time
    // Recorded times; a replay with the baseline delays reproduces them
    // unless hypothetical dependencies hold a span back.
    m_out.m_baselineTimes.resize(2 * slotCount);
    for (qint32 span = 0; span <= m_n; ++span) {
        m_out.m_baselineTimes[size_t(startNode(span))] = clippedStart(span);
        m_out.m_baselineTimes[size_t(endNode(span))] = clippedEnd(span);
    }

    checkDependencies(notices);
    layOutLists();
    m_out.m_joinPreds.reserve(slotCount);
    for (qint32 span = 0; span < m_n; ++span)
        addChildren(span, m_tree.children(span));
    addChildren(m_n, m_tree.roots());
    if (!orderTopologically(error))
        return std::nullopt;
    return std::move(m_out);
}

std::optional<ScheduleGraph> ScheduleGraph::build(const SpanGraph &graph, const SpanTree &tree,
                                                  const ClippedSpans &clipped, QString *error, QStringList *notices)
{
    return ScheduleGraphBuilder(graph, tree, clipped).build(error, notices);
}
