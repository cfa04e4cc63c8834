#pragma once

#include <QString>

// Light and dark palettes. By default the app follows the system (the
// platform theme's palette); the user may force light or dark, which uses
// the Fusion style so both look the same on every desktop.
namespace Appearance {

enum class Mode { FollowSystem, Light, Dark };

void apply(Mode mode);
Mode saved();
void save(Mode mode);
QString key(Mode mode);

} // namespace Appearance
