#pragma once

#include "JsonLexing.h"
#include "SeedRecord.h"

#include <string_view>

// Turns the key/value events of one top-level JSON object into a SeedRecord,
// checking each contract field's type as it arrives. Fed by the fast flat
// scanner and by nlohmann's SAX parser alike, so both paths judge a record
// the same way.
class SeedRecordBuilder
{
public:
    explicit SeedRecordBuilder(SeedRecord &record)
        : m_record(record)
    { }

    void key(std::string_view key);
    void text(std::string_view value);
    void integer(qint64 value);
    void hugeInteger(double approximate); // an integer beyond 64 bits
    void real(double value, std::string_view lexeme);
    void decimal(std::string_view lexeme); // a non-integer number, not yet converted
    // A decimal the scanner has already split into digits: a stamp is
    // converted from them (exactly as from the lexeme), others go to decimal().
    void fixedPoint(std::string_view lexeme, const JsonLexing::FixedPoint &number);
    void boolean(bool value);
    void null();
    void nested(); // the value is an object or array

    // Arrays of the per-token fields (SeedTokenTimes.cpp). The fast scanner
    // offers the array at s[pos] == '[' and learns whether it was consumed;
    // the SAX parser announces it and then hands over its elements.
    bool array(std::string_view s, size_t &pos);
    bool beginArray(); // false: not a token field (reported as nested)
    void arrayElement(std::string_view lexeme, bool integral, bool number);

    std::string_view currentKey() const { return m_key; }

private:
    enum class Kind { Text, Integer, HugeInteger, Real, Boolean, Null, Nested };
    static QString kindName(Kind kind);

    bool acceptOnce(bool alreadySeen);
    void readRequestId(Kind kind, std::string_view text, qint64 integer);
    void readTokens(int which, Kind kind, qint64 integer, double real, std::string_view lexeme);
    void readStamp(int index, Kind kind, qint64 integer, double real, std::string_view lexeme);
    void readAttribute(Kind kind, std::string_view text, double number, bool flag, std::string_view lexeme);
    void dispatch(Kind kind, std::string_view text, qint64 integer, double real, bool flag);

    SeedRecord &m_record;
    // The current key: a view of the known key it matched, or of m_keyText.
    std::string_view m_key;
    std::string m_keyText;
    SeedField m_field = SeedField::NotAField;
    SeedTokenTimes::Field m_tokenField = SeedTokenTimes::Field::None;
    bool m_kept = true; // the current key is an attribute the projection stores (or not an attribute)
};

inline bool isStampField(SeedField field)
{
    return field >= SeedField::FirstStamp && field < SeedField::NotAField;
}
