// The fuzz targets without libFuzzer, for the ordinary presets (any compiler):
//   tracelane-fuzz-replay TARGET [--mutants N] FILE|FOLDER...
// runs every file named, and every file under every folder named, once
// through the target — what libFuzzer's -runs=0 does — so ctest replays the
// seeds and the regression inputs in every build. With --mutants N it then
// runs N deterministic mutants of those inputs (FuzzMutator): a short fuzz
// run that needs no clang build and gives the same inputs on every run.
// A broken invariant, a crash or an input that takes over a minute ends the
// process (FuzzChecks, sanitizers, an alarm);
// the failing input is written to fuzz-failure-TARGET (in the working
// folder) and named on the log's last line.

#include "FuzzMutator.h"
#include "FuzzTargets.h"

#include <QByteArray>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace {

// What is running now, for the signal handler.
const QByteArray *g_current = nullptr;
char g_failurePath[256] = {};

// Async-signal-safe: open, write, close, then the default action.
void saveCurrentInput(int signal)
{
    if (g_current && g_failurePath[0] != '\0') {
        const int fd = ::open(g_failurePath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            const char *data = g_current->constData();
            size_t left = size_t(g_current->size());
            while (left > 0) {
                const ssize_t written = ::write(fd, data, left);
                if (written <= 0)
                    break;
                data += written;
                left -= size_t(written);
            }
            ::close(fd);
        }
        static const char note[] = "the failing input was written to ";
        (void)!::write(STDERR_FILENO, note, sizeof note - 1);
        (void)!::write(STDERR_FILENO, g_failurePath, std::strlen(g_failurePath));
        (void)!::write(STDERR_FILENO, "\n", 1);
    }
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

// A hang is a failure too: no input may take a minute, even under ASan.
constexpr unsigned kSecondsPerInput = 60;

void run(const FuzzTarget &target, const QByteArray &bytes)
{
    g_current = &bytes;
    ::alarm(kSecondsPerInput);
    target.run(reinterpret_cast<const uint8_t *>(bytes.constData()), size_t(bytes.size()));
    ::alarm(0);
    g_current = nullptr;
}

int usage()
{
    std::fprintf(stderr, "usage: tracelane-fuzz-replay TARGET [--mutants N] FILE|FOLDER...\ntargets:");
    for (const FuzzTarget &known : FuzzTargets::all())
        std::fprintf(stderr, " %s", known.name);
    std::fprintf(stderr, "\n");
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    const FuzzTarget *target = argc > 1 ? FuzzTargets::find(argv[1]) : nullptr;
    if (!target)
        return usage();
    quint64 mutants = 0;
    QStringList inputs;
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--mutants") == 0 && i + 1 < argc) {
            mutants = std::strtoull(argv[++i], nullptr, 10);
            continue;
        }
        const QString path = QFile::decodeName(argv[i]);
        if (!QFileInfo(path).isDir()) {
            inputs.append(path);
            continue;
        }
        QStringList files;
        QDirIterator it(path, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext())
            files.append(it.next());
        files.sort();
        inputs.append(files);
    }
    if (inputs.isEmpty())
        return usage();
    std::snprintf(g_failurePath, sizeof g_failurePath, "fuzz-failure-%s", target->name);
    for (const int signal : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGALRM})
        std::signal(signal, saveCurrentInput);

    // Mutants start from the smaller inputs: a mutant of a 600 KB file costs
    // as much as a hundred of a 6 KB one and finds nothing they do not.
    constexpr qsizetype kLargestMutated = 64 * 1024;
    QList<QByteArray> seeds;
    for (const QString &path : std::as_const(inputs)) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "cannot read %s: %s\n", qPrintable(path), qPrintable(file.errorString()));
            return 2;
        }
        const QByteArray bytes = file.readAll();
        // Said before the run, so a crash's log ends with its input.
        std::fprintf(stderr, "replay %s (%lld bytes)\n", qPrintable(path), qlonglong(bytes.size()));
        run(*target, bytes);
        if (bytes.size() <= kLargestMutated)
            seeds.append(bytes);
    }
    const FuzzMutator mutator(seeds);
    for (quint64 number = 0; number < mutants && !seeds.isEmpty(); ++number) {
        const QByteArray bytes = mutator.mutant(number);
        std::fprintf(stderr, "mutant %llu (%lld bytes)\n", static_cast<unsigned long long>(number),
                     qlonglong(bytes.size()));
        run(*target, bytes);
    }
    std::printf("%s: replayed %lld inputs and %llu mutants of %lld of them\n", target->name, qlonglong(inputs.size()),
                static_cast<unsigned long long>(seeds.isEmpty() ? 0 : mutants), qlonglong(seeds.size()));
    return 0;
}
