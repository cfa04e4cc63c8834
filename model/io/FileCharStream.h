#pragma once

#include <QFile>
#include <QString>

#include <cstddef>
#include <iterator>
#include <vector>

class LoadControl;

// Streams a file to nlohmann's parser one block at a time (never the whole
// file in memory), counting lines as it goes so a span or an error can be
// placed, reporting progress and stopping early when the load is cancelled.
class FileCharStream
{
public:
    explicit FileCharStream(const QString &path, LoadControl *control = nullptr);

    bool open(QString *error);
    qint64 line() const { return m_line; }
    bool cancelled() const { return m_cancelled; }
    bool readFailed() const { return m_readFailed; }
    // Characters consumed so far.
    qint64 consumed() const { return m_blockStart + qint64(m_position); }
    // The line number, updated as characters are consumed; readers keep a
    // pointer to it.
    const qint64 *lineCounter() const { return &m_line; }

    // An input iterator over the remaining characters; default-constructed
    // is the end.
    class Iterator
    {
    public:
        using iterator_category = std::input_iterator_tag;
        using value_type = char;
        using difference_type = std::ptrdiff_t;
        using pointer = const char *;
        using reference = const char &;

        Iterator() = default;
        explicit Iterator(FileCharStream *stream)
            : m_stream(stream)
        { }
        reference operator*() const { return m_stream->current(); }
        Iterator &operator++()
        {
            m_stream->advance();
            return *this;
        }
        void operator++(int) { m_stream->advance(); }
        bool operator==(const Iterator &other) const { return atEnd() == other.atEnd(); }
        bool operator!=(const Iterator &other) const { return !(*this == other); }

    private:
        bool atEnd() const { return !m_stream || !m_stream->fill(); }
        FileCharStream *m_stream = nullptr;
    };

    Iterator begin() { return Iterator(this); }
    Iterator end() { return Iterator(); }

private:
    bool fill();
    const char &current() { return m_block[m_position]; }
    void advance()
    {
        if (m_block[m_position] == '\n')
            ++m_line;
        ++m_position;
    }

    QFile m_file;
    LoadControl *m_control = nullptr;
    std::vector<char> m_block;
    size_t m_position = 0;
    size_t m_filled = 0;
    qint64 m_blockStart = 0; // file offset of m_block[0]
    qint64 m_line = 1;
    bool m_eof = false;
    bool m_cancelled = false;
    bool m_readFailed = false;
};
