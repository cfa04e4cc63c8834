#include "io/FlatJsonScanner.h"

#include <QTest>

#include <string>
#include <vector>

// FlatJsonScanner reads plain strings eight bytes at a time: a quote, a
// backslash, a control character or a non-ASCII byte at any position of a
// key or a value, and a string cut off at the end of the line, must still
// send the record to the full parser, and every plain string of any length
// must come out whole.
class tst_FlatJsonScanner : public QObject
{
    Q_OBJECT
private slots:
    void plainStringsOfEveryLength();
    void specialByteAtEveryPosition_data();
    void specialByteAtEveryPosition();
    void unterminatedString();
};

namespace {

struct Collector
{
    std::vector<std::string> keys;
    std::vector<std::string> texts;
    void key(std::string_view key) { keys.emplace_back(key); }
    void text(std::string_view text) { texts.emplace_back(text); }
    void integer(qint64) { }
    void decimal(std::string_view) { }
    void boolean(bool) { }
    void null() { }
};

std::string plain(size_t length)
{
    std::string text;
    for (size_t i = 0; i < length; ++i)
        text += char('a' + i % 26);
    return text;
}

} // namespace

void tst_FlatJsonScanner::plainStringsOfEveryLength()
{
    for (size_t length = 0; length <= 40; ++length) {
        const std::string key = plain(length) + "_k";
        const std::string value = plain(length);
        const std::string line = "{\"" + key + "\":\"" + value + "\",\"n\":1}";
        Collector collector;
        QCOMPARE(FlatJsonScanner::scan(line, collector), FlatJsonScanner::Result::Ok);
        QCOMPARE(collector.keys.size(), size_t(2));
        QCOMPARE(collector.keys[0], key);
        QCOMPARE(collector.texts.size(), size_t(1));
        QCOMPARE(collector.texts[0], value);
    }
}

void tst_FlatJsonScanner::specialByteAtEveryPosition_data()
{
    QTest::addColumn<int>("byte");
    QTest::newRow("quote") << int('"');
    QTest::newRow("backslash") << int('\\');
    QTest::newRow("control 0x01") << 0x01;
    QTest::newRow("control 0x1f") << 0x1f;
    QTest::newRow("tab") << int('\t');
    QTest::newRow("non-ASCII 0x80") << 0x80;
    QTest::newRow("non-ASCII 0xff") << 0xff;
}

void tst_FlatJsonScanner::specialByteAtEveryPosition()
{
    QFETCH(int, byte);
    for (size_t length = 1; length <= 24; ++length) {
        for (size_t at = 0; at < length; ++at) {
            std::string special = plain(length);
            special[at] = char(byte);
            for (const bool inKey : {true, false}) {
                const std::string line = inKey ? "{\"" + special + "\":1}" : "{\"k\":\"" + special + "\"}";
                Collector collector;
                if (FlatJsonScanner::scan(line, collector) != FlatJsonScanner::Result::NeedsFullParser)
                    QFAIL(qPrintable(QStringLiteral("byte %1 at %2 of %3 (%4) was accepted")
                                         .arg(byte)
                                         .arg(at)
                                         .arg(length)
                                         .arg(inKey ? QStringLiteral("key") : QStringLiteral("value"))));
            }
        }
    }
}

void tst_FlatJsonScanner::unterminatedString()
{
    for (size_t length = 0; length <= 20; ++length) {
        const std::string line = "{\"k\":\"" + plain(length);
        Collector collector;
        QCOMPARE(FlatJsonScanner::scan(line, collector), FlatJsonScanner::Result::NeedsFullParser);
        QVERIFY(collector.texts.empty());
    }
}

QTEST_GUILESS_MAIN(tst_FlatJsonScanner)
#include "tst_flatjsonscanner.moc"
