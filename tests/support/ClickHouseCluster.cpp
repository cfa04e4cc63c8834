#include "ClickHouseCluster.h"

#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QThread>
#include <QTimer>

#include <csignal>
#include <sys/prctl.h>

namespace {

// Ports the kernel hands out for port 0, all held open until every one is
// chosen so no two servers get the same one.
std::vector<int> freePorts(int count)
{
    std::vector<std::unique_ptr<QTcpServer>> holders;
    std::vector<int> ports;
    for (int i = 0; i < count; ++i) {
        auto holder = std::make_unique<QTcpServer>();
        if (!holder->listen(QHostAddress::LocalHost, 0))
            return {};
        ports.push_back(holder->serverPort());
        holders.push_back(std::move(holder));
    }
    return ports;
}

QString remoteServers(const std::vector<int> &tcpPorts)
{
    QString shards;
    for (const int port : tcpPorts) {
        shards += QStringLiteral("      <shard><replica><host>127.0.0.1</host><port>%1</port></replica></shard>\n")
                      .arg(port);
    }
    return QStringLiteral("  <remote_servers>\n    <%1>\n%2    </%1>\n  </remote_servers>\n")
        .arg(QString::fromLatin1(ClickHouseCluster::kCluster), shards);
}

} // namespace

ClickHouseCluster::ClickHouseCluster(int shards, Tls tls)
    : m_tls(tls)
{
    m_servers.resize(size_t(std::max(1, shards)));
}

ClickHouseCluster::~ClickHouseCluster()
{
    stop();
}

QString ClickHouseCluster::serverBinary(QStringList *arguments)
{
    QString configured = qEnvironmentVariable("TRACELANE_CLICKHOUSE_SERVER");
    if (!configured.isEmpty())
        return configured;
    const QStringList sbin = {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/local/sbin"),
                              QStringLiteral("/usr/bin"), QStringLiteral("/usr/local/bin")};
    QString found = QStandardPaths::findExecutable(QStringLiteral("clickhouse-server"));
    if (found.isEmpty())
        found = QStandardPaths::findExecutable(QStringLiteral("clickhouse-server"), sbin);
    if (!found.isEmpty())
        return found;
    // Newer releases ship one `clickhouse` binary with subcommands.
    found = QStandardPaths::findExecutable(QStringLiteral("clickhouse"));
    if (found.isEmpty())
        found = QStandardPaths::findExecutable(QStringLiteral("clickhouse"), sbin);
    if (!found.isEmpty() && arguments)
        *arguments << QStringLiteral("server");
    return found;
}

int ClickHouseCluster::httpPort(int shard) const
{
    return m_servers.at(size_t(shard)).httpPort;
}

int ClickHouseCluster::httpsPort(int shard) const
{
    return m_servers.at(size_t(shard)).httpsPort;
}

QString ClickHouseCluster::certificateFile() const
{
    return m_root.filePath(QStringLiteral("server.crt"));
}

bool ClickHouseCluster::makeCertificate(QString *error) const
{
    const QString openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
    if (openssl.isEmpty()) {
        *error = QStringLiteral("openssl not found: the https tests make their certificate with it. Install it "
                                "with `apt-get install openssl` (.ci/bootstrap does)");
        return false;
    }
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(openssl,
                  {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                   QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                   QStringLiteral("-days"), QStringLiteral("7"), QStringLiteral("-subj"),
                   QStringLiteral("/CN=127.0.0.1"), QStringLiteral("-addext"),
                   QStringLiteral("subjectAltName=IP:127.0.0.1"), QStringLiteral("-keyout"),
                   m_root.filePath(QStringLiteral("server.key")), QStringLiteral("-out"), certificateFile()});
    if (!process.waitForFinished(30'000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        *error = QStringLiteral("openssl could not make a certificate: %1")
                     .arg(QString::fromUtf8(process.readAll()).trimmed());
        return false;
    }
    return true;
}

QString ClickHouseCluster::httpBase(int shard) const
{
    return QStringLiteral("http://127.0.0.1:%1").arg(httpPort(shard));
}

QString ClickHouseCluster::tracelaneUrl(const QString &table, int shard) const
{
    return QStringLiteral("clickhouse://127.0.0.1:%1/tracelane?table=%2").arg(QString::number(httpPort(shard)), table);
}

bool ClickHouseCluster::writeConfig(const Server &server, QString *error) const
{
    std::vector<int> tcpPorts;
    for (const auto &other : m_servers)
        tcpPorts.push_back(other.tcpPort);
    const QString data = server.folder + QStringLiteral("/data/");
    QString tlsConfig;
    if (m_tls == Tls::On) {
        tlsConfig = QStringLiteral("  <https_port>%1</https_port>\n"
                                   "  <openSSL><server><certificateFile>%2</certificateFile>"
                                   "<privateKeyFile>%3</privateKeyFile><verificationMode>none</verificationMode>"
                                   "<loadDefaultCAFile>false</loadDefaultCAFile>"
                                   "<disableProtocols>sslv2,sslv3</disableProtocols></server></openSSL>\n")
                        .arg(server.httpsPort)
                        .arg(certificateFile(), m_root.filePath(QStringLiteral("server.key")));
    }
    // <yandex> is the root 18.16 reads; current releases still accept it.
    const QString config
        = QStringLiteral("<?xml version=\"1.0\"?>\n<yandex>\n"
                         "  <logger><level>warning</level><log>%1/server.log</log>"
                         "<errorlog>%1/server.err.log</errorlog><size>10M</size><count>1</count></logger>\n"
                         "  <listen_host>127.0.0.1</listen_host>\n"
                         "  <http_port>%2</http_port>\n  <tcp_port>%3</tcp_port>\n"
                         "  <interserver_http_port>%4</interserver_http_port>\n"
                         "  <path>%5</path>\n  <tmp_path>%5tmp/</tmp_path>\n"
                         "  <user_files_path>%5user_files/</user_files_path>\n"
                         "  <format_schema_path>%5format_schemas/</format_schema_path>\n"
                         "  <mark_cache_size>268435456</mark_cache_size>\n"
                         "  <uncompressed_cache_size>268435456</uncompressed_cache_size>\n"
                         "  <max_concurrent_queries>50</max_concurrent_queries>\n"
                         "  <users_config>%1/config.xml</users_config>\n"
                         "  <users>\n    <default><password></password><networks><ip>127.0.0.1</ip></networks>"
                         "<profile>default</profile><quota>default</quota></default>\n"
                         "    <tracelane><password>secret word</password><networks><ip>127.0.0.1</ip></networks>"
                         "<profile>default</profile><quota>default</quota></tracelane>\n  </users>\n"
                         "  <profiles><default></default></profiles>\n  <quotas><default></default></quotas>\n"
                         "%6</yandex>\n")
              .arg(server.folder)
              .arg(server.httpPort)
              .arg(server.tcpPort)
              .arg(server.interserverPort)
              .arg(data, remoteServers(tcpPorts) + tlsConfig);
    QDir().mkpath(data);
    QFile file(server.folder + QStringLiteral("/config.xml"));
    if (!file.open(QIODevice::WriteOnly) || file.write(config.toUtf8()) < 0) {
        *error = QStringLiteral("cannot write %1").arg(file.fileName());
        return false;
    }
    return true;
}

bool ClickHouseCluster::start(QString *error)
{
    QStringList prefix;
    const QString binary = serverBinary(&prefix);
    if (binary.isEmpty()) {
        *error = QStringLiteral("clickhouse-server not found: these tests run a real ClickHouse. Install it "
                                "with `apt-get install clickhouse-server` (.ci/bootstrap does), or set "
                                "TRACELANE_CLICKHOUSE_SERVER to a server binary");
        return false;
    }
    if (!m_root.isValid()) {
        *error = QStringLiteral("cannot create a temporary folder for the servers");
        return false;
    }
    if (m_tls == Tls::On && !makeCertificate(error))
        return false;
    const std::vector<int> ports = freePorts(int(m_servers.size()) * 4);
    if (ports.empty()) {
        *error = QStringLiteral("no free loopback ports for ClickHouse");
        return false;
    }
    for (size_t i = 0; i < m_servers.size(); ++i) {
        auto &server = m_servers[i];
        server.httpPort = ports[i * 4];
        server.tcpPort = ports[i * 4 + 1];
        server.interserverPort = ports[i * 4 + 2];
        server.httpsPort = ports[i * 4 + 3];
        server.folder = m_root.path() + QStringLiteral("/shard%1").arg(i + 1);
    }
    for (size_t i = 0; i < m_servers.size(); ++i) {
        auto &server = m_servers[i];
        if (!writeConfig(server, error))
            return false;
        server.process = new QProcess;
        server.process->setProcessChannelMode(QProcess::MergedChannels);
        server.process->setStandardOutputFile(server.folder + QStringLiteral("/stdout.log"));
        server.process->setWorkingDirectory(server.folder);
        // The server must not outlive a test that crashes.
        server.process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
        server.process->start(binary,
                              prefix + QStringList{QStringLiteral("--config-file=%1/config.xml").arg(server.folder)});
        if (!server.process->waitForStarted(10'000)) {
            *error = QStringLiteral("%1 did not start: %2").arg(binary, server.process->errorString());
            return false;
        }
    }
    for (int shard = 0; shard < shardCount(); ++shard) {
        if (!waitUntilReady(shard, error))
            return false;
    }
    return true;
}

bool ClickHouseCluster::waitUntilReady(int shard, QString *error) const
{
    const auto &server = m_servers[size_t(shard)];
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 30'000) {
        if (server.process->state() == QProcess::NotRunning) {
            *error = QStringLiteral("clickhouse-server for shard %1 exited with %2 before it answered:\n%3")
                         .arg(shard + 1)
                         .arg(server.process->exitCode())
                         .arg(logTail(server));
            return false;
        }
        QString ignored;
        if (query(shard, QStringLiteral("SELECT 1"), &ignored).trimmed() == "1")
            return true;
        QThread::msleep(100);
    }
    *error = QStringLiteral("clickhouse-server for shard %1 did not answer on port %2 within 30 s:\n%3")
                 .arg(shard + 1)
                 .arg(server.httpPort)
                 .arg(logTail(server));
    return false;
}

QString ClickHouseCluster::logTail(const Server &server) const
{
    QString tail;
    for (const QString &name : {QStringLiteral("stdout.log"), QStringLiteral("server.err.log")}) {
        QFile file(server.folder + QLatin1Char('/') + name);
        if (file.open(QIODevice::ReadOnly)) {
            const QByteArray text = file.readAll();
            tail += QString::fromUtf8(text.right(2000));
        }
    }
    return tail;
}

void ClickHouseCluster::stop()
{
    for (auto &server : m_servers) {
        if (!server.process)
            continue;
        if (server.process->state() != QProcess::NotRunning) {
            server.process->terminate();
            if (!server.process->waitForFinished(15'000)) {
                server.process->kill();
                server.process->waitForFinished(5'000);
            }
        }
        delete server.process;
        server.process = nullptr;
    }
}

QByteArray ClickHouseCluster::query(int shard, const QString &sql, QString *error, int timeoutMs) const
{
    QNetworkAccessManager network;
    // Inserts through a Distributed table wait until every shard has its rows.
    QNetworkRequest request(QUrl(httpBase(shard) + QStringLiteral("/?insert_distributed_sync=1")));
    request.setTransferTimeout(timeoutMs);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("text/plain; charset=utf-8"));
    QNetworkReply *reply = network.post(request, sql.toUtf8());
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QByteArray body = reply->readAll();
    QByteArray result;
    if (reply->error() != QNetworkReply::NoError) {
        if (error)
            *error = reply->errorString() + QStringLiteral(": ") + QString::fromUtf8(body.trimmed());
    } else {
        result = body;
    }
    delete reply;
    return result;
}
