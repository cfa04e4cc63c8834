// --where on a clickhouse:// URL: the server reads only the rows of the
// filter's classes, classed as the file classes them (every row in range
// decides a dimension's classes and bands, whatever the filter keeps), so
// `slice` and `exceed` with --where equal the same commands on the file, and
// an unknown dimension or class is refused with the file's message.

#include "support/CliRun.h"
#include "support/ClickHouseCluster.h"
#include "support/TestData.h"
#include "support/TracelaneTables.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

namespace {

struct Table
{
    const char *name;
    const char *path;
};

constexpr Table kTables[]
    = {{"mixed", "resources/examples/mixed-classes.jsonl"}, {"numbands", "tests/data/classes/numeric-bands.jsonl"}};

// exceed's JSON without the list of what the server left out (nothing here).
nlohmann::json comparable(const QString &text)
{
    return TracelaneTables::comparable(text, {"not_computed_on_server"});
}

} // namespace

class TestClickHouseFilter : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
        for (const auto &table : kTables) {
            // One table reads region from a class column, the other every
            // attribute from the arrays.
            const QString name = QString::fromLatin1(table.name);
            const QString failure = TracelaneTables::initAndPush(
                m_cluster, name, TestData::source(QString::fromLatin1(table.path)),
                name == QLatin1String("mixed") ? QStringLiteral("region") : QString(), 41);
            QVERIFY2(failure.isEmpty(), qPrintable(failure));
        }
        // The mixed trace with '%' in its region values, which the SQL
        // carries as literals: no QString::arg() after them may fill them.
        QVERIFY(m_scratch.isValid());
        QFile source(TestData::source(QString::fromLatin1(kTables[0].path)));
        QFile percent(percentFile());
        QVERIFY(source.open(QIODevice::ReadOnly) && percent.open(QIODevice::WriteOnly));
        QByteArray text = source.readAll();
        text.replace("\"eu-west\"", "\"eu%2Fwest\"").replace("\"us-east\"", "\"us%1east%4\"");
        QVERIFY(percent.write(text) == text.size());
        percent.close();
        const QString failure = TracelaneTables::initAndPush(m_cluster, QStringLiteral("percent"), percentFile(),
                                                             QStringLiteral("region"), 41);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
    }

    void aFilterEqualsTheFile_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("table");
        QTest::addColumn<QStringList>("arguments");
        const auto row = [](const char *command, const char *table, const QStringList &arguments) {
            QTest::addRow("%s %s %s", command, table, qPrintable(arguments.join(QLatin1Char(' '))))
                << QString::fromLatin1(command) << QString::fromLatin1(table) << arguments;
        };
        const QString where = QStringLiteral("--where");
        const QString by = QStringLiteral("--by");
        // A class column, alternatives on one dimension, two dimensions.
        row("slice", "mixed", {by, QStringLiteral("priority"), where, QStringLiteral("region=eu-west")});
        row("slice", "mixed",
            {by, QStringLiteral("priority,prompt_band"), where, QStringLiteral("region=us-east,region=ap-south")});
        row("slice", "mixed",
            {by, QStringLiteral("region"), where, QStringLiteral("priority=batch,output_band=<512"),
             QStringLiteral("--metric"), QStringLiteral("e2e")});
        // Filtered by the dimension the table splits by: only its classes
        // left, labelled as in the whole trace.
        row("slice", "mixed", {by, QStringLiteral("region"), where, QStringLiteral("region=ap-south")});
        // Quartile bands of a many-valued numeric attribute: edges from every
        // row, not from the filtered ones.
        row("slice", "numbands", {by, QStringLiteral("budget_ms"), where, QStringLiteral("retries=<1")});
        row("slice", "numbands", {by, QStringLiteral("budget_ms,region"), where, QStringLiteral("budget_ms=≥2288")});
        row("slice", "numbands",
            {by, QStringLiteral("retries"), where, QStringLiteral("budget_ms=762.8–1550,budget_ms=≥2288")});
        row("exceed", "mixed", {where, QStringLiteral("region=eu-west")});
        row("exceed", "mixed",
            {where, QStringLiteral("priority=interactive,prompt_band=512–2k"), QStringLiteral("--metric"),
             QStringLiteral("e2e"), QStringLiteral("--members"), QStringLiteral("20")});
        row("exceed", "numbands",
            {where, QStringLiteral("budget_ms=<762.8"), QStringLiteral("--percentile"), QStringLiteral("0.9")});
        // Values with '%' in them, in the filter and in the classes.
        row("slice", "percent",
            {by, QStringLiteral("region,priority"), where, QStringLiteral("region=eu%2Fwest,region=us%1east%4")});
        row("slice", "percent", {by, QStringLiteral("region"), where, QStringLiteral("priority=interactive")});
        row("exceed", "percent",
            {where, QStringLiteral("region=us%1east%4"), QStringLiteral("--members"), QStringLiteral("5")});
    }

    void aFilterEqualsTheFile()
    {
        QFETCH(QString, command);
        QFETCH(QString, table);
        QFETCH(QStringList, arguments);
        const QString file = [&] {
            for (const auto &known : kTables) {
                if (table == QLatin1String(known.name))
                    return TestData::source(QString::fromLatin1(known.path));
            }
            return percentFile();
        }();
        const auto fromFile = runCli(QStringList{command, file, QStringLiteral("--json")} + arguments);
        QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
        const auto expected = comparable(fromFile.out);
        QVERIFY(expected.is_object());
        // The filter kept some rows and not all of them.
        const qint64 kept = expected["slice_requests"].get<qint64>();
        QVERIFY(kept > 0);
        QVERIFY(expected["slice"].get<std::string>() != "all requests");
        for (int shard = 0; shard < 2; ++shard) {
            const auto fromServer = runCli(
                QStringList{command, m_cluster.tracelaneUrl(table, shard), QStringLiteral("--json")} + arguments);
            QVERIFY2(fromServer.exitCode == 0, qPrintable(fromServer.err));
            const auto actual = comparable(fromServer.out);
            if (actual != expected) {
                qWarning("file:\n%s\nserver:\n%s", expected.dump(1).c_str(), actual.dump(1).c_str());
                QFAIL("the server's figures under --where differ from the file's");
            }
        }
    }

    void anUnknownDimensionOrClassIsTheFilesRefusal_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QString where = QStringLiteral("--where");
        QTest::addRow("slice, no such dimension")
            << QStringLiteral("slice")
            << QStringList{QStringLiteral("--by"), QStringLiteral("region"), where, QStringLiteral("planet=mars")}
            << QStringLiteral("no class dimension 'planet'");
        QTest::addRow("slice, no such class")
            << QStringLiteral("slice")
            << QStringList{QStringLiteral("--by"), QStringLiteral("priority"), where, QStringLiteral("region=mars")}
            << QStringLiteral("region has no class 'mars' (classes: ap-south, eu-west, us-east)");
        QTest::addRow("exceed, no such class")
            << QStringLiteral("exceed") << QStringList{where, QStringLiteral("prompt_band=huge")}
            << QStringLiteral("prompt_band has no class 'huge'");
    }

    void anUnknownDimensionOrClassIsTheFilesRefusal()
    {
        QFETCH(QString, command);
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const auto fromFile = runCli(
            QStringList{command, TestData::source(QString::fromLatin1(kTables[0].path)), QStringLiteral("--json")}
            + arguments);
        const auto fromServer
            = runCli(QStringList{command, m_cluster.tracelaneUrl(QStringLiteral("mixed")), QStringLiteral("--json")}
                     + arguments);
        QVERIFY2(fromFile.err.contains(message), qPrintable(fromFile.err));
        QVERIFY2(fromServer.err.contains(message), qPrintable(fromServer.err));
        QCOMPARE(fromServer.exitCode, fromFile.exitCode);
        QVERIFY(fromServer.exitCode > 0);
        QVERIFY(fromServer.out.isEmpty());
    }

private:
    QString percentFile() const { return m_scratch.filePath(QStringLiteral("percent.jsonl")); }

    ClickHouseCluster m_cluster{2};
    QTemporaryDir m_scratch;
};

QTEST_GUILESS_MAIN(TestClickHouseFilter)
#include "tst_clickhousefilter.moc"
