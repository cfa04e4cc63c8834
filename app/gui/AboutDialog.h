#pragma once

#include <QString>

class QWidget;

// Help → About: what Tracelane is and the versions it was built with.
namespace AboutDialog {

// "Qt 6.4.2 (built with 6.4.2), QCustomPlot 2.1.0, nlohmann/json 3.11.2"
QString versions();
void show(QWidget *parent);

} // namespace AboutDialog
