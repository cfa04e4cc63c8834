#pragma once

#include <QByteArray>
#include <QList>

#include <array>
#include <cctype>
#include <cstdint>

// Deterministic mutants of the seed inputs, for the replay driver's bounded
// fuzz run in the ordinary presets (no libFuzzer, no coverage feedback): the
// same mutant number always gives the same bytes, so a failure in CI is
// reproduced by rerunning the driver with the same arguments. The mutations
// are the ones the campaign of issue 10 found bugs with: a byte changed,
// inserted or dropped, a range repeated or cut, the file truncated, two
// inputs spliced, and numbers and tokens at the edges of what a loader must
// refuse (1e999, 2^31, years 0001 and 9999, deep nesting, stray closers).
class FuzzMutator
{
public:
    explicit FuzzMutator(QList<QByteArray> seeds)
        : m_seeds(std::move(seeds))
    { }

    QByteArray mutant(quint64 number) const
    {
        if (m_seeds.isEmpty())
            return {};
        Random random(number);
        QByteArray bytes = m_seeds[qsizetype(number % quint64(m_seeds.size()))];
        const int steps = 1 + int(random.below(4));
        for (int step = 0; step < steps; ++step)
            mutate(bytes, random);
        return bytes;
    }

private:
    // splitmix64: small, fast, the same on every platform.
    class Random
    {
    public:
        explicit Random(quint64 seed)
            : m_state(seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL)
        { }
        quint64 next()
        {
            quint64 z = (m_state += 0x9E3779B97F4A7C15ULL);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
            return z ^ (z >> 31);
        }
        quint64 below(quint64 bound) { return bound == 0 ? 0 : next() % bound; }

    private:
        quint64 m_state;
    };

    static QByteArray token(Random &random)
    {
        // clang-format off
        static const std::array<const char *, 34> tokens{
            "1e999", "-1e999", "1e308", "-1e308", "1e-400", "-1", "0", "-0", "0.5", "31.5", "2147483648",
            "9223372036854775807", "-9223372036854775808", "18446744073709551616", "NaN", "Infinity", "null",
            "true", "\"\"", "[]", "{}", "}", "]", "[", "{", ",", ":", "\"", "\\u0000", "\n", "\r\n",
            "9999-12-31 23:59:59", "0001-01-01 00:00:00", "\x1f\x8b"};
        // clang-format on
        if (random.below(16) == 0) // deeper than any loader's nesting limit
            return QByteArray(int(200 + random.below(400)), random.below(2) ? '[' : '{');
        return QByteArray(tokens[size_t(random.below(tokens.size()))]);
    }

    void mutate(QByteArray &bytes, Random &random) const
    {
        const qsizetype size = bytes.size();
        const qsizetype at = qsizetype(random.below(quint64(size) + 1));
        switch (random.below(8)) {
        case 0: // one byte changed
            if (size > 0)
                bytes[qMin(at, size - 1)] = char(random.below(256));
            break;
        case 1: // a token inserted
            bytes.insert(at, token(random));
            break;
        case 2: { // a token in place of a number or a word
            qsizetype end = at;
            while (end < size && (std::isalnum(uchar(bytes[end])) || bytes[end] == '.' || bytes[end] == '-'))
                ++end;
            bytes.replace(at, qMax<qsizetype>(1, end - at), token(random));
            break;
        }
        case 3: // a range dropped
            bytes.remove(at, qsizetype(1 + random.below(16)));
            break;
        case 4: { // a range repeated
            const qsizetype length = qMin<qsizetype>(size - at, qsizetype(1 + random.below(64)));
            if (length > 0)
                bytes.insert(at, bytes.mid(at, length));
            break;
        }
        case 5: // cut short
            bytes.truncate(at);
            break;
        case 6: { // spliced with another input
            const QByteArray &other = m_seeds[qsizetype(random.below(quint64(m_seeds.size())))];
            const qsizetype from = qsizetype(random.below(quint64(other.size()) + 1));
            bytes = bytes.left(at) + other.mid(from);
            break;
        }
        default: // a byte inserted
            bytes.insert(at, char(random.below(256)));
            break;
        }
    }

    QList<QByteArray> m_seeds;
};
