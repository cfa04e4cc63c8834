#include "SpanTraceLinker.h"

#include "OrphanAdoption.h"
#include "TimeLimits.h"
#include "store/Utf8.h"

#include <algorithm>

namespace {

using Utf8::fromStd;

// "a → b → c → a", shortened for long cycles.
QString cycleText(const std::vector<QString> &ids)
{
    QStringList parts;
    if (ids.size() <= 6) {
        for (const auto &id : ids)
            parts << id;
    } else {
        parts << ids[0] << ids[1] << QStringLiteral("… (%1 spans)").arg(ids.size()) << ids.back();
    }
    parts << ids.front();
    return parts.join(QStringLiteral(" → "));
}

} // namespace

SpanTraceLinker::SpanTraceLinker(TraceStore &store, QString fileName, QString parentField, QString startField,
                                 QString endField)
    : m_store(store)
    , m_table(store.spans)
    , m_file(std::move(fileName))
    , m_parentField(std::move(parentField))
    , m_startField(std::move(startField))
    , m_endField(std::move(endField))
{ }

void SpanTraceLinker::link(const std::vector<std::string> &traceIds, std::vector<quint32> &traceOf,
                           StringArena &parentIds, std::vector<Reference> &references)
{
    m_traceIds = &traceIds;
    m_traceOf = &traceOf;
    m_parentIds = &parentIds;
    m_references = &references;

    // Group rows by trace (a counting sort keeps file order inside a trace
    // and orders traces by first appearance): traces split across JSON Lines
    // records merge here.
    const size_t rows = traceOf.size();
    std::vector<qint32> offsets(traceIds.size() + 1, 0);
    for (const quint32 trace : traceOf)
        ++offsets[trace + 1];
    for (size_t t = 1; t < offsets.size(); ++t)
        offsets[t] += offsets[t - 1];
    std::vector<qint32> order(rows);
    bool identity = true;
    for (size_t row = 0; row < rows; ++row) {
        const qint32 at = offsets[traceOf[row]]++;
        order[size_t(at)] = qint32(row);
        identity = identity && at == qint32(row);
    }
    if (!identity)
        applyOrder(order);

    rejectSpansFarFromTheirTrace();
    resolveParents();
    if (rejectParentCycles())
        resolveParents();
    adoptOrphans();
    resolveReferences();
    breakDependencyCycles();
    buildWorkflows();
    reportFlags();
    m_table.shrinkToFit();
}

void SpanTraceLinker::applyOrder(const std::vector<qint32> &order)
{
    std::vector<qint32> newRow(m_traceOf->size(), -1);
    for (size_t i = 0; i < order.size(); ++i)
        newRow[size_t(order[i])] = qint32(i);
    m_table.reorder(order);
    std::vector<quint32> traceOf;
    traceOf.reserve(order.size());
    StringArena parentIds;
    parentIds.reserve(qsizetype(order.size()), qsizetype(m_parentIds->byteSize()));
    for (const qint32 row : order) {
        traceOf.push_back((*m_traceOf)[size_t(row)]);
        parentIds.append(m_parentIds->view(row));
    }
    m_traceOf->swap(traceOf);
    *m_parentIds = std::move(parentIds);
    std::erase_if(*m_references, [&](Reference &reference) {
        reference.row = newRow[size_t(reference.row)];
        return reference.row < 0;
    });
}

template<typename Visit> void SpanTraceLinker::forEachTrace(Visit visit)
{
    const auto &traceOf = *m_traceOf;
    size_t first = 0;
    while (first < traceOf.size()) {
        size_t last = first + 1;
        while (last < traceOf.size() && traceOf[last] == traceOf[first])
            ++last;
        visit(qsizetype(first), qsizetype(last));
        first = last;
    }
}

void SpanTraceLinker::indexTrace(qsizetype first, qsizetype last, bool collectDuplicates)
{
    m_spanIndex.clear();
    for (qsizetype row = first; row < last; ++row) {
        const auto [it, inserted] = m_spanIndex.try_emplace(m_table.spanId(row), qint32(row));
        if (!inserted && collectDuplicates)
            m_duplicates.emplace_back(qint32(row), it->second);
    }
}

void SpanTraceLinker::resolveParents()
{
    m_duplicates.clear();
    forEachTrace([&](qsizetype first, qsizetype last) {
        indexTrace(first, last, true);
        for (qsizetype row = first; row < last; ++row) {
            m_table.clearFlags(row, SpanTable::Orphan | SpanTable::Duplicate);
            const std::string_view parentId = m_parentIds->view(row);
            if (parentId.empty()) {
                m_table.setParent(row, -1);
                continue;
            }
            const auto it = m_spanIndex.find(parentId);
            if (it != m_spanIndex.end()) {
                m_table.setParent(row, it->second);
            } else {
                m_table.setParent(row, -1);
                m_table.addFlags(row, SpanTable::Orphan);
            }
        }
    });
    for (const auto &[row, first] : m_duplicates)
        m_table.addFlags(row, SpanTable::Duplicate);
}

void SpanTraceLinker::rejectSpansFarFromTheirTrace()
{
    // The middle of a trace is the median of its spans' starts (the lower
    // one for an even count): a few spans with a broken clock cannot move
    // it, so they are the ones refused, and every command then sees the
    // same trace (a 2023 trace with one span in 2200 is not 177 years long
    // for one analysis and 900 ms for another).
    std::vector<qint32> kept;
    std::vector<qint64> starts;
    bool any = false;
    forEachTrace([&](qsizetype first, qsizetype last) {
        starts.clear();
        for (qsizetype row = first; row < last; ++row)
            starts.push_back(m_table.start(row));
        const auto middle = starts.begin() + std::ptrdiff_t((starts.size() - 1) / 2);
        std::nth_element(starts.begin(), middle, starts.end());
        const qint64 median = *middle;
        for (qsizetype row = first; row < last; ++row) {
            // Times were validated non-negative, so these differences fit.
            const qint64 before = median - m_table.start(row);
            const qint64 after = m_table.end(row) - median;
            if (before <= TimeLimits::kMaxTraceSpreadNs && after <= TimeLimits::kMaxTraceSpreadNs) {
                kept.push_back(qint32(row));
                continue;
            }
            any = true;
            const double days = double(before > after ? before : after) / 86'400e9;
            m_store.rejected.push_back(
                {m_file, qint64(m_table.sourceLine(row)), fromStd((*m_traceIds)[(*m_traceOf)[size_t(row)]]),
                 before > after ? m_startField : m_endField,
                 QStringLiteral("the span %1 %2 days %3 the middle of its trace, more than the 30-day limit; its "
                                "clock or unit is wrong")
                     .arg(before > after ? QStringLiteral("starts") : QStringLiteral("ends"))
                     .arg(days, 0, 'f', 1)
                     .arg(before > after ? QStringLiteral("before") : QStringLiteral("after")),
                 m_table.spanIdText(row)});
        }
    });
    if (any)
        applyOrder(kept);
}

bool SpanTraceLinker::rejectParentCycles()
{
    const qsizetype rows = m_table.rowCount();
    std::vector<quint8> state(size_t(rows), 0); // 0 unseen, 1 on the current walk, 2 done
    std::vector<bool> dropped(size_t(rows), false);
    std::vector<qint32> path;
    bool any = false;
    for (qsizetype start = 0; start < rows; ++start) {
        if (state[size_t(start)] != 0)
            continue;
        path.clear();
        qint32 row = qint32(start);
        while (row >= 0 && state[size_t(row)] == 0) {
            state[size_t(row)] = 1;
            path.push_back(row);
            row = m_table.parent(row);
        }
        if (row >= 0 && state[size_t(row)] == 1) {
            // The walk came back to itself: the spans from `row` on form a cycle.
            const auto begin = std::find(path.begin(), path.end(), row);
            std::vector<QString> ids;
            for (auto it = begin; it != path.end(); ++it)
                ids.push_back(m_table.spanIdText(*it));
            const QString reason = QStringLiteral("parent cycle %1; every span on it is rejected").arg(cycleText(ids));
            for (auto it = begin; it != path.end(); ++it) {
                dropped[size_t(*it)] = true;
                m_store.rejected.push_back({m_file, qint64(m_table.sourceLine(*it)),
                                            fromStd((*m_traceIds)[(*m_traceOf)[size_t(*it)]]), m_parentField, reason,
                                            m_table.spanIdText(*it)});
            }
            any = true;
        }
        for (const qint32 visited : path)
            state[size_t(visited)] = 2;
    }
    if (!any)
        return false;
    std::vector<qint32> kept;
    kept.reserve(size_t(rows));
    for (qsizetype row = 0; row < rows; ++row) {
        if (!dropped[size_t(row)])
            kept.push_back(qint32(row));
    }
    applyOrder(kept);
    return true;
}

void SpanTraceLinker::adoptOrphans()
{
    m_adoptions.clear();
    m_adoptionTruncated = false;
    forEachTrace([&](qsizetype first, qsizetype last) {
        bool truncated = false;
        const auto adopted = OrphanAdoption::adopt(m_table, first, last, &truncated);
        m_adoptions.insert(m_adoptions.end(), adopted.begin(), adopted.end());
        m_adoptionTruncated = m_adoptionTruncated || truncated;
    });
    // Told in file order, not in the order they were placed (largest first).
    std::sort(m_adoptions.begin(), m_adoptions.end(),
              [](const OrphanAdoption::Adoption &a, const OrphanAdoption::Adoption &b) { return a.row < b.row; });
}

void SpanTraceLinker::resolveReferences()
{
    auto &references = *m_references;
    std::stable_sort(references.begin(), references.end(),
                     [](const Reference &a, const Reference &b) { return a.row < b.row; });
    size_t next = 0;
    forEachTrace([&](qsizetype first, qsizetype last) {
        if (next >= references.size() || references[next].row >= last)
            return;
        indexTrace(first, last, false);
        const std::string &traceId = (*m_traceIds)[(*m_traceOf)[size_t(first)]];
        for (; next < references.size() && references[next].row < last; ++next) {
            const Reference &reference = references[next];
            if (!reference.traceId.empty()) {
                m_table.addExternalLink(reference.row, reference.traceId, reference.spanId, reference.kind);
                continue;
            }
            const auto it = m_spanIndex.find(reference.spanId);
            if (it == m_spanIndex.end()) {
                m_table.addExternalLink(reference.row, traceId, reference.spanId, reference.kind);
                if (reference.fromContract) {
                    m_store.notices.push_back(
                        {m_file, qint64(m_table.sourceLine(reference.row)),
                         QStringLiteral("span %1: tracelane.depends_on names span %2, which is not in trace %3; "
                                        "kept as an external link")
                             .arg(m_table.spanIdText(reference.row), fromStd(reference.spanId), fromStd(traceId))});
                }
            } else if (it->second == reference.row) {
                m_store.notices.push_back({m_file, qint64(m_table.sourceLine(reference.row)),
                                           QStringLiteral("span %1 refers to itself; the reference is ignored")
                                               .arg(m_table.spanIdText(reference.row))});
            } else {
                m_table.addEdge({it->second, reference.row, reference.kind});
            }
        }
    });
}

void SpanTraceLinker::breakDependencyCycles()
{
    const auto &edges = m_table.edges();
    const qsizetype rows = m_table.rowCount();
    // Outgoing dependency edges per span, as offsets into `targets`.
    std::vector<qint32> begin(size_t(rows) + 1, 0);
    for (const auto &edge : edges) {
        if (edge.kind == SpanTable::EdgeKind::Dependency)
            ++begin[size_t(edge.from) + 1];
    }
    for (size_t i = 1; i < begin.size(); ++i)
        begin[i] += begin[i - 1];
    std::vector<qint32> targets(size_t(begin.back()));
    std::vector<qint32> edgeOf(size_t(begin.back()));
    {
        std::vector<qint32> fill(begin.begin(), begin.end() - 1);
        for (size_t e = 0; e < edges.size(); ++e) {
            if (edges[e].kind != SpanTable::EdgeKind::Dependency)
                continue;
            const qint32 at = fill[size_t(edges[e].from)]++;
            targets[size_t(at)] = edges[e].to;
            edgeOf[size_t(at)] = qint32(e);
        }
    }
    std::vector<quint8> state(size_t(rows), 0);
    std::vector<bool> drop(edges.size(), false);
    std::vector<std::pair<qint32, qint32>> stack; // (span, next outgoing index)
    bool any = false;
    for (qsizetype root = 0; root < rows; ++root) {
        if (state[size_t(root)] != 0 || begin[size_t(root)] == begin[size_t(root) + 1])
            continue;
        stack.emplace_back(qint32(root), begin[size_t(root)]);
        state[size_t(root)] = 1;
        while (!stack.empty()) {
            auto &[span, cursor] = stack.back();
            if (cursor == begin[size_t(span) + 1]) {
                state[size_t(span)] = 2;
                stack.pop_back();
                continue;
            }
            const qint32 at = cursor++;
            const qint32 next = targets[size_t(at)];
            if (state[size_t(next)] == 1) {
                // A back edge: `next` already waits (transitively) on `span`.
                drop[size_t(edgeOf[size_t(at)])] = true;
                any = true;
                m_store.rejected.push_back(
                    {m_file, qint64(m_table.sourceLine(next)), fromStd((*m_traceIds)[(*m_traceOf)[size_t(next)]]),
                     QStringLiteral("tracelane.depends_on"),
                     QStringLiteral("its dependency on span %1 closes a dependency cycle; that dependency is ignored")
                         .arg(m_table.spanIdText(span)),
                     m_table.spanIdText(next)});
            } else if (state[size_t(next)] == 0) {
                state[size_t(next)] = 1;
                stack.emplace_back(next, begin[size_t(next)]);
            }
        }
    }
    if (any) {
        std::vector<SpanTable::Edge> keptEdges;
        for (size_t e = 0; e < edges.size(); ++e) {
            if (!drop[e])
                keptEdges.push_back(edges[e]);
        }
        m_table.replaceEdges(std::move(keptEdges));
    }
}

void SpanTraceLinker::buildWorkflows()
{
    WorkflowTable &workflows = m_store.workflows;
    workflows = WorkflowTable();
    forEachTrace([&](qsizetype first, qsizetype last) {
        appendWorkflow(workflows, m_table, (*m_traceIds)[(*m_traceOf)[size_t(first)]], first, last);
    });
}

void SpanTraceLinker::appendWorkflow(WorkflowTable &workflows, SpanTable &table, std::string_view traceId,
                                     qsizetype first, qsizetype last)
{
    const auto workflow = qint32(workflows.rowCount());
    workflows.traceIds.append(traceId);
    workflows.firstSpan.push_back(qint32(first));
    workflows.spanCount.push_back(qint32(last - first));
    qint32 root = -1;
    for (qsizetype row = first; row < last; ++row) {
        table.setWorkflow(row, workflow);
        const bool isRoot = table.parent(row) < 0 && (table.flags(row) & SpanTable::Orphan) == 0;
        if (isRoot && (root < 0 || table.start(row) < table.start(root)))
            root = qint32(row);
    }
    workflows.rootSpan.push_back(root);
    workflows.requestRow.push_back(-1);
}

void SpanTraceLinker::reportFlags()
{
    for (const auto &[row, first] : m_duplicates) {
        const QString where = m_table.sourceLine(first) > 0
            ? QStringLiteral(" (first on line %1)").arg(m_table.sourceLine(first))
            : QString();
        m_store.notices.push_back(
            {m_file, qint64(m_table.sourceLine(row)),
             QStringLiteral("span %1 of trace %2 appears again%3; kept and flagged as a duplicate")
                 .arg(m_table.spanIdText(row), fromStd((*m_traceIds)[(*m_traceOf)[size_t(row)]]), where)});
    }
    // Each adoption is said once, with the missing parent and the adopter
    // (the first few in full; a file of thousands would bury every other notice).
    const auto describe = [this](qint32 row) {
        const QString name = m_table.name(row);
        return name.isEmpty() ? m_table.spanIdText(row) : QStringLiteral("%1 '%2'").arg(m_table.spanIdText(row), name);
    };
    for (size_t i = 0; i < m_adoptions.size() && i < kAdoptionsListed; ++i) {
        const auto &[row, parent] = m_adoptions[i];
        m_store.notices.push_back(
            {m_file, qint64(m_table.sourceLine(row)),
             QStringLiteral("span %1: parent %2 not in trace, attached to %3, the span enclosing it")
                 .arg(describe(row), fromStd(m_parentIds->view(row)), describe(parent))});
    }
    appendSummaryNotices(m_table, m_file, m_adoptionTruncated, m_store.notices);
}

void SpanTraceLinker::appendSummaryNotices(const SpanTable &table, const QString &file, bool adoptionTruncated,
                                           std::vector<LoadNotice> &notices)
{
    qsizetype orphans = 0;
    qsizetype adopted = 0;
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        const quint8 flags = table.flags(row);
        orphans += (flags & SpanTable::Orphan) != 0 ? 1 : 0;
        adopted += (flags & SpanTable::Adopted) != 0 ? 1 : 0;
    }
    if (orphans > 0) {
        QString placement;
        if (adopted == orphans)
            placement = QStringLiteral("; each is attached to the span enclosing it");
        else if (adopted > 0)
            placement = QStringLiteral("; %1 attached to the span enclosing them, %2 kept as roots (outside every "
                                       "span of their trace's tree)")
                            .arg(adopted)
                            .arg(orphans - adopted);
        if (adoptionTruncated)
            placement += QStringLiteral("; too many orphans to place in one trace, the rest kept as roots");
        notices.push_back(
            {file, 0,
             QStringLiteral("%1 %2 a parent that is not in the file; kept and flagged as "
                            "orphans%3")
                 .arg(orphans)
                 .arg(orphans == 1 ? QStringLiteral("span names") : QStringLiteral("spans name"), placement)});
    }
    const auto external = qsizetype(table.externalLinks().size());
    if (external > 0) {
        notices.push_back({file, 0,
                           QStringLiteral("%1 %2 to spans outside the file (other traces or unexported "
                                          "spans); kept as external links")
                               .arg(external)
                               .arg(external == 1 ? QStringLiteral("link points") : QStringLiteral("links point"))});
    }
}
