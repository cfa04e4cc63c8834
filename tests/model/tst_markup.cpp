#include "report/Markup.h"

#include <QTest>

// Escaping of untrusted trace text for HTML/SVG and Markdown.
class tst_Markup : public QObject
{
    Q_OBJECT
private slots:
    void xml_data();
    void xml();
    void markdown_data();
    void markdown();
};

void tst_Markup::xml_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("escaped");
    QTest::newRow("plain") << QStringLiteral("queue 12 ms") << QStringLiteral("queue 12 ms");
    QTest::newRow("script") << QStringLiteral("<script>alert(1)</script>")
                            << QStringLiteral("&lt;script&gt;alert(1)&lt;/script&gt;");
    QTest::newRow("attribute") << QStringLiteral("\"><img src=x onerror='a&b'>")
                               << QStringLiteral("&quot;&gt;&lt;img src=x onerror=&#39;a&amp;b&#39;&gt;");
    QTest::newRow("close svg") << QStringLiteral("</svg>") << QStringLiteral("&lt;/svg&gt;");
    QTest::newRow("entity stays text") << QStringLiteral("&lt;") << QStringLiteral("&amp;lt;");
    QTest::newRow("controls") << QStringLiteral("a\u0001b\tc\nd") << QStringLiteral("a\ufffdb\tc\nd");
    QTest::newRow("lone surrogate") << QString(QChar(0xD800)) + QStringLiteral("x") << QStringLiteral("\ufffdx");
    QTest::newRow("pair kept") << QStringLiteral("\U0001F600") << QStringLiteral("\U0001F600");
    QTest::newRow("non-characters") << QStringLiteral("\uFFFE\uFFFF") << QStringLiteral("\ufffd\ufffd");
}

void tst_Markup::xml()
{
    QFETCH(QString, text);
    QFETCH(QString, escaped);
    QCOMPARE(Markup::escapeXml(text), escaped);
}

void tst_Markup::markdown_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("block");
    QTest::addColumn<QString>("inlined");
    QTest::newRow("plain") << QStringLiteral("p95 12.5 ms") << QStringLiteral("p95 12.5 ms")
                           << QStringLiteral("p95 12.5 ms");
    QTest::newRow("emphasis and link") << QStringLiteral("*a* _b_ [c](javascript:x) `d`")
                                       << QStringLiteral("\\*a\\* \\_b\\_ \\[c\\](javascript:x) \\`d\\`")
                                       << QStringLiteral("\\*a\\* \\_b\\_ \\[c\\](javascript:x) \\`d\\`");
    QTest::newRow("html") << QStringLiteral("<b>x</b>") << QStringLiteral("&lt;b&gt;x&lt;/b&gt;")
                          << QStringLiteral("&lt;b&gt;x&lt;/b&gt;");
    QTest::newRow("heading") << QStringLiteral("# title") << QStringLiteral("\\# title") << QStringLiteral("# title");
    QTest::newRow("list") << QStringLiteral("- item") << QStringLiteral("\\- item") << QStringLiteral("- item");
    QTest::newRow("ordered") << QStringLiteral("12. item") << QStringLiteral("12\\. item")
                             << QStringLiteral("12. item");
    QTest::newRow("quote") << QStringLiteral("> q") << QStringLiteral("&gt; q") << QStringLiteral("&gt; q");
    QTest::newRow("pipe and newline") << QStringLiteral("a|b\nc") << QStringLiteral("a\\|b c")
                                      << QStringLiteral("a\\|b c");
    QTest::newRow("backslash") << QStringLiteral("a\\*") << QStringLiteral("a\\\\\\*") << QStringLiteral("a\\\\\\*");
    QTest::newRow("apostrophe") << QStringLiteral("it's #1") << QStringLiteral("it&#39;s #1")
                                << QStringLiteral("it&#39;s #1");
}

void tst_Markup::markdown()
{
    QFETCH(QString, text);
    QFETCH(QString, block);
    QFETCH(QString, inlined);
    QCOMPARE(Markup::escapeMarkdown(text), block);
    QCOMPARE(Markup::escapeMarkdownInline(text), inlined);
}

QTEST_GUILESS_MAIN(tst_Markup)
#include "tst_markup.moc"
