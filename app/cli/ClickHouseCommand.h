#pragma once

#include <QCommandLineParser>

struct CliContext;

// `tracelane-cli clickhouse init URL [--cluster NAME]` creates Tracelane's
// tables; `tracelane-cli clickhouse push FILE URL [--batch-rows N]` loads FILE
// (any supported format) and copies it into them, resumably.
void addClickHouseOptions(QCommandLineParser &parser);
int runClickHouse(const CliContext &context);
