#pragma once

#include "AttributeProjection.h"
#include "SeedTokenTimes.h"
#include "store/Stamp.h"

#include <QString>

#include <array>
#include <string>
#include <string_view>
#include <vector>

// One line of the seed JSONL format, parsed but not yet stored. Reused from
// line to line by a parser so a million lines do not cost a million
// allocations.
struct SeedRecord
{
    enum class Token : int { Prompt, Output };

    struct Attribute
    {
        enum class Type { Text, Number, Bool, Null };
        std::string key;
        Type type = Type::Null;
        std::string text;
        double number = 0.0;
        bool boolean = false;
    };

    std::string requestId;
    bool hasRequestId = false;
    std::array<qint64, 2> tokens{};
    std::array<bool, 2> hasToken{};
    std::array<qint64, kStampCount> stamps{};
    std::array<bool, kStampCount> hasStamp{};
    std::vector<Attribute> attributes;
    int attributeCount = 0;
    std::vector<std::string> nonScalarFields;
    SeedTokenTimes tokenTimes;

    // The keys of the records read before, in their order, with which field
    // each was (SeedField and SeedTokenTimes::Field as ints): records of one
    // file nearly always list the same keys in the same order, so a key is
    // recognised by one comparison. Kept across clear().
    struct KnownKey
    {
        std::string key;
        int field = 0;
        int tokenField = 0;
        bool kept = true; // an attribute the projection stores
    };
    std::vector<KnownKey> knownKeys; // changed only by a key that none matched
    static constexpr size_t kMaxKnownKeys = 64;
    size_t keysSeen = 0; // keys of the current record so far
    // The attributes to store; null: every one. Kept across clear().
    const AttributeProjection *projection = nullptr;

    // Why the record is refused; empty while it is acceptable.
    QString errorField;
    QString errorReason;

    bool hasError() const { return !errorReason.isEmpty(); }
    void fail(const QString &field, const QString &reason)
    {
        if (hasError())
            return; // the first problem is the one reported
        errorField = field;
        errorReason = reason;
    }

    Attribute &nextAttribute()
    {
        if (attributeCount == int(attributes.size()))
            attributes.emplace_back();
        return attributes[size_t(attributeCount++)];
    }

    void clear()
    {
        requestId.clear();
        hasRequestId = false;
        hasToken.fill(false);
        hasStamp.fill(false);
        attributeCount = 0;
        keysSeen = 0;
        nonScalarFields.clear();
        tokenTimes.clear();
        errorField.clear();
        errorReason.clear();
    }
};

// Contract fields of the seed format, as the JSON keys spell them.
enum class SeedField : int {
    RequestId,
    PromptTokens,
    OutputTokens,
    FirstStamp, // followed by the eight stamps in Stamp order
    NotAField = FirstStamp + kStampCount,
};

SeedField seedFieldOf(std::string_view key);
bool seedFieldMatches(SeedField field, std::string_view key);
QString seedFieldName(SeedField field);

// Parses one line (without its line end) into `record`. Returns false, with
// record.errorField/errorReason set, when the line is not an acceptable
// record: invalid JSON, wrong types, missing fields, non-positive tokens or
// stamps that run backwards.
bool parseSeedRecord(std::string_view line, SeedRecord &record);
