#pragma once

#include <QString>
#include <QTemporaryDir>

#include <memory>

class LoadControl;

// A trace as the loaders see it: always a regular, seekable file. A regular
// file is used in place; standard input ("-"), a named pipe or a gzip file is
// first read as a stream into a temporary file (deleted with this object),
// decompressing gzip on the way. Reading a stream waits for data in short
// polls, so a pipe nobody writes to yet keeps waiting without blocking
// cancellation: LoadControl::cancel() ends the wait.
class TraceInput
{
public:
    TraceInput();
    ~TraceInput();
    TraceInput(const TraceInput &) = delete;
    TraceInput &operator=(const TraceInput &) = delete;

    // Prepares `path`. False, with `error` set (or cancelled() true), when it
    // cannot be read.
    bool open(const QString &path, LoadControl *control, QString *error);

    // The file to load: `path` itself or the temporary copy. The copy is
    // named like the original (without ".gz"; "stdin" for "-"), so the
    // rejected-records list names a file the user recognises.
    const QString &loadPath() const { return m_loadPath; }
    bool isCopy() const { return m_loadPath != m_path; }
    bool cancelled() const { return m_cancelled; }
    // What a notice should say about how the input was read; empty for a
    // plain file.
    const QString &howRead() const { return m_howRead; }

    // Writes `text` with the temporary path replaced by the user's path.
    QString toUserPath(const QString &text) const;

    static bool isStandardInput(const QString &path) { return path == QLatin1String("-"); }

private:
    bool copyStream(int fd, const QString &name, LoadControl *control, QString *error);
    bool decompress(const QString &from, const QString &name, LoadControl *control, QString *error);
    QString tempFile(const QString &name);

    QString m_path;
    QString m_loadPath;
    QString m_howRead;
    std::unique_ptr<QTemporaryDir> m_dir;
    int m_copies = 0;
    bool m_cancelled = false;
};
