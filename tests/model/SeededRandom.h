#pragma once

// Reproducible random draws for simulation tests: the raw mt19937_64 stream
// is fixed by the standard, and the transforms below are ours, so a seed
// gives the same numbers with every standard library (std::*_distribution
// does not promise that).

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

class SeededRandom
{
public:
    explicit SeededRandom(std::uint64_t seed)
        : m_engine(seed)
    { }

    // Uniform on (0, 1): 53 random bits, never exactly 0.
    double uniform() { return (double(m_engine() >> 11) + 0.5) / 9007199254740992.0; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    // Standard normal by Box–Muller (one of the pair; simple beats fast here).
    double normal() { return std::sqrt(-2.0 * std::log(uniform())) * std::cos(2.0 * std::numbers::pi * uniform()); }
    double lognormal(double mu, double sigma) { return std::exp(mu + sigma * normal()); }
    double exponential(double mean) { return -mean * std::log(uniform()); }

private:
    std::mt19937_64 m_engine;
};
