#include "PopulationRankings.h"

#include "remote/ServerFigures.h"

#include <utility>

PopulationRankings::PopulationRankings(QObject *parent)
    : QObject(parent)
{ }

void PopulationRankings::reset()
{
    m_job.cancel();
    m_rankings.reset();
    m_error.clear();
}

void PopulationRankings::start(const QString &url, const ExceedanceSpec &spec,
                               std::shared_ptr<const ServerExceedance> set)
{
    reset();
    using Ranked = std::pair<std::shared_ptr<const SetComparison>, QString>;
    m_job.start(
        [url, spec, set = std::move(set)](const std::atomic<bool> *cancel) {
            auto comparison = std::make_shared<SetComparison>();
            QString error;
            if (!ServerFigures::rankings(url, spec, *set, cancel, comparison.get(), &error))
                return Ranked(nullptr, error);
            return Ranked(std::move(comparison), error);
        },
        [this](Ranked ranked) {
            m_rankings = std::move(ranked.first);
            m_error = std::move(ranked.second);
            emit finished();
        });
}

QString PopulationRankings::whose() const
{
    if (m_rankings)
        return tr("the feature rankings are the whole population's");
    if (!m_error.isEmpty())
        return tr("the feature rankings are the sample's (the server did not rank the population: %1)")
            .arg(m_error.toHtmlEscaped());
    return tr("the feature rankings are the sample's while the server ranks the population\u2026");
}
