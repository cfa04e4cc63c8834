// MarkLabelLayout: labels of vertical marks beside their own line, on the
// side crossing fewer other lines, a row down only when they would overlap.

#include "MarkLabelLayout.h"

#include <QTest>

using MarkLabelLayout::Mark;
using MarkLabelLayout::Placement;

Q_DECLARE_METATYPE(std::vector<Mark>)

namespace {

// "row side left..right" for each placement, for readable comparisons.
QStringList described(const std::vector<Placement> &placements)
{
    QStringList lines;
    for (const Placement &p : placements)
        lines << QStringLiteral("%1 %2 %3..%4 x%5")
                     .arg(p.row)
                     .arg(p.rightOfLine ? QStringLiteral("right") : QStringLiteral("left"))
                     .arg(p.rect.left())
                     .arg(p.rect.right())
                     .arg(p.crossings);
    return lines;
}

QStringList lines(std::initializer_list<const char *> texts)
{
    QStringList list;
    for (const char *text : texts)
        list << QLatin1String(text);
    return list;
}

} // namespace

class tst_MarkLabelLayout : public QObject
{
    Q_OBJECT
private slots:
    void place_data();
    void place();
    void rowsAreStacked();
};

void tst_MarkLabelLayout::place_data()
{
    QTest::addColumn<std::vector<Mark>>("marks");
    QTest::addColumn<int>("rows");
    QTest::addColumn<QStringList>("expected"); // row side left..right xCrossings
    // The plot spans 0..400 px.
    QTest::newRow("alone: right of its line, 3 px away")
        << std::vector<Mark>{{100, 50}} << 4 << lines({"0 right 103..153 x0"});
    QTest::newRow("no room on the right: left of its line")
        << std::vector<Mark>{{380, 50}} << 4 << lines({"0 left 327..377 x0"});
    QTest::newRow("a neighbour's line on the right: the left side crosses none")
        << std::vector<Mark>{{100, 80}, {150, 80}} << 4 << lines({"0 left 17..97 x0", "0 right 153..233 x0"});
    QTest::newRow("lines on both sides: right, crossing one; the next label a row down")
        << std::vector<Mark>{{100, 60}, {105, 60}, {110, 60}} << 4
        << lines({"0 left 37..97 x0", "0 right 108..168 x1", "1 right 113..173 x0"});
    QTest::newRow("rows run out: the last row, overlapping")
        << std::vector<Mark>{{200, 60}, {205, 60}, {210, 60}} << 1
        << lines({"0 left 137..197 x0", "0 right 208..268 x1", "0 right 213..273 x0"});
    QTest::newRow("wider than either side: over its line, inside the plot")
        << std::vector<Mark>{{200, 300}} << 4 << lines({"0 left 0..300 x0"});
}

void tst_MarkLabelLayout::place()
{
    QFETCH(std::vector<Mark>, marks);
    QFETCH(int, rows);
    QFETCH(QStringList, expected);
    QCOMPARE(described(MarkLabelLayout::place(marks, 0.0, 400.0, 10.0, 20.0, rows)), expected);
}

void tst_MarkLabelLayout::rowsAreStacked()
{
    const auto placements = MarkLabelLayout::place({{100, 60}, {105, 60}, {110, 60}}, 0.0, 400.0, 10.0, 20.0, 4);
    QCOMPARE(placements[0].rect, QRectF(37, 10, 60, 20));
    QCOMPARE(placements[2].rect, QRectF(113, 30, 60, 20));
}

QTEST_GUILESS_MAIN(tst_MarkLabelLayout)
#include "tst_marklabellayout.moc"
