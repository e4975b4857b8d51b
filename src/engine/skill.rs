//! Playing strength below full: skill levels, their names, and how a weakened search picks its
//! move (Stockfish's `Skill Level`).

use crate::search::{Limits, MATE_BOUND, MAX_PLY, SearchOptions};

/// Full strength for the `Skill Level` option and [`super::SearchRequest::skill_level`].
pub const MAX_SKILL: u8 = 20;

/// The named strength levels of `play` and the protocol, as skill values: `easy` = 2,
/// `medium` = 8, `hard` = 20 (full strength).
pub fn named_skill(name: &str) -> Option<u8> {
    match name.to_ascii_lowercase().as_str() {
        "easy" => Some(2),
        "medium" => Some(8),
        "hard" => Some(MAX_SKILL),
        _ => None,
    }
}

/// How a skill level below [`MAX_SKILL`] weakens play, in the manner of Stockfish's
/// `Skill Level`: the search is capped in depth and nodes and looks at four lines (MultiPV), then
/// picks among them at random, favouring better lines more as the level rises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// 0 ..= [`MAX_SKILL`].
    pub level: u8,
}

impl Skill {
    /// The weakened play of `level`, or `None` at full strength ([`MAX_SKILL`] and above).
    pub fn at(level: u8) -> Option<Skill> {
        (level < MAX_SKILL).then_some(Skill { level })
    }

    /// The search this level asks for instead of `limits` and `options`: its depth and node
    /// caps over the limits, and at least four lines (MultiPV) to pick from.
    pub fn weaken(self, limits: &Limits, options: &SearchOptions) -> (Limits, SearchOptions) {
        let depth = limits
            .depth
            .map_or(MAX_PLY as u32 - 1, |d| d.clamp(1, MAX_PLY as u32 - 1));
        let limits = Limits {
            depth: Some(depth.min(self.max_depth())),
            nodes: Some(
                limits
                    .nodes
                    .map_or(self.max_nodes(), |n| n.min(self.max_nodes())),
            ),
            ..limits.clone()
        };
        let options = SearchOptions {
            multipv: options.multipv.max(4),
            ..options.clone()
        };
        (limits, options)
    }

    /// Deepest depth searched at this level, plies: 1 at level 0, 10 at level 19.
    pub fn max_depth(self) -> u32 {
        1 + self.level as u32 / 2
    }

    /// Node cap at this level: 400 × 1.5^level (about 0.9 million at level 19).
    pub fn max_nodes(self) -> u64 {
        (400.0 * 1.5f64.powi(self.level as i32)) as u64
    }

    /// Picks one of `lines` (score, first move; best first) with the seeded generator: each
    /// line's score is pushed up by a random amount that shrinks as the level rises, and the
    /// highest pushed score wins.
    pub fn pick<M: Copy>(self, lines: &[(i32, M)], seed: u64) -> Option<M> {
        let (top, _) = *lines.first()?;
        let mut rng = crate::rng::SeededRng::new(seed);
        let weakness = 120 - 6 * self.level.min(MAX_SKILL - 1) as i32;
        let spread = lines
            .iter()
            .map(|l| top - l.0)
            .max()
            .unwrap_or(0)
            .clamp(0, 100);
        lines
            .iter()
            .map(|&(score, mv)| {
                let push = (weakness * (top - score)
                    + (spread + 20) * rng.below(weakness.max(1) as u64) as i32)
                    / 128;
                // Ignore mate scores' size so that a forced win is still usually played.
                (score.clamp(-MATE_BOUND, MATE_BOUND) + push, mv)
            })
            .max_by_key(|&(v, _)| v)
            .map(|(_, mv)| mv)
    }
}
