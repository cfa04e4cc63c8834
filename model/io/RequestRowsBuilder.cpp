#include "RequestRowsBuilder.h"

#include "JsonDom.h"
#include "store/Utf8.h"

#include <algorithm>

#include <cmath>

RequestRowsBuilder::RequestRowsBuilder(TraceStore &store, QString file)
    : m_store(store)
    , m_file(std::move(file))
{
    m_ids.reserve(64); // grows with the file; a small one stays cheap
}

bool RequestRowsBuilder::add(const RequestTable::Row &row, const std::vector<Attribute> &attributes,
                             const std::vector<qint64> &clientTokenTimes)
{
    auto &table = m_store.requests;
    const qint64 earlier
        = m_ids.findOrInsert(row.id, quint32(table.rowCount()), [&table](quint32 r) { return table.id(r); });
    if (earlier != IdIndex::kNotFound) {
        reject(row.sourceLine, Utf8::fromStd(row.id), QStringLiteral("request id"),
               QStringLiteral("duplicate request id; first seen on line %1").arg(table.sourceLine(earlier)));
        return false;
    }
    table.appendRow(row);
    for (const auto &attribute : attributes) {
        const bool numeric = attribute.text.isEmpty();
        if (numeric && std::isnan(attribute.number))
            continue;
        auto &column = table.attributeColumn(
            attribute.key, numeric ? AttributeColumn::Kind::Numeric : AttributeColumn::Kind::Categorical);
        if (column.rowCount() >= table.rowCount())
            continue; // the same key twice: the first wins
        column.padTo(table.rowCount() - 1);
        if (numeric)
            column.appendNumber(attribute.number);
        else
            column.appendText(attribute.text);
    }
    table.finishRow();
    m_clientTokens.padTo(table.rowCount() - 1);
    if (!m_clientTokens.appendRow(std::span<const qint64>(clientTokenTimes)))
        m_clientTokens.appendEmptyRow(); // callers check the order; a broken list is never stored
    m_anyTokenTimes = m_anyTokenTimes || !clientTokenTimes.empty();
    return true;
}

void RequestRowsBuilder::reject(qint64 line, const QString &requestId, const QString &field, const QString &reason)
{
    m_store.rejected.push_back({m_file, line, requestId, field, reason});
}

bool RequestRowsBuilder::parseRecord(std::string_view text, qint64 line, const QString &requestId,
                                     nlohmann::json *record)
{
    const JsonDom::Outcome outcome = JsonDom::parse(text, record);
    if (outcome.tooDeep > 0 && m_tooDeep++ == 0)
        m_firstTooDeepLine = line;
    if (outcome.ok())
        return true;
    // nlohmann counts bytes read; a record spread over lines (an element of
    // a pretty-printed array) names the line the error is on.
    const std::string_view before
        = text.substr(0, qMin(text.size(), outcome.errorByte > 0 ? outcome.errorByte - 1 : 0));
    const auto lastNewline = before.rfind('\n');
    const qint64 errorLine = line + qint64(std::count(before.begin(), before.end(), '\n'));
    const auto column
        = qint64(lastNewline == std::string_view::npos ? outcome.errorByte : outcome.errorByte - lastNewline - 1);
    reject(line, requestId, {},
           errorLine == line ? QStringLiteral("invalid JSON at column %1: %2").arg(column).arg(outcome.message)
                             : QStringLiteral("invalid JSON on line %1 at column %2: %3")
                                   .arg(errorLine)
                                   .arg(column)
                                   .arg(outcome.message));
    return false;
}

void RequestRowsBuilder::rejectUnreadable(qint64 line, const QString &requestId, const std::exception &error)
{
    reject(line, requestId, {},
           QStringLiteral("a field has a type this format does not allow: %1").arg(JsonDom::describe(error)));
}

void RequestRowsBuilder::rejectFailure(qint64 line, const QString &requestId, const QString &field,
                                       const QString &reason, qint64 sentNs)
{
    RejectedRecord record{m_file, line, requestId, field, reason};
    record.atNs = sentNs;
    m_store.rejected.push_back(std::move(record));
}

void RequestRowsBuilder::notice(qint64 line, const QString &message)
{
    m_store.notices.push_back({m_file, line, message});
}

void RequestRowsBuilder::finish()
{
    if (m_tooDeep > 0) {
        notice(m_firstTooDeepLine,
               QStringLiteral("%1 %2 values nested deeper than %3 levels (first on this line); "
                              "they were read as null")
                   .arg(m_tooDeep)
                   .arg(m_tooDeep == 1 ? QStringLiteral("record holds") : QStringLiteral("records hold"))
                   .arg(JsonDom::kMaxDepth));
    }
    m_store.requests.squeeze();
    if (m_anyTokenTimes) {
        m_clientTokens.padTo(m_store.requests.rowCount());
        m_clientTokens.squeeze();
        m_store.requests.setTokenTimelines({}, std::move(m_clientTokens));
    }
}

namespace RequestRows {

bool toNs(double value, double nsPerUnit, qint64 *ns)
{
    const double scaled = value * nsPerUnit;
    // 2^63 is exactly representable; anything at or beyond it does not fit.
    if (!std::isfinite(scaled) || std::fabs(scaled) >= 9223372036854775808.0)
        return false;
    *ns = std::llround(scaled);
    return true;
}

} // namespace RequestRows
