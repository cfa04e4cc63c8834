#pragma once

#include <QString>
#include <QtGlobal>

#include <string_view>
#include <vector>

struct SeedRecord;

// The optional per-token arrays of a seed JSONL record (TRACELANE-CONTRACT.md,
// version 2): `server_token_ms` (when each output token left the server),
// `client_token_ms` (when each stream event reached the client) and
// `client_token_counts` (tokens each client event carried). Times are
// milliseconds on the record's clock, converted to integer ns exactly.
struct SeedTokenTimes
{
    enum class Field { None, Server, Client, ClientCounts };

    std::vector<qint64> server; // ns
    std::vector<qint64> client; // ns
    std::vector<qint64> clientCounts;
    bool hasServer = false;
    bool hasClient = false;
    bool hasClientCounts = false;
    // Why the lists were dropped while the record itself loads (counts that
    // disagree with output_tokens); empty when they are used.
    QString droppedField;
    QString droppedReason;

    void clear()
    {
        server.clear();
        client.clear();
        clientCounts.clear();
        hasServer = hasClient = hasClientCounts = false;
        droppedField.clear();
        droppedReason.clear();
    }
    std::vector<qint64> &list(Field field)
    {
        return field == Field::Server ? server : field == Field::Client ? client : clientCounts;
    }
    bool &present(Field field)
    {
        return field == Field::Server ? hasServer : field == Field::Client ? hasClient : hasClientCounts;
    }
};

SeedTokenTimes::Field seedTokenFieldOf(std::string_view key);
QString seedTokenFieldName(SeedTokenTimes::Field field);

// Checks the lists of an otherwise valid record. Times that run backwards or
// leave the request's own span (a broken clock) reject the record; lists whose
// lengths disagree with output_tokens are dropped with a reason, and the
// request loads without them.
void validateSeedTokenTimes(SeedRecord &record);
