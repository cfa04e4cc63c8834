#include "io/TraceFileLoader.h"
#include "report/ReportHtml.h"
#include "report/ReportMarkdown.h"
#include "report/SvgAxes.h"
#include "report/SvgCanvas.h"
#include "review/DesignReport.h"
#include "review/RecordDraft.h"

#include <QTest>
#include <QXmlStreamReader>

// The one-page report as a document: the record first, the figures after it
// in a fixed order, each captioned with its coordinates; what-ifs of the
// adviser workflow at the seed's numbers; the figure axes' arithmetic.
namespace {

std::shared_ptr<const TraceStore> load(const char *name)
{
    LoadResult result = TraceFileLoader::load(
        QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/") + QString::fromUtf8(name), {});
    return result.ok() ? std::move(result.store) : nullptr;
}

QStringList figureNames(const ReportDocument &document)
{
    QStringList names;
    for (const ReportFigure *figure : document.figures())
        names.append(figure->name);
    return names;
}

QStringList headings(const ReportDocument &document, int level)
{
    QStringList texts;
    for (const ReportBlock &block : document.blocks) {
        if (block.kind == ReportBlock::Kind::Heading && block.level == level)
            texts.append(block.text);
    }
    return texts;
}

bool wellFormed(const QString &svg)
{
    QXmlStreamReader xml(svg);
    while (!xml.atEnd())
        xml.readNext();
    return !xml.hasError();
}

} // namespace

class tst_DesignReport : public QObject
{
    Q_OBJECT
private slots:
    void flatTrace();
    void adviserWorkflowAndWhatIfs();
    void sliceAndDimensions();
    void cancelledStopsEarly();
    void axes_data();
    void axes();
    void canvasEscapes();
};

void tst_DesignReport::flatTrace()
{
    const auto store = load("mixed-classes.jsonl");
    QVERIFY(store);
    RecordDraft::Scope scope;
    scope.trace = QStringLiteral("mixed-classes.jsonl");
    const DiagnosisRecord record = RecordDraft::draft(*store, scope, Boundary::Client, Metric::Ttft, 0.95);
    DesignReport::Options options;
    options.trace = scope.trace;
    const ReportDocument document = DesignReport::build(record, store, options);
    QCOMPARE(document.title, QStringLiteral("Latency diagnosis: mixed-classes.jsonl"));
    QCOMPARE(document.subtitle,
             QStringLiteral("trace mixed-classes.jsonl \u00b7 slice: all requests \u00b7 target p95 "
                            "client TTFT"));
    QCOMPARE(headings(document, 2),
             QStringList({QStringLiteral("Diagnosis record"), QStringLiteral("Workload distribution"),
                          QStringLiteral("Percentiles by class"),
                          QStringLiteral("The exceedance set: requests above the p95 client TTFT")}));
    QCOMPARE(figureNames(document),
             QStringList({QStringLiteral("arrivals"), QStringLiteral("token-shape"), QStringLiteral("class-cdfs"),
                          QStringLiteral("phase-attribution"), QStringLiteral("slowest-members")}));
    for (const ReportFigure *figure : document.figures()) {
        QVERIFY2(wellFormed(figure->svg), qPrintable(figure->name));
        QVERIFY2(figure->caption.contains(QStringLiteral("trace: mixed-classes.jsonl")), qPrintable(figure->caption));
    }
    // The objectives table, exactly.
    const ReportTable *objectives = nullptr;
    const ReportTable *classes = nullptr;
    for (const ReportBlock &block : document.blocks) {
        if (block.kind == ReportBlock::Kind::Table && !objectives)
            objectives = &block.table;
        else if (block.kind == ReportBlock::Kind::Table && block.table.header.first() == QStringLiteral("region"))
            classes = &block.table;
    }
    QVERIFY(objectives && classes);
    QCOMPARE(
        objectives->rows.front(),
        QStringList({QStringLiteral("p95 client TTFT < 1,200 ms"), QStringLiteral("met"), QStringLiteral("747.1 ms"),
                     QStringLiteral("710.8\u2013788.4"), QStringLiteral("2,000"), QStringLiteral("-452.9 ms")}));
    QCOMPARE(classes->header.mid(4, 2),
             QStringList({QStringLiteral("p50 [95%] (ms)"), QStringLiteral("p90 [95%] (ms)")}));
    QCOMPARE(classes->rows.back().first(), QStringLiteral("overall"));
    QCOMPARE(classes->rows.back()[3], QStringLiteral("2,000"));
    // The phase attribution figure draws the queue's excess, the set's caption names it.
    const ReportFigure *attribution = document.figures()[3];
    QVERIFY(attribution->caption.contains(
        QStringLiteral("100 of 2,000 requests above 747.1 ms (p95 client TTFT), rest n = 1,900")));
    QVERIFY(attribution->svg.contains(QStringLiteral(">queue</text>")));
    // HTML and Markdown of the same document carry every figure.
    const QString html = ReportHtml::render(document);
    QCOMPARE(html.count(QStringLiteral("<svg ")), 5);
    const ReportMarkdown::Output md = ReportMarkdown::render(document, QStringLiteral("figs"));
    QCOMPARE(md.files.size(), size_t(5));
    QCOMPARE(md.files[2].first, QStringLiteral("figs/03-class-cdfs.svg"));
    QCOMPARE(md.files[2].second, document.figures()[2]->svg);
}

void tst_DesignReport::adviserWorkflowAndWhatIfs()
{
    const auto store = load("adviser.otlp.json");
    QVERIFY(store);
    RecordDraft::Scope scope;
    scope.trace = QStringLiteral("adviser.otlp.json");
    const DiagnosisRecord record = RecordDraft::draft(*store, scope, Boundary::Client, Metric::E2e, 0.95);
    DesignReport::Options options;
    options.trace = scope.trace;
    // The seed's what-if: the first prefill 25% shorter saves 71.25 ms.
    WhatIfEdit edit;
    QString error;
    QVERIFY(WhatIfEdit::parseScalePhase(QStringLiteral("chat@1:prefill=-25%"), &edit, &error));
    options.whatIfs = {edit};
    const ReportDocument document = DesignReport::build(record, store, options);
    QVERIFY(figureNames(document).contains(QStringLiteral("critical-path")));
    QVERIFY(figureNames(document).contains(QStringLiteral("what-if-savings")));
    const ReportTable *whatIfs = nullptr;
    for (const ReportBlock &block : document.blocks) {
        if (block.kind == ReportBlock::Kind::Table && block.table.header.first() == QStringLiteral("Change"))
            whatIfs = &block.table;
    }
    QVERIFY(whatIfs);
    QCOMPARE(whatIfs->rows.front()[2], QStringLiteral("71.25"));
    QCOMPARE(whatIfs->rows.front()[1], QStringLiteral("5,914.75"));
    // Then each span on the path 25% faster, the one with most time on it first:
    // the final answer holds 3,280 ms of the path (640 to first token + 2,640 stream).
    QCOMPARE(whatIfs->rows[1],
             QStringList({QStringLiteral("model call: final answer 25% faster"), QStringLiteral("5,166.00"),
                          QStringLiteral("820.00"), QStringLiteral("0.00")}));
}

void tst_DesignReport::sliceAndDimensions()
{
    const auto store = load("mixed-classes.jsonl");
    RecordDraft::Scope scope;
    scope.trace = QStringLiteral("mixed-classes.jsonl");
    const DiagnosisRecord record = RecordDraft::draft(*store, scope, Boundary::Client, Metric::Ttft, 0.95);
    DesignReport::Options options;
    options.trace = scope.trace;
    options.slice = QStringLiteral("first 500");
    for (qint32 row = 0; row < 500; ++row)
        options.rows.push_back(row);
    options.classDimensions = {QStringLiteral("priority"), QStringLiteral("cached_prefix")};
    const ReportDocument document = DesignReport::build(record, store, options);
    // Arrivals over time are drawn for the whole trace only.
    QCOMPARE(figureNames(document).first(), QStringLiteral("token-shape"));
    const ReportFigure *cdfs = document.figures()[1];
    QCOMPARE(cdfs->title, QStringLiteral("TTFT CDF by priority \u00d7 Cached prefix"));
    QVERIFY2(
        cdfs->caption.endsWith(QStringLiteral("n = 500 \u00b7 slice: first 500 \u00b7 trace: mixed-classes.jsonl")),
        qPrintable(cdfs->caption));
}

void tst_DesignReport::cancelledStopsEarly()
{
    const auto store = load("mixed-classes.jsonl");
    const std::atomic<bool> cancelled{true};
    const ReportDocument document = DesignReport::build(DiagnosisRecord{}, store, DesignReport::Options{}, &cancelled);
    QVERIFY(document.figures().empty());
    QCOMPARE(headings(document, 2).first(), QStringLiteral("Diagnosis record"));
}

void tst_DesignReport::axes_data()
{
    QTest::addColumn<double>("low");
    QTest::addColumn<double>("high");
    QTest::addColumn<bool>("log");
    QTest::addColumn<double>("niceLow");
    QTest::addColumn<double>("niceHigh");
    QTest::addColumn<QStringList>("labels");
    QTest::newRow("ms") << 0.0 << 747.1 << false << 0.0 << 800.0
                        << QStringList{QStringLiteral("0"), QStringLiteral("200"), QStringLiteral("400"),
                                       QStringLiteral("600"), QStringLiteral("800")};
    QTest::newRow("seconds of ms") << 0.0 << 23'400.0 << false << 0.0 << 25'000.0
                                   << QStringList{QStringLiteral("0"),   QStringLiteral("5000"), QStringLiteral("10k"),
                                                  QStringLiteral("15k"), QStringLiteral("20k"),  QStringLiteral("25k")};
    QTest::newRow("signed") << -12.0 << 410.0 << false << -100.0 << 500.0
                            << QStringList{QStringLiteral("-100"), QStringLiteral("0"),   QStringLiteral("100"),
                                           QStringLiteral("200"),  QStringLiteral("300"), QStringLiteral("400"),
                                           QStringLiteral("500")};
    QTest::newRow("log") << 3.0 << 4000.0 << true << 1.0 << 10'000.0
                         << QStringList{QStringLiteral("1"), QStringLiteral("10"), QStringLiteral("100"),
                                        QStringLiteral("1000"), QStringLiteral("10k")};
}

void tst_DesignReport::axes()
{
    QFETCH(double, low);
    QFETCH(double, high);
    QFETCH(bool, log);
    QFETCH(double, niceLow);
    QFETCH(double, niceHigh);
    QFETCH(QStringList, labels);
    const auto [from, to] = SvgAxis::niceRange(low, high, log);
    QCOMPARE(from, niceLow);
    QCOMPARE(to, niceHigh);
    const SvgAxis axis(from, to, 100.0, 500.0, log);
    QStringList texts;
    for (const double tick : axis.ticks(6))
        texts.append(SvgAxis::label(tick));
    QCOMPARE(texts, labels);
    QCOMPARE(axis.map(from), 100.0);
    QCOMPARE(axis.map(to), 500.0);
    QCOMPARE(axis.map(to * 10.0 + 1.0), 500.0); // clamped
}

void tst_DesignReport::canvasEscapes()
{
    SvgCanvas canvas(100, 50, QStringLiteral("</title><script>x</script>"));
    canvas.text(1, 2, QStringLiteral("</svg><svg onload=\"x\">"));
    canvas.rect(0, 0, 10, 10, QStringLiteral("#fff\" onclick=\"x"), QStringLiteral("<b>tip</b>"));
    const QString svg = canvas.svg();
    QVERIFY(wellFormed(svg));
    QVERIFY(svg.contains(QStringLiteral("<title>&lt;/title&gt;&lt;script&gt;x&lt;/script&gt;</title>")));
    QVERIFY(svg.contains(QStringLiteral(">&lt;/svg&gt;&lt;svg onload=&quot;x&quot;&gt;</text>")));
    QVERIFY(svg.contains(QStringLiteral("fill=\"#fff&quot; onclick=&quot;x\"")));
    QVERIFY(svg.contains(QStringLiteral("<title>&lt;b&gt;tip&lt;/b&gt;</title>")));
    QCOMPARE(SvgCanvas::elide(QStringLiteral("abcdefghijklmnopqrstuvwxyz"), 56.0, 10.0),
             QStringLiteral("abcdefgh\u2026"));
}

QTEST_GUILESS_MAIN(tst_DesignReport)
#include "tst_designreport.moc"
