#pragma once

#include "RequestTable.h"
#include "SpanTable.h"
#include "WorkflowTable.h"

#include <QString>
#include <QStringList>

#include <vector>

// A record the loader refused, kept so nothing is lost silently.
struct RejectedRecord
{
    QString file;
    qint64 line = 0;   // 1-based; 0 when the problem is not tied to a line
    QString requestId; // empty when it could not be read
    QString field;     // empty when the problem is not tied to a field
    QString reason;
    QString spanId = {}; // set for a span record; requestId then holds its trace id
    // When a failed request was sent, if the source says (AIPerf, vLLM bench):
    // lets the load view place failures in time. kNoTime otherwise.
    qint64 atNs = kNoTime;

    // "file:line: request R: field 'f': reason", or for a span
    // "file:line: trace T: span S: field 'f': reason", leaving out what is unknown.
    QString toString() const;
};

// Something worth telling the user that did not cost a record (a byte-order
// mark, CRLF line ends, an ignored nested field).
struct LoadNotice
{
    QString file;
    qint64 line = 0;
    QString message;

    QString toString() const;
};

// Everything loaded from one or more files: flat requests, workflow spans,
// and what was refused. Immutable once a load finishes; analyses read it.
class TraceStore
{
public:
    RequestTable requests;
    SpanTable spans;
    WorkflowTable workflows;
    std::vector<RejectedRecord> rejected;
    std::vector<LoadNotice> notices;
    QStringList sourceFiles;
    QString format; // "seed-jsonl", "otlp-json", ...
    // Why the requests' send times are not real arrivals (a format without
    // start times, whose loader put every request at t = 0); empty when
    // they are. The load view says this instead of drawing a false burst.
    QString arrivalsUnknown;
    // One request (or trace) in this many of the source was loaded: a
    // server's uniform sample (clickhouse://…&sample=N); 1 for all of them.
    qint64 sampleOneIn = 1;
    // The clickhouse:// URL (without sample=) of the population a sample of
    // Tracelane's requests table was drawn from: the server computes its
    // figures (remote/ServerFigures). Empty for anything else.
    QString serverUrl;

    size_t memoryBytes() const { return requests.memoryBytes() + spans.memoryBytes() + workflows.memoryBytes(); }
};
