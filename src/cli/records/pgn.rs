//! PGN records: writing a [`GameRecord`] as PGN, parsing PGN text, and loading a PGN game.
//!
//! **PGN, Ataxx:** as the Ataxx tools read it (cuteataxx, python-ataxx's `ataxx.pgn`): the tags
//! Event/Site/Date/Round/Black/White/Result (Black = `x`, who moves first), `FEN` when the game
//! did not start from the start position, `Termination` with the reason, then the whole move
//! text on one line, `1. f2 b6 2. … 1-0` (`1-0` x won, `0-1` o won, `1/2-1/2`). One line, because
//! python-ataxx 2.2.0's `ataxx.pgn.parse` starts again at the root for every line of move text
//! and so reads only the first line as the main line.
//!
//! **PGN, tafl:** the same form with tags Variant/Attackers/Defenders instead of Black/White,
//! moves as numbered pairs attackers-then-defenders (`1. d1-b1 c4-c2 …`), wrapped at 79
//! columns; `1-0` = attackers won, `0-1` = defenders won, `1/2-1/2` = draw.

use super::game::{GameRecord, LoadedGame, RecordEnd, tag_of, today};
use skald::engine::Side;
use skald::engine::{new_session, new_tafl_session};
use skald::tafl::opentafl as notation;
use skald::variant::Variant;

impl GameRecord {
    /// The PGN result text.
    pub fn result_text(&self) -> &'static str {
        match self.result {
            None => "*",
            Some(Some(Side::First)) => "1-0",
            Some(Some(Side::Second)) => "0-1",
            Some(None) => "1/2-1/2",
        }
    }

    /// The record as PGN, ending with an empty line, dated today (a game just played).
    pub fn to_pgn(&self) -> String {
        self.to_pgn_dated(Some(&today()))
    }

    /// The record as PGN, ending with an empty line, with `date` as its `Date` tag
    /// (`YYYY.MM.DD`; `None`: unknown, `????.??.??`), for a game written again.
    pub fn to_pgn_dated(&self, date: Option<&str>) -> String {
        let mut s = String::new();
        let mut tag = |k: &str, v: &str| {
            s += &format!(
                "[{k} \"{}\"]\n",
                v.replace('\\', "\\\\")
                    .replace('"', "\\\"")
                    .replace(['\n', '\r'], " ")
            );
        };
        tag("Event", &self.event);
        tag("Site", "?");
        tag("Date", date.unwrap_or("????.??.??"));
        tag(
            "Round",
            &self.round.map_or("?".to_string(), |r| r.to_string()),
        );
        if self.variant.is_tafl() {
            tag("Variant", self.variant.name());
            if let Some(rules) = &self.rules {
                tag("Rules", rules);
            }
            tag("Attackers", &self.first);
            tag("Defenders", &self.second);
        } else {
            tag("Black", &self.first);
            tag("White", &self.second);
        }
        tag("Result", self.result_text());
        if self.setup_fen != self.start_fen {
            tag("SetUp", "1");
            tag("FEN", &self.setup_fen);
        }
        if let Some(t) = &self.termination {
            tag("Termination", t);
        }
        s.push('\n');
        // Move numbers: the FEN's side to move decides whether the first move is the second
        // side's ("1... b6").
        let second_starts =
            self.setup_fen.split_whitespace().nth(1) == Some(second_letter(self.variant));
        let mut number: usize = self
            .setup_fen
            .split_whitespace()
            .nth(3)
            .and_then(|n| n.parse().ok())
            .unwrap_or(1)
            .max(1);
        let mut words: Vec<String> = Vec::new();
        for (i, mv) in self.moves.iter().enumerate() {
            let first_side = (i % 2 == 0) != second_starts;
            if first_side {
                words.push(format!("{number}."));
            } else if i == 0 {
                words.push(format!("{number}..."));
            }
            words.push(mv.clone());
            if !first_side {
                number += 1;
            }
        }
        words.push(self.result_text().to_string());
        if !self.variant.is_tafl() {
            // One line: python-ataxx reads only the first line of move text as the game.
            s += &words.join(" ");
            s += "\n\n";
            return s;
        }
        let mut line = String::new();
        for w in words {
            if !line.is_empty() && line.len() + w.len() + 1 > 79 {
                s += &line;
                s.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line += &w;
        }
        s += &line;
        s += "\n\n";
        s
    }
}

/// The FEN letter of the second side: `d` (tafl defenders) or `o` (Ataxx).
fn second_letter(v: Variant) -> &'static str {
    if v.is_tafl() { "d" } else { "o" }
}

/// A game read from a PGN file, as text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The tags in file order, keys as written.
    pub tags: Vec<(String, String)>,
    /// The moves of the main line.
    pub moves: Vec<String>,
    /// The result token at the end of the move text, if any.
    pub result: Option<String>,
}

impl PgnGame {
    /// The value of tag `key` (any case).
    pub fn tag(&self, key: &str) -> Option<&str> {
        tag_of(&self.tags, key)
    }
}

/// Parses a PGN tag line `[Key "value"]` (backslash escapes in the value).
fn parse_pgn_tag(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (key, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                value.push(n);
            }
        } else {
            value.push(c);
        }
    }
    Some((key.to_string(), value))
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The moves and result of PGN move text: comments, variations, annotations and move numbers
/// skipped. A result marker (`1-0`, `0-1`, `1/2-1/2`, `*`) ends the game, as in PGN: the text
/// after it, if any, is returned (the move text of a next game without tags).
fn parse_movetext<'t>(text: &'t str, game: &mut PgnGame) -> Result<Option<&'t str>, String> {
    let mut token = String::new();
    let mut depth = 0usize; // parentheses
    let mut chars = text.char_indices();
    // Takes the token: a move, or a result marker (then `true`: the game has ended).
    let flush = |token: &mut String, game: &mut PgnGame| -> bool {
        let t = std::mem::take(token);
        // A leading move number: "12." or "12..." (possibly glued to the move).
        let digits = t.chars().take_while(|c| c.is_ascii_digit()).count();
        let t = if digits > 0 && t[digits..].starts_with('.') {
            t[digits..].trim_start_matches('.').to_string()
        } else {
            t
        };
        let t = t.trim_end_matches(['!', '?', '+', '#']);
        // `$n` annotations, and the ellipsis of a spaced move number (`12. ... d3-d2`, also
        // with the one-character `…`).
        if t.is_empty() || t.starts_with('$') || t.chars().all(|c| c == '.' || c == '…') {
            return false;
        }
        if RESULTS.contains(&t) {
            game.result = Some(t.to_string());
            true
        } else {
            game.moves.push(t.to_string());
            false
        }
    };
    while let Some((at, c)) = chars.next() {
        let ended = match c {
            '{' => {
                let ended = flush(&mut token, game);
                if !chars.by_ref().any(|(_, c)| c == '}') {
                    return Err("a comment '{' is not closed".into());
                }
                ended
            }
            ';' => {
                let ended = flush(&mut token, game);
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                ended
            }
            '(' => {
                let ended = flush(&mut token, game);
                depth += 1;
                while depth > 0 {
                    match chars.next().map(|(_, c)| c) {
                        Some('(') => depth += 1,
                        Some(')') => depth -= 1,
                        Some('{') => {
                            chars.by_ref().any(|(_, c)| c == '}');
                        }
                        Some(_) => {}
                        None => return Err("a variation '(' is not closed".into()),
                    }
                }
                ended
            }
            c if c.is_whitespace() => flush(&mut token, game),
            c => {
                token.push(c);
                false
            }
        };
        if ended {
            // The marker ended before `at` (the character that closed its token).
            let rest = &text[at..];
            return Ok((!rest.trim().is_empty()).then_some(rest));
        }
    }
    flush(&mut token, game);
    Ok(None)
}

/// Parses every game of a PGN text.
///
/// # Errors
/// A tag line that is not `[Key "value"]`, an unclosed comment or variation.
pub fn parse_pgn(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut movetext = String::new();
    let mut finish = |game: &mut PgnGame, movetext: &mut String| -> Result<(), String> {
        let mut text = movetext.as_str();
        // Each result marker ends a game; move text after one is a game without tags.
        while let Some(rest) = parse_movetext(text, game)? {
            games.push(std::mem::take(game));
            text = rest;
        }
        movetext.clear();
        if !game.tags.is_empty() || !game.moves.is_empty() {
            games.push(std::mem::take(game));
        }
        Ok(())
    };
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') && !movetext.trim().is_empty() {
            finish(&mut game, &mut movetext)?;
        }
        if t.starts_with('[') {
            let tag = parse_pgn_tag(t)
                .ok_or_else(|| format!("line {}: '{t}' is not a tag [Key \"value\"]", i + 1))?;
            game.tags.push(tag);
        } else if !t.starts_with('%') {
            movetext += line;
            movetext.push('\n');
        }
    }
    finish(&mut game, &mut movetext)?;
    Ok(games)
}

/// Replays PGN game `g` (number `index`); without a `Variant` tag it is read as `untagged`, and
/// an error then ends with `hint` (what the reader can do about it).
pub(super) fn load_pgn(
    g: &PgnGame,
    index: usize,
    untagged: Variant,
    hint: &str,
) -> Result<LoadedGame, String> {
    let result = load_pgn_as(g, index, untagged);
    // A game without a Variant tag that cannot be read as `untagged` was most likely of another
    // game: say so.
    match result {
        Err(e) if g.tag("Variant").is_none() && g.tag("Rules").is_none() => {
            Err(format!("{e} {}", crate::cli::untagged_note(untagged, hint)))
        }
        r => r,
    }
}

fn load_pgn_as(g: &PgnGame, index: usize, untagged: Variant) -> Result<LoadedGame, String> {
    let variant = match g.tag("Variant") {
        Some(v) => v
            .parse::<Variant>()
            .map_err(|e| format!("game {index}: {e}"))?,
        None => untagged,
    };
    // A game judged by OpenTafl rules (`Rules` tag) is replayed by them.
    let (mut session, variant) = match g.tag("Rules") {
        Some(rules) => {
            let options = notation::parse_rules(rules)
                .map_err(|e| format!("game {index}: Rules tag: {e}"))?;
            let session =
                new_tafl_session(options).map_err(|e| format!("game {index}: Rules tag: {e}"))?;
            (session, None)
        }
        None => (new_session(variant), Some(variant)),
    };
    if let Some(fen) = g.tag("FEN") {
        session
            .set_position(Some(fen), &[])
            .map_err(|e| format!("game {index}: FEN tag: {e}"))?;
    }
    let marker = g.result.as_deref().filter(|r| *r != "*");
    let end = RecordEnd {
        resigned: false,
        marker: marker.or(g.tag("Result")),
        termination: g.tag("Termination"),
    };
    LoadedGame::replayed(&g.tags, variant, session, &g.moves, index, end)
}

#[cfg(test)]
mod tests {
    use super::super::game::tests::record;
    use super::*;
    use crate::cli::records::load_records;

    #[test]
    fn ataxx_pgn_has_its_move_text_on_one_line() {
        let start = "x5o/7/7/7/7/7/o5x x 0 1";
        let r = record(Variant::Ataxx, start, &["f2", "b6", "g1e1"]);
        let pgn = r.to_pgn();
        assert!(pgn.contains("[Black \"A\"]\n[White \"B\"]\n[Result \"1-0\"]\n\n"));
        assert!(pgn.contains("\n1. f2 b6 2. g1e1 1-0\n"));
        assert!(!pgn.contains("FEN"));
        assert_eq!(today().len(), 10);
        let many = [
            "f2", "b2", "f1", "b1", "e1", "c1", "e2", "c2", "e3", "c3", "d1", "d2",
        ];
        let long = record(Variant::Ataxx, start, &many).to_pgn();
        let text = long.split("\n\n").nth(1).unwrap();
        assert_eq!(text.lines().count(), 1, "{long}");
        let back = load_records(&long).unwrap();
        assert_eq!(back[0].moves, many);
    }

    #[test]
    fn tafl_pgn_with_the_second_side_first() {
        let r = record(
            Variant::Brandubh,
            "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d 0 5",
            &["d5-f5", "d6-f6"],
        );
        let pgn = r.to_pgn();
        assert!(pgn.contains("[FEN \""), "{pgn}");
        assert!(pgn.contains("5... d5-f5 6. d6-f6 1-0"), "{pgn}");
        let back = load_records(&pgn).unwrap();
        assert_eq!(back[0].variant, Some(Variant::Brandubh));
        assert_eq!(back[0].moves, ["d5-f5", "d6-f6"]);
    }

    /// A record in exactly the form cuteataxx's `write_as_pgn` writes (its source,
    /// src/core/pgn.cpp): lower-case colour tags, FEN always, FinalFEN, PlyCount, Material,
    /// every move followed by a space, and with `verbose` a `{ movetime <ms> }` comment per move.
    #[test]
    fn cuteataxx_pgn_reads_back() {
        let games = load_records(include_str!("../../../tests/data/cuteataxx.pgn")).unwrap();
        assert_eq!(games.len(), 2);
        for g in &games {
            let plies: usize = g.tag("PlyCount").unwrap().parse().unwrap();
            assert_eq!(g.moves.len(), plies);
            let want = g.tag("FinalFEN").unwrap();
            let fen = g.session.fen();
            let two = |f: &str| f.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
            assert_eq!(two(&fen), two(want));
            assert!(g.session.outcome().is_decided());
        }
        assert_eq!(games[1].setup_fen.split_whitespace().nth(1), Some("o"));
    }

    #[test]
    fn pgn_parsing() {
        let text = "[Event \"a \\\"b\\\"\"]\n[Variant \"brandubh\"]\n\n\
                    1.d2-c2 {a comment} d3-c3 (1... e4-e5 2. f4-f5) 2. c2-c1! $1 ; rest\n\
                    c3-b3 1-0\n\n[Event \"second\"]\n\n1. f2 *\n";
        let games = parse_pgn(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("event"), Some("a \"b\""));
        assert_eq!(games[0].moves, ["d2-c2", "d3-c3", "c2-c1", "c3-b3"]);
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        assert_eq!(games[1].moves, ["f2"]);
        assert!(parse_pgn("[Event x]\n").is_err());
        assert!(parse_pgn("1. f2 {open").is_err());
        let e = load_records("[Event \"x\"]\n\n1. f2 g7 *\n").err().unwrap();
        assert!(e.contains("game 1, move 1 (second ply 2) 'g7'"), "{e}");
        let e = load_records("[Variant \"chess\"]\n\n1. e4 *\n")
            .err()
            .unwrap();
        assert!(e.contains("unknown variant"), "{e}");
        assert!(load_records("").is_err());
        // Rules skald cannot play (berserk moves; shieldwalls became playable with Copenhagen).
        let e = load_records("[rules:dim:7 ber:y start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n")
            .err()
            .unwrap();
        assert!(e.contains("ber:y"), "{e}");
    }

    /// Faults issue, item 4: a spaced ellipsis after a move number (`5. ... d5-f5`, also `…`)
    /// is the move number's; it was read as a move.
    #[test]
    fn pgn_with_a_spaced_ellipsis() {
        let text = "[Variant \"brandubh\"]\n[FEN \"3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d 0 5\"]\n\n\
                    5. ... d5-f5 6. d6-f6 *\n";
        let games = load_records(text).unwrap();
        assert_eq!(games[0].moves, ["d5-f5", "d6-f6"]);
        let text = "[Variant \"brandubh\"]\n[FEN \"3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d 0 2\"]\n\n\
                    2. … d5-f5 *\n";
        assert_eq!(load_records(text).unwrap()[0].moves, ["d5-f5"]);
    }

    /// A PGN result marker ends its game: moves after it are not appended to that game (they
    /// were, and written back inside it), and move text after it without tags is another game.
    #[test]
    fn a_pgn_result_marker_ends_the_game() {
        let games = parse_pgn("[Variant \"brandubh\"]\n\n1. d2-c2 1-0 1. d2-e2 0-1\n").unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, ["d2-c2"]);
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        assert_eq!(games[1].moves, ["d2-e2"]);
        assert_eq!(games[1].result.as_deref(), Some("0-1"));
        let games = parse_pgn("[Variant \"brandubh\"]\n\n1. d2-c2 e4-e3 0-1 {end}\n").unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].moves, ["d2-c2", "e4-e3"]);
    }
}
