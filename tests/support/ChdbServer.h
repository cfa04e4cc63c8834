#pragma once

#include "support/TestData.h"

#include <QFileInfo>
#include <QProcess>
#include <QTest>

// A current ClickHouse engine for a test: npm's chdb (libchdb in process)
// behind the small HTTP shim tests/clickhouse/chdb-http.mjs, on a free
// loopback port, stopped with the test. start() runs QVERIFY, so call it
// from initTestCase and check QTest::currentTestFailed() after.
class ChdbServer
{
public:
    ~ChdbServer() { stop(); }

    void start()
    {
        const QString folder = TestData::source(QStringLiteral("tests/clickhouse"));
        QVERIFY2(QFileInfo::exists(folder + QStringLiteral("/node_modules/chdb")),
                 "npm's chdb is missing: run `npm ci` in tests/clickhouse (.ci/bootstrap does)");
        m_shim.setWorkingDirectory(folder);
        m_shim.start(QStringLiteral("node"), {QStringLiteral("chdb-http.mjs"), QStringLiteral("0")});
        QVERIFY2(m_shim.waitForStarted(10'000), "node did not start (.ci/bootstrap installs nodejs)");
        QTRY_VERIFY_WITH_TIMEOUT(m_shim.canReadLine() || m_shim.state() != QProcess::Running, 60'000);
        const QByteArray line = m_shim.readLine().trimmed();
        QVERIFY2(line.startsWith("listening "), QByteArray(line + m_shim.readAllStandardError()).constData());
        m_port = line.mid(10).toInt();
    }

    void stop()
    {
        if (m_shim.state() == QProcess::NotRunning)
            return;
        m_shim.terminate();
        if (!m_shim.waitForFinished(10'000))
            m_shim.kill();
    }

    int port() const { return m_port; }

private:
    QProcess m_shim;
    int m_port = 0;
};
