#include "ComparisonStopRule.h"

#include <algorithm>

QString ComparisonStopRule::outcomeKey(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Worked:
        return QStringLiteral("worked");
    case Outcome::DidNotWork:
        return QStringLiteral("did_not_work");
    case Outcome::Inconclusive:
        break;
    }
    return QStringLiteral("inconclusive");
}

QString ComparisonStopRule::outcomeLabel(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Worked:
        return QStringLiteral("the change worked");
    case Outcome::DidNotWork:
        return QStringLiteral("the change did not work");
    case Outcome::Inconclusive:
        break;
    }
    return QStringLiteral("inconclusive");
}

QString ComparisonStopRule::checkKey(Check check)
{
    switch (check) {
    case Check::Passed:
        return QStringLiteral("passed");
    case Check::Failed:
        return QStringLiteral("failed");
    case Check::NotJudged:
        break;
    }
    return QStringLiteral("not_judged");
}

void ComparisonStopRule::decide()
{
    const bool anyGuardrail = std::any_of(guardrails.begin(), guardrails.end(),
                                          [](const Guardrail &guardrail) { return guardrail.judged; });
    const bool anyRegressed = std::any_of(guardrails.begin(), guardrails.end(),
                                          [](const Guardrail &guardrail) { return guardrail.regressed; });
    guardrailsCheck = anyRegressed ? Check::Failed : anyGuardrail ? Check::Passed : Check::NotJudged;
    if (target == Check::NotJudged)
        outcome = Outcome::Inconclusive;
    else if (target == Check::Failed || phase == Check::Failed || guardrailsCheck == Check::Failed)
        outcome = Outcome::DidNotWork;
    else
        outcome = Outcome::Worked;
}
