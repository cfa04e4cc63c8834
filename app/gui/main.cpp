// tracelane: the desktop application.

#include "MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

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
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Trace files to open."), QStringLiteral("[FILE...]"));
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
                                              QStringLiteral("Render the window to a PNG once loaded, then exit."),
                                              QStringLiteral("OUT.png"));
    const QCommandLineOption sizeOption(QStringLiteral("size"), QStringLiteral("Window size, e.g. 1600x1000."),
                                        QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    parser.addOptions({screenshotOption, sizeOption});
    parser.process(app);

    QSize size;
    if (!parseSize(parser.value(sizeOption), &size)) {
        std::fprintf(stderr, "tracelane: --size expects WxH, e.g. 1600x1000\n");
        return 2;
    }
    MainWindow window;
    window.resize(size);
    const QStringList files = parser.positionalArguments();
    const QString screenshot = parser.value(screenshotOption);
    if (!screenshot.isEmpty()) {
        QObject::connect(&window, &MainWindow::loadFinished, &app, [&window, screenshot](bool ok) {
            // Let layouts settle and views paint once before grabbing.
            QTimer::singleShot(200, &window, [&window, screenshot, ok] {
                const bool saved = window.grab().save(screenshot);
                std::fprintf(stderr, "tracelane: %s %s\n", saved ? "wrote" : "could not write",
                             qPrintable(screenshot));
                QApplication::exit(saved && ok ? 0 : 1);
            });
        });
    }
    window.show();
    if (!files.isEmpty())
        window.openFile(files.first());
    else if (!screenshot.isEmpty())
        QTimer::singleShot(0, &window, [&window] { emit window.loadFinished(true); });
    return app.exec();
}
