//! [`TaflEval`]: the tafl evaluation the search uses, a network or the hand-written one.

use std::sync::Arc;

use super::{MAX_BOARD, MIN_BOARD, TaflNetwork};
use crate::eval::{EvalChoice, Evaluator};
use crate::game::Game;
use crate::nnue::Accumulator;
use crate::tafl::bitboard::Bitboard;
use crate::tafl::position::{Move, Position};
use crate::tafl::rules::Rules;

/// Tafl's evaluation for the search ([`crate::eval::Evaluator`]): a [`TaflNetwork`] with an
/// [`Accumulator`] per ply, or the hand-written evaluation ([`Game::evaluate`]), whose
/// accumulator is left alone.
#[derive(Clone, Debug)]
pub enum TaflEval {
    /// The hand-written evaluation.
    Hand,
    /// A network for this board; `name` says which for people (its path, or its file name and
    /// `(built in)`).
    Network {
        /// The network.
        net: Arc<TaflNetwork>,
        /// Its path as given, or `copenhagen-r128-g3-ft.nnue (built in)`.
        name: String,
    },
    /// The hand-written evaluation, because the network `EvalFile` names cannot evaluate this
    /// board (another board size, another game family); `note` says so.
    Unfit {
        /// Why, for people: `network cph.nnue is for 11x11 boards (copenhagen), not 9x9`.
        note: String,
    },
}

impl TaflEval {
    /// The evaluator `choice` selects for a game under `rules`: by default the built-in network
    /// the rules' data names ([`crate::tafl::RuleOptions::network`], [`super::embedded_file`];
    /// never by the rules' name) and else the hand-written evaluation;
    /// for `hand` the hand-written evaluation; for a network file a tafl network for this board
    /// size, and else the hand-written evaluation with a note (another board, another family,
    /// a board above 13×13).
    pub fn for_choice<B: Bitboard>(choice: &EvalChoice, rules: &Rules<B>) -> TaflEval {
        match choice {
            EvalChoice::Default => match rules
                .options
                .network
                .and_then(|file| super::embedded_file(file).map(|net| (file, net)))
            {
                Some((file, net)) if net.board() == rules.size => TaflEval::Network {
                    net,
                    name: format!("{file} (built in)"),
                },
                _ => TaflEval::Hand,
            },
            EvalChoice::Hand => TaflEval::Hand,
            EvalChoice::Network { name, .. } => match choice.network::<TaflNetwork>() {
                None => TaflEval::Unfit {
                    note: format!("network {name} is not a tafl network"),
                },
                Some(net) if !(MIN_BOARD..=MAX_BOARD).contains(&rules.size) => TaflEval::Unfit {
                    note: format!(
                        "network {name} is for {0}x{0} boards; {1}x{1} boards evaluate by hand",
                        net.board(),
                        rules.size
                    ),
                },
                Some(net) => match net.check_board(rules.size) {
                    Ok(()) => TaflEval::Network {
                        net,
                        name: name.clone(),
                    },
                    Err(e) => TaflEval::Unfit {
                        note: format!("{name}: {e}"),
                    },
                },
            },
        }
    }

    /// Why the network asked for does not evaluate this game (the game evaluates by hand),
    /// `None` when it does or none was asked for.
    pub fn unfit(&self) -> Option<&str> {
        match self {
            TaflEval::Unfit { note } => Some(note),
            _ => None,
        }
    }
}

impl<B: Bitboard> Evaluator<Position<B>, Move> for TaflEval {
    type Accumulator = Accumulator;

    #[inline]
    fn refresh(&self, pos: &Position<B>, acc: &mut Accumulator) {
        if let TaflEval::Network { net, .. } = self {
            net.refresh(acc, pos);
        }
    }

    #[inline]
    fn update(
        &self,
        parent: &Position<B>,
        _mv: Move,
        child: &Position<B>,
        parent_acc: &Accumulator,
        child_acc: &mut Accumulator,
    ) {
        if let TaflEval::Network { net, .. } = self {
            net.update(child_acc, parent_acc, parent, child);
        }
    }

    #[inline]
    fn copy_for_null_move(&self, parent_acc: &Accumulator, child_acc: &mut Accumulator) {
        if let TaflEval::Network { net, .. } = self {
            child_acc.copy_used(parent_acc, net.layers().used());
        }
    }

    #[inline]
    fn evaluate(&self, pos: &Position<B>, acc: &Accumulator) -> i32 {
        match self {
            // A decided position (the king escaped or captured) is the hand evaluation's
            // `decided` term; the search scores such positions by the rules before it asks.
            TaflEval::Network { net, .. } if !pos.king_gone() => net.evaluate(acc, pos),
            _ => pos.evaluate(),
        }
    }

    fn terms(&self, pos: &Position<B>) -> Vec<(&'static str, i32)> {
        match self {
            TaflEval::Network { net, .. } if !pos.king_gone() => {
                vec![("network", net.evaluate_position(pos))]
            }
            _ => pos.eval_terms(),
        }
    }

    fn describe(&self) -> String {
        match self {
            TaflEval::Hand => "hand-written".to_string(),
            TaflEval::Network { net, name } => {
                format!(
                    "network {name} ({0}x{0}, trained on {1})",
                    net.board(),
                    net.variant()
                )
            }
            TaflEval::Unfit { note } => format!("hand-written ({note})"),
        }
    }

    fn unfit(&self) -> Option<String> {
        TaflEval::unfit(self).map(str::to_string)
    }
}
