//! The variants skald plays, registered in one place: a [`Descriptor`] per variant (its names,
//! game family, start position, search values and OpenTafl rules string), and a way to run
//! generic code on the right game type ([`Variant::visit`]).
//!
//! Everything a front-end or the engine needs to know of a variant is read from its descriptor
//! ([`Variant::descriptor`]); a new variant is a new entry of [`DESCRIPTORS`], a new arm of
//! [`Variant::visit`] and its rules in its family.

pub mod params;

use crate::eval::NetworkLoader;
pub use crate::game::GameVisitor;
use crate::game::{Game, ParseError, Side};
use crate::tuning::SearchParams;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// A variant the engine plays, by its protocol name (rules.md).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Variant {
    /// Hnefatafl 7×7, corner escape.
    Brandubh,
    /// Tablut 9×9 (Linnaeus), edge escape.
    Tablut,
    /// Tawlbwrdd 11×11 (Welsh), edge escape.
    Tawlbwrdd,
    /// Copenhagen Hnefatafl 11×11 (copenhagen.md), corner escape.
    Copenhagen,
    /// Copenhagen Hnefatafl 13×13 (copenhagen.md), corner escape.
    Copenhagen13,
    /// Ashton tablut 9×9: the Tablut competition server's rules (camps, edge escape, the
    /// defenders move first; docs/rules/ashton.md).
    Ashton,
    /// Ataxx 7×7.
    Ataxx,
}

/// The game families: the code (board, rules, evaluation) that plays a set of variants.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Family {
    /// Tafl (hnefatafl) games: attackers and defenders, a king, moves `d1-d3` (crate::tafl).
    Tafl,
    /// Ataxx: clone and jump moves, `x` and `o` (crate::ataxx).
    Ataxx,
}

impl Family {
    /// The names of the two sides, first side first: `attackers`/`defenders` or `x`/`o`.
    pub const fn side_names(self) -> [&'static str; 2] {
        match self {
            Family::Tafl => ["attackers", "defenders"],
            Family::Ataxx => ["x", "o"],
        }
    }

    /// The family's reader of network files (the `EvalFile` option), if its evaluation may
    /// use a network: Ataxx's ([`crate::ataxx::nnue::load_network`], file formats 1 and 2) and
    /// tafl's ([`crate::tafl::nnue::load_network`], format 3).
    pub const fn network_loader(self) -> Option<NetworkLoader> {
        match self {
            Family::Tafl => Some(crate::tafl::nnue::load_network),
            Family::Ataxx => Some(crate::ataxx::nnue::load_network),
        }
    }

    /// `true` for tafl (attackers/defenders, moves `d1-d3`).
    pub const fn is_tafl(self) -> bool {
        matches!(self, Family::Tafl)
    }

    /// The name of `side`: `attackers`/`defenders` (tafl) or `x`/`o` (Ataxx).
    pub const fn side_name(self, side: Side) -> &'static str {
        self.side_names()[side.index()]
    }

    /// A win of `side` in words, the one wording of every front-end and protocol text:
    /// `attackers win`, `defenders win`, `x wins`, `o wins`.
    pub const fn side_wins(self, side: Side) -> &'static str {
        match (self, side) {
            (Family::Tafl, Side::First) => "attackers win",
            (Family::Tafl, Side::Second) => "defenders win",
            (Family::Ataxx, Side::First) => "x wins",
            (Family::Ataxx, Side::Second) => "o wins",
        }
    }

    /// A result in words: `attackers win (<reason>)`, `o wins (<reason>)`
    /// ([`Family::side_wins`]), or `draw (<reason>)` when `winner` is `None`. The one wording
    /// of a game's end in the protocols and the command line.
    pub fn result_text(self, winner: Option<Side>, reason: &str) -> String {
        match winner {
            Some(w) => format!("{} ({reason})", self.side_wins(w)),
            None => format!("draw ({reason})"),
        }
    }

    /// A decided game in words ([`Family::result_text`]); `None` while the game goes on.
    pub fn outcome_text(self, outcome: crate::game::Outcome) -> Option<String> {
        match outcome {
            crate::game::Outcome::Ongoing => None,
            crate::game::Outcome::Decided { winner, reason } => {
                Some(self.result_text(winner, &reason.to_string()))
            }
        }
    }

    /// The family's id in network files ([`crate::nnue::file_family`]).
    pub const fn network_id(self) -> u16 {
        match self {
            Family::Tafl => crate::nnue::FAMILY_TAFL,
            Family::Ataxx => crate::nnue::FAMILY_ATAXX,
        }
    }

    /// The search values of the family's games that have no set of their own (OpenTafl
    /// rules strings for tafl).
    pub const fn search_params(self) -> SearchParams {
        match self {
            Family::Tafl => SearchParams::DEFAULT,
            Family::Ataxx => params::ATAXX,
        }
    }
}

/// What skald knows of one variant, in one place (see the module docs).
#[derive(Clone, Copy, Debug)]
pub struct Descriptor {
    /// The variant.
    pub variant: Variant,
    /// The protocol name (`UCI_Variant`, `--variant`): `brandubh`, `copenhagen13`, `ataxx`.
    pub name: &'static str,
    /// Other names accepted for it (case ignored): `hnefatafl` for Copenhagen 11×11 (the game of
    /// hnefatafl.org), `brandub` (OpenTafl's spelling).
    pub aliases: &'static [&'static str],
    /// The name for people, with the board size: `Brandubh 7×7`.
    pub title: &'static str,
    /// The game family that plays it.
    pub family: Family,
    /// Board width and height, squares.
    pub size: u8,
    /// The search's tuning values (see [`params`] for how each set was measured).
    pub search_params: SearchParams,
    /// skald's rules as an OpenTafl rules string, as close as one can say them (see
    /// tests/opentafl_rules.rs): what an `.otg` record's `rules` tag holds; `name:` is skald's
    /// variant name, by which records know skald's own rules again. `None` where no OpenTafl
    /// string says skald's rules (Copenhagen: OpenTafl's `sw:s efe:y tfr:w` are not
    /// hnefatafl.org's rules; Ataxx).
    pub opentafl_rules: Option<&'static str>,
}

/// Every game family, in the order of [`Variant::ALL`]'s first variant of each.
pub const FAMILIES: [Family; 2] = [Family::Tafl, Family::Ataxx];

/// The reader of network files for the `EvalFile` option, whatever the game: it tells the
/// file's family from its header ([`crate::nnue::file_family`]) and passes it to that family's
/// loader ([`Family::network_loader`]); a file whose family it cannot tell (missing, too short,
/// not a network file) goes to Ataxx's, whose error says why. Which game the network then
/// evaluates is the game's business ([`crate::eval::Evaluator::unfit`]).
pub fn network_loader() -> NetworkLoader {
    load_network
}

/// [`network_loader`]'s reader.
fn load_network(
    path: &std::path::Path,
) -> Result<crate::eval::AnyNetwork, crate::eval::NetworkLoadError> {
    let head = crate::nnue::read_capped(path, 8).unwrap_or_default();
    let family = crate::nnue::file_family(&head);
    let by_id = |f: &&Family| Some(f.network_id()) == family;
    let owner = FAMILIES.iter().find(by_id).unwrap_or(&Family::Ataxx);
    let load = owner
        .network_loader()
        .or(Family::Ataxx.network_loader())
        .expect("Ataxx reads networks");
    load(path)
}

/// Every variant's descriptor, in the order of [`Variant::ALL`].
pub static DESCRIPTORS: [Descriptor; 7] = [
    Descriptor {
        variant: Variant::Brandubh,
        name: "brandubh",
        aliases: &["brandub"],
        title: "Brandubh 7×7",
        family: Family::Tafl,
        size: 7,
        search_params: params::BRANDUBH,
        opentafl_rules: Some(
            "dim:7 name:brandubh surf:n tfr:i ks:c cenp:K cenh: \
             start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
        ),
    },
    Descriptor {
        variant: Variant::Tablut,
        name: "tablut",
        aliases: &[],
        title: "Tablut 9×9",
        family: Family::Tafl,
        size: 9,
        search_params: Family::Tafl.search_params(),
        opentafl_rules: Some(
            "dim:9 name:tablut esc:e surf:n ks:c cor: cens: cenh: \
             start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
        ),
    },
    Descriptor {
        variant: Variant::Tawlbwrdd,
        name: "tawlbwrdd",
        aliases: &[],
        title: "Tawlbwrdd 11×11",
        family: Family::Tafl,
        size: 11,
        search_params: Family::Tafl.search_params(),
        opentafl_rules: Some(
            "dim:11 name:tawlbwrdd esc:e surf:n ks:c cor: cens: cenh: \
             start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
        ),
    },
    Descriptor {
        variant: Variant::Copenhagen,
        name: "copenhagen",
        aliases: &["hnefatafl", "copenhagen11"],
        title: "Copenhagen Hnefatafl 11×11",
        family: Family::Tafl,
        size: 11,
        search_params: Family::Tafl.search_params(),
        opentafl_rules: None,
    },
    Descriptor {
        variant: Variant::Copenhagen13,
        name: "copenhagen13",
        aliases: &[],
        title: "Copenhagen Hnefatafl 13×13",
        family: Family::Tafl,
        size: 13,
        search_params: Family::Tafl.search_params(),
        opentafl_rules: None,
    },
    Descriptor {
        variant: Variant::Ashton,
        name: "ashton",
        aliases: &["ashton-tablut", "ashtontablut", "tablut-ashton"],
        title: "Ashton Tablut 9×9",
        family: Family::Tafl,
        size: 9,
        search_params: Family::Tafl.search_params(),
        opentafl_rules: None,
    },
    Descriptor {
        variant: Variant::Ataxx,
        name: "ataxx",
        aliases: &[],
        title: "Ataxx 7×7",
        family: Family::Ataxx,
        size: 7,
        search_params: Family::Ataxx.search_params(),
        opentafl_rules: None,
    },
];

/// What a game in play is, as configuration is keyed on it: one of skald's variants, or tafl
/// rules given as data (an OpenTafl rules string) on a board of some size. The configuration of
/// a game (its search values; the tafl evaluation's weights come with the rules' data,
/// [`crate::tafl::RuleOptions::eval_weights`]) is looked up by this, never by the rules'
/// display name: an OpenTafl rules string named `brandubh` is still rules of no variant.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum GameKind {
    /// A variant of [`DESCRIPTORS`].
    Variant(Variant),
    /// Rules of no variant: the game family and the board's size.
    Rules {
        /// The family that plays them (tafl for OpenTafl rules strings).
        family: Family,
        /// Board width and height, squares.
        size: u8,
    },
}

impl GameKind {
    /// The variant, if the game is one.
    pub const fn variant(self) -> Option<Variant> {
        match self {
            GameKind::Variant(v) => Some(v),
            GameKind::Rules { .. } => None,
        }
    }

    /// The game family.
    pub const fn family(self) -> Family {
        match self {
            GameKind::Variant(v) => v.family(),
            GameKind::Rules { family, .. } => family,
        }
    }

    /// The search's values for the game: its variant's ([`Descriptor::search_params`]), else
    /// its family's ([`Family::search_params`]).
    pub const fn search_params(self) -> SearchParams {
        match self {
            GameKind::Variant(v) => v.descriptor().search_params,
            GameKind::Rules { family, .. } => family.search_params(),
        }
    }
}

impl Variant {
    /// All variants, in the order the protocol lists them.
    pub const ALL: [Variant; 7] = [
        Variant::Brandubh,
        Variant::Tablut,
        Variant::Tawlbwrdd,
        Variant::Copenhagen,
        Variant::Copenhagen13,
        Variant::Ashton,
        Variant::Ataxx,
    ];

    /// What skald knows of this variant ([`DESCRIPTORS`]).
    pub const fn descriptor(self) -> &'static Descriptor {
        &DESCRIPTORS[self as usize]
    }

    /// The protocol name: `brandubh`, `tablut`, `tawlbwrdd`, `copenhagen`, `copenhagen13`,
    /// `ashton`, `ataxx` ([`Descriptor::name`]).
    pub const fn name(self) -> &'static str {
        self.descriptor().name
    }

    /// The game family that plays it.
    pub const fn family(self) -> Family {
        self.descriptor().family
    }

    /// `true` for the tafl games (attackers/defenders, moves `d1-d3`).
    pub const fn is_tafl(self) -> bool {
        matches!(self.family(), Family::Tafl)
    }

    /// The name of `side` in this variant: `attackers`/`defenders` (tafl) or `x`/`o` (Ataxx).
    pub const fn side_name(self, side: Side) -> &'static str {
        self.family().side_name(side)
    }

    /// The start position as FEN, made once from the variant's start position.
    pub fn start_fen(self) -> &'static str {
        static FENS: [OnceLock<String>; 7] = [const { OnceLock::new() }; 7];
        struct Fen;
        impl GameVisitor for Fen {
            type Output = String;
            fn visit<G: Game>(self, start: G) -> String {
                start.fen()
            }
        }
        FENS[self as usize].get_or_init(|| self.visit(Fen))
    }

    /// The verb of a side's win, agreeing with [`Variant::side_name`]: `win` for the tafl sides
    /// (plural: `attackers win`), `wins` for `x` and `o`.
    pub const fn win_verb(self) -> &'static str {
        if self.is_tafl() { "win" } else { "wins" }
    }

    /// A win of `side` in words ([`Family::side_wins`]): `attackers win`, `x wins`.
    pub const fn side_wins(self, side: Side) -> &'static str {
        self.family().side_wins(side)
    }

    /// A result in words ([`Family::result_text`]).
    pub fn result_text(self, winner: Option<Side>, reason: &str) -> String {
        self.family().result_text(winner, reason)
    }

    /// A decided game in words ([`Family::outcome_text`]); `None` while the game goes on.
    pub fn outcome_text(self, outcome: crate::game::Outcome) -> Option<String> {
        self.family().outcome_text(outcome)
    }

    /// Runs `visitor` with this variant's start position.
    pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
        match self {
            Variant::Brandubh => visitor.visit(crate::tafl::brandubh()),
            Variant::Tablut => visitor.visit(crate::tafl::tablut()),
            Variant::Tawlbwrdd => visitor.visit(crate::tafl::tawlbwrdd()),
            Variant::Copenhagen => visitor.visit(crate::tafl::copenhagen()),
            Variant::Copenhagen13 => visitor.visit(crate::tafl::copenhagen13()),
            Variant::Ashton => visitor.visit(crate::tafl::ashton()),
            Variant::Ataxx => visitor.visit(crate::ataxx::Position::start()),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = ParseError;

    /// Parses a variant name, ignoring case and surrounding space.
    fn from_str(s: &str) -> Result<Variant, ParseError> {
        let s = s.trim();
        Variant::ALL
            .into_iter()
            .find(|v| {
                let d = v.descriptor();
                d.name.eq_ignore_ascii_case(s)
                    || d.aliases.iter().any(|a| a.eq_ignore_ascii_case(s))
            })
            .ok_or_else(|| {
                ParseError::new(format!(
                    "unknown variant '{s}' (expected one of: {})",
                    Variant::ALL.map(|v| v.name()).join(", ")
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registry is in [`Variant::ALL`]'s order, each descriptor names its own variant, and
    /// the family's games have the family's board.
    #[test]
    fn each_descriptor_is_its_variants() {
        for (i, v) in Variant::ALL.into_iter().enumerate() {
            let d = v.descriptor();
            assert_eq!(d.variant, v);
            assert_eq!(v as usize, i);
            assert_eq!(d.name.parse::<Variant>().unwrap(), v);
            let board = crate::engine::new_session(v).board();
            assert_eq!(board.size(), d.size, "{v}");
        }
    }

    /// Brandubh and Ataxx have their own search values; the other variants and rules of no
    /// variant the family's.
    #[test]
    fn brandubh_and_ataxx_have_their_own_search_values() {
        let of = |v| GameKind::Variant(v).search_params();
        assert_eq!(of(Variant::Tablut), SearchParams::DEFAULT);
        assert_eq!(of(Variant::Brandubh), params::BRANDUBH);
        assert_eq!(of(Variant::Ataxx), params::ATAXX);
        assert_ne!(params::BRANDUBH, SearchParams::DEFAULT);
        let rules = GameKind::Rules {
            family: Family::Tafl,
            size: 7,
        };
        assert_eq!(rules.search_params(), SearchParams::DEFAULT);
        assert_eq!((rules.variant(), rules.family()), (None, Family::Tafl));
    }

    /// An OpenTafl rules string names its variant with `name:` (records read it back).
    #[test]
    fn opentafl_rules_name_their_variant() {
        for d in &DESCRIPTORS {
            if let Some(rules) = d.opentafl_rules {
                assert!(rules.contains(&format!(" name:{} ", d.name)), "{rules}");
            }
        }
    }
}
