// The fuzz targets without libFuzzer, for the ordinary presets (any compiler):
//   tracelane-fuzz-replay TARGET FILE|FOLDER...
// runs every file named, and every file under every folder named, once
// through the target — what libFuzzer's -runs=0 does — so ctest replays the
// seeds and the regression inputs in every build. A broken invariant aborts
// (FuzzChecks), which fails the test; the log's last line names the input.

#include "FuzzTargets.h"

#include <QByteArray>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <cstdint>
#include <cstdio>

int main(int argc, char **argv)
{
    const FuzzTarget *target = argc > 1 ? FuzzTargets::find(argv[1]) : nullptr;
    if (!target) {
        std::fprintf(stderr, "usage: tracelane-fuzz-replay TARGET FILE|FOLDER...\ntargets:");
        for (const FuzzTarget &known : FuzzTargets::all())
            std::fprintf(stderr, " %s", known.name);
        std::fprintf(stderr, "\n");
        return 2;
    }
    QStringList inputs;
    for (int i = 2; i < argc; ++i) {
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
    for (const QString &path : std::as_const(inputs)) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "cannot read %s: %s\n", qPrintable(path), qPrintable(file.errorString()));
            return 2;
        }
        const QByteArray bytes = file.readAll();
        // Said before the run, so a crash's log ends with its input.
        std::fprintf(stderr, "replay %s (%lld bytes)\n", qPrintable(path), qlonglong(bytes.size()));
        target->run(reinterpret_cast<const uint8_t *>(bytes.constData()), size_t(bytes.size()));
    }
    std::printf("%s: replayed %lld inputs\n", target->name, qlonglong(inputs.size()));
    return inputs.isEmpty() ? 2 : 0;
}
