#include "WhatIfEdit.h"

#include "SpanGraph.h"

#include <algorithm>
#include <cmath>

namespace {

bool matches(const SpanGraph &graph, qint32 span, const QString &text, const QByteArray &utf8)
{
    const auto id = graph.id(span);
    return graph.name(span) == text || graph.operation(span) == text
        || std::string_view(utf8.constData(), size_t(utf8.size())) == id;
}

QString factorText(double factor)
{
    return QStringLiteral("×%1").arg(factor, 0, 'g', 6);
}

// Splits "SPAN:REST" at the last colon; no colon means no span.
void splitSpanPrefix(const QString &text, SpanSelector *span, QString *rest)
{
    const auto colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon < 0) {
        *span = {};
        *rest = text;
        return;
    }
    *span = SpanSelector::parse(text.left(colon));
    *rest = text.mid(colon + 1);
}

} // namespace

QString SpanSelector::toString() const
{
    if (text.isEmpty())
        return QStringLiteral("every span");
    return ordinal > 0 ? QStringLiteral("'%1' #%2").arg(text).arg(ordinal) : QStringLiteral("'%1'").arg(text);
}

std::vector<qint32> SpanSelector::resolve(const SpanGraph &graph) const
{
    std::vector<qint32> spans;
    const QByteArray utf8 = text.toUtf8();
    for (qint32 span = 0; span < graph.spanCount(); ++span) {
        if (text.isEmpty() || matches(graph, span, text, utf8))
            spans.push_back(span);
    }
    if (ordinal <= 0)
        return spans;
    std::stable_sort(spans.begin(), spans.end(),
                     [&graph](qint32 a, qint32 b) { return graph.start(a) < graph.start(b); });
    if (ordinal > qsizetype(spans.size()))
        return {};
    return {spans[size_t(ordinal) - 1]};
}

SpanSelector SpanSelector::parse(const QString &text)
{
    const auto at = text.lastIndexOf(QLatin1Char('@'));
    if (at > 0) {
        bool ok = false;
        const int ordinal = text.mid(at + 1).toInt(&ok);
        if (ok && ordinal > 0)
            return {text.left(at), ordinal};
    }
    return {text, 0};
}

QString WhatIfEdit::toString() const
{
    switch (kind) {
    case Kind::ScaleSpans:
        return QStringLiteral("%1 %2").arg(target.toString(), factorText(factor));
    case Kind::ScalePhase:
        return QStringLiteral("%1 of %2 %3").arg(phaseKey(phase), target.toString(), factorText(factor));
    case Kind::ShortenAnswer:
        return QStringLiteral("answer of %1 %2 tokens shorter at %3 ms/token")
            .arg(target.isEmpty() ? QStringLiteral("the last model call") : target.toString())
            .arg(tokens)
            .arg(msPerToken, 0, 'g', 6);
    case Kind::AddDependency:
        return QStringLiteral("%1 waits for %2").arg(target.toString(), from.toString());
    }
    return {};
}

bool WhatIfEdit::parseFactor(const QString &text, double *factor, QString *error)
{
    bool ok = false;
    double value = 0.0;
    const QString trimmed = text.trimmed();
    if (trimmed.endsWith(QLatin1Char('%'))) {
        value = 1.0 + trimmed.chopped(1).toDouble(&ok) / 100.0;
    } else if (trimmed.contains(QLatin1Char('/'))) {
        const auto parts = trimmed.split(QLatin1Char('/'));
        bool okDenominator = false;
        const double numerator = parts.value(0).toDouble(&ok);
        const double denominator = parts.value(1).toDouble(&okDenominator);
        ok = ok && okDenominator && parts.size() == 2 && denominator != 0.0;
        value = ok ? numerator / denominator : 0.0;
    } else {
        value = trimmed.toDouble(&ok);
    }
    if (!ok || !std::isfinite(value) || value < 0.0) {
        *error = QStringLiteral("'%1' is not a factor; use a number ≥ 0 (0.75), a fraction (2/3) or a change in "
                                "per cent (-25%)")
                     .arg(text);
        return false;
    }
    *factor = value;
    return true;
}

bool WhatIfEdit::parseScale(const QString &text, WhatIfEdit *edit, QString *error)
{
    const auto equals = text.lastIndexOf(QLatin1Char('='));
    if (equals <= 0) {
        *error = QStringLiteral("'%1': expected SPAN_OR_KIND=FACTOR").arg(text);
        return false;
    }
    *edit = {};
    edit->kind = Kind::ScaleSpans;
    edit->target = SpanSelector::parse(text.left(equals));
    return parseFactor(text.mid(equals + 1), &edit->factor, error);
}

bool WhatIfEdit::parseScalePhase(const QString &text, WhatIfEdit *edit, QString *error)
{
    const auto equals = text.lastIndexOf(QLatin1Char('='));
    if (equals <= 0) {
        *error = QStringLiteral("'%1': expected [SPAN:]PHASE=FACTOR").arg(text);
        return false;
    }
    *edit = {};
    edit->kind = Kind::ScalePhase;
    QString phase;
    splitSpanPrefix(text.left(equals), &edit->target, &phase);
    if (!phaseFromKey(phase, &edit->phase)) {
        QStringList keys;
        for (const Phase known : kAllPhases)
            keys.append(phaseKey(known));
        *error = QStringLiteral("'%1': unknown phase '%2'; use one of %3")
                     .arg(text, phase, keys.join(QStringLiteral(", ")));
        return false;
    }
    return parseFactor(text.mid(equals + 1), &edit->factor, error);
}

bool WhatIfEdit::parseShortenAnswer(const QString &text, WhatIfEdit *edit, QString *error)
{
    *edit = {};
    edit->kind = Kind::ShortenAnswer;
    QString amount;
    splitSpanPrefix(text, &edit->target, &amount);
    const auto at = amount.indexOf(QLatin1Char('@'));
    bool okTokens = false;
    bool okRate = false;
    edit->tokens = amount.left(at).toInt(&okTokens);
    edit->msPerToken = amount.mid(at + 1).toDouble(&okRate);
    if (at <= 0 || !okTokens || !okRate || edit->tokens < 0 || !(edit->msPerToken >= 0.0)) {
        *error = QStringLiteral("'%1': expected [SPAN:]N@MS_PER_TOKEN, e.g. 30@24").arg(text);
        return false;
    }
    return true;
}

bool WhatIfEdit::parseAddDependency(const QString &text, WhatIfEdit *edit, QString *error)
{
    const auto arrow = text.indexOf(QLatin1Char('>'));
    if (arrow <= 0 || arrow == text.size() - 1) {
        *error = QStringLiteral("'%1': expected FROM>TO (TO waits for FROM to end)").arg(text);
        return false;
    }
    *edit = {};
    edit->kind = Kind::AddDependency;
    edit->from = SpanSelector::parse(text.left(arrow));
    edit->target = SpanSelector::parse(text.mid(arrow + 1));
    return true;
}
