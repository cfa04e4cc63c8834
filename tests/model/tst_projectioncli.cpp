#include "support/CliRun.h"
#include "support/TestData.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

// analyse and slice store only the class attributes they read (projection);
// --all-attributes stores every one, as the GUI does. Whatever the input,
// good or malformed, both must print the same bytes and exit the same way:
// the same figures, and every rejected record with the same line, field
// and reason.
class tst_ProjectionCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void sameOutputWithEveryAttribute_data();
    void sameOutputWithEveryAttribute();

private:
    QTemporaryDir m_dir;
};

// A trace whose cache attribute is not called cached_prefix (the first
// name with "cache" in it is that dimension), with a workflow_type and a
// capitalised numeric attribute.
void tst_ProjectionCli::initTestCase()
{
    QFile file(m_dir.filePath(QStringLiteral("cache-named.jsonl")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    for (int i = 0; i < 60; ++i) {
        const double t = i * 100.0;
        file.write(QStringLiteral(R"({"request_id":"r%1","prompt_tokens":%2,"output_tokens":20,"client_send_ms":%3,)"
                                  R"("gateway_arrival_ms":%4,"queue_enter_ms":%4,"prefill_start_ms":%5,)"
                                  R"("prefill_end_ms":%6,"first_token_server_ms":%6,"first_token_client_ms":%7,)"
                                  R"("last_token_client_ms":%8,"region":"%9","kv_cache_hit":%10,"prefix_cache":"%11",)"
                                  R"("workflow_type":"%12","Tier":%13})")
                       .arg(i)
                       .arg(100 + 97 * i)
                       .arg(t)
                       .arg(t + 1 + i % 7)
                       .arg(t + 3 + i % 11)
                       .arg(t + 20 + i % 13)
                       .arg(t + 25 + i % 17)
                       .arg(t + 90)
                       .arg(i % 3 == 0 ? QStringLiteral("eu") : QStringLiteral("us"))
                       .arg(i % 4 == 0 ? QStringLiteral("true") : QStringLiteral("false"))
                       .arg(i % 5 == 0 ? QStringLiteral("hit") : QStringLiteral("miss"))
                       .arg(i % 2 == 0 ? QStringLiteral("rag") : QStringLiteral("chat"))
                       .arg(1 + i % 3)
                       .toUtf8()
                   + "\n");
    }
}

void tst_ProjectionCli::sameOutputWithEveryAttribute_data()
{
    QTest::addColumn<QStringList>("arguments");
    QStringList files;
    for (const QString &folder : {QStringLiteral("seed"), QStringLiteral("classes"), QStringLiteral("malformed"),
                                  QStringLiteral("fuzz-regressions"), QStringLiteral("hostile")}) {
        QDirIterator it(TestData::fixture(folder), {QStringLiteral("*.jsonl"), QStringLiteral("*.json")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next();
    }
    QDirIterator examples(TestData::source(QStringLiteral("resources/examples")), QDir::Files);
    while (examples.hasNext())
        files << examples.next();
    files.sort();
    QVERIFY(files.size() > 40);
    const QString cacheNamed = m_dir.filePath(QStringLiteral("cache-named.jsonl"));
    for (const QString &by : {QStringLiteral("kv_cache_hit"), QStringLiteral("cached_prefix"),
                              QStringLiteral("prefix_cache"), QStringLiteral("region"), QStringLiteral("workflow_type"),
                              QStringLiteral("tier"), QStringLiteral("region,TIER")}) {
        QTest::addRow("cache-named.jsonl slice --by %s", qPrintable(by))
            << QStringList{QStringLiteral("slice"), cacheNamed, QStringLiteral("--by"), by, QStringLiteral("--json")};
    }
    QTest::newRow("cache-named.jsonl slice --by region --where cached_prefix=true")
        << QStringList{QStringLiteral("slice"),   cacheNamed,
                       QStringLiteral("--by"),    QStringLiteral("region"),
                       QStringLiteral("--where"), QStringLiteral("cached_prefix=true,workflow_type=rag")};
    const QList<QStringList> commands = {
        {QStringLiteral("analyse"), QStringLiteral("--json")},
        {QStringLiteral("analyse")},
        {QStringLiteral("slice"), QStringLiteral("--by"), QStringLiteral("region"), QStringLiteral("--json")},
        {QStringLiteral("slice"), QStringLiteral("--by"), QStringLiteral("prompt_band"), QStringLiteral("--json")},
        {QStringLiteral("slice"), QStringLiteral("--by"), QStringLiteral("cached_prefix,Region"),
         QStringLiteral("--where"), QStringLiteral("output_band=<512"), QStringLiteral("--json")},
        {QStringLiteral("slice"), QStringLiteral("--by"), QStringLiteral("no_such_dimension")},
    };
    const QDir root(TestData::source({}));
    for (const QString &file : files) {
        for (const QStringList &command : commands) {
            const QString name = root.relativeFilePath(file) + QLatin1Char(' ') + command.join(QLatin1Char(' '));
            QStringList arguments = command;
            arguments.insert(1, file);
            QTest::newRow(qPrintable(name)) << arguments;
        }
    }
}

void tst_ProjectionCli::sameOutputWithEveryAttribute()
{
    QFETCH(QStringList, arguments);
    const CliRun projected = runCli(arguments);
    const CliRun whole = runCli(arguments + QStringList{QStringLiteral("--all-attributes")});
    QVERIFY2(projected.exitCode >= 0, qPrintable(projected.err));
    QCOMPARE(projected.exitCode, whole.exitCode);
    QCOMPARE(projected.out, whole.out);
    QCOMPARE(projected.err, whole.err);
}

QTEST_GUILESS_MAIN(tst_ProjectionCli)
#include "tst_projectioncli.moc"
