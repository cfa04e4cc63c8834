#pragma once

#include "LatestJob.h"
#include "analysis/exceedance/ExceedanceSet.h"
#include "analysis/exceedance/SetComparison.h"

#include <QObject>
#include <QString>

#include <memory>

struct ServerExceedance;

// The feature rankings of a population's exceedance set, asked of the
// server (ServerFigures::rankings) while the window shows a sample's: one
// or two more reads of every row, so they come after the set is shown.
class PopulationRankings : public QObject
{
    Q_OBJECT
public:
    explicit PopulationRankings(QObject *parent = nullptr);

    // Forgets the rankings (and stops asking for them).
    void reset();
    // Asks for the rankings of `set`, the server's set for `spec` at `url`.
    void start(const QString &url, const ExceedanceSpec &spec, std::shared_ptr<const ServerExceedance> set);

    // The population's rankings once the server gave them, else null.
    const SetComparison *rankings() const { return m_rankings.get(); }
    // Whose rankings a view shows, for its summary: the population's, or
    // the sample's while the server ranks (or after it failed, and why).
    QString whose() const;

signals:
    // The server answered: rankings() holds them, or whose() says why not.
    void finished();

private:
    LatestJob m_job{this};
    std::shared_ptr<const SetComparison> m_rankings;
    QString m_error;
};
