// SlicedDrain: what a LiveQueue holds is stored in bounded steps — one
// slice per step when the budget is spent, whole batches in arrival order,
// nothing lost or stored twice — and LiveQueue::take takes whole batches
// up to a span count.

#include "live/LiveQueue.h"
#include "live/SlicedDrain.h"

#include <QTest>

#include <vector>

namespace {

// A batch numbered `sequence` holding `spans` spans named "<sequence>.<i>".
ExportBatch batchOf(qint64 sequence, int spans)
{
    ExportBatch batch;
    batch.sequence = sequence;
    for (int i = 0; i < spans; ++i) {
        SpanRecord span;
        span.name = std::to_string(sequence) + '.' + std::to_string(i);
        batch.spans.push_back(span);
    }
    return batch;
}

} // namespace

class TestSlicedDrain : public QObject
{
    Q_OBJECT

private slots:
    void takeStopsAtTheSpanCount()
    {
        LiveQueue queue(1'000'000);
        for (int i = 1; i <= 5; ++i)
            queue.push(batchOf(i, 300));
        // 300 + 300 reach 500: two whole batches, never a batch cut.
        std::vector<ExportBatch> taken = queue.take(500);
        QCOMPARE(taken.size(), size_t(2));
        QCOMPARE(taken[0].sequence, 1);
        QCOMPARE(taken[1].sequence, 2);
        QCOMPARE(queue.bufferedSpans(), 900);
        // A batch larger than the slice still comes out (alone).
        queue.push(batchOf(6, 5000));
        taken = queue.take(100);
        QCOMPARE(taken.size(), size_t(1));
        QCOMPARE(taken[0].sequence, 3);
        QCOMPARE(queue.take(0).size(), size_t(1)); // at least one batch
        taken = queue.take(100);
        QCOMPARE(taken.size(), size_t(1));
        QCOMPARE(taken[0].sequence, 5);
        taken = queue.take(100);
        QCOMPARE(taken.size(), size_t(1));
        QCOMPARE(taken[0].spans.size(), size_t(5000));
        QCOMPARE(queue.bufferedSpans(), 0);
        QVERIFY(queue.take(100).empty());
    }

    void aStepOverItsBudgetTakesOneSlice()
    {
        LiveQueue queue(1'000'000);
        for (int i = 1; i <= 10; ++i)
            queue.push(batchOf(i, 512));
        // No time budget: each step stores exactly one slice (4 batches = 2,048 spans).
        SlicedDrain drain(queue, {2048, 0});
        std::vector<qint64> stored;
        const SlicedDrain::Store store = [&](ExportBatch &batch) { stored.push_back(batch.sequence); };
        QVERIFY(drain.step(store));
        QCOMPARE(stored, (std::vector<qint64>{1, 2, 3, 4}));
        QCOMPARE(queue.bufferedSpans(), 6 * 512);
        QVERIFY(drain.step(store));
        QCOMPARE(stored.size(), size_t(8));
        QVERIFY(!drain.step(store)); // the last two batches: nothing left
        QCOMPARE(stored, (std::vector<qint64>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
        QCOMPARE(drain.steps(), 3);
        QCOMPARE(drain.spansStored(), 5120);
        QCOMPARE(drain.batchesStored(), 10);
        QCOMPARE(drain.longestSliceSpans(), 2048);
        QVERIFY(drain.longestStepNs() > 0);
        // An empty queue: no step counted, nothing stored.
        QVERIFY(!drain.step(store));
        QCOMPARE(drain.steps(), 3);
    }

    void aGenerousBudgetEmptiesTheQueueInOneStep()
    {
        LiveQueue queue(1'000'000);
        for (int i = 1; i <= 10; ++i)
            queue.push(batchOf(i, 100));
        SlicedDrain drain(queue, {250, 60'000'000'000});
        qint64 spans = 0;
        QVERIFY(!drain.step([&](ExportBatch &batch) { spans += qint64(batch.spans.size()); }));
        QCOMPARE(spans, 1000);
        QCOMPARE(drain.steps(), 1);
        QCOMPARE(drain.longestSliceSpans(), 300); // 100 + 100 + 100 reach 250
    }

    void drainAllLosesNothingWhileBatchesArrive()
    {
        // Batches pushed between steps (as the receiver does) are stored once, in order.
        LiveQueue queue(1'000'000);
        SlicedDrain drain(queue, {64, 0});
        std::vector<std::string> names;
        const SlicedDrain::Store store = [&](ExportBatch &batch) {
            for (const SpanRecord &span : batch.spans)
                names.push_back(span.name);
        };
        qint64 sequence = 0;
        for (int round = 0; round < 20; ++round) {
            for (int i = 0; i < 3; ++i) {
                ++sequence;
                queue.push(batchOf(sequence, 7 + int(sequence % 50)));
            }
            drain.step(store);
        }
        drain.drainAll(store);
        std::vector<std::string> expected;
        for (qint64 s = 1; s <= sequence; ++s) {
            for (int i = 0; i < 7 + int(s % 50); ++i)
                expected.push_back(std::to_string(s) + '.' + std::to_string(i));
        }
        QCOMPARE(names.size(), expected.size());
        QVERIFY(names == expected);
        QCOMPARE(queue.bufferedSpans(), 0);
    }
};

QTEST_GUILESS_MAIN(TestSlicedDrain)
#include "tst_sliceddrain.moc"
