#include "PathTreeView.h"

#include "FeatureText.h"
#include "analysis/workflows/PathAttribution.h"

#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kRowHeight = 22;
constexpr int kIndent = 14;
constexpr int kTriangle = 12;

QString msText(double value)
{
    return QLocale().toString(std::abs(value) < 0.05 ? 0.0 : value, 'f', 1);
}

} // namespace

PathTreeView::PathTreeView(QWidget *parent)
    : QWidget(parent)
    , m_scroll(new QScrollBar(Qt::Vertical, this))
{
    setObjectName(QStringLiteral("pathTreeView"));
    setMouseTracking(true);
    connect(m_scroll, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
}

QColor PathTreeView::setColour()
{
    return QColor(0xC0, 0x00, 0x20);
} // as the set in FeatureComparisonPlot
QColor PathTreeView::restColour()
{
    return QColor(0x90, 0x90, 0x90);
}

void PathTreeView::setTree(PathTree tree)
{
    m_tree = std::move(tree);
    m_collapsed.assign(m_tree.nodes().size(), 0);
    m_scroll->setValue(0);
    rebuildRows();
}

void PathTreeView::clear()
{
    setTree({});
}

void PathTreeView::setCollapsed(qint32 node, bool collapsed)
{
    if (node < 0 || size_t(node) >= m_collapsed.size())
        return;
    m_collapsed[size_t(node)] = collapsed ? 1 : 0;
    rebuildRows();
}

void PathTreeView::rebuildRows()
{
    m_rows.clear();
    const auto &nodes = m_tree.nodes();
    m_rowOfNode.assign(nodes.size(), -1);
    // Preorder: a node is hidden when any ancestor is folded.
    std::vector<quint8> hidden(nodes.size(), 0);
    for (size_t i = 0; i < nodes.size(); ++i) {
        const qint32 parent = nodes[i].parent;
        hidden[i] = parent >= 0 && (hidden[size_t(parent)] || m_collapsed[size_t(parent)]);
        if (!hidden[i]) {
            m_rowOfNode[i] = qint32(m_rows.size());
            m_rows.push_back(qint32(i));
        }
    }
    updateScrollBar();
    update();
}

int PathTreeView::headerHeight() const
{
    return 2 * fontMetrics().height() + 14;
}

int PathTreeView::labelWidth() const
{
    return std::clamp(width() * 2 / 5, 140, 360);
}

QRectF PathTreeView::barArea() const
{
    const int scroll = m_scroll->isVisible() ? m_scroll->width() : 0;
    const int numbers = fontMetrics().horizontalAdvance(QStringLiteral("000,000.0 / 000,000.0 ms")) + 12;
    const double left = labelWidth() + 8;
    return QRectF(left, headerHeight(), std::max(20.0, width() - scroll - numbers - left), height() - headerHeight());
}

double PathTreeView::scaleMs() const
{
    double top = 0.0;
    for (const auto &node : m_tree.nodes())
        top = std::max({top, node.setMeanMs, node.restMeanMs});
    return top > 0.0 ? top : 1.0;
}

void PathTreeView::updateScrollBar()
{
    const int shown = std::max(1, (height() - headerHeight()) / kRowHeight);
    m_scroll->setGeometry(width() - m_scroll->sizeHint().width(), headerHeight(), m_scroll->sizeHint().width(),
                          std::max(0, height() - headerHeight()));
    m_scroll->setRange(0, std::max(0, int(m_rows.size()) - shown));
    m_scroll->setPageStep(shown);
    m_scroll->setVisible(int(m_rows.size()) > shown);
}

int PathTreeView::rowAt(int y) const
{
    if (y < headerHeight())
        return -1;
    const int row = (y - headerHeight()) / kRowHeight + m_scroll->value();
    return row < int(m_rows.size()) ? row : -1;
}

QRectF PathTreeView::setBar(qint32 node) const
{
    if (node < 0 || size_t(node) >= m_rowOfNode.size() || m_rowOfNode[size_t(node)] < 0)
        return {};
    const QRectF area = barArea();
    const double top = headerHeight() + (m_rowOfNode[size_t(node)] - m_scroll->value()) * kRowHeight + 3;
    const double length = area.width() * m_tree.nodes()[size_t(node)].setMeanMs / scaleMs();
    return QRectF(area.left(), top, std::max(length, 0.0), (kRowHeight - 6) / 2.0);
}

QRectF PathTreeView::restBar(qint32 node) const
{
    const QRectF set = setBar(node);
    if (set.isNull())
        return {};
    const double length = barArea().width() * m_tree.nodes()[size_t(node)].restMeanMs / scaleMs();
    return QRectF(set.left(), set.bottom(), std::max(length, 0.0), set.height());
}

QString PathTreeView::toolTipText(qint32 node) const
{
    if (node < 0 || size_t(node) >= m_tree.nodes().size())
        return {};
    const PathTreeNode &n = m_tree.nodes()[size_t(node)];
    const auto share = [](qint64 count, qint64 of) {
        return FeatureText::share(of > 0 ? double(count) / double(of) : std::nan(""));
    };
    QStringList lines;
    lines << QStringLiteral("<b>%1</b>").arg(m_tree.pathText(node, QStringLiteral(" \u203a ")).toHtmlEscaped());
    lines << tr("set: %1 ms per workflow (own %2 ms), on the path in %3 of %4")
                 .arg(msText(n.setMeanMs), msText(n.setSelfMeanMs), share(n.setOnPath, m_tree.setN()))
                 .arg(m_tree.setN());
    lines << tr("rest: %1 ms per workflow (own %2 ms), on the path in %3 of %4")
                 .arg(msText(n.restMeanMs), msText(n.restSelfMeanMs), share(n.restOnPath, m_tree.restN()))
                 .arg(m_tree.restN());
    lines << tr("difference: %1 ms").arg(msText(n.setMeanMs - n.restMeanMs));
    return lines.join(QStringLiteral("<br>"));
}

void PathTreeView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateScrollBar();
}

void PathTreeView::wheelEvent(QWheelEvent *event)
{
    m_scroll->setValue(m_scroll->value() - event->angleDelta().y() / 40);
    event->accept();
}

void PathTreeView::mousePressEvent(QMouseEvent *event)
{
    const int row = rowAt(int(event->position().y()));
    if (row < 0)
        return;
    const qint32 node = m_rows[size_t(row)];
    const PathTreeNode &n = m_tree.nodes()[size_t(node)];
    const int triangleLeft = 4 + n.depth * kIndent;
    if (n.hasChildren && event->position().x() >= triangleLeft && event->position().x() < triangleLeft + kTriangle + 2)
        setCollapsed(node, !m_collapsed[size_t(node)]);
}

bool PathTreeView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int row = rowAt(help->pos().y());
        if (row >= 0)
            QToolTip::showText(help->globalPos(), toolTipText(m_rows[size_t(row)]), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void PathTreeView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    if (m_tree.nodes().empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(
            rect(), Qt::AlignCenter | Qt::TextWordWrap,
            tr("No critical paths to merge: the trace has no workflows, or the set or the rest is empty."));
        return;
    }
    const QRectF area = barArea();
    const double scale = scaleMs();
    const int header = headerHeight();
    const int line = fontMetrics().height();

    // Header: legend with group sizes, then a millisecond axis over the bars.
    painter.fillRect(0, 0, width(), header, palette().color(QPalette::AlternateBase));
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(QRect(6, 4, labelWidth() - 12, line), Qt::AlignLeft | Qt::AlignVCenter,
                     tr("Key path (%1)").arg(spanKeyKindKey(m_tree.keyKind())));
    const QString total = PathAttribution::targetLabel(m_tree.target());
    int x = int(area.left());
    const auto legend = [&](const QColor &colour, const QString &text) {
        painter.fillRect(QRect(x, 4 + line / 4, 12, line / 2), colour);
        x += 16;
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(QRect(x, 4, fontMetrics().horizontalAdvance(text) + 2, line), Qt::AlignVCenter, text);
        x += fontMetrics().horizontalAdvance(text) + 14;
    };
    legend(setColour(), tr("slow set (n = %1)").arg(QLocale().toString(m_tree.setN())));
    legend(restColour(), tr("rest (n = %1)").arg(QLocale().toString(m_tree.restN())));
    painter.drawText(QRect(x, 4, width() - x - 4, line), Qt::AlignVCenter,
                     tr("mean critical %1 time per workflow").arg(total));
    // Ticks: 1, 2 or 5 times a power of ten, about every 90 px.
    const double raw = scale * 90.0 / std::max(1.0, area.width());
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw <= power ? power : raw <= 2 * power ? 2 * power : raw <= 5 * power ? 5 * power : 10 * power;
    painter.setPen(palette().color(QPalette::Mid));
    for (int i = 0; i < 1000 && i * step <= scale * 1.0001; ++i) {
        const double tick = i * step;
        const double tx = area.left() + area.width() * tick / scale;
        painter.setPen(palette().color(QPalette::Mid));
        painter.drawLine(QPointF(tx, header - 4), QPointF(tx, height()));
        painter.setPen(palette().color(QPalette::Text));
        const QString label = tr("%1 ms").arg(QLocale().toString(tick, 'g', 6));
        if (tx + fontMetrics().horizontalAdvance(label) < width() - 4)
            painter.drawText(QPointF(tx + 2, header - 6), label);
    }

    painter.save();
    painter.setClipRect(0, header, width(), height() - header);
    const int first = m_scroll->value();
    const int last = std::min(int(m_rows.size()), first + (height() - header) / kRowHeight + 1);
    for (int row = first; row < last; ++row) {
        const qint32 node = m_rows[size_t(row)];
        const PathTreeNode &n = m_tree.nodes()[size_t(node)];
        const int top = header + (row - first) * kRowHeight;
        if (row % 2 == 1)
            painter.fillRect(0, top, width(), kRowHeight, palette().color(QPalette::AlternateBase));
        const int left = 4 + n.depth * kIndent;
        if (n.hasChildren) {
            const QPointF c(left + kTriangle / 2.0, top + kRowHeight / 2.0);
            QPolygonF triangle;
            if (!m_collapsed[size_t(node)])
                triangle << c + QPointF(-4, -2) << c + QPointF(4, -2) << c + QPointF(0, 3);
            else
                triangle << c + QPointF(-2, -4) << c + QPointF(3, 0) << c + QPointF(-2, 4);
            painter.setPen(Qt::NoPen);
            painter.setBrush(palette().color(QPalette::Text));
            painter.drawPolygon(triangle);
        }
        painter.setPen(palette().color(QPalette::Text));
        const QRect label(left + kTriangle + 2, top, labelWidth() - left - kTriangle - 6, kRowHeight);
        painter.drawText(label, Qt::AlignVCenter | Qt::AlignLeft,
                         fontMetrics().elidedText(n.key, Qt::ElideRight, label.width()));
        const QRectF set = setBar(node);
        const QRectF rest = restBar(node);
        painter.fillRect(set, setColour());
        painter.fillRect(rest, restColour());
        const QString numbers = tr("%1 / %2 ms").arg(msText(n.setMeanMs), msText(n.restMeanMs));
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(QRectF(area.right() + 6, top, width() - area.right() - 6, kRowHeight),
                         Qt::AlignVCenter | Qt::AlignLeft, numbers);
    }
    painter.restore();
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawLine(labelWidth(), 0, labelWidth(), height());
}
