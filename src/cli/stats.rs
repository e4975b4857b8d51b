//! Match statistics, computed as fastchess computes them (its `elo_wdl.cpp`,
//! `elo_pentanomial.cpp` and `sprt.cpp`): Elo difference with a 95% error bar, normalized Elo,
//! likelihood of superiority, and the log-likelihood ratio of the sequential probability ratio
//! test (SPRT), both from single games (trinomial: win, draw, loss) and from game pairs
//! (pentanomial: a pair of games on one opening with colours swapped scores 0, ½, 1, 1½ or 2).
//!
//! The LLR is the generalised log-likelihood ratio of M. Van den Bergh: the maximum likelihood
//! distributions under H0 and H1 are found numerically (the ITP root finder of Oliveira and
//! Takahashi, as fastchess does), for the `normalized` model (hypotheses in normalized Elo,
//! fastchess's default), the `logistic` model (logistic Elo), or the trinomial-only `bayesian`
//! model (BayesElo with the draw Elo estimated from the results).

/// The z-score of a two-sided 95% confidence interval.
pub const CI95_Z: f64 = 1.959_963_984_540_054;

/// `800 / ln 10`: converts a normalized score difference into normalized Elo.
const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// Wins, losses and draws of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    /// Games the first engine won.
    pub wins: u32,
    /// Games the first engine lost.
    pub losses: u32,
    /// Drawn games.
    pub draws: u32,
}

/// Game pairs by the first engine's points over the two games of a pair (each pair shares one
/// opening, colours swapped): `[0, ½, 1, 1½, 2]` — fastchess's `Ptnml(0-2)` — with the 1-point
/// pairs split into win+loss and draw+draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    /// Two losses.
    pub ll: u32,
    /// A loss and a draw.
    pub ld: u32,
    /// A win and a loss.
    pub wl: u32,
    /// Two draws.
    pub dd: u32,
    /// A win and a draw.
    pub wd: u32,
    /// Two wins.
    pub ww: u32,
}

/// An Elo estimate: the difference, its 95% error bar, normalized Elo with its error bar, and
/// the likelihood of superiority (0 to 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Logistic Elo difference (infinite when one side scored everything).
    pub elo: f64,
    /// Half-width of the 95% confidence interval of `elo`.
    pub error: f64,
    /// Normalized Elo: the score difference from ½ in standard deviations, times 800 / ln 10.
    pub nelo: f64,
    /// Half-width of the 95% confidence interval of `nelo`.
    pub nelo_error: f64,
    /// Likelihood of superiority: the probability that the first engine is the stronger.
    pub los: f64,
}

/// Elo difference for a score fraction (0 < `score` < 1).
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score fraction for a logistic Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The estimate for results with outcomes `scores` (fractions of a point, ascending) in
/// proportions `probs`, from `n` independent samples; `pair_factor` is 2 for pairs (normalized
/// Elo is per game: a pair's variance is divided by 2), 1 for games. Formulas of fastchess.
fn estimate(scores: &[f64], probs: &[f64], n: f64, pair_factor: f64) -> EloEstimate {
    let (score, var) = mean_and_variance(scores, probs);
    let per_sample = var / n;
    let sd = per_sample.sqrt();
    let (lo, hi) = (score - CI95_Z * sd, score + CI95_Z * sd);
    let elo_at = |s: f64| elo_of_score(s.clamp(1e-12, 1.0 - 1e-12));
    let (elo, error) = if score <= 0.0 {
        (f64::NEG_INFINITY, f64::INFINITY)
    } else if score >= 1.0 {
        (f64::INFINITY, f64::INFINITY)
    } else {
        (elo_of_score(score), (elo_at(hi) - elo_at(lo)) / 2.0)
    };
    let nelo_at = |s: f64| (s - 0.5) / (pair_factor * var).sqrt() * NELO_SCALE;
    let (nelo, nelo_error) = if var > 0.0 {
        (nelo_at(score), (nelo_at(hi) - nelo_at(lo)) / 2.0)
    } else if score == 0.5 {
        (0.0, 0.0)
    } else {
        (f64::INFINITY.copysign(score - 0.5), f64::INFINITY)
    };
    let los = if sd > 0.0 {
        (1.0 - libm::erf(-(score - 0.5) / (2.0 * per_sample).sqrt())) / 2.0
    } else if score > 0.5 {
        1.0
    } else if score < 0.5 {
        0.0
    } else {
        0.5
    };
    EloEstimate {
        elo,
        error,
        nelo,
        nelo_error,
        los,
    }
}

impl Wld {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// The first engine's score fraction (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// The Elo estimate from single games (fastchess's `EloWDL`), except the likelihood of
    /// superiority, which is cutechess's (from wins and losses only: draws carry no
    /// information). `None` with no games.
    pub fn estimate(&self) -> Option<EloEstimate> {
        let n = self.games() as f64;
        if n == 0.0 {
            return None;
        }
        let probs = [
            self.losses as f64 / n,
            self.draws as f64 / n,
            self.wins as f64 / n,
        ];
        let mut e = estimate(&[0.0, 0.5, 1.0], &probs, n, 1.0);
        e.los = self.los();
        Some(e)
    }

    /// The Elo difference and the half-width of its 95% confidence interval (0, 0 with no
    /// games).
    pub fn elo(&self) -> (f64, f64) {
        self.estimate().map_or((0.0, 0.0), |e| (e.elo, e.error))
    }

    /// Likelihood of superiority from wins and losses (cutechess):
    /// ½ (1 + erf((W − L) / √(2 (W + L)))).
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + libm::erf((w - l) / (2.0 * (w + l)).sqrt()))
    }

    /// The log-likelihood ratio of H1 against H0 from single games under `sprt`'s model
    /// (fastchess's `getLLR(win, draw, loss)`; counts of 0 are taken as 0.001). 0 with no
    /// games, and 0 for the bayesian model until there is a win and a loss.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        let (l, d, w) = (
            regularize(self.losses),
            regularize(self.draws),
            regularize(self.wins),
        );
        let total = l + d + w;
        let probs = [l / total, d / total, w / total];
        let scores = [0.0, 0.5, 1.0];
        match sprt.model {
            SprtModel::Normalized => {
                let t0 = sprt.elo0 / NELO_SCALE;
                let t1 = sprt.elo1 / NELO_SCALE;
                llr_normalized(total, &scores, &probs, t0, t1)
            }
            SprtModel::Bayesian => {
                if self.wins == 0 || self.losses == 0 {
                    return 0.0;
                }
                let (pl, pw) = (probs[0], probs[2]);
                let drawelo = 200.0 * ((1.0 - pl) / pl * (1.0 - pw) / pw).log10();
                let s0 = bayeselo_to_score(sprt.elo0, drawelo);
                let s1 = bayeselo_to_score(sprt.elo1, drawelo);
                llr_logistic(total, &scores, &probs, s0, s1)
            }
            SprtModel::Logistic => llr_logistic(
                total,
                &scores,
                &probs,
                score_of_elo(sprt.elo0),
                score_of_elo(sprt.elo1),
            ),
        }
    }
}

impl Penta {
    /// Counts one finished pair from the first engine's half points in each game (0, 1 or 2).
    pub fn add(&mut self, a: u8, b: u8) {
        match (a.min(b), a.max(b)) {
            (0, 0) => self.ll += 1,
            (0, 1) => self.ld += 1,
            (0, 2) => self.wl += 1,
            (1, 1) => self.dd += 1,
            (1, 2) => self.wd += 1,
            _ => self.ww += 1,
        }
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }

    /// The counts as fastchess prints them: `[LL, LD, WL+DD, WD, WW]`.
    pub fn ptnml(&self) -> [u32; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    /// The Elo estimate from pairs (fastchess's `EloPentanomial`); `None` with no pairs.
    pub fn estimate(&self) -> Option<EloEstimate> {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return None;
        }
        let probs = self.ptnml().map(|c| c as f64 / n);
        Some(estimate(&PENTA_SCORES, &probs, n, 2.0))
    }

    /// The log-likelihood ratio of H1 against H0 from pairs (fastchess's pentanomial
    /// `getLLR`; counts of 0 taken as 0.001). 0 with no pairs; `None` for the bayesian model,
    /// which has no pentanomial form.
    pub fn llr(&self, sprt: &Sprt) -> Option<f64> {
        if sprt.model == SprtModel::Bayesian {
            return None;
        }
        if self.pairs() == 0 {
            return Some(0.0);
        }
        let counts = [
            regularize(self.ll),
            regularize(self.ld),
            regularize(self.dd + self.wl),
            regularize(self.wd),
            regularize(self.ww),
        ];
        let total: f64 = counts.iter().sum();
        let probs = counts.map(|c| c / total);
        Some(match sprt.model {
            SprtModel::Normalized => {
                let t0 = std::f64::consts::SQRT_2 * sprt.elo0 / NELO_SCALE;
                let t1 = std::f64::consts::SQRT_2 * sprt.elo1 / NELO_SCALE;
                llr_normalized(total, &PENTA_SCORES, &probs, t0, t1)
            }
            _ => llr_logistic(
                total,
                &PENTA_SCORES,
                &probs,
                score_of_elo(sprt.elo0),
                score_of_elo(sprt.elo1),
            ),
        })
    }
}

/// A pair's score fractions: 0, ¼, ½, ¾, 1.
const PENTA_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// A count as a float, 0 taken as 0.001 (fastchess's `regularize`).
fn regularize(count: u32) -> f64 {
    if count == 0 { 1e-3 } else { count as f64 }
}

/// Expected score for a BayesElo difference and draw Elo.
fn bayeselo_to_score(bayeselo: f64, drawelo: f64) -> f64 {
    let pwin = 1.0 / (1.0 + 10f64.powf((-bayeselo + drawelo) / 400.0));
    let ploss = 1.0 / (1.0 + 10f64.powf((bayeselo + drawelo) / 400.0));
    let pdraw = 1.0 - pwin - ploss;
    pwin + 0.5 * pdraw
}

fn mean(x: &[f64], p: &[f64]) -> f64 {
    x.iter().zip(p).map(|(x, p)| x * p).sum()
}

fn mean_and_variance(x: &[f64], p: &[f64]) -> (f64, f64) {
    let mu = mean(x, p);
    let var = x.iter().zip(p).map(|(x, p)| p * (x - mu) * (x - mu)).sum();
    (mu, var)
}

/// The ITP root finder (I. F. D. Oliveira and R. H. C. Takahashi, ACM TOMS 47(1), 2021), as
/// fastchess writes it: a root of `f` between `a` and `b`, where `f(a)` and `f(b)` have
/// opposite signs (they may be given as infinities).
#[allow(clippy::too_many_arguments)]
fn itp(
    f: impl Fn(f64) -> f64,
    mut a: f64,
    mut b: f64,
    mut f_a: f64,
    mut f_b: f64,
    k_1: f64,
    k_2: f64,
    n_0: f64,
    epsilon: f64,
) -> f64 {
    if f_a > 0.0 {
        std::mem::swap(&mut a, &mut b);
        std::mem::swap(&mut f_a, &mut f_b);
    }
    let n_half = ((b - a).abs() / (2.0 * epsilon)).log2().ceil();
    let n_max = n_half + n_0;
    let mut i = 0.0;
    while (b - a).abs() > 2.0 * epsilon {
        let x_half = (a + b) / 2.0;
        let r = epsilon * 2f64.powf(n_max - i) - (b - a) / 2.0;
        let delta = k_1 * (b - a).powf(k_2);
        let x_f = (f_b * a - f_a * b) / (f_b - f_a);
        let sigma = (x_half - x_f) / (x_half - x_f).abs();
        let x_t = if delta <= (x_half - x_f).abs() {
            x_f + sigma * delta
        } else {
            x_half
        };
        let x_itp = if (x_t - x_half).abs() <= r {
            x_t
        } else {
            x_half - sigma * r
        };
        let f_itp = f(x_itp);
        if f_itp == 0.0 {
            a = x_itp;
            b = x_itp;
        } else if f_itp.is_sign_negative() {
            a = x_itp;
            f_a = f_itp;
        } else {
            b = x_itp;
            f_b = f_itp;
        }
        i += 1.0;
    }
    (a + b) / 2.0
}

/// The generalised LLR for hypotheses on the expected score (`s0`, `s1`): maximum likelihood
/// distributions with those means (Van den Bergh, "Comparing the approximations for the
/// generalized log likelihood ratio of a multinomial distribution", proposition 1.1).
fn llr_logistic(total: f64, scores: &[f64], probs: &[f64], s0: f64, s1: f64) -> f64 {
    let n = scores.len();
    let mle = |s: f64| -> Vec<f64> {
        let min_theta = -1.0 / (scores[n - 1] - s);
        let max_theta = -1.0 / (scores[0] - s);
        let theta = itp(
            |x| {
                scores
                    .iter()
                    .zip(probs)
                    .map(|(a, p)| p * (a - s) / (1.0 + x * (a - s)))
                    .sum()
            },
            min_theta,
            max_theta,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.1,
            2.0,
            0.99,
            1e-3,
        );
        scores
            .iter()
            .zip(probs)
            .map(|(a, p)| p / (1.0 + theta * (a - s)))
            .collect()
    };
    log_ratio(total, probs, &mle(s0), &mle(s1))
}

/// The generalised LLR for hypotheses on the normalized score `t = (μ − ½) / σ` (`t0`, `t1`):
/// maximum likelihood distributions by the iteration of Van den Bergh, "Comments on normalized
/// Elo", section 4.1 (at most 10 rounds, as fastchess).
fn llr_normalized(total: f64, scores: &[f64], probs: &[f64], t0: f64, t1: f64) -> f64 {
    let n = scores.len();
    let mle = |mu_ref: f64, t_star: f64| -> Vec<f64> {
        let mut p = vec![1.0 / n as f64; n];
        for _ in 0..10 {
            let (mu, var) = mean_and_variance(scores, &p);
            let sigma = var.sqrt();
            let phi: Vec<f64> = scores
                .iter()
                .map(|a| {
                    let z = (a - mu) / sigma;
                    a - mu_ref - 0.5 * t_star * sigma * (1.0 + z * z)
                })
                .collect();
            let u = phi.iter().copied().fold(f64::INFINITY, f64::min);
            let v = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let theta = itp(
                |x| {
                    phi.iter()
                        .zip(probs)
                        .map(|(phi, p)| p * phi / (1.0 + x * phi))
                        .sum()
                },
                -1.0 / v,
                -1.0 / u,
                f64::INFINITY,
                f64::NEG_INFINITY,
                0.1,
                2.0,
                0.99,
                1e-7,
            );
            let mut max_diff: f64 = 0.0;
            for i in 0..n {
                let new = probs[i] / (1.0 + theta * phi[i]);
                max_diff = max_diff.max((new - p[i]).abs());
                p[i] = new;
            }
            if max_diff < 1e-4 {
                break;
            }
        }
        p
    };
    log_ratio(total, probs, &mle(0.5, t0), &mle(0.5, t1))
}

/// `total · Σ p̂ᵢ (ln p1ᵢ − ln p0ᵢ)`.
fn log_ratio(total: f64, probs: &[f64], p0: &[f64], p1: &[f64]) -> f64 {
    let lpr: Vec<f64> = p0.iter().zip(p1).map(|(a, b)| b.ln() - a.ln()).collect();
    total * mean(&lpr, probs)
}

/// The model the SPRT's hypotheses are stated in (fastchess's `--sprt model=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtModel {
    /// Normalized Elo (fastchess's default).
    Normalized,
    /// Logistic Elo.
    Logistic,
    /// BayesElo; single games only (no pentanomial form).
    Bayesian,
}

impl SprtModel {
    /// The model's name as `--sprt model=` takes it.
    pub fn name(self) -> &'static str {
        match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
            SprtModel::Bayesian => "bayesian",
        }
    }
}

/// An SPRT set-up: the two hypotheses, the error rates and the Elo model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// The Elo model of `elo0` and `elo1`.
    pub model: SprtModel,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Keep playing.
    Continue,
    /// H0 accepted (the change is not the `elo1` gain).
    H0,
    /// H1 accepted.
    H1,
}

impl Sprt {
    /// Parses `elo0=<a> elo1=<b> [alpha=<x>] [beta=<y>] [model=normalized|logistic|bayesian]`
    /// words (also one string of them).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Normalized,
        };
        for w in words.iter().flat_map(|w| w.split_whitespace()) {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("--sprt: '{w}' is not key=value (elo0=0 elo1=5)"))?;
            let k = k.to_ascii_lowercase();
            if k == "model" {
                sprt.model = match v.to_ascii_lowercase().as_str() {
                    "normalized" => SprtModel::Normalized,
                    "logistic" => SprtModel::Logistic,
                    "bayesian" => SprtModel::Bayesian,
                    _ => {
                        return Err(format!(
                            "--sprt: model '{v}' is not normalized, logistic or bayesian"
                        ));
                    }
                };
                continue;
            }
            let x: f64 = v
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| format!("--sprt: '{v}' is not a number"))?;
            match k.as_str() {
                "elo0" => sprt.elo0 = x,
                "elo1" => sprt.elo1 = x,
                "alpha" => sprt.alpha = x,
                "beta" => sprt.beta = x,
                _ => {
                    return Err(format!(
                        "--sprt: unknown key '{k}' (elo0, elo1, alpha, beta, model)"
                    ));
                }
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err("--sprt needs elo0=<a> and elo1=<b>".into());
        }
        if sprt.elo1 <= sprt.elo0 {
            return Err("--sprt: elo1 must be greater than elo0".into());
        }
        let ok = |p: f64| p > 0.0 && p < 0.5;
        if !ok(sprt.alpha) || !ok(sprt.beta) {
            return Err("--sprt: alpha and beta must be between 0 and 0.5".into());
        }
        Ok(sprt)
    }

    /// The lower and upper LLR bounds: ln(β/(1−α)) and ln((1−β)/α).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The decision for a log-likelihood ratio.
    pub fn state(&self, llr: f64) -> SprtState {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtState::H1
        } else if llr <= lo {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference values: tests/data/stats_reference.py (the likelihood maximised directly with
    /// scipy's SLSQP, Elo by the textbook formulas), which also reproduces the figures of
    /// fastchess's own tests (app/tests/sprt_test.cpp, elo_test.cpp).
    fn close(x: f64, want: f64, tol: f64) {
        assert!((x - want).abs() <= tol, "{x} is not {want} ± {tol}");
    }

    fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    fn penta(ll: u32, ld: u32, wl: u32, dd: u32, wd: u32, ww: u32) -> Penta {
        Penta {
            ll,
            ld,
            wl,
            dd,
            wd,
            ww,
        }
    }

    #[test]
    fn pentanomial_llr() {
        use SprtModel::*;
        let cases = [
            (
                penta(365, 16618, 36029, 200, 16974, 390),
                0.0,
                2.0,
                Normalized,
                2.250368,
            ),
            (
                penta(127, 4883, 10311, 401, 5150, 104),
                -1.75,
                0.25,
                Normalized,
                3.010154,
            ),
            (
                penta(223, 9863, 20279, 1000, 10037, 246),
                0.5,
                2.5,
                Logistic,
                -3.074126,
            ),
            (penta(3, 5, 4, 6, 7, 5), 0.0, 10.0, Normalized, 0.176653),
            (penta(3, 5, 4, 6, 7, 5), 0.0, 10.0, Logistic, 0.201813),
            (penta(0, 2, 1, 3, 9, 4), 0.0, 20.0, Normalized, 0.916852),
        ];
        for (p, e0, e1, model, want) in cases {
            let llr = p.llr(&sprt(e0, e1, model)).unwrap();
            close(llr, want, 0.01 * want.abs().max(0.2));
        }
        assert_eq!(Penta::default().llr(&sprt(0.0, 5.0, Normalized)), Some(0.0));
        assert_eq!(penta(1, 0, 0, 0, 0, 1).llr(&sprt(0.0, 5.0, Bayesian)), None);
    }

    #[test]
    fn trinomial_llr() {
        use SprtModel::*;
        let wld = |wins, losses, draws| Wld {
            wins,
            losses,
            draws,
        };
        let cases = [
            (wld(36433, 36027, 68692), 0.0, 2.0, Normalized, 0.923293),
            (wld(21404, 21184, 40708), 0.5, 2.5, Logistic, -1.571889),
            (wld(30, 20, 10), 0.0, 10.0, Normalized, 0.290453),
            (wld(30, 20, 10), 0.0, 10.0, Logistic, 0.315742),
            // fastchess's own test figure (sprt_test.cpp "bayesian trinomial 1").
            (wld(68965, 68526, 128429), 0.0, 2.0, Bayesian, -1.26),
        ];
        for (r, e0, e1, model, want) in cases {
            close(
                r.llr(&sprt(e0, e1, model)),
                want,
                0.01 * want.abs().max(0.2),
            );
        }
    }

    #[test]
    fn elo_estimates() {
        let e = penta(34, 54, 31, 32, 64, 75).estimate().unwrap();
        close(e.elo, 55.57978, 1e-3);
        close(e.error, 27.65343, 1e-3);
        close(e.nelo, 57.93560, 1e-3);
        close(e.nelo_error, 28.27538, 1e-3);
        close(e.los, 0.99997039, 1e-6);
        let e = penta(3, 5, 4, 6, 7, 5).estimate().unwrap();
        close(e.elo, 34.86007, 1e-3);
        close(e.error, 76.23651, 1e-3);
        close(e.nelo, 41.13657, 1e-3);
        close(e.los, 0.82046189, 1e-6);
        let w = Wld {
            wins: 136,
            losses: 96,
            draws: 111,
        };
        let e = w.estimate().unwrap();
        close(e.elo, 40.70246, 1e-3);
        close(e.error, 30.42722, 1e-3);
        close(e.nelo, 49.76842, 1e-3);
        close(e.nelo_error, 36.76845, 1e-3);
        assert!(Penta::default().estimate().is_none());
        let all_won = penta(0, 0, 0, 0, 0, 4).estimate().unwrap();
        assert!(all_won.elo.is_infinite() && all_won.los == 1.0);
    }

    #[test]
    fn pairs_are_counted() {
        let mut p = Penta::default();
        for (a, b) in [(0, 0), (1, 0), (2, 0), (1, 1), (2, 1), (2, 2), (0, 2)] {
            p.add(a, b);
        }
        assert_eq!(p, penta(1, 1, 2, 1, 1, 1));
        assert_eq!(p.ptnml(), [1, 1, 3, 1, 1]);
    }

    #[test]
    fn elo_and_los() {
        let r = Wld {
            wins: 60,
            losses: 40,
            draws: 0,
        };
        let (elo, err) = r.elo();
        assert!((elo - 70.4).abs() < 0.1, "{elo}");
        assert!(err > 60.0 && err < 80.0, "{err}");
        assert!((r.los() - 0.977).abs() < 0.01, "{}", r.los());
        let even = Wld {
            wins: 10,
            losses: 10,
            draws: 5,
        };
        assert_eq!(even.elo().0, 0.0);
        assert!((even.los() - 0.5).abs() < 1e-9);
    }

    #[test]
    fn sprt_set_up() {
        let s = Sprt::parse(&["elo0=0 elo1=10".to_string()]).unwrap();
        assert_eq!(s.model, SprtModel::Normalized);
        let (lo, hi) = s.bounds();
        assert!((lo + 2.944).abs() < 0.001 && (hi - 2.944).abs() < 0.001);
        assert_eq!(s.state(3.0), SprtState::H1);
        assert_eq!(s.state(-3.0), SprtState::H0);
        assert_eq!(s.state(0.0), SprtState::Continue);
        let strong = Wld {
            wins: 300,
            losses: 100,
            draws: 100,
        };
        assert_eq!(s.state(strong.llr(&s)), SprtState::H1);
        let l = Sprt::parse(&["elo0=0".into(), "elo1=5".into(), "model=logistic".into()]);
        assert_eq!(l.unwrap().model, SprtModel::Logistic);
        assert!(Sprt::parse(&["elo0=5 elo1=0".to_string()]).is_err());
        assert!(Sprt::parse(&["elo1=5".to_string()]).is_err());
        assert!(Sprt::parse(&["elo0=0 elo1=5 model=x".to_string()]).is_err());
        assert!(Sprt::parse(&["elo0=0 elo1=inf".to_string()]).is_err());
    }
}
