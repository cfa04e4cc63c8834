#pragma once

#include <QStringList>

#include <string_view>

// Which class attributes of request records a load stores. The GUI stores
// every one; a headless command that reads only a few asks for those
// (projection). A field left out is still read and judged, so a record that
// breaks a rule is rejected with the same line, field and reason; only its
// column is not built.
struct AttributeProjection
{
    bool all = true;
    QStringList names;        // kept; compared case-insensitively
    QStringList nameContains; // also kept: names that contain one of these

    static AttributeProjection none() { return {false, {}, {}}; }
    bool keeps(std::string_view key) const;
};
