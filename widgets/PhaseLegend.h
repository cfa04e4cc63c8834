#pragma once

#include "analysis/workflows/WorkKind.h"

#include <QLabel>

#include <array>

// Names each colour the swimlane draws, so no colour needs to be guessed:
// the request phases and the residual grey for flat requests, the workflow
// kinds (critical path strong, off-path faint) for span traces, both for a
// file holding both, and the highlight marks.
class PhaseLegend : public QLabel
{
    Q_OBJECT
public:
    struct Content
    {
        bool phases = true;
        // Workflow kinds to list (those the lanes show); all false: none.
        std::array<bool, kWorkKindCount> kinds{};
        // Workflows are there but their kinds are still being computed.
        bool kindsPending = false;
        // Some lanes carry a note (the mark in the right gutter).
        bool bookmarks = false;
        // Some lanes carry stall marks (the Streams dock's rule).
        bool stalls = false;

        bool anyKind() const;
        friend bool operator==(const Content &, const Content &) = default;
    };

    explicit PhaseLegend(QWidget *parent = nullptr);

    void setContent(const Content &content);
    const Content &content() const { return m_content; }

    static QString html(const QPalette &palette, const Content &content);
    static QString html(const QPalette &palette); // request phases only

protected:
    void changeEvent(QEvent *event) override;

private:
    Content m_content;
};
