#include "JobFailure.h"

#include <QException>
#include <QMessageBox>
#include <QWidget>

#include <new>

QString JobFailure::message(const std::exception_ptr &error)
{
    try {
        std::rethrow_exception(error);
    } catch (const QUnhandledException &wrapped) {
        if (wrapped.exception())
            return message(wrapped.exception());
    } catch (const std::bad_alloc &) {
        return QStringLiteral("Tracelane ran out of memory computing this view. The rest of the window still "
                              "works; close other programs or load a smaller part of the trace.");
    } catch (const std::exception &other) {
        return QStringLiteral("Computing this view failed: %1").arg(QString::fromUtf8(other.what()));
    } catch (...) { }
    return QStringLiteral("Computing this view failed.");
}

void JobFailure::report(QObject *context, const std::exception_ptr &error)
{
    const QString text = message(error);
    qWarning("%s", qPrintable(text));
    auto *widget = qobject_cast<QWidget *>(context);
    if (!widget)
        return;
    auto *box
        = new QMessageBox(QMessageBox::Warning, QStringLiteral("Tracelane"), text, QMessageBox::Ok, widget->window());
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("jobFailure"));
    box->open(); // not exec(): no nested event loop inside the job's callback
}
