// What the two traces of a comparison are called: their file names, or the
// shortest tail of their paths that tells them apart.

#include "analysis/compare/SideNames.h"

#include <QDir>
#include <QTest>

class tst_SideNames : public QObject
{
    Q_OBJECT
private slots:
    void distinguish_data();
    void distinguish();
    void relativePathsAreResolved();
};

void tst_SideNames::distinguish_data()
{
    QTest::addColumn<QString>("baseline");
    QTest::addColumn<QString>("candidate");
    QTest::addColumn<QString>("baselineName");
    QTest::addColumn<QString>("candidateName");
    QTest::newRow("different file names") << "/data/a/base.jsonl"
                                          << "/data/b/cand.csv"
                                          << "base.jsonl"
                                          << "cand.csv";
    QTest::newRow("same name, parent folders differ")
        << "/r/llm-d-benchmark/vllm-70b-2replicas/LMBench_sharegpt_output_1.csv"
        << "/r/llm-d-benchmark/llm-d-70b-2replicas/LMBench_sharegpt_output_1.csv"
        << "vllm-70b-2replicas/LMBench_sharegpt_output_1.csv"
        << "llm-d-70b-2replicas/LMBench_sharegpt_output_1.csv";
    QTest::newRow("same name, folders differ further up") << "/runs/before/results/out.csv"
                                                          << "/runs/after/results/out.csv"
                                                          << "before/\u2026/out.csv"
                                                          << "after/\u2026/out.csv";
    QTest::newRow("same name, one side deeper") << "/a/out.csv"
                                                << "/b/a/out.csv"
                                                << "/a/out.csv"
                                                << "b/\u2026/out.csv";
    QTest::newRow("the same file on both sides") << "/x/y/out.csv"
                                                 << "/x/y/out.csv"
                                                 << "out.csv"
                                                 << "out.csv";
    QTest::newRow("same file written two ways") << "/x/./y/../y/out.csv"
                                                << "/x/y/out.csv"
                                                << "out.csv"
                                                << "out.csv";
}

void tst_SideNames::distinguish()
{
    QFETCH(QString, baseline);
    QFETCH(QString, candidate);
    QFETCH(QString, baselineName);
    QFETCH(QString, candidateName);
    const auto [base, cand] = SideNames::distinguish(baseline, candidate);
    QCOMPARE(base, baselineName);
    QCOMPARE(cand, candidateName);
}

void tst_SideNames::relativePathsAreResolved()
{
    // Relative to the working directory, as a command line gives them.
    const QString here = QDir::current().dirName();
    const auto [base, cand] = SideNames::distinguish(QStringLiteral("out.csv"), QStringLiteral("../other/out.csv"));
    QCOMPARE(base, here + QStringLiteral("/out.csv"));
    QCOMPARE(cand, QStringLiteral("other/out.csv"));
}

QTEST_GUILESS_MAIN(tst_SideNames)
#include "tst_sidenames.moc"
