#pragma once

#include "TokenBands.h"

#include <QString>
#include <QStringList>

#include <vector>

class RequestTable;

// A way to split requests into classes: a class attribute of the trace, or
// one derived from the request itself (prompt band, output band, cached-prefix
// status, workflow type).
struct ClassDimension
{
    enum class Kind {
        Attribute,    // a class attribute as it is (numbers with many values are banded)
        PromptBand,   // prompt tokens in TokenBands
        OutputBand,   // output tokens in TokenBands
        CachedPrefix, // cached / not cached, read from a cache attribute
        WorkflowType, // the `workflow_type` attribute of agent workflows
    };

    Kind kind = Kind::Attribute;
    QString key;    // what --by names: "region", "prompt_band", "cached_prefix"
    QString label;  // for headers: "region", "Prompt band", "Cached prefix"
    QString source; // attribute it reads; empty for token bands

    bool operator==(const ClassDimension &other) const = default;
};

// Request bands used by the derived dimensions; editable by the user.
struct ClassBands
{
    TokenBands prompt;
    TokenBands output;

    bool operator==(const ClassBands &other) const = default;
};

// Every dimension the table offers: attributes in trace order, then the
// derived ones. An attribute that the cached-prefix or workflow-type
// dimension already reads is listed once, as that dimension.
std::vector<ClassDimension> classDimensions(const RequestTable &table);

// Dimension named `key` (case-insensitive), false when the trace has none.
bool classDimensionFromKey(const RequestTable &table, const QString &key, ClassDimension *dimension);

// The cache attribute the CachedPrefix dimension reads: `cached_prefix` when
// present, else the first attribute whose name contains "cache"; -1 if none.
qsizetype cachedPrefixAttribute(const RequestTable &table);
