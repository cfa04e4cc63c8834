// Figure export (PNG at 2x, SVG, PDF) with the coordinates in the caption,
// for every view of the main window, and table copy as TSV and Markdown with
// units in the headers.

#include "ClassTablePanel.h"
#include "ComparePanel.h"
#include "FigureExport.h"
#include "MainWindow.h"
#include "PhaseColors.h"
#include "RequestTablePanel.h"
#include "ReviewWiring.h"
#include "SpanCategoryColors.h"
#include "TableCopy.h"
#include "ViewState.h"
#include "report/FigurePalette.h"

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QPainter>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <map>

namespace {

const QString kHostile = QStringLiteral("<script>alert(1)</script> \"><img src=x onerror=alert(2)> </svg>");

// Every <text> of an SVG, concatenated per element; fails the test on XML errors.
QStringList svgTexts(const QString &path, QString *title = nullptr)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QXmlStreamReader xml(&file);
    QStringList texts;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QStringLiteral("text"))
            texts.append(xml.readElementText(QXmlStreamReader::IncludeChildElements));
        else if (xml.isStartElement() && xml.name() == QStringLiteral("title") && title && title->isEmpty())
            *title = xml.readElementText();
    }
    if (xml.hasError())
        return {QStringLiteral("XML ERROR: ") + xml.errorString()};
    return texts;
}

int countElements(const QString &path, const QString &name)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    QXmlStreamReader xml(&file);
    int count = 0;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == name)
            ++count;
    }
    return count;
}

// A figure of known content: white, a red square at (20, 10) 30x30, a label.
void paintTestFigure(QPainter &painter, const QSize &)
{
    painter.fillRect(QRect(20, 10, 30, 30), QColor(0xff, 0x00, 0x00));
    painter.setPen(Qt::black);
    painter.drawText(QPoint(60, 30), QStringLiteral("figure label 42"));
}

const FigureCaption kCaption{QStringLiteral("TTFT distribution"),
                             {QStringLiteral("client boundary"), QStringLiteral("p95"), QStringLiteral("n = 2,000"),
                              QStringLiteral("slice: all requests"), QStringLiteral("trace: example.jsonl")}};

const QStringList kComparisonFigures{QStringLiteral("Comparison CDFs"), QStringLiteral("Phase Shift"),
                                     QStringLiteral("Comparison Table"), QStringLiteral("Comparison Verdict")};

QString pdfText(const QString &pdftotext, const QString &path)
{
    QProcess process;
    process.start(pdftotext, {path, QStringLiteral("-")});
    if (!process.waitForFinished(30'000) || process.exitCode() != 0)
        return QStringLiteral("PDFTOTEXT FAILED");
    // pdftotext spells the "ff", "fi" and "fl" ligatures as one character.
    return QString::fromUtf8(process.readAllStandardOutput())
        .replace(QChar(0xFB00), QStringLiteral("ff"))
        .replace(QChar(0xFB01), QStringLiteral("fi"))
        .replace(QChar(0xFB02), QStringLiteral("fl"));
}

// Captions wrap at spaces and hyphens: texts compare without white space.
QString squeezed(QString text)
{
    return text.remove(QRegularExpression(QStringLiteral("\\s+")));
}

} // namespace

class tst_FigureExport : public QObject
{
    Q_OBJECT
private slots:
    void pngAtTwiceThePixels();
    void svgParsesWithCaptionEscaped();
    void pdfHasTheCaptionText();
    void unknownSuffixRefused();
    void everyViewOfTheWindowExports();
    void comparisonFiguresCarryTheirCoordinates();
    void tableCopyUnitsInHeaders();
    void tableCopySelectionAndKeys();
    void tableCopyMarkdownEscapes();
    void requestTableCopies();
    void tableExportFiles();
    void everyAnalysisTableExports();
    void reportColoursMatchTheViews();
};

void tst_FigureExport::pngAtTwiceThePixels()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("f.png"));
    QString error;
    QVERIFY2(FigureExport::write(path, QSize(300, 100), paintTestFigure, kCaption, &error), qPrintable(error));
    QImage image(path);
    const int band = FigureExport::captionHeight(kCaption, 300);
    QVERIFY(band > 20);
    QCOMPARE(image.size(), QSize(600, 2 * (100 + band)));
    // The red square, at twice its coordinates below the caption band.
    QCOMPARE(image.pixelColor(2 * 35, 2 * (band + 25)), QColor(0xff, 0x00, 0x00));
    QCOMPARE(image.pixelColor(2 * 15, 2 * (band + 25)), QColor(Qt::white));
    // The caption band holds dark text pixels.
    int dark = 0;
    for (int y = 0; y < 2 * band; ++y) {
        for (int x = 0; x < 600; ++x)
            dark += image.pixelColor(x, y).lightness() < 100 ? 1 : 0;
    }
    QVERIFY2(dark > 200, qPrintable(QString::number(dark)));
    QCOMPARE(image.text(QStringLiteral("Description")), kCaption.line());
}

void tst_FigureExport::svgParsesWithCaptionEscaped()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("f.svg"));
    FigureCaption caption = kCaption;
    caption.title = QStringLiteral("Span ") + kHostile;
    QString error;
    QVERIFY2(FigureExport::write(path, QSize(400, 120), paintTestFigure, caption, &error), qPrintable(error));
    QString title;
    const QStringList texts = svgTexts(path, &title);
    QVERIFY2(!texts.isEmpty() && !texts.first().startsWith(QStringLiteral("XML ERROR")), qPrintable(texts.join(u'|')));
    const QString all = texts.join(QLatin1Char(' '));
    QVERIFY2(all.contains(QStringLiteral("figure label 42")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("n = 2,000")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("<script>alert(1)</script>")), qPrintable(all));
    QCOMPARE(title, caption.title);
    // Text only: no element came out of the hostile string.
    QCOMPARE(countElements(path, QStringLiteral("script")), 0);
    QCOMPARE(countElements(path, QStringLiteral("img")), 0);
}

void tst_FigureExport::pdfHasTheCaptionText()
{
    const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    if (pdftotext.isEmpty())
        QSKIP("pdftotext (poppler-utils) is not installed");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("f.pdf"));
    QString error;
    QVERIFY2(FigureExport::write(path, QSize(500, 150), paintTestFigure, kCaption, &error), qPrintable(error));
    QProcess process;
    process.start(pdftotext, {path, QStringLiteral("-")});
    QVERIFY(process.waitForFinished(30'000));
    QCOMPARE(process.exitCode(), 0);
    // pdftotext spells the "fi" ligature as one character.
    const QString text
        = QString::fromUtf8(process.readAllStandardOutput()).replace(QChar(0xFB01), QStringLiteral("fi"));
    QVERIFY2(text.contains(QStringLiteral("TTFT distribution")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("trace: example.jsonl")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("figure label 42")), qPrintable(text));
}

void tst_FigureExport::unknownSuffixRefused()
{
    QString error;
    QVERIFY(!FigureExport::write(QStringLiteral("/tmp/x.gif"), QSize(10, 10), paintTestFigure, kCaption, &error));
    QCOMPARE(error, QStringLiteral("/tmp/x.gif: choose a .png, .svg or .pdf file"));
}

void tst_FigureExport::everyViewOfTheWindowExports()
{
    MainWindow window;
    window.setPersistent(false);
    window.resize(1600, 1000);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::loadFinished);
    window.openFile(QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/mixed-classes.jsonl"));
    QVERIFY(loaded.wait(20'000));
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30'000);
    const std::vector<FigureSource> &figures = window.review()->figures();
    QStringList names;
    for (const FigureSource &source : figures)
        names.append(source.name);
    QCOMPARE(
        names,
        QStringList({QStringLiteral("Swimlanes"), QStringLiteral("Request Timeline"), QStringLiteral("Distribution"),
                     QStringLiteral("Class CDFs"), QStringLiteral("Set vs Rest"), QStringLiteral("Phase Attribution"),
                     QStringLiteral("Exceedance Member Timeline"), QStringLiteral("Workflow Gantt"),
                     QStringLiteral("What-If"), QStringLiteral("Comparison CDFs"), QStringLiteral("Phase Shift"),
                     QStringLiteral("Comparison Table"), QStringLiteral("Comparison Verdict")}));
    // The File menu lists them all.
    auto *menu = window.findChild<QMenu *>(QStringLiteral("exportFigureMenu"));
    QVERIFY(menu);
    QCOMPARE(menu->actions().size(), int(figures.size()));

    QTemporaryDir dir;
    // To look at the figures: TRACELANE_KEEP_FIGURES=1 keeps them (path printed).
    if (qEnvironmentVariableIsSet("TRACELANE_KEEP_FIGURES")) {
        dir.setAutoRemove(false);
        qInfo("figures in %s", qPrintable(dir.path()));
        for (const FigureSource &source : figures) {
            QString ignored;
            FigureExport::write(dir.filePath(source.name + QStringLiteral(".png")), source, &ignored);
        }
    }
    for (const FigureSource &source : figures) {
        const QString path = dir.filePath(source.name + QStringLiteral(".svg"));
        QString error;
        QVERIFY2(FigureExport::write(path, source, &error), qPrintable(source.name + QStringLiteral(": ") + error));
        const QStringList texts = svgTexts(path);
        const QString all = texts.join(QLatin1Char(' '));
        QVERIFY2(!all.startsWith(QStringLiteral("XML ERROR")), qPrintable(source.name + all));
        if (kComparisonFigures.contains(source.name)) {
            // No candidate yet: the caption says so instead of naming coordinates.
            QVERIFY2(QString(all).remove(QLatin1Char(' ')).contains(QStringLiteral("nocomparison")),
                     qPrintable(source.name + all));
            continue;
        }
        // Captions wrap (also at hyphens): compare without white space.
        QVERIFY2(QString(all).remove(QLatin1Char(' ')).contains(QStringLiteral("trace:mixed-classes.jsonl")),
                 qPrintable(source.name + all));
        QVERIFY2(all.contains(QStringLiteral("slice: all requests")), qPrintable(source.name));
    }
    const auto text = [&](const QString &name) {
        return svgTexts(dir.filePath(name + QStringLiteral(".svg"))).join(QLatin1Char(' '));
    };
    QVERIFY(text(QStringLiteral("Swimlanes")).contains(QStringLiteral("n = 2,000 lanes")));
    QVERIFY(text(QStringLiteral("Distribution")).contains(QStringLiteral("TTFT at the client boundary (ms)")));
    QVERIFY(text(QStringLiteral("Distribution")).contains(QStringLiteral("n = 2,000")));
    QVERIFY(text(QStringLiteral("Class CDFs")).contains(QStringLiteral("p50\u2013p99 markers")));
    QVERIFY(text(QStringLiteral("Set vs Rest")).contains(QStringLiteral("above p95")));
    // The plots are drawn as vectors: their tick labels are SVG text, no raster image.
    QVERIFY(text(QStringLiteral("Distribution")).contains(QStringLiteral("TTFT (ms)")));
    QCOMPARE(countElements(dir.filePath(QStringLiteral("Distribution.svg")), QStringLiteral("image")), 0);
    QCOMPARE(countElements(dir.filePath(QStringLiteral("Class CDFs.svg")), QStringLiteral("image")), 0);
    // PNG of a plot at 2x.
    const FigureSource &distribution = figures[2];
    const QString png = dir.filePath(QStringLiteral("distribution.png"));
    QString error;
    QVERIFY(FigureExport::write(png, distribution, &error));
    const QSize plot = distribution.widget()->size();
    QCOMPARE(QImage(png).size(),
             QSize(2 * plot.width(),
                   2 * (plot.height() + FigureExport::captionHeight(distribution.caption(), plot.width()))));
}

// The Compare dock's figures: the CDF overlay, the phase shift bars, the
// difference table and the verdict, each with the comparison's coordinates
// (metric, boundary, target percentile, SLO, n of each side, both traces).
void tst_FigureExport::comparisonFiguresCarryTheirCoordinates()
{
    MainWindow window;
    window.setPersistent(false);
    window.resize(1600, 1000);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::loadFinished);
    window.openFile(QStringLiteral(TRACELANE_TEST_DATA_DIR "/compare/baseline.jsonl"));
    QVERIFY(loaded.wait(20'000));
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30'000);
    ComparePanel *compare = window.comparePanel();
    QSignalSpy ready(compare, &ComparePanel::comparisonReady);
    window.compareWith(QStringLiteral(TRACELANE_TEST_DATA_DIR "/compare/candidate.jsonl"));
    QVERIFY(ready.wait(30'000));
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30'000);
    ready.clear();
    compare->setSloMs(250.0);
    QVERIFY(ready.wait(30'000));
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30'000);

    const QString coordinates = QStringLiteral(
        "TTFT at the client boundary (ms) \u00b7 target p95 \u00b7 SLO 250.0 ms \u00b7 by region \u00b7 "
        "n = 600 baseline, 600 candidate \u00b7 whole traces \u00b7 baseline: baseline.jsonl \u00b7 "
        "candidate: candidate.jsonl");
    const std::map<QString, QString> titles{
        {QStringLiteral("Comparison CDFs"), QStringLiteral("TTFT CDF: baseline (dashed) vs candidate (solid)")},
        {QStringLiteral("Phase Shift"),
         QStringLiteral("Phase shift: mean change per phase, candidate \u2212 baseline")},
        {QStringLiteral("Comparison Table"), QStringLiteral("Difference at the target percentile: the change worked")},
        {QStringLiteral("Comparison Verdict"), QStringLiteral("Stop rule and workload: the change worked")}};
    const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    QTemporaryDir dir;
    // To look at the figures: TRACELANE_KEEP_FIGURES=1 keeps them (path printed).
    if (qEnvironmentVariableIsSet("TRACELANE_KEEP_FIGURES")) {
        dir.setAutoRemove(false);
        qInfo("figures in %s", qPrintable(dir.path()));
        for (const FigureSource &source : window.review()->figures()) {
            QString ignored;
            if (kComparisonFigures.contains(source.name))
                FigureExport::write(dir.filePath(source.name + QStringLiteral(".png")), source, &ignored);
        }
    }
    int seen = 0;
    for (const FigureSource &source : window.review()->figures()) {
        if (!kComparisonFigures.contains(source.name))
            continue;
        ++seen;
        const FigureCaption caption = source.caption();
        QCOMPARE(caption.title, titles.at(source.name));
        QCOMPARE(caption.line(), coordinates);
        const QString svg = dir.filePath(source.name + QStringLiteral(".svg"));
        QString error;
        QVERIFY2(FigureExport::write(svg, source, &error), qPrintable(source.name + QStringLiteral(": ") + error));
        const QString all = svgTexts(svg).join(QLatin1Char(' '));
        QVERIFY2(!all.startsWith(QStringLiteral("XML ERROR")), qPrintable(source.name + all));
        QVERIFY2(squeezed(all).contains(squeezed(caption.title)), qPrintable(source.name + all));
        QVERIFY2(squeezed(all).contains(squeezed(coordinates)), qPrintable(source.name + all));
        if (pdftotext.isEmpty())
            continue;
        const QString pdf = dir.filePath(source.name + QStringLiteral(".pdf"));
        QVERIFY2(FigureExport::write(pdf, source, &error), qPrintable(source.name + QStringLiteral(": ") + error));
        const QString text = squeezed(pdfText(pdftotext, pdf));
        QVERIFY2(text.contains(squeezed(caption.title)), qPrintable(source.name + text));
        QVERIFY2(text.contains(squeezed(QStringLiteral("n = 600 baseline, 600 candidate"))),
                 qPrintable(source.name + text));
        QVERIFY2(text.contains(squeezed(QStringLiteral("candidate: candidate.jsonl"))), qPrintable(source.name + text));
    }
    QCOMPARE(seen, 4);
    // The figures themselves, drawn whole even from tabs not in front.
    const auto figureText = [&](const QString &name) {
        return svgTexts(dir.filePath(name + QStringLiteral(".svg"))).join(QLatin1Char(' '));
    };
    QVERIFY2(
        figureText(QStringLiteral("Phase Shift"))
            .contains(QStringLiteral("Mean TTFT change by phase: -73.4 ms in all (baseline 314.8 ms \u2192 candidate "
                                     "241.4 ms)")),
        qPrintable(figureText(QStringLiteral("Phase Shift"))));
    QVERIFY(figureText(QStringLiteral("Phase Shift")).contains(QStringLiteral("-75.2 ms (moved most)")));
    QVERIFY(figureText(QStringLiteral("Comparison Verdict")).contains(QStringLiteral("Stop rule: the change worked")));
    QVERIFY(figureText(QStringLiteral("Comparison Verdict")).contains(QStringLiteral("Workload check")));
    QVERIFY(figureText(QStringLiteral("Comparison Table")).contains(QStringLiteral("-443.2 [-527.7, -358.7]")));
    QVERIFY(
        figureText(QStringLiteral("Comparison CDFs")).contains(QStringLiteral("overall \u00b7 candidate (n = 600)")));
    // The CDF overlay stays a vector figure: its axis labels are SVG text.
    QVERIFY(svgTexts(dir.filePath(QStringLiteral("Comparison CDFs.svg"))).join(u' ').contains(QStringLiteral("TTFT")));
    QCOMPARE(countElements(dir.filePath(QStringLiteral("Comparison CDFs.svg")), QStringLiteral("image")), 0);
}

void tst_FigureExport::tableCopyUnitsInHeaders()
{
    QStandardItemModel model(3, 4);
    model.setHorizontalHeaderLabels(
        {QStringLiteral("Request"), QStringLiteral("TTFT (client)"), QStringLiteral("ITL"), QStringLiteral("Share")});
    const QStringList rows[] = {
        {QStringLiteral("a"), QStringLiteral("1,234.5 ms"), QStringLiteral("20.1 ms/token"), QStringLiteral("50%")},
        {QStringLiteral("b"), QStringLiteral("\u2014"), QStringLiteral("19.0 ms/token"), QStringLiteral("25%")},
        {QStringLiteral("c"), QStringLiteral("12.0 ms"), QStringLiteral("18.5 ms/token"), QStringLiteral("n/a")},
    };
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 4; ++c)
            model.setItem(r, c, new QStandardItem(rows[r][c]));
    }
    QTableView view;
    view.setModel(&model);
    const TableCopy::Grid grid = TableCopy::grid(&view);
    QCOMPARE(TableCopy::tsv(grid),
             QStringLiteral("Request\tTTFT (client) [ms]\tITL [ms/token]\tShare [%]\n"
                            "a\t1,234.5\t20.1\t50\n"
                            "b\t\u2014\t19.0\t25\n"
                            "c\t12.0\t18.5\tn/a\n"));
    // Brackets are escaped so trace text can never form a link.
    QCOMPARE(TableCopy::markdown(grid),
             QStringLiteral("| Request | TTFT (client) \\[ms\\] | ITL \\[ms/token\\] | Share \\[%\\] |\n"
                            "| --- | ---: | ---: | ---: |\n"
                            "| a | 1,234.5 | 20.1 | 50 |\n"
                            "| b | \u2014 | 19.0 | 25 |\n"
                            "| c | 12.0 | 18.5 | n/a |\n"));
    // A column whose cells do not all carry the unit keeps them.
    model.item(2, 1)->setText(QStringLiteral("slow"));
    QCOMPARE(TableCopy::grid(&view).header[1], QStringLiteral("TTFT (client)"));
    QCOMPARE(TableCopy::grid(&view).rows[0][1], QStringLiteral("1,234.5 ms"));
}

void tst_FigureExport::tableCopySelectionAndKeys()
{
    QStandardItemModel model(4, 3);
    model.setHorizontalHeaderLabels({QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C")});
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 3; ++c)
            model.setItem(r, c, new QStandardItem(QStringLiteral("%1%2").arg(QChar(u'a' + c)).arg(r)));
    }
    QTableView view;
    view.setModel(&model);
    view.setColumnHidden(1, true);
    TableCopy::install(&view);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.selectionModel()->select(QItemSelection(model.index(1, 0), model.index(2, 2)), QItemSelectionModel::Select);
    view.setFocus();
    QApplication::clipboard()->clear();
    QTest::keySequence(&view, QKeySequence::Copy);
    // Rows 1-2, the hidden column left out.
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("A\tC\na1\tc1\na2\tc2\n"));
    // The context menu offers both.
    QStringList actions;
    for (const QAction *action : view.actions())
        actions.append(action->text());
    QCOMPARE(actions,
             QStringList(
                 {QStringLiteral("Copy"), QStringLiteral("Copy as Markdown"), QStringLiteral("Export Table\u2026")}));
    QCOMPARE(view.contextMenuPolicy(), Qt::ActionsContextMenu);
    view.actions()[1]->trigger();
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("| A | C |\n| --- | --- |\n| a1 | c1 |\n| a2 | c2 |\n"));
}

void tst_FigureExport::tableCopyMarkdownEscapes()
{
    TableCopy::Grid grid;
    grid.header = {QStringLiteral("span")};
    grid.rows = {{kHostile}, {QStringLiteral("a | b *c* [d](e)")}, {QStringLiteral("# heading")}};
    const QString markdown = TableCopy::markdown(grid);
    QCOMPARE(markdown,
             QStringLiteral("| span |\n| --- |\n"
                            "| &lt;script&gt;alert(1)&lt;/script&gt; &quot;&gt;&lt;img src=x onerror=alert(2)&gt; "
                            "&lt;/svg&gt; |\n"
                            "| a \\| b \\*c\\* \\[d\\](e) |\n"
                            "| # heading |\n"));
}

void tst_FigureExport::requestTableCopies()
{
    MainWindow window;
    window.setPersistent(false);
    window.resize(1600, 1000);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::loadFinished);
    window.openFile(QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/burst.jsonl"));
    QVERIFY(loaded.wait(20'000));
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30'000);
    QTableView *view = window.requestTable()->findChild<QTableView *>();
    QVERIFY(view);
    QCOMPARE(view->contextMenuPolicy(), Qt::ActionsContextMenu);
    const TableCopy::Grid grid = TableCopy::grid(view);
    QCOMPARE(grid.rows.size(), size_t(10));
    QVERIFY2(std::find(grid.header.begin(), grid.header.end(), QStringLiteral("TTFT (client) [ms]"))
                 != grid.header.end(),
             qPrintable(QStringList(grid.header.begin(), grid.header.end()).join(u'|')));
}

void tst_FigureExport::tableExportFiles()
{
    TableCopy::Grid grid;
    grid.header = {QStringLiteral("Request"), QStringLiteral("region"), QStringLiteral("TTFT (client) [ms]")};
    grid.rows = {{QStringLiteral("req-1"), QStringLiteral("eu, \"west\""), QStringLiteral("1,234.5")},
                 {QStringLiteral("=HYPERLINK(\"http://x\")"), QStringLiteral("@SUM(A1)"), QStringLiteral("-12.5")},
                 {QStringLiteral("+1-2"), QStringLiteral("-"), QStringLiteral("\u2014")}};
    // Formulas from trace text are defused; numbers (negative ones too) are not.
    QCOMPARE(TableCopy::csv(grid),
             QStringLiteral("Request,region,TTFT (client) [ms]\r\n"
                            "req-1,\"eu, \"\"west\"\"\",1234.5\r\n"
                            "\"'=HYPERLINK(\"\"http://x\"\")\",'@SUM(A1),-12.5\r\n"
                            "'+1-2,-,\u2014\r\n"));
    QCOMPARE(TableCopy::tsv(grid),
             QStringLiteral("Request\tregion\tTTFT (client) [ms]\n"
                            "req-1\teu, \"west\"\t1,234.5\n"
                            "'=HYPERLINK(\"http://x\")\t'@SUM(A1)\t-12.5\n"
                            "'+1-2\t-\t\u2014\n"));
    QTemporaryDir dir;
    QString error;
    for (const char *name : {"t.csv", "t.tsv", "t.md"}) {
        const QString path = dir.filePath(QString::fromLatin1(name));
        QVERIFY2(TableCopy::write(grid, path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        const QString expected = path.endsWith(QStringLiteral(".csv")) ? TableCopy::csv(grid)
            : path.endsWith(QStringLiteral(".tsv"))                    ? TableCopy::tsv(grid)
                                                                       : TableCopy::markdown(grid);
        QCOMPARE(text, expected);
    }
    QVERIFY(!TableCopy::write(grid, dir.filePath(QStringLiteral("t.xlsx")), &error));
    QCOMPARE(error,
             QStringLiteral("%1: a table is written as .csv, .tsv or .md").arg(dir.filePath(QStringLiteral("t.xlsx"))));
}

// The tables a presenter takes out: requests, classes, the exceedance
// member and its set's attribution and rankings, the comparison.
void tst_FigureExport::everyAnalysisTableExports()
{
    MainWindow window;
    window.setPersistent(false);
    window.resize(1600, 1000);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::loadFinished);
    window.openFile(QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/mixed-classes.jsonl"));
    QVERIFY(loaded.wait(20'000));
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30'000);
    for (const char *name : {"requestTable", "classTableView", "memberComparison", "phaseAttribution",
                             "attributeRanking", "phaseRanking", "compareTableView"}) {
        auto *view = window.findChild<QTableView *>(QString::fromLatin1(name));
        QVERIFY2(view, name);
        QStringList actions;
        for (const QAction *action : view->actions())
            actions.append(action->text());
        QVERIFY2(actions.contains(QStringLiteral("Copy")) && actions.contains(QStringLiteral("Copy as Markdown"))
                     && actions.contains(QStringLiteral("Export Table\u2026")),
                 qPrintable(QString::fromLatin1(name) + QLatin1Char(':') + actions.join(u',')));
    }
    // The class table as a file: one row per region, units in the header.
    auto *classes = window.findChild<QTableView *>(QStringLiteral("classTableView"));
    const TableCopy::Grid grid = TableCopy::grid(classes);
    QCOMPARE(grid.rows.size(), size_t(classes->model()->rowCount()));
    QVERIFY(grid.rows.size() >= 3);
    const QString csv = TableCopy::csv(grid);
    QVERIFY2(csv.startsWith(QStringLiteral("region,Requests,Share [%],n,\"p50 [95% CI], ms\",")), qPrintable(csv));
    QVERIFY2(csv.contains(QStringLiteral("\r\neu-west,974,48.7,974,79.7 [77.1\u201382.8],")), qPrintable(csv));
    QVERIFY2(csv.contains(QStringLiteral("\r\noverall,2000,100.0,2000,")), qPrintable(csv));
    QTemporaryDir dir;
    QString error;
    QVERIFY2(TableCopy::write(grid, dir.filePath(QStringLiteral("classes.csv")), &error), qPrintable(error));
    QFile file(dir.filePath(QStringLiteral("classes.csv")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(file.readAll()).count(QStringLiteral("\r\n")), qsizetype(grid.rows.size() + 1));
}

void tst_FigureExport::reportColoursMatchTheViews()
{
    // The report's figures repeat the views' colours (model/ has no QColor).
    for (const Phase phase : kAllPhases)
        QCOMPARE(QColor(FigurePalette::phase(phase)), PhaseColors::of(phase));
    QCOMPARE(QColor(FigurePalette::residual()), PhaseColors::residual());
    for (int i = 0; i < kSpanCategoryCount; ++i) {
        const auto category = static_cast<SpanCategory>(i);
        QCOMPARE(QColor(FigurePalette::category(category)), SpanCategoryColors::of(category));
    }
    QCOMPARE(QColor(FigurePalette::criticalPath()), SpanCategoryColors::criticalPath());
}

QTEST_MAIN(tst_FigureExport)
#include "tst_figureexport.moc"
