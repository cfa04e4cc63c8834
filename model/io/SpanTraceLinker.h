#pragma once

#include "OrphanAdoption.h"

#include "store/StringArena.h"
#include "store/TraceStore.h"

#include <QString>

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

// The part of building a span trace that needs every span of the file:
// grouping rows by trace, resolving parents and references by span id,
// flagging orphans (attaching those inside the tree to the span enclosing
// them, see OrphanAdoption) and duplicates, rejecting parent cycles and breaking
// dependency cycles, and filling the WorkflowTable. Iterative throughout, so
// a 100,000-deep chain or a cycle in bad input cannot overflow or loop.
class SpanTraceLinker
{
public:
    // A reference from span `row` to another span: an OTLP link, a Jaeger
    // reference beyond the parent, or a tracelane.depends_on entry.
    struct Reference
    {
        qint32 row = -1;
        std::string traceId; // empty: the span's own trace
        std::string spanId;
        SpanTable::EdgeKind kind = SpanTable::EdgeKind::Link;
        bool fromContract = false;
    };

    // The field names are the format's, for rejection messages.
    SpanTraceLinker(TraceStore &store, QString fileName, QString parentField, QString startField = {},
                    QString endField = {});

    // `traceOf[row]` indexes `traceIds`; `parentIds` holds each row's parent
    // span id (empty for a root). The staging vectors are consumed.
    void link(const std::vector<std::string> &traceIds, std::vector<quint32> &traceOf, StringArena &parentIds,
              std::vector<Reference> &references);
    // Orphans attached to an enclosing span are listed one notice each, the
    // first this many (a file of thousands would bury every other notice),
    // just before the summary notices.
    static constexpr size_t kAdoptionsListed = 20;

    // Whether some trace had too many orphans to place them all (after link()).
    bool adoptionTruncated() const { return m_adoptionTruncated; }

    // The summary notices (line 0) of a linked table: how many spans name a
    // parent that is missing and where they went, how many links point
    // outside. link() ends with them; a live store that grows by parts says
    // them once for the whole table instead of once a part.
    static void appendSummaryNotices(const SpanTable &table, const QString &file, bool adoptionTruncated,
                                     std::vector<LoadNotice> &notices);

    // Adds the workflow of the trace `traceId` whose spans are rows [first,
    // last) of `table`: each row learns its workflow, and the root is the
    // earliest-starting span without a parent that is not an orphan.
    static void appendWorkflow(WorkflowTable &workflows, SpanTable &table, std::string_view traceId, qsizetype first,
                               qsizetype last);

private:
    void applyOrder(const std::vector<qint32> &order);
    template<typename Visit> void forEachTrace(Visit visit);
    void indexTrace(qsizetype first, qsizetype last, bool collectDuplicates);
    void resolveParents();
    void rejectSpansFarFromTheirTrace();
    bool rejectParentCycles();
    void adoptOrphans();
    void resolveReferences();
    void breakDependencyCycles();
    void buildWorkflows();
    void reportFlags();

    TraceStore &m_store;
    SpanTable &m_table;
    QString m_file;
    QString m_parentField;
    QString m_startField;
    QString m_endField;
    const std::vector<std::string> *m_traceIds = nullptr;
    std::vector<quint32> *m_traceOf = nullptr;
    StringArena *m_parentIds = nullptr;
    std::vector<Reference> *m_references = nullptr;
    std::unordered_map<std::string_view, qint32> m_spanIndex; // of the trace being resolved
    std::vector<std::pair<qint32, qint32>> m_duplicates;      // (row, first row with that id)
    std::vector<OrphanAdoption::Adoption> m_adoptions;
    bool m_adoptionTruncated = false;
};
