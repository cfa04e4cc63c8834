#pragma once

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>

#include <memory>
#include <vector>

class QProcess;

// A real ClickHouse cluster for tests: N servers (Debian's clickhouse-server,
// 18.16 here, or a newer `clickhouse server`) started as ordinary processes on
// loopback, each with a config written here (free ports, data in a temporary
// folder), all in one remote_servers cluster named kCluster so a Distributed
// table spans them. Stopped when the object goes (and killed with the test
// process if that dies first). A missing binary is a failure with the
// install command, never a skip.
class ClickHouseCluster
{
public:
    static constexpr const char *kCluster = "tracelane_test";

    // With Tls::On every server also serves https (https_port) with a
    // self-signed certificate for 127.0.0.1 made by `openssl` at start.
    enum class Tls { Off, On };
    explicit ClickHouseCluster(int shards = 2, Tls tls = Tls::Off);
    ~ClickHouseCluster();
    ClickHouseCluster(const ClickHouseCluster &) = delete;
    ClickHouseCluster &operator=(const ClickHouseCluster &) = delete;

    // Starts every server and waits until each answers /ping (30 s at most).
    bool start(QString *error);
    void stop();

    int shardCount() const { return int(m_servers.size()); }
    int httpPort(int shard) const;
    int httpsPort(int shard) const;
    // The servers' certificate (PEM), its own authority: what a client
    // must be told to trust.
    QString certificateFile() const;
    // http://127.0.0.1:PORT of one server.
    QString httpBase(int shard) const;
    // clickhouse://127.0.0.1:PORT/tracelane?table=TABLE: a Tracelane table
    // (its Distributed one) read through one server.
    QString tracelaneUrl(const QString &table, int shard = 0) const;

    // Runs one statement on one server over HTTP; the body of the answer, or an
    // empty result with `error` set. The timeout is for silence on the connection:
    // 60 s unless given, since a CI run (2 cores, tests two at a time) once stalled
    // a CREATE TABLE on a just-started server past 10 s.
    QByteArray query(int shard, const QString &sql, QString *error = nullptr, int timeoutMs = 60'000) const;

    // Where the server binary was found ("" when not), and how it is called.
    static QString serverBinary(QStringList *arguments = nullptr);

private:
    struct Server
    {
        int httpPort = 0;
        int httpsPort = 0;
        int tcpPort = 0;
        int interserverPort = 0;
        QString folder;
        QProcess *process = nullptr;
    };
    bool writeConfig(const Server &server, QString *error) const;
    bool makeCertificate(QString *error) const;
    bool waitUntilReady(int shard, QString *error) const;
    QString logTail(const Server &server) const;

    QTemporaryDir m_root;
    std::vector<Server> m_servers;
    Tls m_tls = Tls::Off;
};
