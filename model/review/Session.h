#pragma once

#include "DiagnosisRecord.h"
#include "TraceFingerprint.h"

#include <QByteArray>
#include <QStringList>

#include <vector>

// A bookmark with a note on a request, or on one span of a workflow.
struct SessionNote
{
    QString requestId; // the request's id (a workflow's summary row: its trace id)
    QString spanId;    // empty for a note on the request itself
    QString text;

    bool operator==(const SessionNote &other) const = default;
};

// A trace the session was made on: where it is and what it held.
struct SessionTrace
{
    QString path;                 // absolute in memory, relative to the session on disk
    TraceFingerprint fingerprint; // checked when the session is opened

    bool isEmpty() const { return path.isEmpty(); }
    bool operator==(const SessionTrace &other) const = default;
};

// What a review needs to reopen exactly the view it left: the traces (paths
// absolute in memory, relative to the session file on disk), the
// coordinates, the slice and filters, the class split, the exceedance set
// and the member shown, the workflow and its what-if, time and lane zoom,
// the dock layout, bookmarks and notes, and the diagnosis record. Rows are
// kept as request ids, never row numbers, so a session survives a reload.
// Saved by SessionJson (schema in model/review/SESSION-SCHEMA.md).
struct Session
{
    std::vector<SessionTrace> traces; // the loaded trace (one for now)

    Boundary boundary = Boundary::Client;
    Metric metric = Metric::Ttft;
    bool alignedTime = false; // time axis aligned at each client send
    qint64 timeBegin = 0;     // visible time window (ns on the axis); begin == end: fit
    qint64 timeEnd = 0;
    double laneFirst = 0.0; // visible lanes; count 0: fit
    double laneCount = 0.0;
    QString laneOrder = QStringLiteral("arrival"); // "arrival", "metric:ttft", "attribute:region"
    bool laneDescending = false;
    QString laneGroupBy;

    // The slice: the request table's filter when it made it, else its rows.
    bool hasSlice = false;
    QString sliceLabel;
    QString filterText;
    QString filterAttribute;
    QString filterValue;
    QStringList sliceRequests; // request ids (only when no filter describes the slice)
    QStringList selection;     // request ids
    QString currentRequest;

    QStringList classDimensions;
    QString promptBands; // "512, 2k, 8k"; empty: the default
    QString outputBands;

    double exceedanceQ = 0.95;
    QString exceedanceOrder = QStringLiteral("metric");
    QString exceedanceMember; // request id of the member shown

    SessionTrace candidate; // trace compared with the loaded one (File > Compare With)
    // The Compare dock's own question (metric and boundary are the view's).
    QStringList compareClasses; // class split; empty: overall only
    double compareQ = 0.95;     // target percentile, a fraction
    double compareSloMs = 0.0;  // 0: no SLO (misses counted above the baseline's percentile)
    bool hasComparePrediction = false;
    double comparePredictedMs = 0.0; // predicted saving at compareQ (a what-if, or typed)

    QString workflow;                // trace id of the workflow in the Gantt
    QStringList whatIfs;             // in the command-line syntax, e.g. "scale-phase chat@1:prefill=-25%"
    bool whatIfPopulation = false;   // the what-if also applied to every workflow of the scope
    double whatIfPopulationQ = 0.95; // ... judged at this percentile of the totals

    QByteArray windowState; // QMainWindow::saveState (dock layout)
    QByteArray windowGeometry;

    std::vector<SessionNote> notes;

    bool hasRecord = false;
    DiagnosisRecord record;

    bool operator==(const Session &other) const = default;
};

struct WhatIfEdit;

// What-ifs in a session are written in the command line's syntax, so a
// session and `tracelane-cli whatif` read the same text:
// "scale SPAN=F", "scale-phase [SPAN:]PHASE=F", "shorten-answer [SPAN:]N@MS",
// "add-dependency FROM>TO".
namespace SessionWhatIf {

QString toCommand(const WhatIfEdit &edit);
bool fromCommand(const QString &command, WhatIfEdit *edit, QString *error);

} // namespace SessionWhatIf
