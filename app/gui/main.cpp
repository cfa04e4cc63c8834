// tracelane: the desktop application.

#include "Appearance.h"
#include "LiveWiring.h"
#include "MainWindow.h"
#include "ReviewWiring.h"
#include "SessionController.h"
#include "review/SessionJson.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <cstdio>

namespace {

bool parseSize(const QString &text, QSize *size)
{
    const auto parts = text.toLower().split(QLatin1Char('x'));
    if (parts.size() != 2)
        return false;
    bool okWidth = false;
    bool okHeight = false;
    *size = QSize(parts[0].toInt(&okWidth), parts[1].toInt(&okHeight));
    return okWidth && okHeight && size->width() >= 200 && size->height() >= 150;
}

// Waits until every view has finished its background work, then renders
// the whole window to `path` and quits with `ok` as the exit status.
void grabWhenSettled(MainWindow *window, const QString &path, bool ok)
{
    auto *poll = new QTimer(window);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    poll->setInterval(50);
    QObject::connect(poll, &QTimer::timeout, window, [window, path, ok, poll, clock] {
        if (window->isBusy() && clock->elapsed() < 120'000)
            return;
        poll->stop();
        // One more turn of the event loop so the last results are painted.
        QTimer::singleShot(100, window, [window, path, ok] {
            const bool saved = window->grab().save(path);
            std::fprintf(stderr, "tracelane: %s %s\n", saved ? "wrote" : "could not write", qPrintable(path));
            QApplication::exit(saved && ok ? 0 : 1);
        });
    });
    poll->start();
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Tracelane"));
    QApplication::setOrganizationName(QStringLiteral("Tracelane"));
    QApplication::setApplicationVersion(QStringLiteral(TRACELANE_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/tracelane.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Explains why LLM requests are slow."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"),
                                 QStringLiteral("Trace files, or one session (.tracelane), to open."),
                                 QStringLiteral("[FILE...|SESSION]"));
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
                                              QStringLiteral("Render the window to a PNG once loaded, then exit."),
                                              QStringLiteral("OUT.png"));
    const QCommandLineOption sizeOption(QStringLiteral("size"), QStringLiteral("Window size, e.g. 1600x1000."),
                                        QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    const QCommandLineOption appearanceOption(QStringLiteral("appearance"),
                                              QStringLiteral("system, light or dark (default: as last chosen)."),
                                              QStringLiteral("MODE"));
    const QCommandLineOption panelOption(
        QStringLiteral("panel"),
        QStringLiteral("Show and raise this dock: its tab title (Classes, Streams) or name (classesDock)."),
        QStringLiteral("DOCK"));
    const QCommandLineOption compareOption(QStringLiteral("compare"),
                                           QStringLiteral("Compare the opened trace (the baseline) with this "
                                                          "candidate, as File > Compare With does."),
                                           QStringLiteral("CANDIDATE"));
    const QCommandLineOption listenOption(QStringLiteral("listen"),
                                          QStringLiteral("Receive OTLP while the window is open: OTLP/HTTP on "
                                                         "[ADDR:]PORT (loopback unless ADDR says otherwise), and "
                                                         "OTLP/gRPC on GRPC_PORT when given, e.g. 4318,4317."),
                                          QStringLiteral("[ADDR:]PORT[,GRPC_PORT]"));
    const QCommandLineOption listenSecondsOption(
        QStringLiteral("listen-seconds"),
        QStringLiteral("With --listen and --screenshot: stop listening after S seconds, then render (default 10)."),
        QStringLiteral("S"), QStringLiteral("10"));
    parser.addOptions({screenshotOption, sizeOption, appearanceOption, panelOption, compareOption, listenOption,
                       listenSecondsOption});
    parser.process(app);

    QSize size;
    if (!parseSize(parser.value(sizeOption), &size)) {
        std::fprintf(stderr, "tracelane: --size expects WxH, e.g. 1600x1000\n");
        return 2;
    }
    const QString screenshot = parser.value(screenshotOption);
    const bool headless = !screenshot.isEmpty();
    Appearance::Mode mode = headless ? Appearance::Mode::FollowSystem : Appearance::saved();
    if (parser.isSet(appearanceOption)) {
        const QString wanted = parser.value(appearanceOption);
        bool known = false;
        for (const auto candidate : {Appearance::Mode::FollowSystem, Appearance::Mode::Light, Appearance::Mode::Dark}) {
            if (Appearance::key(candidate) == wanted) {
                mode = candidate;
                known = true;
            }
        }
        if (!known) {
            std::fprintf(stderr, "tracelane: --appearance expects system, light or dark\n");
            return 2;
        }
    }
    Appearance::apply(mode);

    MainWindow window;
    // A screenshot is reproducible: no saved layout, no recent files.
    window.setPersistent(!headless);
    window.resize(size);
    window.restoreSettings();
    for (const QString &panel : parser.values(panelOption)) {
        if (!window.showPanel(panel)) {
            std::fprintf(stderr, "tracelane: --panel: no dock named %s\n", qPrintable(panel));
            return 2;
        }
    }
    const QStringList files = parser.positionalArguments();
    if (parser.isSet(compareOption)) {
        // Connected before the screenshot: the comparison is part of what settles.
        const QString candidate = parser.value(compareOption);
        QObject::connect(
            &window, &MainWindow::loadFinished, &window,
            [&window, candidate](bool ok) {
                if (ok && window.store())
                    window.compareWith(candidate);
            },
            Qt::SingleShotConnection);
    }
    // A session restores its whole view; the screenshot waits for that.
    if (!files.isEmpty() && SessionJson::isSession(files.first())) {
        SessionController *session = window.review()->session();
        session->setInteractive(!headless);
        // The session restores its dock layout; a --panel asked for still comes to the front.
        QObject::connect(session, &SessionController::sessionRestored, &window,
                         [&window, panels = parser.values(panelOption)] {
                             for (const QString &panel : panels)
                                 window.showPanel(panel);
                         });
        if (headless) {
            QObject::connect(session, &SessionController::sessionRestored, &app,
                             [&window, screenshot](bool ok, const QString &message) {
                                 // What could not be restored, or that all was.
                                 std::fprintf(stderr, "tracelane: %s\n", qPrintable(message));
                                 grabWhenSettled(&window, screenshot, ok);
                             });
        }
        window.show();
        QString error;
        if (!session->open(files.first(), &error)) {
            std::fprintf(stderr, "tracelane: %s\n", qPrintable(error));
            if (headless)
                return 1;
        }
        return app.exec();
    }
    if (headless) {
        QObject::connect(&window, &MainWindow::loadFinished, &app,
                         [&window, screenshot](bool ok) { grabWhenSettled(&window, screenshot, ok); });
    }
    if (parser.isSet(listenOption)) {
        LiveReceiver::Settings settings;
        QString error;
        if (!LiveWiring::parseListen(parser.value(listenOption), &settings, &error)
            || !window.live()->listen(settings, &error)) {
            std::fprintf(stderr, "tracelane: --listen: %s\n", qPrintable(error));
            return 2;
        }
        const LiveReceiver::Status status = window.live()->receiver()->status();
        if (status.beyondLoopback)
            std::fprintf(stderr,
                         "tracelane: warning: listening beyond this machine: anyone who can reach it can "
                         "send spans\n");
        std::fprintf(stderr, "tracelane: listening for OTLP/HTTP on %s%s%s\n", qPrintable(status.httpEndpoint),
                     status.grpcEndpoint.isEmpty() ? "" : " and OTLP/gRPC on ", qPrintable(status.grpcEndpoint));
        if (headless && files.isEmpty()) {
            // Renders what arrived within the time given, after the last snapshot.
            const double seconds = parser.value(listenSecondsOption).toDouble();
            QObject::connect(window.live()->receiver(), &LiveReceiver::stopped, &window,
                             [&window] { emit window.loadFinished(true); });
            QTimer::singleShot(int(std::max(0.0, seconds) * 1000), &window, [&window] { window.live()->stop(); });
        }
    }
    window.show();
    if (!files.isEmpty())
        window.openFiles(files);
    else if (headless && !parser.isSet(listenOption))
        QTimer::singleShot(0, &window, [&window] { emit window.loadFinished(true); });
    return app.exec();
}
