#include "TraceBuilder.h"

#include "analysis/classes/ClassColumn.h"
#include "analysis/classes/ClassFilter.h"

#include <QTest>

#include <limits>

namespace {

QStringList keysOf(const std::vector<ClassDimension> &dimensions)
{
    QStringList keys;
    for (const auto &dimension : dimensions)
        keys << dimension.key;
    return keys;
}

// Class label of every row, to compare a whole column at once.
QStringList labelsOf(const ClassColumn &column)
{
    QStringList labels;
    for (const quint32 code : column.codes)
        labels << column.classes[code];
    return labels;
}

ClassColumn columnFor(const std::shared_ptr<TraceStore> &store, const QString &key, const ClassBands &bands = {})
{
    ClassDimension dimension;
    if (!classDimensionFromKey(store->requests, key, &dimension))
        return {};
    return ClassColumn::build(store->requests, dimension, bands);
}

} // namespace

class tst_ClassDimensions : public QObject
{
    Q_OBJECT
private slots:
    void dimensionsOfATrace();
    void tokenBandLabels_data();
    void tokenBandLabels();
    void tokenBandParsing_data();
    void tokenBandParsing();
    void promptBands();
    void editedBands();
    void cachedPrefixStatus_data();
    void cachedPrefixStatus();
    void numericAttributeWithFewValuesIsCategorical();
    void numericAttributeWithManyValuesIsBandedAtQuartiles();
    void numericAttributeWithNoValueIsOneNoneClass();
    void numericAttributeOfMostlyOneValueIsBandedAtTheNext();
    void textClassesSortNaturallyWithNoneLast();
    void filterSelectsClasses();
    void filterErrors_data();
    void filterErrors();
};

void tst_ClassDimensions::dimensionsOfATrace()
{
    TraceBuilder builder;
    builder.add(TestRequest()
                    .with(QStringLiteral("region"), QStringLiteral("eu"))
                    .with(QStringLiteral("cached_prefix"), QStringLiteral("true"))
                    .with(QStringLiteral("workflow_type"), QStringLiteral("rag"))
                    .withNumber(QStringLiteral("tenant_tier"), 1));
    const auto store = builder.store();
    const auto dimensions = classDimensions(store->requests);
    QCOMPARE(
        keysOf(dimensions),
        QStringList({QStringLiteral("region"), QStringLiteral("tenant_tier"), QStringLiteral("prompt_band"),
                     QStringLiteral("output_band"), QStringLiteral("cached_prefix"), QStringLiteral("workflow_type")}));
    QCOMPARE(dimensions[4].kind, ClassDimension::Kind::CachedPrefix);
    QCOMPARE(dimensions[5].kind, ClassDimension::Kind::WorkflowType);
    QCOMPARE(dimensions[5].label, QStringLiteral("Workflow type"));

    ClassDimension found;
    QVERIFY(classDimensionFromKey(store->requests, QStringLiteral("Prompt_Band"), &found));
    QCOMPARE(found.kind, ClassDimension::Kind::PromptBand);
    QVERIFY(!classDimensionFromKey(store->requests, QStringLiteral("route"), &found));

    // Without cache or workflow attributes those dimensions are not offered.
    TraceBuilder plain;
    plain.add(TestRequest());
    QCOMPARE(keysOf(classDimensions(plain.store()->requests)),
             QStringList({QStringLiteral("prompt_band"), QStringLiteral("output_band")}));
}

void tst_ClassDimensions::tokenBandLabels_data()
{
    QTest::addColumn<QList<qint32>>("edges");
    QTest::addColumn<QStringList>("labels");
    QTest::newRow("defaults") << QList<qint32>{512, 2048, 8192}
                              << QStringList{QStringLiteral("<512"), QStringLiteral("512\u20132k"),
                                             QStringLiteral("2k\u20138k"), QStringLiteral("\u22658k")};
    QTest::newRow("one edge") << QList<qint32>{1000} << QStringList{QStringLiteral("<1k"), QStringLiteral("\u22651k")};
    QTest::newRow("half k and plain") << QList<qint32>{300, 1536}
                                      << QStringList{QStringLiteral("<300"), QStringLiteral("300\u20131.5k"),
                                                     QStringLiteral("\u22651.5k")};
}

void tst_ClassDimensions::tokenBandLabels()
{
    QFETCH(QList<qint32>, edges);
    QFETCH(QStringList, labels);
    QCOMPARE(TokenBands(std::vector<qint32>(edges.begin(), edges.end())).labels(), labels);
}

void tst_ClassDimensions::tokenBandParsing_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QList<qint32>>("edges");
    QTest::addColumn<QString>("error");
    QTest::newRow("numbers") << "512,2048,8192" << true << QList<qint32>{512, 2048, 8192} << "";
    QTest::newRow("k suffix and spaces") << " 1k, 4K ,16k" << true << QList<qint32>{1024, 4096, 16384} << "";
    QTest::newRow("not ascending") << "2048,512" << false << QList<qint32>{}
                                   << "band edges must be strictly ascending (512 after 2048)";
    QTest::newRow("not a number") << "512,lots" << false << QList<qint32>{}
                                  << "band edge 'lots' is not a positive token count";
    QTest::newRow("zero") << "0,100" << false << QList<qint32>{} << "band edge '0' is not a positive token count";
    QTest::newRow("empty") << "" << false << QList<qint32>{} << "no band edges given";
}

void tst_ClassDimensions::tokenBandParsing()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(QList<qint32>, edges);
    QFETCH(QString, error);
    TokenBands bands;
    QString message;
    QCOMPARE(TokenBands::parse(text, &bands, &message), ok);
    QCOMPARE(message, error);
    if (ok)
        QCOMPARE(bands.edges(), std::vector<qint32>(edges.begin(), edges.end()));
}

void tst_ClassDimensions::promptBands()
{
    TraceBuilder builder;
    for (const qint32 tokens : {1, 511, 512, 2047, 2048, 8191, 8192, 100000}) {
        TestRequest request;
        request.promptTokens = tokens;
        builder.add(request);
    }
    TestRequest unknown;
    unknown.promptTokens = 0; // the source did not say
    builder.add(unknown);
    const auto column = columnFor(builder.store(), QStringLiteral("prompt_band"));
    QCOMPARE(column.classes,
             QStringList({QStringLiteral("<512"), QStringLiteral("512\u20132k"), QStringLiteral("2k\u20138k"),
                          QStringLiteral("\u22658k"), QStringLiteral("(none)")}));
    QCOMPARE(column.codes, ColumnVector<quint32>({0, 0, 1, 1, 2, 2, 3, 3, 4}));
}

void tst_ClassDimensions::editedBands()
{
    TraceBuilder builder;
    for (const qint32 tokens : {10, 99, 100, 5000}) {
        TestRequest request;
        request.outputTokens = tokens;
        builder.add(request);
    }
    ClassBands bands;
    bands.output = TokenBands({100});
    const auto column = columnFor(builder.store(), QStringLiteral("output_band"), bands);
    QCOMPARE(column.classes, QStringList({QStringLiteral("<100"), QStringLiteral("\u2265100")}));
    QCOMPARE(labelsOf(column),
             QStringList({QStringLiteral("<100"), QStringLiteral("<100"), QStringLiteral("\u2265100"),
                          QStringLiteral("\u2265100")}));
}

void tst_ClassDimensions::cachedPrefixStatus_data()
{
    QTest::addColumn<QString>("attribute");
    QTest::addColumn<QStringList>("values");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("booleans") << "cached_prefix"
                              << QStringList{QStringLiteral("true"), QStringLiteral("false"), QString()}
                              << QStringList{QStringLiteral("cached"), QStringLiteral("not cached"),
                                             QStringLiteral("(none)")};
    QTest::newRow("hit and miss under another name")
        << "prefix_cache" << QStringList{QStringLiteral("miss"), QStringLiteral("HIT"), QStringLiteral("partial")}
        << QStringList{QStringLiteral("not cached"), QStringLiteral("cached"), QStringLiteral("partial")};
}

void tst_ClassDimensions::cachedPrefixStatus()
{
    QFETCH(QString, attribute);
    QFETCH(QStringList, values);
    QFETCH(QStringList, expected);
    TraceBuilder builder;
    for (const QString &value : values) {
        TestRequest request;
        if (!value.isEmpty())
            request.with(attribute, value);
        else
            request.with(QStringLiteral("other"), QStringLiteral("x"));
        builder.add(request);
    }
    const auto column = columnFor(builder.store(), QStringLiteral("cached_prefix"));
    QCOMPARE(column.dimension.source, attribute);
    QCOMPARE(labelsOf(column), expected);
}

void tst_ClassDimensions::numericAttributeWithFewValuesIsCategorical()
{
    TraceBuilder builder;
    for (const double tier : {3.0, 1.0, 2.0, 10.0, 1.0})
        builder.add(TestRequest().withNumber(QStringLiteral("tenant_tier"), tier));
    const auto column = columnFor(builder.store(), QStringLiteral("tenant_tier"));
    QCOMPARE(column.classes,
             QStringList({QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3"), QStringLiteral("10")}));
    QCOMPARE(column.codes, ColumnVector<quint32>({2, 0, 1, 3, 0}));
    // Cached-token counts: any is "cached".
    TraceBuilder tokens;
    for (const double cached : {0.0, 128.0, 4096.0})
        tokens.add(TestRequest().withNumber(QStringLiteral("cached_tokens"), cached));
    QCOMPARE(labelsOf(columnFor(tokens.store(), QStringLiteral("cached_prefix"))),
             QStringList({QStringLiteral("not cached"), QStringLiteral("cached"), QStringLiteral("cached")}));
}

// A numeric column whose every kept value is absent (its only values were
// on records the loader rejected): one "(none)" class. It used to take
// std::next of an empty set's begin and never return (found by fuzzing the
// class table: tests/data/fuzz-regressions/seed-numeric-attribute-only-rejected.jsonl).
void tst_ClassDimensions::numericAttributeWithNoValueIsOneNoneClass()
{
    TraceBuilder builder;
    for (int i = 0; i < 3; ++i)
        builder.add(TestRequest().withNumber(QStringLiteral("tenant_tier"), std::numeric_limits<double>::quiet_NaN()));
    const auto column = columnFor(builder.store(), QStringLiteral("tenant_tier"));
    QCOMPARE(column.classes, QStringList({QStringLiteral("(none)")}));
    QCOMPARE(column.codes, ColumnVector<quint32>({0, 0, 0}));
}

void tst_ClassDimensions::numericAttributeWithManyValuesIsBandedAtQuartiles()
{
    TraceBuilder builder;
    for (int i = 1; i <= 21; ++i)
        builder.add(TestRequest().withNumber(QStringLiteral("queue_depth"), i));
    builder.add(TestRequest()); // no value
    const auto column = columnFor(builder.store(), QStringLiteral("queue_depth"));
    // Quartiles of 1..21 by the seed's interpolation: 6, 11, 16.
    QCOMPARE(column.classes,
             QStringList({QStringLiteral("<6"), QStringLiteral("6\u201311"), QStringLiteral("11\u201316"),
                          QStringLiteral("\u226516"), QStringLiteral("(none)")}));
    QCOMPARE(column.codes[4], 0u);  // 5
    QCOMPARE(column.codes[5], 1u);  // 6
    QCOMPARE(column.codes[15], 3u); // 16
    QCOMPARE(column.codes[21], 4u); // absent
}

// 40 zeros and 1..13: every quartile is 0, the lowest value. The zeros are
// one band and the rest another, labelled by the next value up (it used to
// be one band of all 53 values labelled "0").
void tst_ClassDimensions::numericAttributeOfMostlyOneValueIsBandedAtTheNext()
{
    TraceBuilder builder;
    for (int i = 0; i < 40; ++i)
        builder.add(TestRequest().withNumber(QStringLiteral("retries"), 0));
    for (int i = 13; i >= 1; --i)
        builder.add(TestRequest().withNumber(QStringLiteral("retries"), i));
    const auto column = columnFor(builder.store(), QStringLiteral("retries"));
    QCOMPARE(column.classes, QStringList({QStringLiteral("<1"), QStringLiteral("\u22651")}));
    QCOMPARE(column.bandEdges, std::vector<double>({1.0}));
    QCOMPARE(column.codes[0], 0u);  // 0
    QCOMPARE(column.codes[40], 1u); // 13
    QCOMPARE(column.codes[52], 1u); // 1
}

void tst_ClassDimensions::textClassesSortNaturallyWithNoneLast()
{
    TraceBuilder builder;
    for (const auto *value : {"node-10", "Beta", "node-2", "", "alpha", "7", "10"}) {
        TestRequest request;
        if (*value)
            request.with(QStringLiteral("route"), QString::fromLatin1(value));
        else
            request.with(QStringLiteral("other"), QStringLiteral("x"));
        builder.add(request);
    }
    const auto column = columnFor(builder.store(), QStringLiteral("route"));
    QCOMPARE(column.classes,
             QStringList({QStringLiteral("7"), QStringLiteral("10"), QStringLiteral("alpha"), QStringLiteral("Beta"),
                          QStringLiteral("node-10"), QStringLiteral("node-2"), QStringLiteral("(none)")}));
}

void tst_ClassDimensions::filterSelectsClasses()
{
    TraceBuilder builder;
    const QStringList regions = {QStringLiteral("eu"), QStringLiteral("us"), QStringLiteral("ap")};
    for (int i = 0; i < 9; ++i) {
        TestRequest request;
        request.promptTokens = i < 3 ? 100 : 4000;
        builder.add(request.with(QStringLiteral("region"), regions[i % 3]));
    }
    const auto store = builder.store();
    ClassFilter filter;
    QString error;
    QVERIFY(ClassFilter::parse(QStringLiteral("region=eu, region=us,prompt_band=2k\u20138k"), &filter, &error));
    QCOMPARE(filter.describe(), QStringLiteral("region = eu, region = us, prompt_band = 2k\u20138k"));
    const RequestSlice slice = filter.apply(store->requests, {}, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // (eu or us) and a long prompt: rows 3, 4, 6, 7.
    QCOMPARE(slice.rows(), std::vector<qint32>({3, 4, 6, 7}));
    QCOMPARE(ClassFilter().apply(store->requests).size(), qsizetype(9));
    QCOMPARE(ClassFilter().describe(), QStringLiteral("all requests"));
}

void tst_ClassDimensions::filterErrors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("unknown dimension") << "route=a"
                                       << "no class dimension 'route' in this trace";
    QTest::newRow("unknown class") << "region=mars"
                                   << "region has no class 'mars' (classes: eu, us)";
}

void tst_ClassDimensions::filterErrors()
{
    QFETCH(QString, text);
    QFETCH(QString, error);
    TraceBuilder builder;
    builder.add(TestRequest().with(QStringLiteral("region"), QStringLiteral("eu")));
    builder.add(TestRequest().with(QStringLiteral("region"), QStringLiteral("us")));
    const auto store = builder.store();
    ClassFilter filter;
    QString message;
    QVERIFY(ClassFilter::parse(text, &filter, &message));
    const RequestSlice slice = filter.apply(store->requests, {}, &message);
    QCOMPARE(message, error);
    QCOMPARE(slice.size(), qsizetype(0));
    QVERIFY(!ClassFilter::parse(QStringLiteral("region"), &filter, &message));
    QCOMPARE(message, QStringLiteral("'region' is not DIMENSION=VALUE"));
}

QTEST_GUILESS_MAIN(tst_ClassDimensions)
#include "tst_classdimensions.moc"
