#include "SessionReport.h"

#include "analysis/requests/RequestQuery.h"
#include "store/TraceStore.h"

#include <string_view>
#include <unordered_set>

namespace SessionReport {

std::vector<qint32> rowsOf(const TraceStore &store, const QStringList &ids)
{
    std::vector<qint32> rows;
    if (ids.isEmpty())
        return rows;
    // Compare UTF-8 bytes: no string is built per row of a large trace.
    std::vector<QByteArray> wanted;
    wanted.reserve(size_t(ids.size()));
    for (const QString &id : ids)
        wanted.push_back(id.toUtf8());
    std::unordered_set<std::string_view> set;
    for (const QByteArray &id : wanted)
        set.emplace(id.constData(), size_t(id.size()));
    for (qsizetype row = 0; row < store.requests.rowCount(); ++row) {
        if (set.contains(store.requests.id(row)))
            rows.push_back(qint32(row));
    }
    return rows;
}

DesignReport::Options options(const Session &session, const TraceStore &store, QStringList *problems)
{
    const auto problem = [problems](const QString &text) {
        if (problems)
            problems->append(text);
    };
    DesignReport::Options options;
    if (session.hasSlice) {
        bool described = true;
        if (!session.sliceRequests.isEmpty()) {
            options.rows = rowsOf(store, session.sliceRequests);
            if (qsizetype(options.rows.size()) != session.sliceRequests.size())
                problem(QStringLiteral("%1 of the slice's %2 requests are not in the trace")
                            .arg(session.sliceRequests.size() - qsizetype(options.rows.size()))
                            .arg(session.sliceRequests.size()));
        } else if (session.filterText.isEmpty() && session.filterAttribute.isEmpty()) {
            described = false;
            problem(
                QStringLiteral("the slice \u201c%1\u201d had too many requests to be saved by id; the report covers "
                               "every request")
                    .arg(session.sliceLabel));
        } else {
            RequestQuery query;
            query.text = session.filterText;
            query.attribute = session.filterAttribute;
            query.value = session.filterValue;
            query.boundary = session.boundary;
            const RowSet rows = RequestQueries::filter(store.requests, query);
            options.rows.assign(rows.rows().begin(), rows.rows().end());
        }
        if (described && options.rows.empty())
            problem(QStringLiteral("the slice \u201c%1\u201d matches no request of the trace; the report covers every "
                                   "request")
                        .arg(session.sliceLabel));
        if (!options.rows.empty())
            options.slice = session.sliceLabel;
    }
    options.classDimensions = session.classDimensions;
    QString error;
    if (!session.promptBands.isEmpty() && !TokenBands::parse(session.promptBands, &options.bands.prompt, &error))
        problem(QStringLiteral("prompt bands \u201c%1\u201d: %2").arg(session.promptBands, error));
    if (!session.outputBands.isEmpty() && !TokenBands::parse(session.outputBands, &options.bands.output, &error))
        problem(QStringLiteral("output bands \u201c%1\u201d: %2").arg(session.outputBands, error));
    if (!session.workflow.isEmpty()) {
        const QByteArray id = session.workflow.toUtf8();
        options.workflow = store.workflows.indexOf(std::string_view(id.constData(), size_t(id.size())));
        if (options.workflow < 0)
            problem(QStringLiteral("the workflow %1 is not in the trace").arg(session.workflow));
    }
    for (const QString &command : session.whatIfs) {
        WhatIfEdit edit;
        if (SessionWhatIf::fromCommand(command, &edit, &error))
            options.whatIfs.push_back(edit);
        else
            problem(QStringLiteral("what-if \u201c%1\u201d: %2").arg(command, error));
    }
    return options;
}

} // namespace SessionReport
