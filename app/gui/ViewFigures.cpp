#include "ViewFigures.h"

#include "ClassCdfPlot.h"
#include "ClassTableModel.h"
#include "ClassTablePanel.h"
#include "ComparePanel.h"
#include "ComparisonCdfPlot.h"
#include "ComparisonTableModel.h"
#include "ComparisonVerdictView.h"
#include "CountText.h"
#include "DistributionPanel.h"
#include "ExceedancePanel.h"
#include "FeatureComparisonPlot.h"
#include "MainWindow.h"
#include "PhaseShiftBars.h"
#include "PlotFigure.h"
#include "RequestDetailPanel.h"
#include "RequestTimeline.h"
#include "SetComparisonView.h"
#include "SwimlaneView.h"
#include "ViewState.h"
#include "WhatIfPanel.h"
#include "WorkflowGantt.h"
#include "WorkflowPanel.h"
#include "analysis/compare/TraceComparison.h"
#include "analysis/workflows/WorkflowAnalysis.h"
#include "report/ReportFormat.h"
#include "report/ReportText.h"
#include "store/TraceStore.h"

#include <QFileInfo>
#include <QLocale>
#include <QTabWidget>
#include <QTableView>

#include <cmath>

namespace {

QString grouped(qint64 value)
{
    return QLocale(QLocale::English).toString(value);
}

QString traceName(const ViewState &state)
{
    if (!state.store())
        return QObject::tr("no trace");
    QStringList names;
    for (const QString &file : state.store()->sourceFiles)
        names.append(QFileInfo(file).fileName());
    return names.join(QStringLiteral(", "));
}

QString sliceText(const ViewState &state)
{
    return QObject::tr("slice: %1").arg(state.hasSlice() ? state.sliceLabel() : QObject::tr("all requests"));
}

QString metricText(Metric metric, Boundary chosen)
{
    return QObject::tr("%1 at the %2 boundary (%3)")
        .arg(metricLabel(metric), boundaryKey(observedBoundary(metric, chosen)), metricUnit(metric));
}

// The trace and slice close every caption.
QStringList withScope(QStringList coordinates, const ViewState &state)
{
    coordinates.append(sliceText(state));
    coordinates.append(QObject::tr("trace: %1").arg(traceName(state)));
    return coordinates;
}

QString exceedanceText(const ExceedancePanel *panel)
{
    const auto &analysis = panel->analysis();
    if (!analysis)
        return QObject::tr("no exceedance set");
    const ExceedanceSet &set = analysis->set;
    return QObject::tr("%1 above %2 (%3): %4 of %5 requests, rest n = %6")
        .arg(metricLabel(set.spec.metric), ReportFormat::percentileLabel(set.spec.q),
             ReportText::duration(set.threshold), grouped(set.size()), grouped(set.observedRequests),
             grouped(qint64(set.rest.size())));
}

QString workflowText(const WorkflowPanel *panel)
{
    const WorkflowAnalysis &analysis = panel->analysis();
    if (!analysis.ok())
        return QObject::tr("no workflow");
    QString text = QObject::tr("workflow %1: E2E %2")
                       .arg(analysis.workflowId, ReportText::duration(double(analysis.timing.e2e()) / 1e6));
    if (analysis.timing.ttft() != kNoTime)
        text += QObject::tr(", client TTFT %1").arg(ReportText::duration(double(analysis.timing.ttft()) / 1e6));
    return text + QObject::tr(", %1 spans").arg(analysis.schedule->graph().spanCount());
}

// The comparison's coordinates: metric and boundary, target percentile, SLO,
// n of each side and both traces' names. The Compare dock compares the whole
// traces (the window's slice does not apply), so the captions say so.
QStringList comparisonCoordinates(const ComparePanel *panel)
{
    const TraceComparison &comparison = panel->model()->comparison();
    if (!comparison.ok() || comparison.baselineLabel.isEmpty())
        return {QObject::tr("no comparison (File \u2192 Compare With\u2026 a candidate)")};
    const ComparisonSpec &spec = comparison.spec;
    QStringList coordinates{metricText(spec.metric, comparison.observedBoundary),
                            QObject::tr("target %1").arg(ReportFormat::percentileLabel(spec.q))};
    if (std::isfinite(spec.sloMs))
        coordinates.append(QObject::tr("SLO %1").arg(ReportText::duration(spec.sloMs)));
    QStringList dimensions;
    for (const ClassDimension &dimension : comparison.dimensions)
        dimensions.append(dimension.label);
    if (!dimensions.isEmpty())
        coordinates.append(QObject::tr("by %1").arg(dimensions.join(QStringLiteral(" \u00d7 "))));
    coordinates.append(
        QObject::tr("n = %1 baseline, %2 candidate")
            .arg(grouped(comparison.overall.baselineRequests), grouped(comparison.overall.candidateRequests)));
    coordinates.append(QObject::tr("whole traces"));
    coordinates.append(QObject::tr("baseline: %1").arg(comparison.baselineLabel));
    coordinates.append(QObject::tr("candidate: %1").arg(comparison.candidateLabel));
    return coordinates;
}

// A view of the Compare dock on a tab not in front was never laid out (or
// keeps an old size): it is given the size of the page in front, at least
// its size hint, before it is drawn. The tab's layout sizes it again when
// it comes to the front.
QWidget *laidOut(QWidget *widget, const ComparePanel *panel)
{
    if (!widget->isVisible()) {
        const QWidget *page = panel->tabs()->currentWidget();
        widget->resize((page ? page->size() : QSize()).expandedTo(widget->sizeHint()).expandedTo(QSize(640, 240)));
    }
    return widget;
}

QString comparisonTitle(const ComparePanel *panel, const QString &what)
{
    const TraceComparison &comparison = panel->model()->comparison();
    if (!comparison.ok() || comparison.baselineLabel.isEmpty())
        return what;
    return QObject::tr("%1: %2").arg(what, ComparisonStopRule::outcomeLabel(comparison.stopRule.outcome));
}

} // namespace

namespace ViewFigures {

std::vector<FigureSource> all(MainWindow *window)
{
    ViewState *state = window->viewState();
    std::vector<FigureSource> sources;

    sources.push_back({QObject::tr("Swimlanes"),
                       [window] { return static_cast<QWidget *>(window->swimlanes()); },
                       [state] {
                           QStringList coordinates{QObject::tr("%1 boundary").arg(boundaryKey(state->boundary())),
                                                   QObject::tr("time axis: %1")
                                                       .arg(state->timeAxis() == TimeAxis::Absolute
                                                                ? QObject::tr("absolute trace time")
                                                                : QObject::tr("aligned at client send")),
                                                   QObject::tr("n = %1").arg(CountText::of(
                                                       state->scopeSize(), QObject::tr("lane"), QObject::tr("lanes")))};
                           if (state->hasExceedance())
                               coordinates.append(QObject::tr("marked: %1").arg(state->exceedance().label));
                           return FigureCaption{QObject::tr("Swimlanes: one lane per request, phases in colour"),
                                                withScope(coordinates, *state)};
                       },
                       {}});

    sources.push_back(
        {QObject::tr("Request Timeline"),
         [window] { return static_cast<QWidget *>(window->requestDetail()->findChild<RequestTimeline *>()); },
         [state] {
             const RequestTable *table = state->requests();
             const qint32 row = state->currentRow();
             QString title = QObject::tr("Request timeline");
             QStringList coordinates{QObject::tr("%1 boundary").arg(boundaryKey(state->boundary()))};
             if (table && row >= 0) {
                 title = QObject::tr("Request %1: timeline").arg(table->idText(row));
                 for (const Metric metric : {Metric::Ttft, Metric::E2e}) {
                     coordinates.append(QObject::tr("%1 %2").arg(
                         metricLabel(metric),
                         ReportText::duration(metricValueMs(*table, row, metric, state->boundary()))));
                 }
                 coordinates.append(QObject::tr("n = 1 request"));
             }
             return FigureCaption{title, withScope(coordinates, *state)};
         },
         {}});

    DistributionPanel *distributions = window->distributions();
    sources.push_back(
        {QObject::tr("Distribution"), [distributions] { return PlotFigure::widget(distributions->plot()); },
         [state, distributions] {
             const Distribution &d = distributions->scopeDistribution();
             return FigureCaption{distributions->title().isEmpty() ? QObject::tr("Distribution")
                                                                   : distributions->title(),
                                  withScope({metricText(d.metric, d.boundary), QObject::tr("p50, p90, p95, p99 marked"),
                                             QObject::tr("n = %1").arg(grouped(d.n))},
                                            *state)};
         },
         PlotFigure::painter(distributions->plot())});

    ClassTablePanel *classes = window->classTable();
    sources.push_back({QObject::tr("Class CDFs"), [classes] { return PlotFigure::widget(classes->cdfPlot()->plot()); },
                       [state, classes] {
                           const ClassTable &table = classes->model()->table();
                           QStringList dimensions;
                           for (const ClassDimension &dimension : table.dimensions)
                               dimensions.append(dimension.label);
                           QStringList coordinates{
                               metricText(table.metric, table.boundary),
                               QObject::tr("by %1").arg(dimensions.join(QStringLiteral(" \u00d7 "))),
                               QObject::tr("p50\u2013p99 markers"),
                               QObject::tr("n = %1").arg(grouped(table.overall.n))};
                           const double slo = classes->cdfPlot()->sloMs();
                           if (slo > 0.0)
                               coordinates.append(QObject::tr("SLO %1").arg(ReportText::duration(slo)));
                           return FigureCaption{QObject::tr("%1 CDF by class").arg(metricLabel(table.metric)),
                                                withScope(coordinates, *state)};
                       },
                       PlotFigure::painter(classes->cdfPlot()->plot())});

    ExceedancePanel *exceedance = window->exceedance();
    FeatureComparisonPlot *feature = exceedance->comparison()->featurePlot();
    sources.push_back(
        {QObject::tr("Set vs Rest"), [feature] { return PlotFigure::widget(feature->plot()); },
         [state, exceedance, feature] {
             return FigureCaption{
                 feature->title().isEmpty() ? QObject::tr("Set vs rest") : feature->title(),
                 withScope({metricText(state->metric(), state->boundary()), exceedanceText(exceedance)}, *state)};
         },
         PlotFigure::painter(feature->plot())});

    sources.push_back(
        {QObject::tr("Phase Attribution"),
         [exceedance] { return exceedance->comparison()->tabs()->widget(0); },
         [state, exceedance] {
             return FigureCaption{
                 QObject::tr("Phase attribution: the exceedance set's mean excess by phase"),
                 withScope({metricText(state->metric(), state->boundary()), exceedanceText(exceedance)}, *state)};
         },
         {}});

    sources.push_back(
        {QObject::tr("Exceedance Member Timeline"),
         [exceedance] { return static_cast<QWidget *>(exceedance->timeline()); },
         [state, exceedance] {
             const RequestTable *table = state->requests();
             const qint32 row = state->exceedanceCursor();
             QString title = QObject::tr("Exceedance member timeline");
             if (table && row >= 0)
                 title = QObject::tr("Exceedance member %1 of %2: request %3")
                             .arg(exceedance->position() + 1)
                             .arg(exceedance->analysis() ? exceedance->analysis()->set.size() : 0)
                             .arg(table->idText(row));
             return FigureCaption{
                 title,
                 withScope({metricText(state->metric(), state->boundary()), exceedanceText(exceedance)}, *state)};
         },
         {}});

    WorkflowPanel *workflow = window->workflowPanel();
    sources.push_back({QObject::tr("Workflow Gantt"),
                       [workflow] { return static_cast<QWidget *>(workflow->gantt()); },
                       [state, workflow] {
                           return FigureCaption{
                               QObject::tr("Workflow spans, critical path highlighted, slack as whiskers"),
                               withScope({QObject::tr("client boundary"), workflowText(workflow)}, *state)};
                       },
                       {}});
    sources.push_back({QObject::tr("What-If"),
                       [workflow] { return static_cast<QWidget *>(workflow->whatIfPanel()); },
                       [state, workflow] {
                           return FigureCaption{
                               QObject::tr("What-if on the critical path"),
                               withScope({QObject::tr("client boundary"), workflowText(workflow)}, *state)};
                       },
                       {}});
    // The Compare dock is made after these sources are listed: it is looked
    // up when a figure is asked for.
    const auto compare = [window] { return window->comparePanel(); };
    sources.push_back({QObject::tr("Comparison CDFs"),
                       [compare] { return laidOut(PlotFigure::widget(compare()->cdfPlot()->plot()), compare()); },
                       [compare] {
                           const TraceComparison &comparison = compare()->model()->comparison();
                           const QString title = comparison.ok() && !comparison.baselineLabel.isEmpty()
                               ? QObject::tr("%1 CDF: baseline (dashed) vs candidate (solid)")
                                     .arg(metricLabel(comparison.spec.metric))
                               : QObject::tr("Comparison CDFs");
                           return FigureCaption{title, comparisonCoordinates(compare())};
                       },
                       [compare](QPainter &painter, const QSize &size) {
                           PlotFigure::painter(compare()->cdfPlot()->plot())(painter, size);
                       }});
    sources.push_back({QObject::tr("Phase Shift"),
                       [compare] { return laidOut(compare()->phaseBars(), compare()); },
                       [compare] {
                           return FigureCaption{
                               QObject::tr("Phase shift: mean change per phase, candidate \u2212 baseline"),
                               comparisonCoordinates(compare())};
                       },
                       {}});
    sources.push_back({QObject::tr("Comparison Table"),
                       [compare] { return laidOut(compare()->view(), compare()); },
                       [compare] {
                           return FigureCaption{
                               comparisonTitle(compare(), QObject::tr("Difference at the target percentile")),
                               comparisonCoordinates(compare())};
                       },
                       {}});
    sources.push_back({QObject::tr("Comparison Verdict"),
                       [compare] { return laidOut(compare()->verdictView(), compare()); },
                       [compare] {
                           return FigureCaption{comparisonTitle(compare(), QObject::tr("Stop rule and workload")),
                                                comparisonCoordinates(compare())};
                       },
                       {}});
    return sources;
}

} // namespace ViewFigures
