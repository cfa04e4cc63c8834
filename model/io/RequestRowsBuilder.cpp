#include "RequestRowsBuilder.h"

#include <QRegularExpression>

#include <cmath>

RequestRowsBuilder::RequestRowsBuilder(TraceStore &store, QString file)
    : m_store(store), m_file(std::move(file))
{
    m_ids.reserve(1024);
    m_clientTokens.offsets.push_back(0);
}

bool RequestRowsBuilder::add(const RequestTable::Row &row, const std::vector<Attribute> &attributes,
                             const std::vector<qint64> &clientTokenTimes)
{
    auto &table = m_store.requests;
    const qint64 earlier = m_ids.findOrInsert(row.id, quint32(table.rowCount()),
                                              [&table](quint32 r) { return table.id(r); });
    if (earlier != IdIndex::kNotFound) {
        reject(row.sourceLine, QString::fromUtf8(row.id.data(), qsizetype(row.id.size())),
               QStringLiteral("request id"),
               QStringLiteral("duplicate request id; first seen on line %1").arg(table.sourceLine(earlier)));
        return false;
    }
    table.appendRow(row);
    for (const auto &attribute : attributes) {
        const bool numeric = attribute.text.isEmpty();
        if (numeric && std::isnan(attribute.number))
            continue;
        auto &column = table.attributeColumn(attribute.key, numeric ? AttributeColumn::Kind::Numeric
                                                                    : AttributeColumn::Kind::Categorical);
        if (column.rowCount() >= table.rowCount())
            continue;   // the same key twice: the first wins
        column.padTo(table.rowCount() - 1);
        if (numeric)
            column.appendNumber(attribute.number);
        else
            column.appendText(attribute.text);
    }
    table.finishRow();
    m_clientTokens.times.insert(m_clientTokens.times.end(), clientTokenTimes.begin(), clientTokenTimes.end());
    m_clientTokens.offsets.push_back(m_clientTokens.times.size());
    m_anyTokenTimes = m_anyTokenTimes || !clientTokenTimes.empty();
    return true;
}

void RequestRowsBuilder::reject(qint64 line, const QString &requestId, const QString &field, const QString &reason)
{
    m_store.rejected.push_back({m_file, line, requestId, field, reason});
}

void RequestRowsBuilder::notice(qint64 line, const QString &message)
{
    m_store.notices.push_back({m_file, line, message});
}

void RequestRowsBuilder::finish()
{
    m_store.requests.squeeze();
    if (m_anyTokenTimes) {
        m_clientTokens.times.shrink_to_fit();
        m_store.requests.setTokenTimelines({}, std::move(m_clientTokens));
    }
}

namespace RequestRows {

qint64 msToNs(double ms)
{
    return std::llround(ms * 1e6);
}

qint64 secondsToNs(double seconds)
{
    return std::llround(seconds * 1e9);
}

QString invalidJson(const std::exception &error)
{
    const QString what = QString::fromUtf8(error.what());
    static const QRegularExpression prefix(QStringLiteral(R"(^\[json\.exception\.[a-z_]+\.\d+\] (parse error )?(at line \d+, )?)"));
    QString rest = what;
    rest.remove(prefix);
    return rest.startsWith(QLatin1String("column")) ? QStringLiteral("invalid JSON at ") + rest
                                                    : QStringLiteral("invalid JSON: ") + rest;
}

} // namespace RequestRows
