#pragma once

#include <QString>

#include <nlohmann/json.hpp>

#include <functional>
#include <string_view>

// nlohmann's DOM built from its SAX events on an explicit stack: the one way
// a loader turns a record or a small document into a DOM. It never throws and
// never recurses, and it leaves nothing behind that would: a container nested
// deeper than `maxDepth` is kept as null (and counted), so code that later
// walks, copies or dumps the DOM recursively has bounded depth. Integers too
// large for 64 bits can be kept as their exact decimal text (any-agent writes
// 128-bit ids as bare numbers). A complete value followed by more text is
// kept, and the rest reported as trailing data.
namespace JsonDom {

constexpr int kMaxDepth = 128;

struct Options
{
    bool lossless = false; // integers beyond 64 bits as decimal text
    int maxDepth = kMaxDepth;
    // Called when an object closes, with its depth (0 = the root, 1 = a
    // member or element of the root, ...); returning false drops it (Jaeger
    // reads each trace as soon as it is parsed and drops it).
    std::function<bool(int depth, nlohmann::json &object)> objectEnd;
};

struct Outcome
{
    enum class Status { Ok, SyntaxError, Truncated, TrailingData };
    Status status = Status::Ok;
    std::size_t errorByte = 0; // 1-based position nlohmann stopped at
    QString message;           // nlohmann's words without its prefixes
    qint64 tooDeep = 0;        // containers replaced by null

    bool ok() const { return status == Status::Ok; }
};

// On a syntax error `root` holds what was parsed before the error; the
// containers still open at that point are kept as far as they got.
Outcome parse(std::string_view text, nlohmann::json *root, const Options &options = {});

// nlohmann's exception text without "[json.exception.parse_error.101] parse
// error at line 1, column 5: ": what a user reads after "invalid JSON: ".
QString describe(const std::exception &error);

} // namespace JsonDom
