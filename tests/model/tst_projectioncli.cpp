#include "support/CliRun.h"
#include "support/TestData.h"

#include <QDir>
#include <QDirIterator>
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
    void sameOutputWithEveryAttribute_data();
    void sameOutputWithEveryAttribute();
};

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
