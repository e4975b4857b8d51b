//! The rules of a tafl game as data: board size, escape squares, movement restrictions,
//! hostile squares, the king's arms and capture mode, end-of-game rules, start position.
//!
//! [`RuleOptions`] is the plain description (square lists, in `options.rs` with the variants'
//! presets); [`Rules`] adds the precomputed bitboard masks and ray tables that move generation
//! and capture read, built once per rule set ([`Rules::leak`], the preset statics
//! [`brandubh_rules`], [`tablut_rules`], [`ashton_rules`], [`tawlbwrdd_rules`],
//! [`copenhagen_rules`], [`copenhagen13_rules`], [`copenhagen7_rules`]).

use std::any::{Any, TypeId};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{LazyLock, Mutex, OnceLock, PoisonError};

use super::bitboard::{Bitboard, MAX_SQUARES, Square, Wide};
use crate::game::{ParseError, RepetitionRule, Side};

mod options;

pub(crate) use options::{COPENHAGEN_NETWORK, NO_SQUARE};
pub use options::{
    EdgeFort, KingArmed, MAX_SIZE, MIN_SIZE, NoMoveRule, Piece, RuleOptions, Shieldwall, WeightSet,
    centre, corners, edge, neighbours, square, square_count,
};

/// Tafl rules with precomputed masks, read by move generation, capture and evaluation.
/// Built once and shared as `&'static` (presets are statics; [`Rules::leak`] for runtime rules).
pub struct Rules<B> {
    /// The plain description these rules were built from.
    pub options: RuleOptions,
    /// Variant name.
    pub name: &'static str,
    /// Board side length.
    pub size: u8,
    /// All squares of the board.
    pub board: B,
    /// Escape squares of the king.
    pub escape: B,
    /// Per piece kind: squares it may not stop on.
    pub no_stop: [B; 3],
    /// Per piece kind: squares it may not pass over while empty.
    pub no_pass: [B; 3],
    /// Per victim kind: always hostile squares.
    pub hostile: [B; 3],
    /// Per victim kind: squares hostile while empty.
    pub hostile_empty: [B; 3],
    /// Per victim kind: squares hostile while occupied.
    pub hostile_occupied: [B; 3],
    /// Whether the king captures.
    pub king_armed: KingArmed,
    /// Squares where the king needs four hostile sides.
    pub king_strong: B,
    /// The edge counts as a hostile side of a strong king.
    pub king_edge_hostile: bool,
    /// What "no legal move" means.
    pub no_legal_move: NoMoveRule,
    /// Repetition rule.
    pub repetition: RepetitionRule,
    /// Plies without capture that draw, if any.
    pub move_limit: Option<u32>,
    /// Squares where the king is the anvil of a Linnaean capture (empty: no such rule).
    pub linnaean: B,
    /// The surrounding rule (OpenTafl `surf`).
    pub surround: bool,
    /// Shieldwall captures.
    pub shieldwall: Shieldwall,
    /// Edge forts.
    pub edge_fort: EdgeFort,
    /// Encirclement.
    pub encirclement: bool,
    /// No attacker left: the defenders win.
    pub no_attackers_loses: bool,
    /// "The defenders cannot escape".
    pub cannot_escape: bool,
    /// A move made after more than this many plies draws unless it wins
    /// ([`RuleOptions::ply_limit`]).
    pub ply_limit: Option<u32>,
    /// The side to move in the start position ([`RuleOptions::start_fen`]; the attackers when
    /// it does not say): plies are counted from its first move ([`super::Position::plies_played`]).
    pub first_side: Side,
    /// Any of the position-decided end rules (edge fort, encirclement, no attacker, cannot
    /// escape) is on: move generation must ask [`super::Position::decided_by_rules`].
    pub(crate) end_rules: bool,
    /// The four corners.
    pub(crate) corners: B,
    /// The squares next to a corner.
    pub(crate) corner_adjacent: B,
    /// The four edge lines as (first square, step to the next square).
    pub(crate) edge_lines: [(Square, Square); 4],
    /// Some piece kind has a speed limit ([`RuleOptions::speed_limit`]).
    pub(crate) speed_limited: bool,
    /// Per square and piece kind: the squares within its speed limit along the four lines (empty
    /// when no kind is limited).
    pub(crate) speed: Vec<[B; 3]>,
    /// Some camps exist ([`RuleOptions::camps`]).
    pub(crate) has_camps: bool,
    /// Per square: the squares of its camp (empty off the camps; an empty list without camps).
    pub(crate) camp_of: Vec<B>,
    /// Moves pack as from × 128 + to (boards of at most 128 squares).
    pub(crate) small_moves: bool,
    /// Per square: its file and rank (counted from 0).
    pub(crate) file_rank: [(u8, u8); MAX_SQUARES],
    /// Squares shown specially (`+`) when empty: those no soldier may stop on.
    pub marked: B,
    /// Squares orthogonally next to an escape square, not escape squares themselves.
    pub approach: B,
    /// For the evaluation: squares diagonally next to an escape square that are neither escape
    /// squares nor [`Rules::approach`] and on which an attacker may stop (the corner guards'
    /// posts of the corner-escape variants; none with edge escape).
    pub guard_diagonal: B,
    /// For the evaluation: squares two steps (Manhattan) from the nearest escape square, not
    /// [`Rules::guard_diagonal`], on which an attacker may stop (the outer guard ring).
    pub guard_ring: B,
    /// The squares on the board's edge.
    pub(crate) edge_mask: B,
    /// Board without the first file (for shifting west).
    pub(crate) not_file_first: B,
    /// Board without the last file (for shifting east).
    pub(crate) not_file_last: B,
    /// Per square and direction (north, east, south, west): the squares beyond it to the edge.
    pub(crate) rays: [[B; 4]; MAX_SQUARES],
    /// Per square and direction: the neighbour, or [`NO_SQUARE`].
    pub(crate) step: [[Square; 4]; MAX_SQUARES],
    /// Per square: its orthogonal neighbours.
    pub(crate) adjacent: [B; MAX_SQUARES],
    /// Per square: Manhattan distance to the nearest escape square.
    pub(crate) escape_distance: [u8; MAX_SQUARES],
    /// The raw evaluation of the start position from the defenders' view, computed on first use
    /// and subtracted by the evaluation (see `eval.rs`).
    pub(crate) balance: std::sync::OnceLock<i32>,
}

impl<B: Bitboard> std::fmt::Debug for Rules<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rules({} {}x{})", self.name, self.size, self.size)
    }
}

fn mask<B: Bitboard>(squares: &[Square]) -> B {
    squares.iter().fold(B::ZERO, |m, &s| m | B::bit(s))
}

impl<B: Bitboard> Rules<B> {
    /// Builds rules from `options`. The variant name becomes a `&'static str` leaked once per
    /// distinct name (building the same rules again leaks nothing). Errors: board size out of
    /// range or too large for `B`, a square off the board.
    pub fn new(options: RuleOptions) -> Result<Self, ParseError> {
        Self::build(options, true)
    }

    /// [`Rules::new`]; the name is interned (leaked) only with `intern`, else left empty (for
    /// [`Rules::leak`], which interns it once the rules are known to be playable).
    fn build(options: RuleOptions, intern: bool) -> Result<Self, ParseError> {
        let size = options.size;
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) || (size as u32) * (size as u32) > B::BITS {
            return Err(ParseError::new(format!(
                "board size {size} is not supported by this bitboard"
            )));
        }
        let n = square_count(size);
        let sz = size as Square;
        let lists = [&options.escape, &options.king_strong, &options.linnaean]
            .into_iter()
            .chain(options.camps.iter())
            .chain(options.no_stop.iter())
            .chain(options.no_pass.iter())
            .chain(options.hostile.iter())
            .chain(options.hostile_empty.iter())
            .chain(options.hostile_occupied.iter());
        for l in lists {
            if let Some(&s) = l.iter().find(|&&s| s >= n) {
                return Err(ParseError::new(format!(
                    "square index {s} is off the {size}x{size} board"
                )));
            }
        }
        let mut camp_of = if options.camps.is_empty() {
            Vec::new()
        } else {
            vec![B::ZERO; n as usize]
        };
        for camp in &options.camps {
            let m = mask::<B>(camp);
            for &s in camp {
                if !camp_of[s as usize].is_empty() {
                    return Err(ParseError::new(format!("square index {s} is in two camps")));
                }
                camp_of[s as usize] = m;
            }
        }
        let m3 = |l: &[Vec<Square>; 3]| [mask::<B>(&l[0]), mask::<B>(&l[1]), mask::<B>(&l[2])];
        let board = mask::<B>(&(0..n).collect::<Vec<_>>());
        let first: Vec<Square> = (0..n).filter(|s| s % sz != 0).collect();
        let last: Vec<Square> = (0..n).filter(|s| s % sz != sz - 1).collect();
        let mut rays = [[B::ZERO; 4]; MAX_SQUARES];
        let mut step = [[NO_SQUARE; 4]; MAX_SQUARES];
        let mut adjacent = [B::ZERO; MAX_SQUARES];
        let deltas: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
        for sq in 0..n {
            let (f, r) = ((sq % sz) as i32, (sq / sz) as i32);
            for (d, &(df, dr)) in deltas.iter().enumerate() {
                let (mut x, mut y) = (f + df, r + dr);
                let inside =
                    |x: i32, y: i32| x >= 0 && y >= 0 && x < size as i32 && y < size as i32;
                if inside(x, y) {
                    let s = (y * size as i32 + x) as Square;
                    step[sq as usize][d] = s;
                    adjacent[sq as usize] |= B::bit(s);
                }
                while inside(x, y) {
                    rays[sq as usize][d] |= B::bit((y * size as i32 + x) as Square);
                    x += df;
                    y += dr;
                }
            }
        }
        let escape = mask::<B>(&options.escape);
        let mut escape_distance = [0u8; MAX_SQUARES];
        for sq in 0..n {
            let (f, r) = ((sq % sz) as i32, (sq / sz) as i32);
            escape_distance[sq as usize] = options
                .escape
                .iter()
                .map(|&e| ((e % sz) as i32 - f).abs() + ((e / sz) as i32 - r).abs())
                .min()
                .unwrap_or(2 * size as i32) as u8;
        }
        let no_stop = m3(&options.no_stop);
        let mut file_rank = [(0u8, 0u8); MAX_SQUARES];
        for sq in 0..n {
            file_rank[sq as usize] = ((sq % sz) as u8, (sq / sz) as u8);
        }
        let mut approach = B::ZERO;
        for e in escape.squares() {
            approach |= adjacent[e as usize];
        }
        approach = approach & !escape & !no_stop[0];
        let mut guard_diagonal = B::ZERO;
        let mut guard_ring = B::ZERO;
        for sq in 0..n {
            let (f, r) = ((sq % sz) as i32, (sq / sz) as i32);
            let diagonal = options
                .escape
                .iter()
                .any(|&e| ((e % sz) as i32 - f).abs() == 1 && ((e / sz) as i32 - r).abs() == 1);
            if diagonal {
                guard_diagonal |= B::bit(sq);
            } else if escape_distance[sq as usize] == 2 {
                guard_ring |= B::bit(sq);
            }
        }
        guard_diagonal = guard_diagonal & !escape & !approach & !no_stop[0];
        guard_ring = guard_ring & !escape & !approach & !no_stop[0];
        let name = if intern {
            intern_name(&options.name)
        } else {
            ""
        };
        let first_side = match options.start_fen.split_whitespace().nth(1) {
            Some("d") => Side::Second,
            _ => Side::First,
        };
        Ok(Rules {
            name,
            size,
            board,
            escape,
            no_stop,
            no_pass: m3(&options.no_pass),
            hostile: m3(&options.hostile),
            hostile_empty: m3(&options.hostile_empty),
            hostile_occupied: m3(&options.hostile_occupied),
            king_armed: options.king_armed,
            king_strong: mask::<B>(&options.king_strong),
            king_edge_hostile: options.king_edge_hostile,
            no_legal_move: options.no_legal_move,
            repetition: options.repetition,
            move_limit: options.move_limit,
            linnaean: mask::<B>(&options.linnaean),
            surround: options.surround,
            shieldwall: options.shieldwall,
            edge_fort: options.edge_fort,
            encirclement: options.encirclement,
            no_attackers_loses: options.no_attackers_loses,
            cannot_escape: options.cannot_escape,
            ply_limit: options.ply_limit,
            first_side,
            end_rules: options.edge_fort != EdgeFort::Off
                || options.encirclement
                || options.no_attackers_loses
                || options.cannot_escape,
            corners: mask::<B>(&corners(size)),
            corner_adjacent: corners(size)
                .iter()
                .fold(B::ZERO, |m, &c| m | adjacent[c as usize]),
            edge_lines: [(0, 1), (sz * (sz - 1), 1), (0, sz), (sz - 1, sz)],
            file_rank,
            small_moves: n <= 128,
            has_camps: !options.camps.is_empty(),
            camp_of,
            speed_limited: options.speed_limit.iter().any(|l| l.is_some()),
            speed: if options.speed_limit.iter().any(|l| l.is_some()) {
                (0..n)
                    .map(|sq| {
                        options.speed_limit.map(|limit| {
                            let mut m = B::ZERO;
                            for (d, &first) in step[sq as usize].iter().enumerate() {
                                let mut s = first;
                                let mut k = 0;
                                while s != NO_SQUARE && limit.is_none_or(|l| k < l) {
                                    m |= B::bit(s);
                                    s = step[s as usize][d];
                                    k += 1;
                                }
                            }
                            m
                        })
                    })
                    .collect()
            } else {
                Vec::new()
            },
            marked: no_stop[0] & no_stop[1],
            approach,
            guard_diagonal,
            guard_ring,
            edge_mask: mask::<B>(&edge(size)),
            not_file_first: mask::<B>(&first),
            not_file_last: mask::<B>(&last),
            rays,
            step,
            adjacent,
            escape_distance,
            balance: std::sync::OnceLock::new(),
            options,
        })
    }

    /// Rules built from `options` as `&'static Rules`, so that positions (which are `Copy` and
    /// hold a plain reference) can use them. Interned: each distinct value of `options` is built
    /// and leaked once per bitboard type (a few kilobytes), and later calls with equal options
    /// return the same rules, so a record or a protocol game may call this once per game.
    /// Errors (nothing is leaked then, not even the name): those of [`Rules::new`], a start FEN
    /// that does not parse, or options not built before once [`rule_set_limit`] rule sets have
    /// been built.
    pub fn leak(options: RuleOptions) -> Result<&'static Self, ParseError> {
        let mut interned = INTERNED.lock().unwrap_or_else(PoisonError::into_inner);
        let key = (TypeId::of::<B>(), options);
        if let Some(rules) = interned.get(&key).and_then(|r| r.downcast_ref::<Self>()) {
            return Ok(rules);
        }
        let limit = rule_set_limit();
        if interned.len() >= limit {
            return Err(ParseError::new(format!(
                "this process has built the {limit} different rule sets it may keep (each stays \
                 in memory until the process ends); play by one of those, or start it again"
            )));
        }
        let mut rules = Self::build(key.1.clone(), false)?;
        super::Position::check_fen(&rules, &rules.options.start_fen)
            .map_err(|e| ParseError::new(format!("start position: {e}")))?;
        rules.name = intern_name(&rules.options.name);
        let rules: &'static Self = Box::leak(Box::new(rules));
        interned.insert(key, rules);
        Ok(rules)
    }

    /// Squares a rook on `sq` reaches before and including the first square of `blockers` in each
    /// direction (nearest blocker by lsb/msb of the ray).
    #[inline(always)]
    pub fn slides(&self, sq: Square, blockers: B) -> B {
        let r = &self.rays[sq as usize];
        let up = |d: usize| {
            let b = r[d] & blockers;
            if b.is_empty() {
                r[d]
            } else {
                r[d] ^ self.rays[b.lsb() as usize][d]
            }
        };
        let down = |d: usize| {
            let b = r[d] & blockers;
            if b.is_empty() {
                r[d]
            } else {
                r[d] ^ self.rays[b.msb() as usize][d]
            }
        };
        up(0) | up(1) | down(2) | down(3)
    }

    /// [`Rules::slides`] of a piece of kind index `k` within its speed limit, if any.
    #[inline(always)]
    pub fn moves(&self, sq: Square, k: usize, blockers: B) -> B {
        let m = self.slides(sq, blockers);
        if self.speed_limited {
            m & self.speed[sq as usize][k]
        } else {
            m
        }
    }

    /// The squares of `b` shifted one step in each orthogonal direction (staying on the board).
    #[inline]
    pub fn neighbours(&self, b: B) -> B {
        let w = self.size as u32;
        ((b << w) | (b >> w) | ((b & self.not_file_last) << 1) | ((b & self.not_file_first) >> 1))
            & self.board
    }

    /// The rules have move rules beyond the plain rook move (speed limits or camps): move
    /// generation then takes its slower path, decided once per call.
    #[inline(always)]
    pub(crate) fn special_moves(&self) -> bool {
        self.speed_limited || self.has_camps
    }

    /// The squares of the camp `sq` stands in ([`RuleOptions::camps`]): squares a piece on `sq`
    /// may pass over and stop on despite [`Rules::no_pass`] and [`Rules::no_stop`]; empty off
    /// the camps.
    #[inline(always)]
    pub fn camp(&self, sq: Square) -> B {
        if self.has_camps {
            self.camp_of[sq as usize]
        } else {
            B::ZERO
        }
    }

    /// For rules with camps: `(blockers, free)` of a piece of kind index `k` on `sq` when the
    /// occupied squares are `occ`: the squares that end its slides (`occ` and the squares it may
    /// not pass over) and those it may stop on, the squares of its own camp open to it.
    #[inline(always)]
    pub(crate) fn camp_ways(&self, sq: Square, k: usize, occ: B) -> (B, B) {
        let camp = self.camp_of[sq as usize];
        (
            occ | (self.no_pass[k] & !camp),
            !(occ | (self.no_stop[k] & !camp)),
        )
    }

    /// Squares hostile to a piece of kind `victim` when the board's occupied squares are `occ`.
    #[inline(always)]
    pub fn hostile_to(&self, victim: Piece, occ: B) -> B {
        let v = victim.index();
        self.hostile[v] | (self.hostile_empty[v] & !occ) | (self.hostile_occupied[v] & occ)
    }

    /// Manhattan distance from `sq` to the nearest escape square.
    pub fn escape_distance(&self, sq: Square) -> u32 {
        self.escape_distance[sq as usize] as u32
    }
}

/// The rule sets built by [`Rules::leak`], by bitboard type and options.
type Interned = HashMap<(TypeId, RuleOptions), &'static (dyn Any + Send + Sync)>;

/// [`Rules::leak`]'s rule sets: each distinct one is leaked once.
static INTERNED: LazyLock<Mutex<Interned>> = LazyLock::new(Mutex::default);

/// How many rule sets [`Rules::leak`] has built (and leaked) so far in this process, over all
/// bitboard types: at most one per distinct [`RuleOptions`] value and bitboard type.
pub fn leaked_rule_sets() -> usize {
    INTERNED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .len()
}

/// The most rule sets [`Rules::leak`] builds in this process ([`set_rule_set_limit`]; no limit
/// unless set).
static RULE_SET_LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);

/// Sets the most rule sets [`Rules::leak`] builds in this process, over all bitboard types (it
/// refuses options not built before once [`leaked_rule_sets`] reaches it): a bound on the memory
/// that rules from outside take (`skald serve --max-rule-sets`; about 20 to 100 KB a rule set,
/// by board size). Rule sets built before stay usable.
pub fn set_rule_set_limit(limit: usize) {
    RULE_SET_LIMIT.store(limit, Ordering::Relaxed);
}

/// The limit of [`set_rule_set_limit`] (`usize::MAX` unless set).
pub fn rule_set_limit() -> usize {
    RULE_SET_LIMIT.load(Ordering::Relaxed)
}

/// The names [`intern_name`] has leaked.
static NAMES: LazyLock<Mutex<HashSet<&'static str>>> = LazyLock::new(Mutex::default);

/// `name` as a `&'static str`, leaked once per distinct name.
fn intern_name(name: &str) -> &'static str {
    let mut names = NAMES.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(&n) = names.get(name) {
        return n;
    }
    let n: &'static str = Box::leak(name.into());
    names.insert(n);
    n
}

/// The brandubh rules (preset, built once).
pub fn brandubh_rules() -> &'static Rules<u64> {
    static R: OnceLock<Rules<u64>> = OnceLock::new();
    R.get_or_init(|| Rules::new(RuleOptions::brandubh()).expect("brandubh rules"))
}

/// The tablut rules (preset, built once).
pub fn tablut_rules() -> &'static Rules<u128> {
    static R: OnceLock<Rules<u128>> = OnceLock::new();
    R.get_or_init(|| Rules::new(RuleOptions::tablut()).expect("tablut rules"))
}

/// The tawlbwrdd rules (preset, built once).
pub fn tawlbwrdd_rules() -> &'static Rules<u128> {
    static R: OnceLock<Rules<u128>> = OnceLock::new();
    R.get_or_init(|| Rules::new(RuleOptions::tawlbwrdd()).expect("tawlbwrdd rules"))
}

/// The Ashton tablut rules (the Tablut competition server's; preset, built once).
pub fn ashton_rules() -> &'static Rules<u128> {
    static R: OnceLock<Rules<u128>> = OnceLock::new();
    R.get_or_init(|| Rules::new(RuleOptions::ashton()).expect("ashton rules"))
}

/// The Copenhagen Hnefatafl 11×11 rules (preset, built once).
pub fn copenhagen_rules() -> &'static Rules<u128> {
    static R: OnceLock<Rules<u128>> = OnceLock::new();
    R.get_or_init(|| Rules::new(RuleOptions::copenhagen()).expect("copenhagen rules"))
}

/// hnefatafl.org's 7×7 Copenhagen rules ([`RuleOptions::copenhagen7`]; preset, built once).
pub fn copenhagen7_rules() -> &'static Rules<u64> {
    static R: OnceLock<Rules<u64>> = OnceLock::new();
    R.get_or_init(|| Rules::new(RuleOptions::copenhagen7()).expect("copenhagen7 rules"))
}

/// The Copenhagen Hnefatafl 13×13 rules (preset, built once).
pub fn copenhagen13_rules() -> &'static Rules<Wide<3>> {
    static R: OnceLock<Rules<Wide<3>>> = OnceLock::new();
    R.get_or_init(|| Rules::new(RuleOptions::copenhagen13()).expect("copenhagen13 rules"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// HTP's `first_move defender`: the rules with the defenders to move in the start position
    /// differ from Copenhagen's only in the FEN's side field; the side that moves first already
    /// gives no copy.
    #[test]
    fn the_first_mover_is_set_in_the_rules_start_position() {
        let rules = RuleOptions::copenhagen();
        assert!(rules.with_first_mover(Side::First).is_none());
        let flipped = rules.with_first_mover(Side::Second).expect("a copy");
        let (a, d): (Vec<&str>, Vec<&str>) = (
            rules.start_fen.split_whitespace().collect(),
            flipped.start_fen.split_whitespace().collect(),
        );
        assert_eq!((a[1], d[1]), ("a", "d"));
        assert_eq!((a[0], &a[2..]), (d[0], &d[2..]));
        assert!(flipped.with_first_mover(Side::Second).is_none());
        assert_eq!(flipped.name, rules.name);
    }

    /// Rules that cannot be played (here a start position with a rank too long) leak nothing, not
    /// even their name: a server that is sent such rules with a new name each time keeps no
    /// memory of them.
    #[test]
    fn rules_refused_leak_not_even_their_name() {
        let mut o = RuleOptions::brandubh();
        o.name = "no king here, refused".into();
        o.start_fen = "9/7/7/7/7/7/7 a 0 1".into();
        let before = leaked_rule_sets();
        assert!(Rules::<u64>::leak(o.clone()).is_err());
        let names = NAMES.lock().unwrap_or_else(PoisonError::into_inner);
        assert!(!names.contains("no king here, refused"));
        drop(names);
        // (Other tests may build rule sets meanwhile; none of them is this one.)
        let mut good = RuleOptions::brandubh();
        good.name = "a king here, kept".into();
        let rules = Rules::<u64>::leak(good).unwrap();
        assert_eq!(rules.name, "a king here, kept");
        assert!(leaked_rule_sets() > before);
    }
}
