#pragma once

#include <QString>

struct CliContext;

// The class commands on a clickhouse:// URL instead of a FILE: the same
// output, figures computed by the server (model/clickhouse).
bool isClickHouseArgument(const QString &argument);
int runSliceOnClickHouse(const CliContext &context);
int runExceedOnClickHouse(const CliContext &context);
int runAnalyseOnClickHouse(const CliContext &context);
