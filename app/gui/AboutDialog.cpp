#include "AboutDialog.h"

#include <nlohmann/json.hpp>
#include <qcustomplot.h>

#include <QMessageBox>

namespace AboutDialog {

QString versions()
{
    return QStringLiteral("Qt %1 (built with %2), QCustomPlot %3, nlohmann/json %4.%5.%6")
        .arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR), QStringLiteral(QCUSTOMPLOT_VERSION_STR))
        .arg(NLOHMANN_JSON_VERSION_MAJOR)
        .arg(NLOHMANN_JSON_VERSION_MINOR)
        .arg(NLOHMANN_JSON_VERSION_PATCH);
}

void show(QWidget *parent)
{
    QMessageBox::about(parent, QObject::tr("About Tracelane"),
                       QObject::tr("<h3>Tracelane %1</h3>"
                                   "<p>Explains why LLM requests are slow: every request as a swimlane of its "
                                   "phases, percentiles by class, the slowest requests side by side with the "
                                   "rest.</p><p>%2</p>")
                           .arg(QStringLiteral(TRACELANE_VERSION), versions().toHtmlEscaped()));
}

} // namespace AboutDialog
