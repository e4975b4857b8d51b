//! FEN (rules.md, "Position strings"): parsing a tafl position and writing one.

use super::{Position, square_name};
use crate::game::{Game, ParseError, Side};
use crate::tafl::bitboard::{Bitboard, Square};
use crate::tafl::rules::{Piece, Rules};

impl<B: Bitboard> Position<B> {
    /// Parses a FEN (rules.md, "Position strings") under `rules`. Errors say what is wrong and
    /// where: rank/square counts, unknown letters, king count, pieces on squares they may not
    /// stand on, the side letter, the numbers.
    pub fn from_fen(rules: &'static Rules<B>, fen: &str) -> Result<Self, ParseError> {
        let (attackers, defenders, king, side, clock, fullmove) = Self::parse_fen(rules, fen)?;
        let mut pos = Position {
            rules,
            attackers,
            defenders,
            king,
            side,
            clock,
            fullmove,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// Checks that `fen` parses under `rules` ([`Position::from_fen`]'s errors), for rules that
    /// are not `'static` yet.
    pub(crate) fn check_fen(rules: &Rules<B>, fen: &str) -> Result<(), ParseError> {
        Self::parse_fen(rules, fen).map(|_| ())
    }

    /// [`Position::from_fen`]'s parsing: attackers, defenders, king, side to move, clock and
    /// move number.
    #[allow(clippy::type_complexity)]
    fn parse_fen(rules: &Rules<B>, fen: &str) -> Result<(B, B, B, Side, u32, u32), ParseError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 2 || fields.len() > 4 {
            return Err(ParseError::new(format!(
                "FEN has {} {}, expected 2 to 4 (<board> <side> [<clock> [<move number>]])",
                fields.len(),
                if fields.len() == 1 { "field" } else { "fields" }
            )));
        }
        let size = rules.size as usize;
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != size {
            return Err(ParseError::new(format!(
                "FEN has {} rank{}, expected {size}",
                ranks.len(),
                if ranks.len() == 1 { "" } else { "s" }
            )));
        }
        let (mut attackers, mut defenders, mut king) = (B::ZERO, B::ZERO, B::ZERO);
        let mut kings = 0;
        for (i, text) in ranks.iter().enumerate() {
            let rank = size - 1 - i;
            let mut file = 0usize;
            let mut run = 0usize;
            let bytes = text.as_bytes();
            for (j, &c) in bytes.iter().enumerate() {
                if c.is_ascii_digit() {
                    run = run * 10 + (c - b'0') as usize;
                    if run > size {
                        return Err(ParseError::new(format!(
                            "FEN rank {} has too many squares",
                            rank + 1
                        )));
                    }
                    let next_digit = bytes.get(j + 1).is_some_and(|b| b.is_ascii_digit());
                    if !next_digit {
                        if run == 0 {
                            return Err(ParseError::new(format!(
                                "FEN rank {} has an empty count of 0",
                                rank + 1
                            )));
                        }
                        file += run;
                        run = 0;
                    }
                    continue;
                }
                if file >= size {
                    return Err(ParseError::new(format!(
                        "FEN rank {} has more than {size} squares",
                        rank + 1
                    )));
                }
                let sq = (rank * size + file) as Square;
                let bit = B::bit(sq);
                match c {
                    b't' => attackers |= bit,
                    b'T' => defenders |= bit,
                    b'K' => {
                        king |= bit;
                        kings += 1;
                    }
                    _ => {
                        let ch = text[j..].chars().next().unwrap_or('?');
                        return Err(ParseError::new(format!(
                            "FEN rank {} has an unknown piece letter '{}' (expected t, T, K or a digit)",
                            rank + 1,
                            ch.escape_default()
                        )));
                    }
                }
                let kind = match c {
                    b't' => Piece::Attacker,
                    b'T' => Piece::Defender,
                    _ => Piece::King,
                };
                if kind != Piece::King && (rules.no_stop[kind.index()] & !rules.camp(sq)).has(sq) {
                    return Err(ParseError::new(format!(
                        "FEN has a{} on {}, where it may not stand",
                        if kind == Piece::Attacker {
                            "n attacker"
                        } else {
                            " defender"
                        },
                        square_name(sq, rules.size)
                    )));
                }
                file += 1;
            }
            if file != size {
                return Err(ParseError::new(format!(
                    "FEN rank {} has {file} squares, expected {size}",
                    rank + 1
                )));
            }
        }
        if kings == 0 {
            return Err(ParseError::new("FEN has no king"));
        }
        if kings > 1 {
            return Err(ParseError::new(format!(
                "FEN has {kings} kings, expected 1"
            )));
        }
        let side = match fields[1] {
            "a" => Side::First,
            "d" => Side::Second,
            s => {
                return Err(ParseError::new(format!(
                    "FEN side to move is '{}', expected a (attackers) or d (defenders)",
                    s.escape_default()
                )));
            }
        };
        let clock = match fields.get(2) {
            None => 0,
            Some(t) => t.parse::<u32>().map_err(|_| {
                ParseError::new(format!(
                    "FEN clock '{}' is not a number",
                    t.escape_default()
                ))
            })?,
        };
        let fullmove = match fields.get(3) {
            None => 1,
            Some(t) => match t.parse::<u32>() {
                Ok(n) if n >= 1 => n,
                _ => {
                    return Err(ParseError::new(format!(
                        "FEN move number '{}' is not a number from 1",
                        t.escape_default()
                    )));
                }
            },
        };
        Ok((attackers, defenders, king, side, clock, fullmove))
    }

    /// The FEN of this position: ranks from the top, `t` attacker, `T` defender, `K` king, then
    /// the side to move (`a` or `d`), the halfmove clock and the move number.
    pub(super) fn format_fen(&self) -> String {
        let size = self.rules.size;
        let mut s = String::new();
        for rank in (0..size).rev() {
            let mut empty = 0;
            for file in 0..size {
                let sq = crate::tafl::rules::square(file, rank, size);
                let c = match self.piece_at(sq) {
                    None => {
                        empty += 1;
                        continue;
                    }
                    Some(Piece::Attacker) => 't',
                    Some(Piece::Defender) => 'T',
                    Some(Piece::King) => 'K',
                };
                if empty > 0 {
                    s += &empty.to_string();
                    empty = 0;
                }
                s.push(c);
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = if self.side == Side::First { 'a' } else { 'd' };
        format!("{s} {side} {} {}", self.clock, self.fullmove)
    }
}
