#include "analysis/lanes/LaneActivity.h"
#include "analysis/lanes/LaneLayout.h"
#include "analysis/lanes/WorkActivity.h"
#include "analysis/lanes/WorkflowLanes.h"
#include "analysis/workflows/LongLivedStreams.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"

#include <QTest>

namespace {

std::shared_ptr<TraceStore> load(const QString &path)
{
    auto result = TraceFileLoader::load(path, {});
    if (!result.ok())
        qFatal("%s", qPrintable(result.fatalError));
    return result.store;
}

std::shared_ptr<TraceStore> adviser()
{
    return load(QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json"));
}

std::shared_ptr<TraceStore> otelDemo()
{
    return load(QStringLiteral(TRACELANE_REALDATA_DIR "/otel-tui/test_data.json"));
}

QString describe(const TraceStore &store, const WorkflowLanes::Segments &segments)
{
    QStringList parts;
    for (qint32 i = 0; i < segments.count; ++i) {
        parts.append(QStringLiteral("%1:%2 %3-%4")
                         .arg(workKindKey(segments.kind[i]),
                              segments.span[i] < 0 ? QStringLiteral("-") : store.spans.name(segments.span[i]))
                         .arg(double(segments.begin[i]))
                         .arg(double(segments.end[i])));
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace

class tst_WorkflowLanes : public QObject
{
    Q_OBJECT
private slots:
    void adviserLane();
    void lookupByTime();
    void threadsGiveTheSameLanes();
    void longLivedStreamsAreFlagged();
    void aggregateCountsTheCriticalKind();
    void requestActivitySkipsWorkflowRows();
    void flatTraceHasNoLanes();
    void rootNameGroupsWhenTheTypeIsNamed();
    void cancelled();
};

void tst_WorkflowLanes::adviserLane()
{
    const auto store = adviser();
    const WorkflowLanes lanes = WorkflowLanes::build(*store);
    QCOMPARE(lanes.laneCount(), 1);
    const qint32 row = store->workflows.requestRow[0];
    QCOMPARE(lanes.laneOfRow(row), 0);
    QCOMPARE(lanes.rowOfLane(0), row);
    QCOMPARE(lanes.origin(0), qint64(1736935200000000000));
    QCOMPARE(lanes.flags(0), quint8(WorkflowLanes::NoFlags));
    QCOMPARE(describe(*store, lanes.path(0)),
             QStringLiteral("network:inbound transit 0-70, gateway:gateway and policy 70-115,"
                            " retrieval:policy retrieval 115-545, preparation:prompt assembly 545-570,"
                            " queue:model call: tool proposal 570-1180, prefill:model call: tool proposal 1180-1465,"
                            " first_token:model call: tool proposal 1465-1550,"
                            " decode:model call: tool proposal 1550-1946, tool:calculation tool 1946-2706,"
                            " model_call:model call: final answer 2706-3346,"
                            " decode:model call: final answer 3346-5986"));
    QCOMPARE(describe(*store, lanes.offPath(0)), QStringLiteral("retrieval:account retrieval 115-395"));
    // The path's kinds add up to the workflow's E2E, 5,986 ms.
    qint64 total = 0;
    for (const qint64 ns : lanes.pathTotals())
        total += ns;
    QCOMPARE(total, qint64(5'986'000'000));
    QCOMPARE(lanes.pathTotals()[size_t(WorkKind::Decode)], qint64((396 + 2640) * 1'000'000LL));
    QVERIFY(lanes.shows(WorkKind::Tool));
    QVERIFY(!lanes.shows(WorkKind::Coordination)); // the agent's own time is never on the path here
    QVERIFY(!lanes.shows(WorkKind::Idle));
    QCOMPARE(lanes.segmentCount(), qint64(12));
}

void tst_WorkflowLanes::lookupByTime()
{
    const auto store = adviser();
    const WorkflowLanes lanes = WorkflowLanes::build(*store);
    const auto path = lanes.path(0);
    QCOMPARE(path.indexAt(0.0f), 0);
    QCOMPARE(path.indexAt(69.9f), 0);
    QCOMPARE(path.indexAt(70.0f), 1);
    QCOMPARE(path.kind[path.indexAt(2000.0f)], WorkKind::Tool);
    QCOMPARE(path.indexAt(5986.0f), -1);
    QCOMPARE(path.indexAt(-1.0f), -1);
    const auto offPath = lanes.offPath(0);
    QCOMPARE(offPath.indexAt(300.0f), 0);
    QCOMPARE(offPath.indexAt(400.0f), -1);
}

void tst_WorkflowLanes::threadsGiveTheSameLanes()
{
    const auto store = otelDemo();
    const WorkflowLanes one = WorkflowLanes::build(*store, nullptr, 1);
    const WorkflowLanes two = WorkflowLanes::build(*store, nullptr, 2);
    QCOMPARE(one.laneCount(), 141);
    QCOMPARE(two.laneCount(), 141);
    QCOMPARE(one.segmentCount(), two.segmentCount());
    for (qint32 lane = 0; lane < one.laneCount(); ++lane) {
        QCOMPARE(describe(*store, one.path(lane)), describe(*store, two.path(lane)));
        QCOMPARE(describe(*store, one.offPath(lane)), describe(*store, two.offPath(lane)));
        QCOMPARE(one.origin(lane), two.origin(lane));
        QCOMPARE(one.flags(lane), two.flags(lane));
        QVERIFY(one.path(lane).count > 0);
    }
    QCOMPARE(one.pathTotals(), two.pathTotals());
}

void tst_WorkflowLanes::longLivedStreamsAreFlagged()
{
    // Three flagd EventStream connections (48.5 s, 37.5 s, 30.1 s, one span
    // each) are streams; the 5 s CartService call with a child is a request.
    const auto store = otelDemo();
    const auto flags = LongLivedStreams::find(*store);
    QStringList flagged;
    for (size_t w = 0; w < flags.size(); ++w) {
        if (flags[w])
            flagged.append(store->spans.name(store->workflows.firstSpan[w]));
    }
    flagged.sort();
    QCOMPARE(flagged,
             QStringList({QStringLiteral("flagd.evaluation.v1.Service/EventStream"),
                          QStringLiteral("schema.v1.Service/EventStream"),
                          QStringLiteral("schema.v1.Service/EventStream")}));
    const WorkflowLanes lanes = WorkflowLanes::build(*store);
    qint32 lanesFlagged = 0;
    for (qint32 lane = 0; lane < lanes.laneCount(); ++lane)
        lanesFlagged += (lanes.flags(lane) & WorkflowLanes::LongLivedStream) ? 1 : 0;
    QCOMPARE(lanesFlagged, 3);
    QCOMPARE(LongLivedStreams::find(*adviser()), std::vector<quint8>{0}); // one workflow: nothing to compare
}

void tst_WorkflowLanes::aggregateCountsTheCriticalKind()
{
    const auto store = adviser();
    const WorkflowLanes lanes = WorkflowLanes::build(*store);
    const LaneLayout layout = LaneLayout::build(store->requests, LaneOrder{}, nullptr);
    // One bin per ms over the workflow.
    WorkActivity activity(5986);
    activity.addLanes(layout, lanes, 0, layout.slotCount(), false, lanes.origin(0), 5'986'000'000);
    activity.finish();
    QCOMPARE(activity.laneCount(), qint64(1));
    const auto kindAt = [&](int ms) { return WorkKind(WorkActivity::dominant(activity.binValues(ms))); };
    QCOMPARE(kindAt(30), WorkKind::Network);
    QCOMPARE(kindAt(300), WorkKind::Retrieval);
    QCOMPARE(activity.value(300, int(WorkKind::Retrieval)), 1.0f); // the path only: the parallel branch is not counted
    QCOMPARE(kindAt(1000), WorkKind::Queue);
    QCOMPARE(kindAt(1300), WorkKind::Prefill);
    QCOMPARE(kindAt(1500), WorkKind::FirstToken);
    QCOMPARE(kindAt(2000), WorkKind::Tool);
    QCOMPARE(kindAt(3000), WorkKind::ModelCall);
    QCOMPARE(kindAt(5000), WorkKind::Decode);
    // Aligned axis: the window starts at the lane's own origin (0).
    WorkActivity aligned(100);
    aligned.addLanes(layout, lanes, 0, layout.slotCount(), true, 0, 100'000'000);
    aligned.finish();
    QCOMPARE(WorkKind(WorkActivity::dominant(aligned.binValues(50))), WorkKind::Network);
    QCOMPARE(WorkKind(WorkActivity::dominant(aligned.binValues(90))), WorkKind::Gateway);
    QCOMPARE(WorkActivity::dominant(aligned.binValues(0)) >= 0, true);
}

void tst_WorkflowLanes::requestActivitySkipsWorkflowRows()
{
    const auto store = adviser();
    const WorkflowLanes lanes = WorkflowLanes::build(*store);
    const LaneLayout layout = LaneLayout::build(store->requests, LaneOrder{}, nullptr);
    LaneActivity without(100);
    without.addLanes(layout, 0, layout.slotCount(), false, lanes.origin(0), 6'000'000'000);
    QCOMPARE(without.laneCount(), qint64(1));
    LaneActivity with(100);
    with.addLanes(layout, 0, layout.slotCount(), false, lanes.origin(0), 6'000'000'000, &lanes);
    QCOMPARE(with.laneCount(), qint64(0));
    QVERIFY(with.lastTouched() < with.firstTouched());
}

void tst_WorkflowLanes::flatTraceHasNoLanes()
{
    const auto store = load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/three-requests.jsonl"));
    const WorkflowLanes lanes = WorkflowLanes::build(*store, nullptr, 2);
    QVERIFY(lanes.isEmpty());
    QCOMPARE(lanes.laneOfRow(0), -1);
    QCOMPARE(lanes.laneOfRow(-1), -1);
}

void tst_WorkflowLanes::rootNameGroupsWhenTheTypeIsNamed()
{
    // The adviser names its type in the contract: its root's name is a
    // class of its own. The OpenTelemetry demo's type is its root's name.
    const auto store = adviser();
    const AttributeColumn *type = store->requests.attribute(QStringLiteral("workflow_type"));
    const AttributeColumn *root = store->requests.attribute(QStringLiteral("root_name"));
    QVERIFY(type && root);
    QCOMPARE(type->text(0), QStringLiteral("governed adviser"));
    QCOMPARE(root->text(0), QStringLiteral("governed adviser response"));
    QVERIFY(!otelDemo()->requests.attribute(QStringLiteral("root_name")));
}

void tst_WorkflowLanes::cancelled()
{
    const auto store = otelDemo();
    const std::atomic<bool> stop(true);
    QVERIFY(WorkflowLanes::build(*store, &stop, 2).isEmpty());
}

QTEST_GUILESS_MAIN(tst_WorkflowLanes)
#include "tst_workflowlanes.moc"
