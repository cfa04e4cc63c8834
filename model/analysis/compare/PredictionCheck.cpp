#include "PredictionCheck.h"

#include <cmath>

PredictionCheck PredictionCheck::of(double predictedSavingMs, const PercentileDifference &difference)
{
    PredictionCheck check;
    check.predictedMs = predictedSavingMs;
    check.observedMs = -difference.differenceMs;
    if (predictedSavingMs != 0.0 && std::isfinite(check.observedMs))
        check.realisedShare = check.observedMs / predictedSavingMs;
    if (difference.verdict == PercentileDifference::Verdict::TooFew || !std::isfinite(predictedSavingMs))
        return check;
    check.observedLowerMs = -difference.upperMs;
    check.observedUpperMs = -difference.lowerMs;
    if (predictedSavingMs < check.observedLowerMs)
        check.agreement = Agreement::LargerThanPredicted;
    else if (predictedSavingMs > check.observedUpperMs)
        check.agreement = Agreement::SmallerThanPredicted;
    else
        check.agreement = Agreement::Consistent;
    return check;
}

QString PredictionCheck::agreementKey(Agreement agreement)
{
    switch (agreement) {
    case Agreement::Consistent:
        return QStringLiteral("consistent");
    case Agreement::SmallerThanPredicted:
        return QStringLiteral("smaller_than_predicted");
    case Agreement::LargerThanPredicted:
        return QStringLiteral("larger_than_predicted");
    case Agreement::NotJudged:
        break;
    }
    return QStringLiteral("not_judged");
}

QString PredictionCheck::sentence() const
{
    const auto ms = [](double value) -> QString { return QString::number(value, 'f', 1) + QStringLiteral(" ms"); };
    QString text = QStringLiteral("predicted saving %1, observed %2").arg(ms(predictedMs), ms(observedMs));
    switch (agreement) {
    case Agreement::Consistent:
        return text
            + QStringLiteral(" [%1, %2]: the prediction lies inside the observed interval")
                  .arg(ms(observedLowerMs), ms(observedUpperMs));
    case Agreement::SmallerThanPredicted:
        return text
            + QStringLiteral(" [%1, %2]: smaller than predicted (%3% of it realised)")
                  .arg(ms(observedLowerMs), ms(observedUpperMs))
                  .arg(QString::number(100.0 * realisedShare, 'f', 0));
    case Agreement::LargerThanPredicted:
        return text + QStringLiteral(" [%1, %2]: larger than predicted").arg(ms(observedLowerMs), ms(observedUpperMs));
    case Agreement::NotJudged:
        break;
    }
    return text + QStringLiteral(": too few requests to judge");
}
