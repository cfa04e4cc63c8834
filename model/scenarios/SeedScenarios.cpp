#include "SeedScenarios.h"

#include "io/SeedJsonlLoader.h"

#include <QFile>
#include <QTemporaryDir>

#include <array>

namespace SeedScenarios {

namespace {

QByteArray burstLine(int index, double queueMs, double prefillEndShiftMs)
{
    // Constant service: 18 ms in, 6 ms gateway, 145 ms prefill, 11 ms first
    // decode, 18 ms back, 64 further tokens at 22 ms each.
    const double start = index * 1000.0;
    const double prefillStart = start + 24 + queueMs;
    const double firstClient = prefillStart + 174;
    return QStringLiteral(R"({"request_id":"burst-%1","prompt_tokens":2048,"output_tokens":65,"client_send_ms":%2,)"
                          R"("gateway_arrival_ms":%3,"queue_enter_ms":%4,"prefill_start_ms":%5,"prefill_end_ms":%6,)"
                          R"("first_token_server_ms":%7,"first_token_client_ms":%8,"last_token_client_ms":%9})")
        .arg(index, 2, 10, QLatin1Char('0'))
        .arg(start)
        .arg(start + 18)
        .arg(start + 24)
        .arg(prefillStart)
        .arg(prefillStart + 145 + prefillEndShiftMs)
        .arg(prefillStart + 156)
        .arg(firstClient)
        .arg(firstClient + 64 * 22)
        .toUtf8();
}

constexpr std::array<double, 10> kQueueMs = {4, 8, 12, 18, 45, 90, 170, 260, 390, 520};

} // namespace

QByteArray burstJsonl()
{
    QByteArray out;
    for (size_t i = 0; i < kQueueMs.size(); ++i)
        out += burstLine(int(i) + 1, kQueueMs[i], 0.0) + '\n';
    return out;
}

QByteArray negativeControlJsonl()
{
    return burstLine(1, kQueueMs[0], -150.0) + '\n';
}

LoadResult loadJsonl(const QByteArray &jsonl, const QString &label)
{
    // Through a temporary file, so the built-in cases take exactly the path
    // a user's file takes.
    QTemporaryDir dir;
    const QString path = dir.filePath(label);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(jsonl) != jsonl.size()) {
        LoadResult failed;
        failed.fatalError = QStringLiteral("cannot write a temporary file: %1").arg(file.errorString());
        return failed;
    }
    file.close();
    LoadResult result = SeedJsonlLoader::load(path, LoadOptions{}, nullptr);
    result.store->sourceFiles = QStringList{label};
    return result;
}

} // namespace SeedScenarios
