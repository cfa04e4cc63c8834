#include "Session.h"

#include "analysis/workflows/WhatIfEdit.h"

namespace {

QString factor(double value)
{
    return QString::number(value, 'g', 12);
}

// The command line's "NAME" or "NAME@K" (SpanSelector::toString is for people).
QString selector(const SpanSelector &target)
{
    return target.ordinal > 0 ? QStringLiteral("%1@%2").arg(target.text).arg(target.ordinal) : target.text;
}

QString withTarget(const SpanSelector &target, const QString &rest)
{
    return target.isEmpty() ? rest : selector(target) + QLatin1Char(':') + rest;
}

} // namespace

namespace SessionWhatIf {

QString toCommand(const WhatIfEdit &edit)
{
    switch (edit.kind) {
    case WhatIfEdit::Kind::ScaleSpans:
        return QStringLiteral("scale %1=%2").arg(selector(edit.target), factor(edit.factor));
    case WhatIfEdit::Kind::ScalePhase:
        return QStringLiteral("scale-phase ")
            + withTarget(edit.target, phaseKey(edit.phase) + QLatin1Char('=') + factor(edit.factor));
    case WhatIfEdit::Kind::ShortenAnswer:
        return QStringLiteral("shorten-answer ")
            + withTarget(edit.target, QStringLiteral("%1@%2").arg(edit.tokens).arg(factor(edit.msPerToken)));
    case WhatIfEdit::Kind::AddDependency:
        return QStringLiteral("add-dependency %1>%2").arg(selector(edit.from), selector(edit.target));
    }
    return {};
}

bool fromCommand(const QString &command, WhatIfEdit *edit, QString *error)
{
    const QString verb = command.section(QLatin1Char(' '), 0, 0);
    const QString rest = command.section(QLatin1Char(' '), 1);
    if (verb == QStringLiteral("scale"))
        return WhatIfEdit::parseScale(rest, edit, error);
    if (verb == QStringLiteral("scale-phase"))
        return WhatIfEdit::parseScalePhase(rest, edit, error);
    if (verb == QStringLiteral("shorten-answer"))
        return WhatIfEdit::parseShortenAnswer(rest, edit, error);
    if (verb == QStringLiteral("add-dependency"))
        return WhatIfEdit::parseAddDependency(rest, edit, error);
    if (error)
        *error = QStringLiteral("'%1': a what-if starts with scale, scale-phase, shorten-answer or add-dependency")
                     .arg(command);
    return false;
}

} // namespace SessionWhatIf
