#pragma once

#include "SpanKey.h"
#include "WorkflowPaths.h"

#include <QString>

#include <span>
#include <vector>

class TraceStore;

// The critical paths of two groups of workflows (the slow set and the rest)
// merged into one tree by key path: a section of span S lands on the node
// root key -> ... -> S's key, so every "chat" under "plan" is one node and
// every "chat" under "answer" another. A node's self time is path time of
// its own spans (a leaf's work, a parent's coordination gap); its total
// adds its descendants'. Means are over all workflows of the group, so a
// node's total in the set minus the rest is what that branch adds to the
// excess, and the roots' totals add up to the groups' mean path lengths.
struct PathTreeNode
{
    qint32 parent = -1;
    qint32 depth = 0;
    QString key; // the node's own key (last of its path)
    SpanCategory category = SpanCategory::Other;
    qint64 setSelfNs = 0; // summed over the group
    qint64 restSelfNs = 0;
    qint64 setTotalNs = 0;
    qint64 restTotalNs = 0;
    qint64 setOnPath = 0; // workflows with time on the path in this subtree
    qint64 restOnPath = 0;
    double setMeanMs = 0.0; // total / group size
    double restMeanMs = 0.0;
    double setSelfMeanMs = 0.0;
    double restSelfMeanMs = 0.0;
    bool hasChildren = false;
};

class PathTree
{
public:
    static PathTree build(const TraceStore &store, const WorkflowPaths &paths, const SpanKeys &keys,
                          std::span<const qint32> setRows, std::span<const qint32> restRows,
                          WorkflowPaths::Target target);

    WorkflowPaths::Target target() const { return m_target; }
    SpanKeyKind keyKind() const { return m_keyKind; }
    qint64 setN() const { return m_setN; }
    qint64 restN() const { return m_restN; }
    // Depth first; children by their larger mean (set or rest), largest first.
    const std::vector<PathTreeNode> &nodes() const { return m_nodes; }
    // "invoke_agent support > chat answer".
    QString pathText(qint32 node, const QString &separator = QStringLiteral(" > ")) const;

private:
    WorkflowPaths::Target m_target = WorkflowPaths::Target::End;
    SpanKeyKind m_keyKind = SpanKeyKind::Kind;
    qint64 m_setN = 0;
    qint64 m_restN = 0;
    std::vector<PathTreeNode> m_nodes;
};
