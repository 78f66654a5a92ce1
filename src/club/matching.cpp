// Outpost — maximum-weight matching (Edmonds' blossoms, primal-dual, O(n³)).
//
// Vocabulary: an edge k has two endpoints 2k and 2k+1 (endpoint[p] is a vertex;
// p ^ 1 is the other end). Blossoms are numbered n..2n-1; a vertex is a trivial
// blossom. Labels: 0 free, 1 S (outer), 2 T (inner); 5 marks a blossom during
// the search for a common base. Duals: u[v] for vertices, z[b] for blossoms;
// the slack of edge (i, j) is u[i] + u[j] - 2w (weights are doubled on entry so
// that every dual stays an integer).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "club/matching.h"

#include <algorithm>
#include <functional>

namespace outpost::club {

namespace {

// Halving an even dual difference (weights are doubled on entry).
std::int64_t half(std::int64_t x) { return x / 2; }
template <int Limbs>
WideInt<Limbs> half(const WideInt<Limbs>& x) {
    return x.half();
}

template <class W, class Edge>
class Matcher {
public:
    // The edges with an endpoint outside 0..n-1 or both ends at one vertex are left out.
    Matcher(int n, const std::vector<Edge>& edges, bool max_cardinality) : n_(n), max_cardinality_(max_cardinality) {
        auto valid = [n](const Edge& e) { return e.u != e.v && e.u >= 0 && e.v >= 0 && e.u < n && e.v < n; };
        std::vector<int> degree(static_cast<std::size_t>(n_) + 1, 0);
        for (const Edge& e : edges) {
            if (!valid(e)) continue;
            u_.push_back(e.u);
            v_.push_back(e.v);
            ++degree[e.u];
            ++degree[e.v];
        }
        m_ = static_cast<int>(u_.size());
        // Each vertex's edges in one run of memory, in edge order, with the
        // (doubled) weight next to the other end: the scans read them in order.
        start_.assign(static_cast<std::size_t>(n_) + 1, 0);
        for (int v = 0; v < n_; ++v) start_[v + 1] = start_[v] + degree[v];
        std::vector<int> fill(start_.begin(), start_.end() - 1);
        nbend_.resize(2 * static_cast<std::size_t>(m_));
        nbvertex_.resize(2 * static_cast<std::size_t>(m_));
        nbweight_.resize(2 * static_cast<std::size_t>(m_));
        wpos_.resize(m_);
        endpoint_.resize(2 * static_cast<std::size_t>(m_));
        W max_weight = 0;
        int k = 0;
        for (const Edge& e : edges) {
            if (!valid(e)) continue;
            W doubled = W(e.weight);
            doubled += doubled;
            if (max_weight < doubled) max_weight = doubled;
            endpoint_[2 * k] = e.u;
            endpoint_[2 * k + 1] = e.v;
            const int a = fill[e.u]++, b = fill[e.v]++;
            nbend_[a] = 2 * k + 1;
            nbvertex_[a] = e.v;
            nbweight_[a] = doubled;
            nbend_[b] = 2 * k;
            nbvertex_[b] = e.u;
            nbweight_[b] = doubled;
            wpos_[k] = a;
            ++k;
        }
        mate_.assign(n_, -1);
        label_.assign(2 * n_, 0);
        labelend_.assign(2 * n_, -1);
        inblossom_.resize(n_);
        for (int v = 0; v < n_; ++v) inblossom_[v] = v;
        blossomparent_.assign(2 * n_, -1);
        blossomchilds_.assign(2 * n_, {});
        blossombase_.assign(2 * n_, -1);
        for (int v = 0; v < n_; ++v) blossombase_[v] = v;
        blossomendps_.assign(2 * n_, {});
        bestedge_.assign(2 * n_, -1);
        cache_edge_.assign(2 * n_, -1);
        cache_epoch_.assign(2 * n_, -1);
        cache_slack_.assign(2 * n_, W(0));
        blossombestedges_.assign(2 * n_, {});
        has_bestedges_.assign(2 * n_, false);
        for (int b = 2 * n_ - 1; b >= n_; --b) unused_.push_back(b);
        dual_.assign(2 * n_, 0);
        for (int v = 0; v < n_; ++v) dual_[v] = max_weight;
        allowedge_.assign(m_, false);
    }

    std::vector<int> solve() {
        for (int stage = 0; stage < n_; ++stage) {
            std::fill(label_.begin(), label_.end(), 0);
            std::fill(bestedge_.begin(), bestedge_.end(), -1);
            for (int b = n_; b < 2 * n_; ++b) {
                blossombestedges_[b].clear();
                has_bestedges_[b] = false;
            }
            std::fill(allowedge_.begin(), allowedge_.end(), false);
            queue_.clear();
            for (int v = 0; v < n_; ++v)
                if (mate_[v] == -1 && label_[inblossom_[v]] == 0) assign_label(v, 1, -1);
            bool augmented = false;
            while (true) {
                // Grow the forest along tight edges.
                while (!queue_.empty() && !augmented) {
                    int v = queue_.back();
                    queue_.pop_back();
                    for (int i = start_[v]; i < start_[v + 1]; ++i) {
                        const int p = nbend_[i];
                        const int k = p / 2;
                        const int w = nbvertex_[i];
                        if (inblossom_[v] == inblossom_[w]) continue;
                        W kslack = 0;
                        if (!allowedge_[k]) {
                            kslack = dual_[v];
                            kslack += dual_[w];
                            kslack -= nbweight_[i];
                            if (kslack <= 0) allowedge_[k] = true;
                        }
                        if (allowedge_[k]) {
                            if (label_[inblossom_[w]] == 0) {
                                assign_label(w, 2, p ^ 1);
                            } else if (label_[inblossom_[w]] == 1) {
                                int base = scan_blossom(v, w);
                                if (base >= 0) {
                                    add_blossom(base, k);
                                } else {
                                    augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if (label_[w] == 0) {
                                label_[w] = 2;
                                labelend_[w] = p ^ 1;
                            }
                        } else if (label_[inblossom_[w]] == 1) {
                            int b = inblossom_[v];
                            if (bestedge_[b] == -1 || kslack < best_slack(b)) set_best(b, k, kslack);
                        } else if (label_[w] == 0) {
                            if (bestedge_[w] == -1 || kslack < best_slack(w)) set_best(w, k, kslack);
                        }
                    }
                }
                if (augmented) break;

                // No tight edge left: change the duals (four kinds of step).
                int deltatype = -1, deltaedge = -1, deltablossom = -1;
                W delta = 0;
                if (!max_cardinality_) {
                    deltatype = 1;
                    delta = *std::min_element(dual_.begin(), dual_.begin() + n_);
                }
                for (int v = 0; v < n_; ++v) {
                    if (label_[inblossom_[v]] == 0 && bestedge_[v] != -1) {
                        const W& d = best_slack(v);
                        if (deltatype == -1 || d < delta) delta = d, deltatype = 2, deltaedge = bestedge_[v];
                    }
                }
                for (int b = 0; b < 2 * n_; ++b) {
                    if (blossomparent_[b] == -1 && label_[b] == 1 && bestedge_[b] != -1) {
                        W d = half(best_slack(b));
                        if (deltatype == -1 || d < delta) delta = d, deltatype = 3, deltaedge = bestedge_[b];
                    }
                }
                for (int b = n_; b < 2 * n_; ++b) {
                    if (blossombase_[b] >= 0 && blossomparent_[b] == -1 && label_[b] == 2 &&
                        (deltatype == -1 || dual_[b] < delta))
                        delta = dual_[b], deltatype = 4, deltablossom = b;
                }
                if (deltatype == -1) {
                    deltatype = 1;
                    delta = *std::min_element(dual_.begin(), dual_.begin() + n_);
                    if (delta < W(0)) delta = 0;
                }
                ++epoch_;  // every slack cached before is stale
                for (int v = 0; v < n_; ++v) {
                    if (label_[inblossom_[v]] == 1) dual_[v] -= delta;
                    else if (label_[inblossom_[v]] == 2) dual_[v] += delta;
                }
                for (int b = n_; b < 2 * n_; ++b) {
                    if (blossombase_[b] >= 0 && blossomparent_[b] == -1) {
                        if (label_[b] == 1) dual_[b] += delta;
                        else if (label_[b] == 2) dual_[b] -= delta;
                    }
                }
                if (deltatype == 1) break;
                if (deltatype == 2) {
                    allowedge_[deltaedge] = true;
                    int i = u_[deltaedge], j = v_[deltaedge];
                    if (label_[inblossom_[i]] == 0) std::swap(i, j);
                    queue_.push_back(i);
                } else if (deltatype == 3) {
                    allowedge_[deltaedge] = true;
                    queue_.push_back(u_[deltaedge]);
                } else {
                    expand_blossom(deltablossom, false);
                }
            }
            if (!augmented) break;
            // Blossoms with a zero dual at the end of a stage are expanded.
            for (int b = n_; b < 2 * n_; ++b)
                if (blossomparent_[b] == -1 && blossombase_[b] >= 0 && label_[b] == 1 && dual_[b] == 0)
                    expand_blossom(b, true);
        }
        std::vector<int> out(n_, -1);
        for (int v = 0; v < n_; ++v)
            if (mate_[v] >= 0) out[v] = endpoint_[mate_[v]];
        return out;
    }

private:
    W slack(int k) const {
        W r = dual_[u_[k]];  // in place: no temporaries of the wide weights
        r += dual_[v_[k]];
        r -= nbweight_[wpos_[k]];
        return r;
    }

    // The slack of bestedge_[b] (not -1), computed once per edge and dual step:
    // the vertex duals change only in a dual step, which starts a new epoch.
    const W& best_slack(int b) {
        const int k = bestedge_[b];
        if (cache_edge_[b] != k || cache_epoch_[b] != epoch_) {
            cache_slack_[b] = slack(k);
            cache_edge_[b] = k;
            cache_epoch_[b] = epoch_;
        }
        return cache_slack_[b];
    }
    void set_best(int b, int k, const W& kslack) {
        bestedge_[b] = k;
        cache_edge_[b] = k;
        cache_epoch_[b] = epoch_;
        cache_slack_[b] = kslack;
    }

    void leaves(int b, std::vector<int>& out) const {
        if (b < n_) {
            out.push_back(b);
            return;
        }
        for (int c : blossomchilds_[b]) leaves(c, out);
    }
    std::vector<int> leaves(int b) const {
        std::vector<int> out;
        leaves(b, out);
        return out;
    }

    int child_at(int b, int j) const {
        int len = static_cast<int>(blossomchilds_[b].size());
        return blossomchilds_[b][((j % len) + len) % len];
    }
    int endp_at(int b, int j) const {
        int len = static_cast<int>(blossomendps_[b].size());
        return blossomendps_[b][((j % len) + len) % len];
    }

    void assign_label(int w, int t, int p) {
        int b = inblossom_[w];
        label_[w] = label_[b] = t;
        labelend_[w] = labelend_[b] = p;
        bestedge_[w] = bestedge_[b] = -1;
        if (t == 1) {
            for (int v : leaves(b)) queue_.push_back(v);
        } else {
            int base = blossombase_[b];
            assign_label(endpoint_[mate_[base]], 1, mate_[base] ^ 1);
        }
    }

    // Follows both trees back to the roots: the base of the new blossom, or -1
    // when the roots differ (an augmenting path).
    int scan_blossom(int v, int w) {
        std::vector<int> path;
        int base = -1;
        while (v != -1 || w != -1) {
            int b = inblossom_[v];
            if (label_[b] & 4) {
                base = blossombase_[b];
                break;
            }
            path.push_back(b);
            label_[b] = 5;
            if (labelend_[b] == -1) {
                v = -1;
            } else {
                v = endpoint_[labelend_[b]];
                b = inblossom_[v];
                v = endpoint_[labelend_[b]];
            }
            if (w != -1) std::swap(v, w);
        }
        for (int b : path) label_[b] = 1;
        return base;
    }

    void add_blossom(int base, int k) {
        int v = u_[k], w = v_[k];
        int bb = inblossom_[base], bv = inblossom_[v], bw = inblossom_[w];
        int b = unused_.back();
        unused_.pop_back();
        blossombase_[b] = base;
        blossomparent_[b] = -1;
        blossomparent_[bb] = b;
        std::vector<int> path, endps;
        while (bv != bb) {
            blossomparent_[bv] = b;
            path.push_back(bv);
            endps.push_back(labelend_[bv]);
            v = endpoint_[labelend_[bv]];
            bv = inblossom_[v];
        }
        path.push_back(bb);
        std::reverse(path.begin(), path.end());
        std::reverse(endps.begin(), endps.end());
        endps.push_back(2 * k);
        while (bw != bb) {
            blossomparent_[bw] = b;
            path.push_back(bw);
            endps.push_back(labelend_[bw] ^ 1);
            w = endpoint_[labelend_[bw]];
            bw = inblossom_[w];
        }
        blossomchilds_[b] = path;
        blossomendps_[b] = endps;
        label_[b] = 1;
        labelend_[b] = labelend_[bb];
        dual_[b] = 0;
        for (int leaf : leaves(b)) {
            if (label_[inblossom_[leaf]] == 2) queue_.push_back(leaf);
            inblossom_[leaf] = b;
        }
        // The least-slack edges from the new blossom to each other S-blossom.
        std::vector<int> bestedgeto(2 * n_, -1);
        for (int child : path) {
            std::vector<int> candidates;
            if (!has_bestedges_[child]) {
                for (int leaf : leaves(child))
                    for (int i = start_[leaf]; i < start_[leaf + 1]; ++i) candidates.push_back(nbend_[i] / 2);
            } else {
                candidates = blossombestedges_[child];
            }
            for (int kk : candidates) {
                int i = u_[kk], j = v_[kk];
                if (inblossom_[j] == b) std::swap(i, j);
                int bj = inblossom_[j];
                if (bj != b && label_[bj] == 1 && (bestedgeto[bj] == -1 || slack(kk) < slack(bestedgeto[bj])))
                    bestedgeto[bj] = kk;
            }
            blossombestedges_[child].clear();
            has_bestedges_[child] = false;
            bestedge_[child] = -1;
        }
        blossombestedges_[b].clear();
        for (int kk : bestedgeto)
            if (kk != -1) blossombestedges_[b].push_back(kk);
        has_bestedges_[b] = true;
        bestedge_[b] = -1;
        for (int kk : blossombestedges_[b])
            if (bestedge_[b] == -1 || slack(kk) < slack(bestedge_[b])) bestedge_[b] = kk;
    }

    void expand_blossom(int b, bool endstage) {
        for (int s : blossomchilds_[b]) {
            blossomparent_[s] = -1;
            if (s < n_) inblossom_[s] = s;
            else if (endstage && dual_[s] == 0) expand_blossom(s, endstage);
            else
                for (int leaf : leaves(s)) inblossom_[leaf] = s;
        }
        if (!endstage && label_[b] == 2) {
            // Relabel the sub-blossoms on the path from the entry to the base.
            int entrychild = inblossom_[endpoint_[labelend_[b] ^ 1]];
            const auto& childs = blossomchilds_[b];
            int j = static_cast<int>(std::find(childs.begin(), childs.end(), entrychild) - childs.begin());
            int jstep, endptrick;
            if (j & 1) {
                j -= static_cast<int>(childs.size());
                jstep = 1;
                endptrick = 0;
            } else {
                jstep = -1;
                endptrick = 1;
            }
            int p = labelend_[b];
            while (j != 0) {
                label_[endpoint_[p ^ 1]] = 0;
                label_[endpoint_[endp_at(b, j - endptrick) ^ endptrick ^ 1]] = 0;
                assign_label(endpoint_[p ^ 1], 2, p);
                allowedge_[endp_at(b, j - endptrick) / 2] = true;
                j += jstep;
                p = endp_at(b, j - endptrick) ^ endptrick;
                allowedge_[p / 2] = true;
                j += jstep;
            }
            int bv = child_at(b, j);
            label_[endpoint_[p ^ 1]] = label_[bv] = 2;
            labelend_[endpoint_[p ^ 1]] = labelend_[bv] = p;
            bestedge_[bv] = -1;
            j += jstep;
            while (child_at(b, j) != entrychild) {
                bv = child_at(b, j);
                if (label_[bv] == 1) {
                    j += jstep;
                    continue;
                }
                int found = -1;
                for (int leaf : leaves(bv))
                    if (label_[leaf] != 0) {
                        found = leaf;
                        break;
                    }
                if (found != -1) {
                    label_[found] = 0;
                    label_[endpoint_[mate_[blossombase_[bv]]]] = 0;
                    assign_label(found, 2, labelend_[found]);
                }
                j += jstep;
            }
        }
        label_[b] = labelend_[b] = -1;
        blossomchilds_[b].clear();
        blossomendps_[b].clear();
        blossombase_[b] = -1;
        blossombestedges_[b].clear();
        has_bestedges_[b] = false;
        bestedge_[b] = -1;
        unused_.push_back(b);
    }

    // Swaps matched and unmatched edges inside blossom b on the path from v to the base.
    void augment_blossom(int b, int v) {
        int t = v;
        while (blossomparent_[t] != b) t = blossomparent_[t];
        if (t >= n_) augment_blossom(t, v);
        const int len = static_cast<int>(blossomchilds_[b].size());
        int i = static_cast<int>(std::find(blossomchilds_[b].begin(), blossomchilds_[b].end(), t) -
                                 blossomchilds_[b].begin());
        int j = i, jstep, endptrick;
        if (i & 1) {
            j -= len;
            jstep = 1;
            endptrick = 0;
        } else {
            jstep = -1;
            endptrick = 1;
        }
        while (j != 0) {
            j += jstep;
            t = child_at(b, j);
            int p = endp_at(b, j - endptrick) ^ endptrick;
            if (t >= n_) augment_blossom(t, endpoint_[p]);
            j += jstep;
            t = child_at(b, j);
            if (t >= n_) augment_blossom(t, endpoint_[p ^ 1]);
            mate_[endpoint_[p]] = p ^ 1;
            mate_[endpoint_[p ^ 1]] = p;
        }
        std::rotate(blossomchilds_[b].begin(), blossomchilds_[b].begin() + i, blossomchilds_[b].end());
        std::rotate(blossomendps_[b].begin(), blossomendps_[b].begin() + i, blossomendps_[b].end());
        blossombase_[b] = blossombase_[blossomchilds_[b][0]];
    }

    void augment_matching(int k) {
        for (auto [s, p] : {std::pair{u_[k], 2 * k + 1}, std::pair{v_[k], 2 * k}}) {
            while (true) {
                int bs = inblossom_[s];
                if (bs >= n_) augment_blossom(bs, s);
                mate_[s] = p;
                if (labelend_[bs] == -1) break;
                int t = endpoint_[labelend_[bs]];
                int bt = inblossom_[t];
                s = endpoint_[labelend_[bt]];
                int j = endpoint_[labelend_[bt] ^ 1];
                if (bt >= n_) augment_blossom(bt, j);
                mate_[j] = labelend_[bt];
                p = labelend_[bt] ^ 1;
            }
        }
    }

    int n_, m_ = 0;
    bool max_cardinality_;
    std::vector<int> u_, v_;
    std::vector<int> endpoint_;
    // Vertex v's edges are entries start_[v] .. start_[v+1]-1: the endpoint
    // index of the other end, that vertex, the doubled weight; wpos_[k] is the
    // entry of edge k at its first end.
    std::vector<int> start_, nbend_, nbvertex_, wpos_;
    std::vector<W> nbweight_;
    long epoch_ = 0;
    std::vector<int> cache_edge_;
    std::vector<long> cache_epoch_;
    std::vector<W> cache_slack_;
    std::vector<int> mate_, label_, labelend_, inblossom_, blossomparent_, blossombase_, bestedge_, unused_, queue_;
    std::vector<std::vector<int>> blossomchilds_, blossomendps_, blossombestedges_;
    std::vector<bool> has_bestedges_, allowedge_;
    std::vector<W> dual_;
};

}  // namespace

namespace {

template <class W, class Edge>
std::vector<int> run(int vertices, const std::vector<Edge>& edges, bool max_cardinality) {
    if (vertices <= 0) return {};
    return Matcher<W, Edge>(vertices, edges, max_cardinality).solve();
}

}  // namespace

std::vector<int> max_weight_matching(int vertices, const std::vector<WeightedEdge>& edges, bool max_cardinality) {
    return run<std::int64_t>(vertices, edges, max_cardinality);
}

template <int Limbs>
std::vector<int> max_weight_matching_wide(int vertices, const std::vector<WideIntEdge<Limbs>>& edges,
                                          bool max_cardinality) {
    return run<WideInt<Limbs>>(vertices, edges, max_cardinality);
}

template std::vector<int> max_weight_matching_wide<4>(int, const std::vector<WideIntEdge<4>>&, bool);
template std::vector<int> max_weight_matching_wide<8>(int, const std::vector<WideIntEdge<8>>&, bool);
template std::vector<int> max_weight_matching_wide<16>(int, const std::vector<WideIntEdge<16>>&, bool);
template std::vector<int> max_weight_matching_wide<32>(int, const std::vector<WideIntEdge<32>>&, bool);
template std::vector<int> max_weight_matching_wide<64>(int, const std::vector<WideIntEdge<64>>&, bool);

}  // namespace outpost::club
