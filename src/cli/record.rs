//! Game records as text, for `skald match --records` and `play`'s `save`.
//!
//! Ataxx: PGN as the Ataxx tools (cuteataxx, ataxx GUIs) read it: the seven tags
//! Event/Site/Date/Round/Black/White/Result (Black = `x`, who moves first), `FEN` when the game
//! did not start from the start position, then `1. f2 b6 2. …` and the result `1-0` (x won),
//! `0-1` (o won) or `1/2-1/2`.
//!
//! Tafl: the same PGN-like form (OpenTafl's own record format is not produced): tags
//! Event/Site/Date/Round/Variant/Attackers/Defenders/Result, `FEN` when not the start position,
//! and `Termination` (the reason by the rules); moves as numbered pairs attackers-then-defenders
//! (`1. d1-b1 c4-c2 …`); `1-0` = attackers won, `0-1` = defenders won, `1/2-1/2` = draw.

use skald::game::Side;
use skald::variant::Variant;

/// One finished (or saved) game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game.
    pub variant: Variant,
    /// Event tag.
    pub event: String,
    /// Round number (1-based), `None` for `?`.
    pub round: Option<usize>,
    /// Name of the side that moves first (attackers, x).
    pub first: String,
    /// Name of the other side.
    pub second: String,
    /// The set-up position.
    pub setup_fen: String,
    /// The start position of the variant, to leave the FEN tag out when equal.
    pub start_fen: String,
    /// Moves in order.
    pub moves: Vec<String>,
    /// The winner, `None` for a draw; `result` is `None` for an unfinished game.
    pub result: Option<Option<Side>>,
    /// Why the game ended.
    pub termination: Option<String>,
}

/// Today's date as `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    // Civil from days (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

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

    /// The record as text, ending with an empty line.
    pub fn to_pgn(&self) -> String {
        let mut s = String::new();
        let mut tag = |k: &str, v: &str| {
            s += &format!(
                "[{k} \"{}\"]\n",
                v.replace('\\', "\\\\").replace('"', "\\\"")
            );
        };
        tag("Event", &self.event);
        tag("Site", "?");
        tag("Date", &today());
        tag(
            "Round",
            &self.round.map_or("?".to_string(), |r| r.to_string()),
        );
        if self.variant.is_tafl() {
            tag("Variant", self.variant.name());
            tag("Attackers", &self.first);
            tag("Defenders", &self.second);
        } else {
            tag("Black", &self.first);
            tag("White", &self.second);
        }
        tag("Result", self.result_text());
        if self.setup_fen != self.start_fen {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ataxx_pgn() {
        let r = GameRecord {
            variant: Variant::Ataxx,
            event: "test".into(),
            round: Some(3),
            first: "A".into(),
            second: "B".into(),
            setup_fen: "x5o/7/7/7/7/7/o5x x 0 1".into(),
            start_fen: "x5o/7/7/7/7/7/o5x x 0 1".into(),
            moves: vec!["f2".into(), "b6".into(), "g1e1".into()],
            result: Some(Some(Side::First)),
            termination: None,
        };
        let pgn = r.to_pgn();
        assert!(pgn.contains("[Black \"A\"]\n[White \"B\"]\n[Result \"1-0\"]\n\n"));
        assert!(pgn.contains("1. f2 b6 2. g1e1 1-0\n"));
        assert!(!pgn.contains("FEN"));
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn second_side_first() {
        let r = GameRecord {
            variant: Variant::Brandubh,
            event: "t".into(),
            round: None,
            first: "A".into(),
            second: "B".into(),
            setup_fen: "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d 0 5".into(),
            start_fen: "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1".into(),
            moves: vec!["d5-f5".into(), "d6-f6".into()],
            result: None,
            termination: None,
        };
        let pgn = r.to_pgn();
        assert!(pgn.contains("[FEN \""), "{pgn}");
        assert!(pgn.contains("5... d5-f5 6. d6-f6 *"), "{pgn}");
    }
}
