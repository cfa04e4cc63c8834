#pragma once

#include "DiagnosisRecord.h"

#include <vector>

class TraceStore;

// The configuration a trace carries about itself, as key/value entries for
// the record's manifest (each marked fromTrace): the file and its format,
// OpenTelemetry resource attributes (service, host, deployment, SDK), the
// model-call attributes that name the model and server, and flat request
// attributes that look like configuration (model, engine, server, version,
// GPU, ...). A key with several values lists them.
namespace ConfigurationManifest {

std::vector<ManifestEntry> fromTrace(const TraceStore &store, const QString &trace);

// Replaces the entries marked fromTrace with `measured`, keeping what a
// person typed (and a person's value for a key the trace also names).
std::vector<ManifestEntry> merged(const std::vector<ManifestEntry> &current,
                                  const std::vector<ManifestEntry> &measured);

inline constexpr int kMaxEntries = 24;
inline constexpr int kMaxValues = 3;

} // namespace ConfigurationManifest
