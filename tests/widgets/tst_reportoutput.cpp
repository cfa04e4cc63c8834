// The one-page report end to end: tracelane-cli writes it as HTML, PDF and
// Markdown for the bundled examples (the record, then its figures), the GUI
// writes it off the GUI thread, and a report built from hostile trace text
// stays inert in a real browser (headless Chromium).

#include "ClassTablePanel.h"
#include "MainWindow.h"
#include "RecordPanel.h"
#include "RequestTablePanel.h"
#include "ReviewWiring.h"
#include "SessionController.h"
#include "ViewState.h"
#include "WhatIfPanel.h"
#include "WorkflowPanel.h"
#include "analysis/workflows/WorkflowAnalysis.h"

#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

namespace {

QString example(const char *name)
{
    return QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/") + QString::fromUtf8(name);
}

QString hostile(const char *name)
{
    return QStringLiteral(TRACELANE_TEST_DATA_DIR "/hostile/") + QString::fromUtf8(name);
}

// Runs tracelane-cli; returns its exit code, stdout in `out`.
int cli(const QStringList &arguments, QString *out = nullptr)
{
    QProcess process;
    process.start(QStringLiteral(TRACELANE_CLI_PATH), arguments);
    if (!process.waitForFinished(120'000))
        return -1;
    if (out)
        *out = QString::fromUtf8(process.readAllStandardOutput());
    if (process.exitCode() != 0)
        qWarning("%s", process.readAllStandardError().constData());
    return process.exitCode();
}

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

QString pdfText(const QString &path)
{
    QProcess process;
    process.start(QStandardPaths::findExecutable(QStringLiteral("pdftotext")),
                  {QStringLiteral("-layout"), path, QStringLiteral("-")});
    process.waitForFinished(60'000);
    // pdftotext spells the "fi" ligature as one character.
    return QString::fromUtf8(process.readAllStandardOutput()).replace(QChar(0xFB01), QStringLiteral("fi"));
}

// Whitespace collapsed, so text wrapped by the PDF layout still matches.
QString flat(QString text)
{
    static const QRegularExpression space(QStringLiteral("\\s+"));
    return text.replace(space, QStringLiteral(" "));
}

QString chromium()
{
    return QStandardPaths::findExecutable(QStringLiteral("chromium"));
}

// The DOM headless Chromium builds from `path` after running the page.
QString dumpDomOnce(const QString &path, const QString &profile)
{
    QProcess process;
    process.start(chromium(),
                  {QStringLiteral("--headless"), QStringLiteral("--no-sandbox"), QStringLiteral("--disable-gpu"),
                   QStringLiteral("--disable-background-networking"), QStringLiteral("--disable-component-update"),
                   QStringLiteral("--disable-sync"), QStringLiteral("--no-first-run"),
                   QStringLiteral("--user-data-dir=") + profile, QStringLiteral("--virtual-time-budget=2000"),
                   QStringLiteral("--dump-dom"), QUrl::fromLocalFile(path).toString()});
    if (!process.waitForFinished(120'000)) {
        process.kill();
        return {};
    }
    return QString::fromUtf8(process.readAllStandardOutput());
}

// A headless Chromium started on a machine busy with builds sometimes never
// answers (seen in CI at load 10): one more try with a fresh profile before
// the test fails on an empty page.
QString dumpDom(const QString &path, const QString &profile)
{
    const QString dom = dumpDomOnce(path, profile);
    if (!dom.isEmpty())
        return dom;
    QTemporaryDir again;
    return dumpDomOnce(path, again.path());
}

bool isXml(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    QXmlStreamReader xml(&file);
    while (!xml.atEnd())
        xml.readNext();
    *error = xml.errorString();
    return !xml.hasError();
}

} // namespace

class tst_ReportOutput : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void htmlOfTheExample();
    void pdfOfTheExample();
    void markdownWithFiguresBeside();
    void adviserWorkflow();
    void refusesUnknownFormat();
    void guiExportsOffTheGuiThread();
    void reportOfASessionIsTheGuiReport_data();
    void reportOfASessionIsTheGuiReport();
    void reportOfAChangedSessionFails();
    void hostileTextInertInChromium_data();
    void hostileTextInertInChromium();
    void hostileTextInMarkdownAndPdf();

private:
    QTemporaryDir m_dir;
};

void tst_ReportOutput::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void tst_ReportOutput::htmlOfTheExample()
{
    const QString path = m_dir.filePath(QStringLiteral("mixed.html"));
    QString out;
    QCOMPARE(cli({QStringLiteral("report"), example("mixed-classes.jsonl"), QStringLiteral("--out"), path}, &out), 0);
    QCOMPARE(out, QStringLiteral("wrote %1 (5 figures)\n").arg(path));
    const QString html = readText(path);
    // The record comes first, then its figures, each with its coordinates.
    const qsizetype record = html.indexOf(QStringLiteral("<h2>Diagnosis record</h2>"));
    const qsizetype classes = html.indexOf(QStringLiteral("<h2>Percentiles by class</h2>"));
    QVERIFY(record > 0 && classes > record);
    QVERIFY(
        html.contains(QStringLiteral("<td>p95 client TTFT &lt; 1,200 ms</td><td>met</td><td class=\"num\">747.1 ms</td>"
                                     "<td class=\"num\">710.8\u2013788.4</td><td class=\"num\">2,000</td>")));
    QCOMPARE(html.count(QStringLiteral("<svg ")), 5);
    QCOMPARE(html.count(QStringLiteral("<figcaption>")), 5);
    QVERIFY(html.contains(QStringLiteral("<figcaption><b>Figure 3. TTFT CDF by region.</b> TTFT at the client boundary "
                                         "(ms) \u00b7 p50, p90, p95, p99 of the overall marked \u00b7 n = 2,000 \u00b7 "
                                         "slice: all requests \u00b7 trace: mixed-classes.jsonl</figcaption>")));
    QVERIFY(html.contains(QStringLiteral("<figcaption><b>Figure 4. Phase attribution of the exceedance set.</b>")));
    // Self-contained: no script, no reference outside the file.
    QVERIFY(!html.contains(QStringLiteral("<script"), Qt::CaseInsensitive));
    QVERIFY(!html.contains(QStringLiteral("<link"), Qt::CaseInsensitive));
    QVERIFY(!html.contains(QStringLiteral("src="), Qt::CaseInsensitive));
    QCOMPARE(html.count(QStringLiteral("http")),
             html.count(QStringLiteral("http://www.w3.org/2000/svg")) + html.count(QStringLiteral("http-equiv")));
}

void tst_ReportOutput::pdfOfTheExample()
{
    if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
        QSKIP("pdftotext (poppler-utils) is not installed");
    const QString path = m_dir.filePath(QStringLiteral("mixed.pdf"));
    QCOMPARE(cli({QStringLiteral("report"), example("mixed-classes.jsonl"), QStringLiteral("--out"), path}), 0);
    const QString text = flat(pdfText(path));
    QVERIFY2(text.contains(QStringLiteral("Latency diagnosis: mixed-classes.jsonl")), qPrintable(text.left(400)));
    QVERIFY(text.contains(QStringLiteral("Diagnosis record")));
    QVERIFY(text.contains(QStringLiteral("p95 client TTFT < 1,200 ms met 747.1 ms 710.8\u2013788.4 2,000")));
    QVERIFY(text.contains(QStringLiteral("Figure 3. TTFT CDF by region.")));
    // Figures are vectors: their axis titles are text in the PDF.
    QVERIFY2(text.contains(QStringLiteral("eu-west (n = 974)")), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("time since client send (ms)")));
    QVERIFY(text.contains(QStringLiteral("Tracelane \u00b7 page 1")));
}

void tst_ReportOutput::markdownWithFiguresBeside()
{
    const QString path = m_dir.filePath(QStringLiteral("mixed.md"));
    QCOMPARE(cli({QStringLiteral("report"), example("mixed-classes.jsonl"), QStringLiteral("--out"), path}), 0);
    const QString md = readText(path);
    QVERIFY(md.startsWith(QStringLiteral("# Latency diagnosis: mixed\\-classes.jsonl\n"))
            || md.startsWith(QStringLiteral("# Latency diagnosis: mixed-classes.jsonl\n")));
    const QStringList figures
        = QDir(m_dir.filePath(QStringLiteral("mixed_figures"))).entryList(QDir::Files, QDir::Name);
    QCOMPARE(figures,
             QStringList({QStringLiteral("01-arrivals.svg"), QStringLiteral("02-token-shape.svg"),
                          QStringLiteral("03-class-cdfs.svg"), QStringLiteral("04-phase-attribution.svg"),
                          QStringLiteral("05-slowest-members.svg")}));
    QVERIFY(md.contains(QStringLiteral("![TTFT CDF by region](mixed_figures/03-class-cdfs.svg)")));
    QVERIFY(md.contains(QStringLiteral("| p95 client TTFT &lt; 1,200 ms | met | 747.1 ms |")));
    for (const QString &figure : figures) {
        QString error;
        QVERIFY2(isXml(m_dir.filePath(QStringLiteral("mixed_figures/") + figure), &error), qPrintable(figure + error));
    }
    QVERIFY(readText(m_dir.filePath(QStringLiteral("mixed_figures/03-class-cdfs.svg")))
                .contains(QStringLiteral(">eu-west (n = 974)</text>")));
}

void tst_ReportOutput::adviserWorkflow()
{
    const QString path = m_dir.filePath(QStringLiteral("adviser.html"));
    QCOMPARE(cli({QStringLiteral("report"), example("adviser.otlp.json"), QStringLiteral("--out"), path}), 0);
    const QString html = readText(path);
    QVERIFY(html.contains(QStringLiteral("<h2>Critical path and what-ifs</h2>")));
    QVERIFY(
        html.contains(QStringLiteral("<b>Figure 4. Critical path of the slowest workflow.</b> client boundary \u00b7 "
                                     "workflow 4d7f2c6a9b1e4f0a8c3d5e6f7a8b9c0d: E2E 5.99 s, client TTFT 1.55 s")));
    QVERIFY(html.contains(QStringLiteral("<b>Figure 5. What each change would save.</b>")));
    // The record's suspect is the final answer's stream on the critical path,
    // and scaling that span by 0.75 saves a quarter of its 3,280 ms on the path.
    QVERIFY(html.contains(QStringLiteral("<dt>Suspected phase</dt><dd>model call: final answer \u00b7 stream (from the "
                                         "critical path of the slowest workflow)</dd>")));
    QVERIFY2(html.contains(QStringLiteral("<td>model call: final answer 25% faster</td><td class=\"num\">5,166.00</td>"
                                          "<td class=\"num\">820.00</td>")),
             qPrintable(html.mid(html.indexOf(QStringLiteral("<h2>Critical path")), 1500)));
}

void tst_ReportOutput::refusesUnknownFormat()
{
    QCOMPARE(cli({QStringLiteral("report"), example("burst.jsonl"), QStringLiteral("--out"),
                  m_dir.filePath(QStringLiteral("r.doc"))}),
             2);
    QCOMPARE(cli({QStringLiteral("report"), example("burst.jsonl")}), 2);
}

void tst_ReportOutput::guiExportsOffTheGuiThread()
{
    MainWindow window;
    window.setPersistent(false);
    window.resize(1400, 900);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::loadFinished);
    window.openFile(example("mixed-classes.jsonl"));
    QVERIFY(loaded.wait(20'000));
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30'000);
    const QString path = m_dir.filePath(QStringLiteral("gui.html"));
    QSignalSpy written(window.review(), &ReviewWiring::reportWritten);
    window.review()->exportReport(path);
    // The GUI thread returns at once; the file appears when the worker is done.
    QVERIFY(window.review()->isBusy());
    QVERIFY(written.wait(60'000));
    QCOMPARE(written.first().at(0).toBool(), true);
    QCOMPARE(written.first().at(1).toString(), QStringLiteral("Wrote the report to %1.").arg(path));
    const QString html = readText(path);
    QVERIFY(html.contains(QStringLiteral("<title>Latency diagnosis: mixed-classes.jsonl</title>")));
    // The Classes dock's dimension is the report's.
    QVERIFY(html.contains(QStringLiteral("<b>Figure 3. TTFT CDF by region.</b>")));
}

void tst_ReportOutput::reportOfASessionIsTheGuiReport_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<QString>("candidate");
    QTest::addColumn<QString>("expected");
    QTest::newRow("filter, classes, record")
        << example("mixed-classes.jsonl") << QString()
        << QStringLiteral(". TTFT CDF by priority.</b> TTFT at the client boundary (ms) "
                          "\u00b7 p50, p90, p95, p99 of the overall marked \u00b7 n = 974 "
                          "\u00b7 slice: region = eu-west");
    QTest::newRow("workflow and what-if")
        << example("adviser.otlp.json") << QString()
        << QStringLiteral("<td>model call: final answer \u00d70.5</td><td class=\"num\">4,346.00</td>"
                          "<td class=\"num\">1,640.00</td>");
    // File > Compare With: the comparison and the stop rule's verdict.
    QTest::newRow("compared trace") << QStringLiteral(TRACELANE_TEST_DATA_DIR "/compare/baseline.jsonl")
                                    << QStringLiteral(TRACELANE_TEST_DATA_DIR "/compare/candidate.jsonl")
                                    << QStringLiteral(
                                           "<h2>Baseline and candidate</h2>\n<p>p95 TTFT (client): 648.6 ms "
                                           "\u2192 354.0 ms, change -294.6 ms [95% interval -361.2 ms, -228.0 "
                                           "ms]: improved.</p>");
}

// `tracelane-cli report SESSION` writes the report File > Export Report
// writes from the window the session was saved from: the same bytes.
void tst_ReportOutput::reportOfASessionIsTheGuiReport()
{
    QFETCH(QString, trace);
    QFETCH(QString, candidate);
    QFETCH(QString, expected);
    MainWindow window;
    window.setPersistent(false);
    window.resize(1400, 900);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::loadFinished);
    window.openFile(trace);
    QVERIFY(loaded.wait(20'000));
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30'000);
    window.review()
        ->recordPanel()
        ->findChild<QLineEdit *>(QStringLiteral("recordTitle"))
        ->setText(QStringLiteral("Review of <%1>").arg(QFileInfo(trace).fileName()));
    if (!candidate.isEmpty()) {
        window.compareWith(candidate);
        QTRY_VERIFY_WITH_TIMEOUT(window.viewState()->candidate() != nullptr, 30'000);
    } else if (trace.endsWith(QStringLiteral(".jsonl"))) {
        window.classTable()->setDimensions({QStringLiteral("priority")});
        window.requestTable()->setAttributeFilter(QStringLiteral("region"), QStringLiteral("eu-west"));
    } else {
        // The final answer (the last model call) 50% faster.
        const WorkflowAnalysis &analysis = window.workflowPanel()->analysis();
        QVERIFY(analysis.ok());
        const SpanGraph &graph = analysis.schedule->graph();
        qint32 answer = -1;
        for (qint32 span = 0; span < graph.spanCount(); ++span) {
            if (graph.category(span) == SpanCategory::ModelCall)
                answer = span;
        }
        QVERIFY(answer >= 0);
        WhatIfPanel *panel = window.workflowPanel()->whatIfPanel();
        panel->setChange(WhatIfPanel::Change::ScaleSpan);
        panel->setTargetSpan(answer);
        panel->setFactor(0.5);
    }
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30'000);
    const QString session = m_dir.filePath(QStringLiteral("r.tracelane"));
    QString error;
    QVERIFY2(window.review()->session()->save(session, &error), qPrintable(error));
    const QString path
        = m_dir.filePath(QStringLiteral("cli-session-%1.html")
                             .arg(QString::fromUtf8(QTest::currentDataTag()).section(QLatin1Char(','), 0, 0)));
    const QString gui = QString(path).replace(QStringLiteral("cli-session"), QStringLiteral("gui-session"));
    QSignalSpy written(window.review(), &ReviewWiring::reportWritten);
    window.review()->exportReport(gui);
    QVERIFY(written.wait(60'000));
    QVERIFY(written.first().at(0).toBool());

    QString out;
    QCOMPARE(cli({QStringLiteral("report"), session, QStringLiteral("--out"), path}, &out), 0);
    const QString html = readText(path);
    if (!html.contains(expected)) {
        m_dir.setAutoRemove(false);
        qWarning("see %s", qPrintable(path));
    }
    QVERIFY(html.contains(expected));
    if (!candidate.isEmpty())
        QVERIFY(html.contains(QStringLiteral("<li>Verdict: the change worked</li>")));
    QVERIFY(html.contains(QStringLiteral("Review of &lt;%1&gt;").arg(QFileInfo(trace).fileName())));
    if (html != readText(gui)) {
        m_dir.setAutoRemove(false);
        qWarning("compare %s with %s", qPrintable(path), qPrintable(gui));
    }
    QCOMPARE(html, readText(gui));
}

void tst_ReportOutput::reportOfAChangedSessionFails()
{
    QTemporaryDir dir;
    const QString trace = dir.filePath(QStringLiteral("burst.jsonl"));
    QVERIFY(QFile::copy(example("burst.jsonl"), trace));
    QFile::setPermissions(trace, QFile::ReadOwner | QFile::WriteOwner);
    const QString session = dir.filePath(QStringLiteral("b.tracelane"));
    QFile file(session);
    QVERIFY(file.open(QIODevice::WriteOnly));
    // The hash of other bytes than the file holds.
    file.write(QStringLiteral("{\"format\": \"tracelane.session\", \"version\": 1, \"traces\": [{\"path\": "
                              "\"burst.jsonl\", \"bytes\": 4, \"sha256\": "
                              "\"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\"}]}")
                   .toUtf8());
    file.close();
    QProcess process;
    process.start(QStringLiteral(TRACELANE_CLI_PATH),
                  {QStringLiteral("report"), session, QStringLiteral("--out"), dir.filePath(QStringLiteral("b.md"))});
    QVERIFY(process.waitForFinished(60'000));
    QCOMPARE(process.exitCode(), 1);
    const QString err = QString::fromUtf8(process.readAllStandardError());
    QVERIFY2(
        err.contains(QStringLiteral("tracelane-cli report: the trace %1 changed since the session was saved (then 4 "
                                    "bytes, SHA-256 9f86d081884c\u2026; now %2 bytes")
                         .arg(trace)
                         .arg(QFileInfo(trace).size())),
        qPrintable(err));
    // Written all the same, of the file as it is now.
    QVERIFY(readText(dir.filePath(QStringLiteral("b.md"))).contains(QStringLiteral("burst.jsonl")));
    // A session whose trace is gone fails before writing anything.
    QVERIFY(QFile::remove(trace));
    process.start(QStringLiteral(TRACELANE_CLI_PATH),
                  {QStringLiteral("report"), session, QStringLiteral("--out"), dir.filePath(QStringLiteral("c.md"))});
    QVERIFY(process.waitForFinished(60'000));
    QCOMPARE(process.exitCode(), 1);
    QVERIFY(
        QString::fromUtf8(process.readAllStandardError())
            .endsWith(QStringLiteral("\ntracelane-cli report: the session's trace was not found: %1\n").arg(trace)));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("c.md"))));
}

void tst_ReportOutput::hostileTextInertInChromium_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QString>("visible"); // hostile text that must show as text
    QTest::newRow("flat requests") << hostile("hostile.jsonl")
                                   << QStringList{QStringLiteral("--percentile"), QStringLiteral("0.9")}
                                   << QStringLiteral(
                                          "<td>&lt;script&gt;document.title='pwned-script'&lt;/script&gt;</td>");
    QTest::newRow("span workflow")
        << hostile("hostile.otlp.json") << QStringList{}
        << QStringLiteral("chat \"&gt;&lt;img src=x onerror=\"document.body.setAttribute('data-pwned','img')\"&gt;");
}

void tst_ReportOutput::hostileTextInertInChromium()
{
    QFETCH(QString, trace);
    QFETCH(QStringList, extra);
    QFETCH(QString, visible);
    const QString path = m_dir.filePath(QFileInfo(trace).completeBaseName() + QStringLiteral(".html"));
    QCOMPARE(cli(QStringList{QStringLiteral("report"), trace, QStringLiteral("--out"), path} + extra), 0);
    const QString html = readText(path);
    // Escaped in the file itself: no element can come from trace text.
    QVERIFY(!html.contains(QStringLiteral("<script"), Qt::CaseInsensitive));
    QVERIFY(!html.contains(QStringLiteral("<img"), Qt::CaseInsensitive));
    QVERIFY(!html.contains(QStringLiteral("onload=\""), Qt::CaseInsensitive));
    if (chromium().isEmpty())
        QSKIP("chromium is not installed (Debian package 'chromium'); the browser half of this test did not run");
    QTemporaryDir profile;
    const QString dom = dumpDom(path, profile.path());
    QVERIFY2(dom.contains(QStringLiteral("</html>")), qPrintable(dom.left(300)));
    // Nothing ran: the title is the report's, the body carries no mark.
    const QString title = QStringLiteral("<title>Latency diagnosis: %1</title>").arg(QFileInfo(trace).fileName());
    QVERIFY2(dom.contains(title), qPrintable(dom.left(600)));
    static const QRegularExpression marked(QStringLiteral("<body[^>]*data-pwned"));
    QVERIFY(!marked.match(dom).hasMatch());
    QVERIFY(!dom.contains(QStringLiteral("<title>pwned")));
    // No element was created from it either.
    QVERIFY(!dom.contains(QStringLiteral("<script"), Qt::CaseInsensitive));
    QVERIFY(!dom.contains(QStringLiteral("<img"), Qt::CaseInsensitive));
    QVERIFY(!dom.contains(QStringLiteral("<svg onload"), Qt::CaseInsensitive));
    // And the text is there to read.
    QVERIFY2(dom.contains(visible), qPrintable(visible));
    QVERIFY(dom.contains(QStringLiteral("&lt;/svg&gt;&lt;svg onload=\"document.title='pwned-svg'\"&gt;")));
}

void tst_ReportOutput::hostileTextInMarkdownAndPdf()
{
    const QString md = m_dir.filePath(QStringLiteral("hostile.md"));
    QCOMPARE(cli({QStringLiteral("report"), hostile("hostile.jsonl"), QStringLiteral("--percentile"),
                  QStringLiteral("0.9"), QStringLiteral("--out"), md}),
             0);
    const QString text = readText(md);
    QVERIFY(!text.contains(QStringLiteral("<script")));
    QVERIFY(!text.contains(QStringLiteral("<img")));
    QVERIFY(!text.contains(QStringLiteral("](javascript:")));
    // The class table shows the hostile region values as text.
    QVERIFY(text.contains(
        QStringLiteral("| &quot;&gt;&lt;img src=x "
                       "onerror=&quot;document.body.setAttribute(&#39;data-pwned&#39;,&#39;img&#39;)&quot;&gt; |")));
    // The slowest members' ids are in their figure, as text.
    const QString members = readText(m_dir.filePath(QStringLiteral("hostile_figures/05-slowest-members.svg")));
    QVERIFY(members.contains(QStringLiteral(">[click](javascript:ale\u2026</text>")));
    QVERIFY(members.contains(QStringLiteral(">&lt;/svg&gt;&lt;svg onload=&quot;doc\u2026</text>")));
    for (const QString &figure : QDir(m_dir.filePath(QStringLiteral("hostile_figures"))).entryList(QDir::Files)) {
        QString error;
        QVERIFY2(isXml(m_dir.filePath(QStringLiteral("hostile_figures/") + figure), &error),
                 qPrintable(figure + error));
        QVERIFY(
            !readText(m_dir.filePath(QStringLiteral("hostile_figures/") + figure)).contains(QStringLiteral("<script")));
    }
    if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
        QSKIP("pdftotext (poppler-utils) is not installed");
    const QString pdf = m_dir.filePath(QStringLiteral("hostile.pdf"));
    QCOMPARE(cli({QStringLiteral("report"), hostile("hostile.otlp.json"), QStringLiteral("--out"), pdf}), 0);
    // In the PDF the hostile resource and span names are plain text.
    const QString pdfLines = flat(pdfText(pdf));
    QVERIFY(pdfLines.contains(QStringLiteral("</svg><svg onload=\"document.title='pwned-svg'\">")));
    QVERIFY(pdfLines.contains(QStringLiteral("retrieval </svg><svg onload=\"\u2026")));
}

QTEST_MAIN(tst_ReportOutput)
#include "tst_reportoutput.moc"
