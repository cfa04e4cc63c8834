#include "WorkflowOptions.h"

#include "CliContext.h"

#include "clickhouse/ClickHouseSource.h"
#include "store/TraceStore.h"

#include <QCommandLineParser>

void addWorkflowOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("trace"), QStringLiteral("Workflow (trace id) to analyse; default: every workflow."),
         QStringLiteral("id")},
        {QStringLiteral("scale"),
         QStringLiteral("whatif: scale a span (id or name) or kind (operation) and its subtree, e.g. "
                        "tool=2/3, chat@2=0.5, retrieval=-25%. Repeatable."),
         QStringLiteral("span=factor")},
        {QStringLiteral("scale-phase"),
         QStringLiteral("whatif: scale a phase of the model calls (or of one span), e.g. queue=0.5, "
                        "chat@1:prefill=0.75. Repeatable."),
         QStringLiteral("[span:]phase=factor")},
        {QStringLiteral("shorten-answer"),
         QStringLiteral("whatif: the final answer (or a span's) N tokens shorter at MS per token, e.g. 30@24."),
         QStringLiteral("[span:]n@ms")},
        {QStringLiteral("add-dependency"),
         QStringLiteral("whatif: TO cannot start before FROM ends, e.g. policy>account. Repeatable."),
         QStringLiteral("from>to")},
        {QStringLiteral("percentile"),
         QStringLiteral("whatif: percentile for the population figures (0-1 or 0-100; default 0.95)."),
         QStringLiteral("q"), QStringLiteral("0.95")},
    });
}

bool requireWorkflows(const CliContext &context, const QString &command, const QString &path, const TraceStore &store)
{
    if (store.workflows.rowCount() > 0)
        return true;
    context.err << QStringLiteral("tracelane-cli: %1: no workflows; %2 needs span traces (OTLP, Jaeger, any-agent, "
                                  "Langfuse)\n")
                       .arg(path, command);
    return false;
}

bool loadWorkflows(const CliContext &context, const QString &command, WorkflowInput *input)
{
    input->path = context.arguments.first();
    input->workflows.clear();
    const QString trace = context.parser.value(QStringLiteral("trace"));
    // On a server, only that workflow's rows are fetched.
    const QString source = !trace.isEmpty() && ClickHouseSource::isUrl(input->path)
        ? ClickHouseSource::withTrace(input->path, trace)
        : input->path;
    if (!loadForCli(context, source, &input->load))
        return false;
    const QString &path = input->path;
    const TraceStore &store = *input->load.store;
    if (!requireWorkflows(context, command, path, store))
        return false;
    if (trace.isEmpty()) {
        for (qsizetype w = 0; w < store.workflows.rowCount(); ++w)
            input->workflows.push_back(qint32(w));
        return true;
    }
    const QByteArray id = trace.toLower().toUtf8();
    const qint32 index = store.workflows.indexOf(std::string_view(id.constData(), size_t(id.size())));
    if (index < 0) {
        context.err << QStringLiteral("tracelane-cli: %1: no workflow with trace id '%2' (%3 workflows in the file)\n")
                           .arg(path, trace)
                           .arg(store.workflows.rowCount());
        return false;
    }
    input->workflows.push_back(index);
    return true;
}
