// Would a SIMD JSON library read seed records faster than our own scanner?
// (issue 14). The file is read into memory once; then, alternately and on one
// thread, every line goes through the same SeedRecordBuilder — which judges
// each field and converts stamps to integer ns — fed by:
//
//   flat      FlatJsonScanner (the loader's fast path);
//   line      simdjson On-Demand, one document per line (the line's own
//             buffer padded by the lines after it);
//   stream    simdjson On-Demand over the whole buffer (iterate_many),
//             which indexes many records per pass.
//
// simdjson hands numbers over as raw tokens; they are split into digits by
// the same JsonLexing::scanFixedPoint the scanner uses, so both sides deliver
// identical events and the records must agree (checked: counts and sums of
// every stamp and token count). Prints each reader's best time, MB/s, and the
// ratio against `flat`.
//
// On-Demand's kernel is chosen when this file is compiled: a portable build
// (x86-64 baseline, as the app ships) gets the scalar "fallback" kernel;
// tracelane-bench-json-scan-v3 is the same file built for x86-64-v3 and
// PCLMUL (AVX2 machines),
// which gets the "haswell" one, and our scanner is rebuilt that way too.
//
//   tracelane-bench-json-scan FILE [ROUNDS]

#include "io/FlatJsonScanner.h"
#include "io/JsonLexing.h"
#include "io/SeedRecord.h"
#include "io/SeedRecordBuilder.h"

#include <simdjson.h>

#include <QElapsedTimer>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace {

// What every reader must agree on.
struct Totals
{
    qint64 records = 0;
    qint64 failed = 0;
    qint64 tokenSum = 0;
    qint64 stampSum = 0; // wraps; equal wraps are equal sums

    bool operator==(const Totals &) const = default;
};

void addRecord(const SeedRecord &record, Totals &totals)
{
    if (record.hasError()) {
        ++totals.failed;
        return;
    }
    ++totals.records;
    totals.tokenSum += record.tokens[0] + record.tokens[1];
    for (const qint64 stamp : record.stamps)
        totals.stampSum = qint64(quint64(totals.stampSum) + quint64(stamp));
}

template<typename Visit> void forEachLine(std::string_view text, Visit visit)
{
    size_t begin = 0;
    while (begin < text.size()) {
        size_t end = text.find('\n', begin);
        if (end == std::string_view::npos)
            end = text.size();
        if (end > begin)
            visit(text.substr(begin, end - begin));
        begin = end + 1;
    }
}

Totals readFlat(std::string_view text)
{
    Totals totals;
    SeedRecord record;
    forEachLine(text, [&](std::string_view line) {
        record.clear();
        SeedRecordBuilder builder(record);
        if (FlatJsonScanner::scan(line, builder) != FlatJsonScanner::Result::Ok)
            record.fail({}, QStringLiteral("not flat"));
        addRecord(record, totals);
    });
    return totals;
}

// One number as the scanner would deliver it.
void deliverNumber(std::string_view token, SeedRecordBuilder &builder)
{
    while (!token.empty() && (token.back() == ' ' || token.back() == '\t' || token.back() == '\r'))
        token.remove_suffix(1);
    size_t pos = 0;
    std::string_view lexeme;
    JsonLexing::FixedPoint number;
    if (JsonLexing::scanFixedPoint(token, pos, &lexeme, &number) && pos == token.size()) {
        if (number.integral) {
            const auto value = qint64(number.digits);
            builder.integer(number.negative ? -value : value);
        } else {
            builder.fixedPoint(lexeme, number);
        }
        return;
    }
    qint64 value = 0;
    const auto parsed = std::from_chars(token.data(), token.data() + token.size(), value);
    if (parsed.ec == std::errc() && parsed.ptr == token.data() + token.size())
        builder.integer(value);
    else
        builder.decimal(token);
}

// Feeds one On-Demand object's fields to the builder; false on any error.
template<typename Object> bool feedObject(Object &object, SeedRecordBuilder &builder)
{
    namespace od = simdjson::ondemand;
    for (auto field : object) {
        std::string_view key;
        if (field.unescaped_key().get(key) != simdjson::SUCCESS)
            return false;
        builder.key(key);
        od::value value;
        if (field.value().get(value) != simdjson::SUCCESS)
            return false;
        od::json_type type{};
        if (value.type().get(type) != simdjson::SUCCESS)
            return false;
        switch (type) {
        case od::json_type::number:
            deliverNumber(value.raw_json_token(), builder);
            break;
        case od::json_type::string: {
            std::string_view text;
            if (value.get_string().get(text) != simdjson::SUCCESS)
                return false;
            builder.text(text);
            break;
        }
        case od::json_type::boolean: {
            bool flag = false;
            if (value.get_bool().get(flag) != simdjson::SUCCESS)
                return false;
            builder.boolean(flag);
            break;
        }
        case od::json_type::null:
            builder.null();
            break;
        default:
            builder.nested(); // the generated files have no arrays or objects
            break;
        }
    }
    return true;
}

Totals readLines(const simdjson::padded_string &text)
{
    Totals totals;
    SeedRecord record;
    simdjson::ondemand::parser parser;
    const std::string_view all(text.data(), text.size());
    forEachLine(all, [&](std::string_view line) {
        record.clear();
        SeedRecordBuilder builder(record);
        // The bytes after the line (the rest of the buffer and its padding)
        // are the padding simdjson needs.
        const size_t capacity = size_t(all.data() + all.size() - line.data()) + simdjson::SIMDJSON_PADDING;
        simdjson::ondemand::document document;
        simdjson::ondemand::object object;
        if (parser.iterate(line.data(), line.size(), capacity).get(document) != simdjson::SUCCESS
            || document.get_object().get(object) != simdjson::SUCCESS || !feedObject(object, builder))
            record.fail({}, QStringLiteral("invalid"));
        addRecord(record, totals);
    });
    return totals;
}

Totals readStream(const simdjson::padded_string &text)
{
    Totals totals;
    SeedRecord record;
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document_stream documents;
    if (parser.iterate_many(text, size_t(4) << 20).get(documents) != simdjson::SUCCESS)
        return totals;
    for (auto result : documents) {
        record.clear();
        SeedRecordBuilder builder(record);
        simdjson::ondemand::document_reference document;
        simdjson::ondemand::object object;
        if (std::move(result).get(document) != simdjson::SUCCESS
            || document.get_object().get(object) != simdjson::SUCCESS || !feedObject(object, builder))
            record.fail({}, QStringLiteral("invalid"));
        addRecord(record, totals);
    }
    return totals;
}

} // namespace

int main(int argc, char *argv[])
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: tracelane-bench-json-scan FILE [ROUNDS]\n");
        return 2;
    }
    const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    simdjson::padded_string text;
    if (simdjson::padded_string::load(argv[1]).get(text) != simdjson::SUCCESS) {
        std::fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    const double megabytes = double(text.size()) / 1e6;
    const std::string_view all(text.data(), text.size());
    struct Reader
    {
        const char *name;
        std::function<Totals()> read;
        double best = 1e300;
        Totals totals;
    };
    std::vector<Reader> readers = {
        {"flat (ours)", [&] { return readFlat(all); }, 1e300, {}},
        {"simdjson line", [&] { return readLines(text); }, 1e300, {}},
        {"simdjson stream", [&] { return readStream(text); }, 1e300, {}},
    };
    std::printf(
        "%s: %.1f MB; simdjson %d.%d.%d, On-Demand kernel %s (compiled in); best of %d, alternating, one thread\n",
        argv[1], megabytes, int(simdjson::SIMDJSON_VERSION_MAJOR), int(simdjson::SIMDJSON_VERSION_MINOR),
        int(simdjson::SIMDJSON_VERSION_REVISION), SIMDJSON_STRINGIFY(SIMDJSON_BUILTIN_IMPLEMENTATION), rounds);
    for (int round = 0; round < rounds; ++round) {
        for (auto &reader : readers) {
            QElapsedTimer timer;
            timer.start();
            reader.totals = reader.read();
            reader.best = std::min(reader.best, double(timer.nsecsElapsed()) / 1e9);
        }
    }
    bool agree = true;
    for (const auto &reader : readers) {
        agree = agree && reader.totals == readers.front().totals;
        std::printf("%-16s %7.3f s  %6.0f MB/s  %.2fx flat's time   (%lld records, %lld rejected)\n", reader.name,
                    reader.best, megabytes / reader.best, reader.best / readers.front().best,
                    static_cast<long long>(reader.totals.records), static_cast<long long>(reader.totals.failed));
    }
    if (!agree) {
        std::fprintf(stderr, "the readers disagree on the records\n");
        return 1;
    }
    std::printf("records agree (counts, token and stamp sums)\n");
    return 0;
}
