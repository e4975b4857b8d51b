//! OpenTafl game records (`.otg`): skald's variants as OpenTafl rules strings, writing a
//! [`GameRecord`] as an `.otg` record, parsing one, and loading its game.
//!
//! **OpenTafl game records (`.otg`, tafl only),** as OpenTafl writes them
//! (`opentafl-notation-spec.txt` section 4, and its `GameSerializer`): one tag a line,
//! `[key:value]`, the `rules` tag last, holding an OpenTafl rules string; an empty line; then a
//! line per turn, `1. d1-d3 a4-c4 ` (OpenTafl notation: the king's moves marked `K`, captures
//! after `x`, separated by `/`). OpenTafl reads one game a file. The result tag is `1`
//! (attackers won), `-1` (defenders won), `0` (draw) or `?`.

use super::game::{GameRecord, LoadedGame, RecordEnd, tag_of, today};
use skald::engine::session::Session;
use skald::engine::{Capture, Side};
use skald::engine::{new_session, new_tafl_session};
use skald::tafl::opentafl as notation;
use skald::variant::Variant;

/// A move in OpenTafl's notation: `d1-d3`, `Kd4-d2` (`king_moves`: the king is the piece that
/// moves), `d1-d3xd4/e3` (the move's `captures`, [`skald::game::Game::captures`]; a captured king
/// is `xKd4`).
fn otn_move(mv: &str, king_moves: bool, captures: &[Capture]) -> String {
    let mut text = String::new();
    if king_moves {
        text.push('K');
    }
    text += mv;
    let taken: Vec<String> = captures
        .iter()
        .map(|c| {
            if c.piece == 'K' {
                format!("K{}", c.square)
            } else {
                c.square.clone()
            }
        })
        .collect();
    if !taken.is_empty() {
        text.push('x');
        text += &taken.join("/");
    }
    text
}

/// The FEN letter of the piece on the square named `name` (`d4`) of `rows` (top rank first).
fn piece_at(rows: &[Vec<Option<char>>], name: &str) -> Option<char> {
    let f = usize::from(name.as_bytes().first()?.checked_sub(b'a')?);
    let rank: usize = name.get(1..)?.parse().ok()?;
    let r = rows.len().checked_sub(rank)?;
    rows.get(r)?.get(f).copied().flatten()
}

/// A tag value for an `.otg` record: no `]` or line breaks (OpenTafl reads a tag to its `]`).
fn otg_value(v: &str) -> String {
    v.chars()
        .map(|c| match c {
            ']' => ')',
            '[' => '(',
            '\n' | '\r' => ' ',
            c => c,
        })
        .collect()
}

impl GameRecord {
    /// The record as an OpenTafl game record (`.otg`), for a tafl game: tags, the rules
    /// string of [`skald::variant::Descriptor::opentafl_rules`] (its start position replaced by the set-up position, with `atkf:n`
    /// when the defenders move first there) or the OpenTafl rules the game was judged by
    /// ([`GameRecord::rules`]), then a line per turn.
    ///
    /// # Errors
    /// An Ataxx game, or moves that do not replay from the set-up position.
    pub fn to_otg(&self) -> Result<String, String> {
        self.to_otg_dated(Some(&today()))
    }

    /// [`GameRecord::to_otg`] with `date` as its `date` tag (`None`: unknown, no tag), for a
    /// game written again.
    ///
    /// # Errors
    /// As [`GameRecord::to_otg`].
    pub fn to_otg_dated(&self, date: Option<&str>) -> Result<String, String> {
        if let Some(rules) = &self.rules {
            let options = notation::parse_rules(rules).map_err(|e| format!("rules: {e}"))?;
            let session = new_tafl_session(options).map_err(|e| format!("rules: {e}"))?;
            return self.otg_text(rules, session, date);
        }
        let base = self
            .variant
            .descriptor()
            .opentafl_rules
            .ok_or("OpenTafl game records (.otg) are for tafl games; use .pgn for Ataxx")?;
        let mut rules = base.to_string();
        if self.setup_fen != self.start_fen {
            let i = rules.find(" start:").expect("the rules end with start:");
            rules.truncate(i);
            rules += &format!(" start:{}", notation::fen_to_record(&self.setup_fen));
        }
        if self.setup_fen.split_whitespace().nth(1) == Some("d") {
            let name_end = rules[4..].find(' ').map_or(rules.len(), |i| i + 4);
            let after_name = rules[name_end + 1..].find(' ').map(|i| i + name_end + 1);
            let at = after_name.unwrap_or(rules.len());
            rules.insert_str(at, " atkf:n");
        }
        let mut session = new_session(self.variant);
        session
            .set_position(Some(&self.setup_fen), &[])
            .map_err(|e| e.to_string())?;
        self.otg_text(&rules, session, date)
    }

    /// The `.otg` text with `rules` as the rules tag, the moves replayed on `session` (at the
    /// set-up position), dated `date` if known. A set-up position whose halfmove clock or move
    /// number is not `0 1` (which an OpenTafl rules string cannot say) is kept whole in a `fen`
    /// tag, and the turns are numbered from its move number.
    fn otg_text(
        &self,
        rules: &str,
        mut session: Box<dyn Session>,
        date: Option<&str>,
    ) -> Result<String, String> {
        let mut s = String::new();
        let mut tag = |k: &str, v: &str| s += &format!("[{k}:{}]\n", otg_value(v));
        tag("event", &self.event);
        if let Some(date) = date {
            tag("date", date);
        }
        if let Some(r) = self.round {
            tag("round", &r.to_string());
        }
        tag("attackers", &self.first);
        tag("defenders", &self.second);
        tag(
            "result",
            match self.result {
                Some(Some(Side::First)) => "1",
                Some(Some(Side::Second)) => "-1",
                Some(None) => "0",
                None => "?",
            },
        );
        if let Some(t) = &self.termination {
            tag("termination", t);
        }
        tag("variant", self.variant.name());
        tag("compiler", "skald");
        let counters: Vec<&str> = self.setup_fen.split_whitespace().skip(2).collect();
        let first_turn: usize = counters
            .get(1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(1)
            .max(1);
        if !matches!(counters.as_slice(), [] | ["0"] | ["0", "1"]) {
            tag("fen", &self.setup_fen);
        }
        tag("rules", rules);
        s.push('\n');
        let mut turn = String::new();
        for (i, mv) in self.moves.iter().enumerate() {
            let from = mv.split('-').next().unwrap_or("");
            let king_moves = piece_at(&session.board_rows(), from) == Some('K');
            session
                .play(mv)
                .map_err(|e| format!("move {} '{mv}': {e}", i + 1))?;
            if i % 2 == 0 {
                turn = format!("{}. ", i / 2 + first_turn);
            }
            turn += &otn_move(mv, king_moves, &session.last_captures());
            turn.push(' ');
            if i % 2 == 1 || i + 1 == self.moves.len() {
                s += &turn;
                s.push('\n');
            }
        }
        Ok(s)
    }
}

/// A game read from an OpenTafl game record, as text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OtgGame {
    /// The tags in file order (`rules` included).
    pub tags: Vec<(String, String)>,
    /// The moves of the principal line in OpenTafl notation (`Kd4-d2xd1`).
    pub moves: Vec<String>,
    /// The principal line ends in OpenTafl's resignation `---`: the side to move resigned.
    pub resigned: bool,
}

/// Parses an OpenTafl game record: tags `[key:value]`, then turns `1. <move> <move>`, comment
/// blocks `[…]` (skipped), variations (turn addresses with letters such as `2a.1.1a.`,
/// skipped); a `---` (resignation) ends the principal line.
///
/// # Errors
/// No `rules` tag, a tag line without `:`, or moves after a resignation.
pub fn parse_otg(text: &str) -> Result<OtgGame, String> {
    let mut game = OtgGame::default();
    let mut rest = text;
    // Tags: one a line, before the first turn.
    while let Some(line_end) = rest.find('\n').or((!rest.is_empty()).then_some(rest.len())) {
        let line = rest[..line_end].trim();
        if line.starts_with(|c: char| c.is_ascii_digit()) {
            break;
        }
        if let Some(inner) = line.strip_prefix('[') {
            let inner = inner.strip_suffix(']').unwrap_or(inner);
            let (k, v) = inner
                .split_once(':')
                .ok_or_else(|| format!("'{line}' is not a tag [key:value]"))?;
            game.tags.push((k.trim().to_string(), v.to_string()));
        }
        rest = &rest[(line_end + 1).min(rest.len())..];
    }
    if tag_of(&game.tags, "rules").is_none() {
        return Err("no [rules:…] tag: not an OpenTafl game record".into());
    }
    // Turns.
    let mut in_variation = false;
    let mut chars = rest.chars().peekable();
    let mut token = String::new();
    let mut tokens = Vec::new();
    while let Some(c) = chars.next() {
        match c {
            '[' => {
                if !token.is_empty() {
                    tokens.push(std::mem::take(&mut token));
                }
                chars.by_ref().any(|c| c == ']');
            }
            c if c.is_whitespace() => {
                if !token.is_empty() {
                    tokens.push(std::mem::take(&mut token));
                }
            }
            c => token.push(c),
        }
    }
    if !token.is_empty() {
        tokens.push(token);
    }
    for t in tokens {
        if t.starts_with(|c: char| c.is_ascii_digit()) && t.ends_with('.') {
            in_variation = t.chars().any(|c| c.is_ascii_alphabetic()) || t.matches('.').count() > 1;
        } else if in_variation || t.chars().all(|c| c == '.') {
            continue;
        } else if game.resigned {
            return Err(format!(
                "move '{t}' after the resignation '---' of move {}",
                game.moves.len() + 1
            ));
        } else if t == "---" {
            game.resigned = true;
        } else {
            game.moves.push(t);
        }
    }
    Ok(game)
}

/// The words of an OpenTafl rules string other than its start position and who moves first,
/// sorted: how a record's rules are known as one of skald's variants ([`skald::variant::Descriptor::opentafl_rules`]).
fn rules_core(rules: &str) -> Vec<&str> {
    let mut words: Vec<&str> = rules
        .split_whitespace()
        .filter(|w| {
            !(w.starts_with("start:")
                || w.starts_with("starti:")
                || w.starts_with("atkf:")
                || *w == "rules")
        })
        .collect();
    words.sort_unstable();
    words
}

pub(super) fn load_otg(g: &OtgGame) -> Result<LoadedGame, String> {
    let rules = tag_of(&g.tags, "rules").expect("parse_otg checks the rules tag");
    let options = notation::parse_rules(rules).map_err(|e| format!("rules tag: {e}"))?;
    let variant = Variant::ALL.into_iter().find(|v| {
        v.descriptor()
            .opentafl_rules
            .is_some_and(|r| rules_core(r) == rules_core(rules))
    });
    let mut session = match variant {
        Some(v) => {
            let mut s = new_session(v);
            s.set_position(Some(&options.start_fen), &[])
                .map_err(|e| format!("rules tag: start position: {e}"))?;
            s
        }
        None => new_tafl_session(options).map_err(|e| format!("rules tag: {e}"))?,
    };
    // skald's `fen` tag: the start position with its halfmove clock and move number.
    if let Some(fen) = tag_of(&g.tags, "fen") {
        let position = |f: &str| f.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        if position(fen) != position(&session.fen()) {
            return Err(format!(
                "the fen tag '{fen}' is not the start position of the rules tag ({})",
                position(&session.fen())
            ));
        }
        session
            .set_position(Some(fen), &[])
            .map_err(|e| format!("fen tag: {e}"))?;
    }
    let moves: Vec<String> = g
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| notation::parse_move(m).map_err(|e| format!("move {}: {e}", i + 1)))
        .collect::<Result<_, _>>()?;
    let end = RecordEnd {
        resigned: g.resigned,
        marker: tag_of(&g.tags, "result"),
        termination: tag_of(&g.tags, "termination"),
    };
    LoadedGame::replayed(&g.tags, variant, session, &moves, 1, end)
}

#[cfg(test)]
mod tests {
    use super::super::game::tests::record;
    use super::*;
    use crate::cli::records::load_records;

    #[test]
    fn otg_round_trip() {
        let start = Variant::Brandubh.start_fen().to_string();
        let r = record(Variant::Brandubh, &start, &["d1-c1", "c4-c5", "c1-c3"]);
        let otg = r.to_otg().unwrap();
        assert!(otg.contains("[result:1]\n"), "{otg}");
        assert!(
            otg.ends_with(
                "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n1. d1-c1 c4-c5 \n2. c1-c3 \n"
            )
        );
        let back = load_records(&otg).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].variant, Some(Variant::Brandubh));
        assert_eq!(back[0].moves, ["d1-c1", "c4-c5", "c1-c3"]);
        // From a position with the defenders to move: atkf:n and the position as start.
        let mut s = new_session(Variant::Brandubh);
        s.play("d1-c1").unwrap();
        let r = record(Variant::Brandubh, &s.fen(), &["c4-c5", "c1-c3"]);
        let otg = r.to_otg().unwrap();
        assert!(otg.contains("name:brandubh atkf:n "), "{otg}");
        assert!(otg.contains("start:/2t4/3t3/"), "{otg}");
        let back = load_records(&otg).unwrap();
        assert_eq!(back[0].setup_fen.split_whitespace().nth(1), Some("d"));
        assert_eq!(back[0].moves, ["c4-c5", "c1-c3"]);
        assert!(
            record(Variant::Ataxx, "x5o/7/7/7/7/7/o5x x 0 1", &[])
                .to_otg()
                .is_err()
        );
    }

    #[test]
    fn opentafl_rules_of_skald_variants() {
        for v in Variant::ALL {
            let Some(rules) = v.descriptor().opentafl_rules else {
                assert!(matches!(
                    v,
                    Variant::Ataxx | Variant::Copenhagen | Variant::Copenhagen13 | Variant::Ashton
                ));
                continue;
            };
            let o = notation::parse_rules(rules).unwrap_or_else(|e| panic!("{rules}: {e}"));
            assert_eq!(o.name, v.name());
            assert_eq!(o.start_fen, v.start_fen().to_string(), "{rules}");
        }
    }

    #[test]
    fn captures_and_king_moves_in_opentafl_notation() {
        let written = |fen: &str, mv: &str| {
            let mut s = new_session(Variant::Brandubh);
            s.set_position(Some(fen), &[]).unwrap();
            let king_moves = piece_at(&s.board_rows(), &mv[..2]) == Some('K');
            s.play(mv).unwrap();
            otn_move(mv, king_moves, &s.last_captures())
        };
        // A king's move.
        assert_eq!(written("7/7/7/1t1K3/7/7/7 d 0 1", "d4-d2"), "Kd4-d2");
        // No capture: the attacker lands beside a defender with nothing behind it.
        assert_eq!(written("7/7/3T3/K1t4/7/7/7 a 0 1", "c4-c5"), "c4-c5");
        // A capture: the defender on d5 between the attacker moving to c5 and the one on e5.
        assert_eq!(written("7/7/3Tt2/K1t4/7/7/7 a 0 1", "c4-c5"), "c4-c5xd5");
    }

    /// A record in exactly the form OpenTafl saves a game (GameSerializer with comments): its
    /// default tags, the rules string with `starti:`, turns `N. m m ` and the clock comments.
    #[test]
    fn opentafl_record_loads() {
        let games = load_records(include_str!("../../../tests/data/opentafl-brandub.otg")).unwrap();
        let g = &games[0];
        assert_eq!(
            g.variant, None,
            "OpenTafl's Brandub is not skald's brandubh"
        );
        assert_eq!(g.session.variant_name(), "Brandub");
        assert_eq!(g.moves.len(), 35);
        assert_eq!(g.moves[19], "d4-e4");
        assert_eq!(g.tag("compiler"), Some("OpenTafl"));
        assert_eq!(
            g.session.fen().split_whitespace().next(),
            Some("3t3/3t3/2tTT2/t5t/7/7/2t1Kt1")
        );
    }

    #[test]
    fn opentafl_variations_and_comments_are_skipped() {
        let text = "[rules:dim:7 name:brandubh surf:n tfr:i ks:c cenp:K cenh: \
                    start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n\
                    1. d1-c1 c4-c5 \n[a comment\nover lines|and]\n\n\
                    1a.1.1a. d2-c2 ..... \n2. c1-c3 \n";
        let g = parse_otg(text).unwrap();
        assert_eq!(g.moves, ["d1-c1", "c4-c5", "c1-c3"]);
        let loaded = load_records(text).unwrap();
        assert_eq!(loaded[0].variant, Some(Variant::Brandubh));
    }
}
