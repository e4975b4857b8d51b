//! Match statistics: Elo difference with a 95% error bar, likelihood of superiority, and the
//! sequential probability ratio test (SPRT), from wins, losses and draws (trinomial model).

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

/// Elo difference for a score fraction (0 < `score` < 1).
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score fraction for an Elo difference (logistic).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz & Stegun 7.1.26; absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x >= 0.0 { y } else { -y }
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

    /// Per-game variance of the score.
    pub fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.losses as f64 * s.powi(2)
            + self.draws as f64 * (0.5 - s).powi(2))
            / n
    }

    /// The Elo difference and the half-width of its 95% confidence interval. Infinite when one
    /// engine scored everything.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (0.0, 0.0);
        }
        let s = self.score();
        let elo = if s <= 0.0 {
            f64::NEG_INFINITY
        } else if s >= 1.0 {
            f64::INFINITY
        } else {
            elo_of_score(s)
        };
        let sd = (self.variance() / n).sqrt();
        let lo = (s - 1.96 * sd).max(1e-9);
        let hi = (s + 1.96 * sd).min(1.0 - 1e-9);
        let err = if elo.is_finite() {
            (elo_of_score(hi) - elo_of_score(lo)) / 2.0
        } else {
            f64::INFINITY
        };
        (elo, err)
    }

    /// Likelihood of superiority: the probability that the first engine is the stronger, from
    /// wins and losses (draws carry no information).
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }

    /// The log-likelihood ratio of H1 (Elo = `elo1`) against H0 (Elo = `elo0`), logistic Elo,
    /// by the generalised SPRT approximation used by fishtest and cutechess:
    /// `LLR ≈ N (s1 − s0)(2s − s0 − s1) / (2σ²)`, with `s` the observed score and `σ²` its
    /// per-game variance. With no games, 0.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let (mut w, mut l, mut d) = (self.wins as f64, self.losses as f64, self.draws as f64);
        if self.variance() <= 0.0 {
            // All results alike (all wins, all losses or all draws): the variance is 0 and the
            // formula undefined; add half a game of each result so that it is not.
            (w, l, d) = (w + 0.5, l + 0.5, d + 0.5);
        }
        let m = w + l + d;
        let s = (w + 0.5 * d) / m;
        let var = (w * (1.0 - s).powi(2) + l * s.powi(2) + d * (0.5 - s).powi(2)) / m;
        let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }
}

/// An SPRT set-up: the two hypotheses and the error rates.
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
    /// Parses `elo0=<a> elo1=<b> [alpha=<x>] [beta=<y>]` words (also one string of them).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for w in words.iter().flat_map(|w| w.split_whitespace()) {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("--sprt: '{w}' is not key=value (elo0=0 elo1=5)"))?;
            let x: f64 = v
                .parse()
                .map_err(|_| format!("--sprt: '{v}' is not a number"))?;
            match k.to_ascii_lowercase().as_str() {
                "elo0" => sprt.elo0 = x,
                "elo1" => sprt.elo1 = x,
                "alpha" => sprt.alpha = x,
                "beta" => sprt.beta = x,
                _ => {
                    return Err(format!(
                        "--sprt: unknown key '{k}' (elo0, elo1, alpha, beta)"
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

    /// The decision for these results.
    pub fn state(&self, wld: &Wld) -> SprtState {
        let llr = wld.llr(self.elo0, self.elo1);
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
    fn sprt() {
        let s = Sprt::parse(&["elo0=0 elo1=10".to_string()]).unwrap();
        let (lo, hi) = s.bounds();
        assert!((lo + 2.944).abs() < 0.001 && (hi - 2.944).abs() < 0.001);
        let strong = Wld {
            wins: 300,
            losses: 100,
            draws: 100,
        };
        assert_eq!(s.state(&strong), SprtState::H1);
        let weak = Wld {
            wins: 100,
            losses: 300,
            draws: 100,
        };
        assert_eq!(s.state(&weak), SprtState::H0);
        assert!(Sprt::parse(&["elo0=5 elo1=0".to_string()]).is_err());
        assert!(Sprt::parse(&["elo1=5".to_string()]).is_err());
    }
}
