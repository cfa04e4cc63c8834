#pragma once

#include "analysis/workflows/PathTree.h"

#include <QWidget>

#include <vector>

class QScrollBar;

// The slow set's critical paths merged with the rest's (PathTree), drawn
// as indented bars: one row per key path, the set's and the rest's mean
// critical time per workflow side by side on one scale, so a reviewer sees
// which branch the slow workflows spend their time in. A triangle folds a
// branch; the tooltip gives the full path, own time and on-path shares.
class PathTreeView : public QWidget
{
    Q_OBJECT
public:
    explicit PathTreeView(QWidget *parent = nullptr);

    void setTree(PathTree tree);
    void clear();
    const PathTree &tree() const { return m_tree; }

    // Visible rows, as indices into tree().nodes().
    const std::vector<qint32> &rows() const { return m_rows; }
    void setCollapsed(qint32 node, bool collapsed);
    // Geometry for tests and tooltips; empty when the node is not shown.
    QRectF setBar(qint32 node) const;
    QRectF restBar(qint32 node) const;
    QString toolTipText(qint32 node) const;

    static QColor setColour();
    static QColor restColour();

    QSize sizeHint() const override { return {640, 320}; }
    QSize minimumSizeHint() const override { return {320, 120}; }

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuildRows();
    void updateScrollBar();
    int headerHeight() const;
    int labelWidth() const;
    QRectF barArea() const;
    int rowAt(int y) const;
    double scaleMs() const;

    PathTree m_tree;
    std::vector<quint8> m_collapsed;
    std::vector<qint32> m_rows;
    std::vector<qint32> m_rowOfNode;
    QScrollBar *m_scroll = nullptr;
};
