// Outpost — Texel-style tuning of the evaluation weights.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Usage: outpost-tuner DATA OUTPUT_HEADER [EPOCHS]
//
// 1. Every position of DATA ("FEN;RESULT" lines from outpost-datagen) is evaluated
//    once with a trace: the evaluation is linear in the weights given the trace.
// 2. K is fitted so that sigmoid(K * eval / 400) best predicts the game results
//    with the current weights (mean squared error, golden-section search).
// 3. With K fixed, the weights (middlegame and endgame halves) are fitted by
//    full-batch gradient descent with Adam on the same error, plus a small L2 pull
//    toward the starting values. Weights that appear in fewer than MIN_SEEN
//    positions stay as they are: Adam would otherwise move them at full speed on
//    almost no evidence (small data sets from a short self-play run).
// 4. The weights are rounded and written as eval_weights.h. One position in ten is
//    held out, and its error is reported before and after, to show overfitting.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "chess/fen.h"
#include "engine/eval.h"
#include "engine/eval_weights.h"

using namespace outpost;
using namespace outpost::engine;

namespace {

struct Sample {
    std::vector<std::pair<std::uint16_t, float>> coef;
    float phase_mg;  // phase / 24
    float phase_eg;  // (24 - phase) * scale / 64 / 24
    float result;
};

struct Weights {
    std::vector<double> mg, eg;
};

double linear_eval(const Sample& s, const Weights& w) {
    double mg = 0, eg = 0;
    for (const auto& [i, c] : s.coef) {
        mg += c * w.mg[i];
        eg += c * w.eg[i];
    }
    return mg * s.phase_mg + eg * s.phase_eg;
}

double sigmoid(double k, double v) { return 1.0 / (1.0 + std::exp(-k * v / 400.0)); }

double error(const std::vector<Sample>& data, const Weights& w, double k) {
    double e = 0;
    for (const Sample& s : data) {
        const double d = s.result - sigmoid(k, linear_eval(s, w));
        e += d * d;
    }
    return e / double(data.size());
}

double fit_k(const std::vector<Sample>& data, const Weights& w) {
    double a = 0.1, b = 4.0;
    const double g = (std::sqrt(5.0) - 1) / 2;
    for (int i = 0; i < 60; ++i) {
        const double c = b - g * (b - a), d = a + g * (b - a);
        if (error(data, w, c) < error(data, w, d)) b = d;
        else a = c;
    }
    return (a + b) / 2;
}

void write_header(const std::string& path, const Weights& w, const std::string& note) {
    std::ofstream f(path);
    f << "// Outpost — the evaluation weights, as (middlegame, endgame) pairs in centipawns.\n"
      << "// SPDX-License-Identifier: GPL-3.0-or-later\n//\n"
      << "// " << note << "\n"
      << "// The layout (offsets and group sizes) is eval_terms.h.\n"
      << "#pragma once\n\n#include <iterator>\n\n#include \"engine/eval_terms.h\"\n\n"
      << "namespace outpost::engine {\n\n// clang-format off\ninline constexpr Score EvalWeights[] = {\n";
    for (const EvalTermGroup& g : EvalTermGroups) {
        f << "    // " << g.name << "\n";
        const bool psqt = std::string(g.name).rfind("psqt", 0) == 0;
        const int per_row = psqt ? 4 : 8;
        for (int i = 0; i < g.size; ++i) {
            const int t = g.offset + i;
            f << (i % per_row == 0 ? "    " : " ") << "S(" << std::lround(w.mg[t]) << ", " << std::lround(w.eg[t])
              << "),";
            if (i % per_row == per_row - 1 || i == g.size - 1) f << "\n";
        }
    }
    f << "};\n// clang-format on\nstatic_assert(std::size(EvalWeights) == T_COUNT);\n\n}  // namespace outpost::engine\n";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: outpost-tuner DATA OUTPUT_HEADER [EPOCHS]\n";
        return 2;
    }
    const int epochs = argc > 3 ? std::atoi(argv[3]) : 3000;
    std::ifstream in(argv[1]);
    std::vector<Sample> train, test;
    std::string line;
    long n = 0, bad = 0;
    while (std::getline(in, line)) {
        const auto semi = line.rfind(';');
        if (semi == std::string::npos) {
            ++bad;
            continue;
        }
        auto pos = position_from_fen(line.substr(0, semi));
        if (!pos) {
            ++bad;
            continue;
        }
        EvalTrace t;
        (void)evaluate_traced(*pos, t);
        Sample s;
        for (int i = 0; i < T_COUNT; ++i)
            if (t.coef[i] != 0) s.coef.emplace_back(std::uint16_t(i), t.coef[i]);
        s.phase_mg = float(t.phase) / PHASE_MAX;
        s.phase_eg = float(PHASE_MAX - t.phase) * float(t.scale) / 64.0f / PHASE_MAX;
        s.result = std::strtof(line.c_str() + semi + 1, nullptr);
        (++n % 10 == 0 ? test : train).push_back(std::move(s));
    }
    std::cerr << "positions: " << train.size() << " train, " << test.size() << " held out, " << bad << " unreadable\n";
    if (train.empty()) return 1;

    Weights w{std::vector<double>(T_COUNT), std::vector<double>(T_COUNT)};
    for (int i = 0; i < T_COUNT; ++i) w.mg[i] = EvalWeights[i].mg, w.eg[i] = EvalWeights[i].eg;
    const double k = fit_k(train, w);
    std::cerr << "K = " << k << "\n";
    std::cerr << "error before: train " << error(train, w, k) << ", held out " << error(test, w, k) << "\n";

    std::vector<long> seen(T_COUNT, 0);
    for (const Sample& s : train)
        for (const auto& [i, c] : s.coef) ++seen[i];
    constexpr long MIN_SEEN = 300;
    const Weights start = w;
    int tuned = 0;
    for (int i = 0; i < T_COUNT; ++i) tuned += seen[i] >= MIN_SEEN;
    std::cerr << tuned << " of " << T_COUNT << " weights seen often enough to tune\n";

    // Adam, full batch. The step is in centipawns: weights move by about lr per epoch.
    std::vector<double> m(2 * T_COUNT, 0), v(2 * T_COUNT, 0), grad(2 * T_COUNT);
    const double lr = 0.3, b1 = 0.9, b2 = 0.999, eps = 1e-8, l2 = 2e-7;
    for (int epoch = 1; epoch <= epochs; ++epoch) {
        std::fill(grad.begin(), grad.end(), 0.0);
        for (const Sample& s : train) {
            const double p = sigmoid(k, linear_eval(s, w));
            // d/d(eval) of (r - p)^2
            const double g = -2.0 * (s.result - p) * p * (1 - p) * k / 400.0;
            for (const auto& [i, c] : s.coef) {
                grad[i] += g * c * s.phase_mg;
                grad[T_COUNT + i] += g * c * s.phase_eg;
            }
        }
        for (int j = 0; j < 2 * T_COUNT; ++j) {
            const int t = j % T_COUNT;
            if (seen[t] < MIN_SEEN) continue;
            const double deviation = j < T_COUNT ? w.mg[t] - start.mg[t] : w.eg[t] - start.eg[t];
            const double gj = grad[j] / double(train.size()) + 2 * l2 * deviation;
            m[j] = b1 * m[j] + (1 - b1) * gj;
            v[j] = b2 * v[j] + (1 - b2) * gj * gj;
            const double mh = m[j] / (1 - std::pow(b1, epoch)), vh = v[j] / (1 - std::pow(b2, epoch));
            const double step = lr * mh / (std::sqrt(vh) + eps);
            if (j < T_COUNT) w.mg[j] -= step;
            else w.eg[j - T_COUNT] -= step;
        }
        if (epoch % 250 == 0)
            std::cerr << "epoch " << epoch << ": train " << error(train, w, k) << ", held out " << error(test, w, k)
                      << "\n";
    }
    char note[256];
    std::snprintf(note, sizeof note, "Tuned by tools/tuner on %zu self-play positions (K = %.3f, %d epochs).",
                  train.size() + test.size(), k, epochs);
    write_header(argv[2], w, note);
    std::cerr << "wrote " << argv[2] << "\n";
    return 0;
}
