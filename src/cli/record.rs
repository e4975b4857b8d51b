//! Game records as text: written by `skald match --records` and `play`'s `save`, read back by
//! [`load_records`].
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
//!
//! **OpenTafl game records (`.otg`, tafl only),** as OpenTafl writes them
//! (`opentafl-notation-spec.txt` section 4, and its `GameSerializer`): one tag a line,
//! `[key:value]`, the `rules` tag last, holding an OpenTafl rules string; an empty line; then a
//! line per turn, `1. d1-d3 a4-c4 ` (OpenTafl notation: the king's moves marked `K`, captures
//! after `x`, separated by `/`). OpenTafl reads one game a file. The result tag is `1`
//! (attackers won), `-1` (defenders won), `0` (draw) or `?`.
//!
//! **Games judged by OpenTafl rules** (`skald match` between OTEP engines, judged by the rules
//! string the engines were sent) carry that string: a PGN tag `Rules` (beside `Variant`), and as
//! the `.otg` record's `rules` tag; reading such a record replays it by that string.
//!
//! Reading accepts PGN with any tags (in any case; cuteataxx writes `[black "…"]`), comments in
//! braces or after `;`, variations in parentheses (skipped), numeric annotations (`$1`) and move
//! numbers (`12.`, `12...`, and the spaced `12. ...`); and OpenTafl records with comment lines
//! (`[…|…]`) and variations (skipped: the principal line is read). The result of a game is the
//! rules' when its moves end it; otherwise the record's: OpenTafl's resignation `---` (the side
//! to move resigns), a PGN termination marker (`1-0`, `0-1`, `1/2-1/2`) or else its `Result`
//! tag, an `.otg` record's `result` tag (`1`, `-1`, `0`).

use skald::engine::session::{Session, new_session};
use skald::game::{Side, fen_board_rows};
use skald::protocol::opentafl as otep;
use skald::tafl::opentafl as notation;
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
    /// The OpenTafl rules string the game was judged by (a `skald match` of OTEP engines);
    /// `None` when it was judged by skald's `variant`.
    pub rules: Option<String>,
}

/// How a record file is written: by its extension, `.otg` for OpenTafl's game records,
/// anything else PGN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// PGN (all games in one file).
    Pgn,
    /// OpenTafl game record (one game a file).
    Otg,
}

impl RecordFormat {
    /// The format a file name asks for: `.otg` (any case) is OpenTafl's, anything else PGN.
    pub fn of_path(path: &std::path::Path) -> RecordFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("otg") => RecordFormat::Otg,
            _ => RecordFormat::Pgn,
        }
    }
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

/// skald's tafl rules as OpenTafl rules strings (as close as OpenTafl's rules can say them; see
/// tests/opentafl_rules.rs): what an `.otg` record's `rules` tag holds. `name:` is skald's
/// variant name, by which [`load_records`] knows skald's own rules again. `None` for Ataxx.
pub fn otn_rules(variant: Variant) -> Option<&'static str> {
    match variant {
        Variant::Brandubh => Some(
            "dim:7 name:brandubh surf:n tfr:i ks:c cenp:K cenh: \
             start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
        ),
        Variant::Tablut => Some(
            "dim:9 name:tablut esc:e surf:n ks:c cor: cens: cenh: \
             start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
        ),
        Variant::Tawlbwrdd => Some(
            "dim:11 name:tawlbwrdd esc:e surf:n ks:c cor: cens: cenh: \
             start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
        ),
        // No OpenTafl string says skald's Copenhagen yet (OpenTafl's `sw:s efe:y tfr:w` are
        // not hnefatafl.org's rules).
        Variant::Copenhagen | Variant::Copenhagen13 | Variant::Ataxx => None,
    }
}

/// A square name (`a1` bottom left) from top-first row `r` and file `f` of `size` rows.
fn square_text(f: usize, r: usize, size: usize) -> String {
    format!("{}{}", (b'a' + f as u8) as char, size - r)
}

/// A move in OpenTafl's notation, from the FENs before and after it: `d1-d3`, `Kd4-d2`,
/// `d1-d3xd4/e3` (a captured king would be `xKd4`).
fn otn_move(mv: &str, before: &str, after: &str) -> String {
    let (b, a) = (fen_board_rows(before), fen_board_rows(after));
    let size = b.len();
    let from = mv.split('-').next().unwrap_or("");
    let piece_at = |sq: &str| -> Option<char> {
        let f = (sq.as_bytes().first()?.checked_sub(b'a')?) as usize;
        let rank: usize = sq.get(1..)?.parse().ok()?;
        let r = size.checked_sub(rank)?;
        b.get(r)?.get(f).copied().flatten()
    };
    let mut text = String::new();
    if piece_at(from) == Some('K') {
        text.push('K');
    }
    text += mv;
    let mut captures = Vec::new();
    for (r, row) in b.iter().enumerate() {
        for (f, was) in row.iter().enumerate() {
            let now = a.get(r).and_then(|row| row.get(f)).copied().flatten();
            if let (Some(p), None) = (*was, now) {
                let sq = square_text(f, r, size);
                if sq != from {
                    captures.push(if p == 'K' { format!("K{sq}") } else { sq });
                }
            }
        }
    }
    if !captures.is_empty() {
        text.push('x');
        text += &captures.join("/");
    }
    text
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
    /// The PGN result text.
    pub fn result_text(&self) -> &'static str {
        match self.result {
            None => "*",
            Some(Some(Side::First)) => "1-0",
            Some(Some(Side::Second)) => "0-1",
            Some(None) => "1/2-1/2",
        }
    }

    /// The record as PGN, ending with an empty line.
    pub fn to_pgn(&self) -> String {
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
        tag("Date", &today());
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

    /// The record as an OpenTafl game record (`.otg`), for a tafl game: tags, the rules
    /// string of [`otn_rules`] (its start position replaced by the set-up position, with `atkf:n`
    /// when the defenders move first there) or the OpenTafl rules the game was judged by
    /// ([`GameRecord::rules`]), then a line per turn.
    ///
    /// # Errors
    /// An Ataxx game, or moves that do not replay from the set-up position.
    pub fn to_otg(&self) -> Result<String, String> {
        if let Some(rules) = &self.rules {
            let options = notation::parse_rules(rules).map_err(|e| format!("rules: {e}"))?;
            let session = otep::new_session(options).map_err(|e| format!("rules: {e}"))?;
            return self.otg_text(rules, session);
        }
        let base = otn_rules(self.variant)
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
        self.otg_text(&rules, session)
    }

    /// The `.otg` text with `rules` as the rules tag, the moves replayed on `session` (at the
    /// set-up position).
    fn otg_text(&self, rules: &str, mut session: Box<dyn Session>) -> Result<String, String> {
        let mut s = String::new();
        let mut tag = |k: &str, v: &str| s += &format!("[{k}:{}]\n", otg_value(v));
        tag("event", &self.event);
        tag("date", &today());
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
        tag("rules", rules);
        s.push('\n');
        let mut turn = String::new();
        for (i, mv) in self.moves.iter().enumerate() {
            let before = session.fen();
            session
                .play(mv)
                .map_err(|e| format!("move {} '{mv}': {e}", i + 1))?;
            if i % 2 == 0 {
                turn = format!("{}. ", i / 2 + 1);
            }
            turn += &otn_move(mv, &before, &session.fen());
            turn.push(' ');
            if i % 2 == 1 || i + 1 == self.moves.len() {
                s += &turn;
                s.push('\n');
            }
        }
        Ok(s)
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

/// The value of tag `key` (any case).
fn tag_of<'a>(tags: &'a [(String, String)], key: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(key))
        .map(|(_, v)| v.as_str())
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

/// A game read from a record file and replayed by the rules.
pub struct LoadedGame {
    /// The tags, as in the file.
    pub tags: Vec<(String, String)>,
    /// skald's variant, or `None` for other rules an OpenTafl record gave.
    pub variant: Option<Variant>,
    /// The set-up position (FEN).
    pub setup_fen: String,
    /// The moves in skald's notation, each legal.
    pub moves: Vec<String>,
    /// The game after all its moves.
    pub session: Box<dyn Session>,
    /// The result: the rules' when the moves end the game, else the record's (see the module
    /// docs); `None` while the game goes on.
    pub result: Option<GameResult>,
}

/// How a game read from a record ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner; `None` for a draw.
    pub winner: Option<Side>,
    /// Why: the rules' reason (`king captured`), `resignation` (OpenTafl's `---`), the record's
    /// `Termination` tag, or `the record's result`.
    pub reason: String,
}

/// The result of a game that ends in `session` by the rules, or else the one the record gives:
/// `resigned` (the side to move), `marker` (PGN result text or `.otg` result tag value), with
/// `termination` as the reason when given.
fn game_result(
    session: &dyn Session,
    resigned: bool,
    marker: Option<&str>,
    termination: Option<&str>,
) -> Option<GameResult> {
    if let skald::game::Outcome::Decided { winner, reason } = session.outcome() {
        return Some(GameResult {
            winner,
            reason: reason.to_string(),
        });
    }
    let reason = |default: &str| termination.unwrap_or(default).to_string();
    if resigned {
        return Some(GameResult {
            winner: Some(session.side_to_move().opponent()),
            reason: "resignation".into(),
        });
    }
    let winner = match marker.map(str::trim) {
        Some("1-0" | "1") => Some(Side::First),
        Some("0-1" | "-1") => Some(Side::Second),
        Some("1/2-1/2" | "0") => None,
        _ => return None,
    };
    Some(GameResult {
        winner,
        reason: reason("the record's result"),
    })
}

impl LoadedGame {
    /// The value of tag `key` (any case).
    pub fn tag(&self, key: &str) -> Option<&str> {
        tag_of(&self.tags, key)
    }
}

/// Reads game `game` (1-based) of the record file `path` ([`load_records`]).
///
/// # Errors
/// The file cannot be read or parsed, or has fewer games.
pub fn load_game(path: &std::path::Path, game: usize) -> anyhow::Result<LoadedGame> {
    use anyhow::{Context, anyhow};
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut games = load_records(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let count = games.len();
    if game == 0 || game > count {
        anyhow::bail!(
            "{}: no game {game} (the record has {count})",
            path.display()
        );
    }
    Ok(games.swap_remove(game - 1))
}

/// Replays `moves` (already in skald's notation) from `session`'s current position.
fn replay(session: &mut dyn Session, moves: &[String], game: usize) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let played = session.play(mv).map_err(|e| {
            format!(
                "game {game}, move {} ({} ply {}) '{mv}': {e}",
                i / 2 + 1,
                if i % 2 == 0 { "first" } else { "second" },
                i + 1
            )
        })?;
        out.push(played);
    }
    Ok(out)
}

/// Reads the games of a record: an OpenTafl game record (it has a `[rules:…]` tag) or PGN. A
/// PGN game is tafl when it has a `Variant` tag naming one, Ataxx otherwise, and is played by
/// the OpenTafl rules string of its `Rules` tag when it has one; it starts from its `FEN` tag if
/// any. An OpenTafl record is played by skald's rules when its rules string is one that skald
/// writes for its variants ([`otn_rules`]: `brandubh`, `tablut`, `tawlbwrdd`; any start
/// position), and by the rules string itself otherwise (`rules` of the OpenTafl engine
/// protocol, [`otep::new_session`]). Results: see the module docs.
///
/// # Errors
/// Text that is neither, unknown variants, rules skald cannot play, illegal moves (the message
/// names the game and the move).
pub fn load_records(text: &str) -> Result<Vec<LoadedGame>, String> {
    if text.lines().any(|l| l.trim_start().starts_with("[rules:")) {
        return Ok(vec![load_otg(&parse_otg(text)?)?]);
    }
    let games = parse_pgn(text)?;
    if games.is_empty() {
        return Err("no game in the record".into());
    }
    games
        .iter()
        .enumerate()
        .map(|(i, g)| load_pgn(g, i + 1))
        .collect()
}

fn load_pgn(g: &PgnGame, index: usize) -> Result<LoadedGame, String> {
    let variant = match g.tag("Variant") {
        Some(v) => v
            .parse::<Variant>()
            .map_err(|e| format!("game {index}: {e}"))?,
        None => Variant::Ataxx,
    };
    // A game judged by OpenTafl rules (`Rules` tag) is replayed by them.
    let (mut session, variant) = match g.tag("Rules") {
        Some(rules) => {
            let options = notation::parse_rules(rules)
                .map_err(|e| format!("game {index}: Rules tag: {e}"))?;
            let session =
                otep::new_session(options).map_err(|e| format!("game {index}: Rules tag: {e}"))?;
            (session, None)
        }
        None => (new_session(variant), Some(variant)),
    };
    if let Some(fen) = g.tag("FEN") {
        session
            .set_position(Some(fen), &[])
            .map_err(|e| format!("game {index}: FEN tag: {e}"))?;
    }
    let setup_fen = session.fen();
    let moves = replay(session.as_mut(), &g.moves, index)?;
    let marker = g.result.as_deref().filter(|r| *r != "*");
    let result = game_result(
        session.as_ref(),
        false,
        marker.or(g.tag("Result")),
        g.tag("Termination"),
    );
    Ok(LoadedGame {
        tags: g.tags.clone(),
        variant,
        setup_fen,
        moves,
        session,
        result,
    })
}

/// The words of an OpenTafl rules string other than its start position and who moves first,
/// sorted: how a record's rules are known as one of skald's variants ([`otn_rules`]).
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

fn load_otg(g: &OtgGame) -> Result<LoadedGame, String> {
    let rules = tag_of(&g.tags, "rules").expect("parse_otg checks the rules tag");
    let options = notation::parse_rules(rules).map_err(|e| format!("rules tag: {e}"))?;
    let variant = Variant::ALL
        .into_iter()
        .find(|v| otn_rules(*v).is_some_and(|r| rules_core(r) == rules_core(rules)));
    let mut session = match variant {
        Some(v) => {
            let mut s = new_session(v);
            s.set_position(Some(&options.start_fen), &[])
                .map_err(|e| format!("rules tag: start position: {e}"))?;
            s
        }
        None => otep::new_session(options).map_err(|e| format!("rules tag: {e}"))?,
    };
    let setup_fen = session.fen();
    let moves: Vec<String> = g
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| notation::parse_move(m).map_err(|e| format!("move {}: {e}", i + 1)))
        .collect::<Result<_, _>>()?;
    let moves = replay(session.as_mut(), &moves, 1)?;
    let result = game_result(
        session.as_ref(),
        g.resigned,
        tag_of(&g.tags, "result"),
        tag_of(&g.tags, "termination"),
    );
    Ok(LoadedGame {
        tags: g.tags.clone(),
        variant,
        setup_fen,
        moves,
        session,
        result,
    })
}

/// Arguments of `skald records`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A record file: PGN (skald's, cuteataxx's, python-ataxx's) or an OpenTafl game record.
    pub file: std::path::PathBuf,
    /// Write the games again to this file: PGN, or OpenTafl game records when it ends in `.otg`
    /// (tafl only; one file a game when there are several, `<name>-<n>.otg`).
    #[arg(long)]
    pub output: Option<std::path::PathBuf>,
}

/// The record of a loaded game, for writing it again (skald's variants only).
fn to_record(g: &LoadedGame) -> Result<GameRecord, String> {
    let variant = g.variant.ok_or(
        "the game is played by rules other than skald's variants; it cannot be written again",
    )?;
    let tafl = variant.is_tafl();
    let name = |pgn: &str, otg: &str| {
        g.tag(if tafl { pgn } else { otg })
            .or_else(|| g.tag(otg))
            .unwrap_or("?")
            .to_string()
    };
    let result = g.result.as_ref().map(|r| r.winner);
    let termination = g.result.as_ref().map(|r| r.reason.clone());
    Ok(GameRecord {
        variant,
        event: g.tag("Event").unwrap_or("?").to_string(),
        round: g.tag("Round").and_then(|r| r.parse().ok()),
        first: name(if tafl { "Attackers" } else { "Black" }, "Attackers"),
        second: name(if tafl { "Defenders" } else { "White" }, "Defenders"),
        setup_fen: g.setup_fen.clone(),
        start_fen: new_session(variant).fen(),
        moves: g.moves.clone(),
        result,
        termination,
        rules: None,
    })
}

/// Runs `skald records`: reads every game of a record, replays it by the rules, prints one line
/// a game (`game 1: brandubh, 37 plies, attackers win (king captured); final position <FEN>`),
/// and writes them again
/// with `--output`.
pub fn run(args: Args) -> anyhow::Result<()> {
    use anyhow::{Context, anyhow};
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let games = load_records(&text).map_err(|e| anyhow!("{}: {e}", args.file.display()))?;
    for (i, g) in games.iter().enumerate() {
        let variant = g.variant.map_or_else(
            || format!("OpenTafl rules '{}'", g.session.variant_name()),
            |v| v.name().to_string(),
        );
        // OpenTafl rules name the sides as tafl does.
        let named = g.variant.unwrap_or(Variant::Brandubh);
        let state = match &g.result {
            None => "the game goes on".to_string(),
            Some(r) => super::result_text(named, r.winner, &r.reason),
        };
        println!(
            "game {}: {variant}, {} plies, {state}; final position {}",
            i + 1,
            g.moves.len(),
            g.session.fen()
        );
    }
    if let Some(out) = &args.output {
        let records: Vec<GameRecord> = games
            .iter()
            .enumerate()
            .map(|(i, g)| to_record(g).map_err(|e| anyhow!("game {}: {e}", i + 1)))
            .collect::<anyhow::Result<_>>()?;
        match RecordFormat::of_path(out) {
            RecordFormat::Pgn => {
                let text: String = records.iter().map(GameRecord::to_pgn).collect();
                std::fs::write(out, text)
                    .with_context(|| format!("cannot write {}", out.display()))?;
            }
            RecordFormat::Otg => {
                for (i, r) in records.iter().enumerate() {
                    let path = if records.len() == 1 {
                        out.clone()
                    } else {
                        let stem = out.file_stem().unwrap_or_default().to_string_lossy();
                        out.with_file_name(format!("{stem}-{}.otg", i + 1))
                    };
                    let text = r.to_otg().map_err(|e| anyhow!("game {}: {e}", i + 1))?;
                    std::fs::write(&path, text)
                        .with_context(|| format!("cannot write {}", path.display()))?;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(variant: Variant, setup: &str, moves: &[&str]) -> GameRecord {
        GameRecord {
            variant,
            event: "test".into(),
            round: Some(3),
            first: "A".into(),
            second: "B".into(),
            setup_fen: setup.into(),
            start_fen: new_session(variant).fen(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            result: Some(Some(Side::First)),
            termination: None,
            rules: None,
        }
    }

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

    #[test]
    fn otg_round_trip() {
        let start = new_session(Variant::Brandubh).fen();
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
            let Some(rules) = otn_rules(v) else {
                assert!(matches!(
                    v,
                    Variant::Ataxx | Variant::Copenhagen | Variant::Copenhagen13
                ));
                continue;
            };
            let o = notation::parse_rules(rules).unwrap_or_else(|e| panic!("{rules}: {e}"));
            assert_eq!(o.name, v.name());
            assert_eq!(o.start_fen, new_session(v).fen(), "{rules}");
        }
    }

    #[test]
    fn captures_and_king_moves_in_opentafl_notation() {
        assert_eq!(
            otn_move("d4-d2", "7/7/7/3K3/7/7/7 d 0 1", "7/7/7/7/7/3K3/7 a 0 1"),
            "Kd4-d2"
        );
        assert_eq!(
            otn_move("c4-c5", "7/7/3T3/2t4/7/7/7 a 0 1", "7/7/2tT3/7/7/7/7 d 0 1"),
            "c4-c5"
        );
        assert_eq!(
            otn_move(
                "c4-c5",
                "7/7/3Tt2/2t4/7/7/7 a 0 1",
                "7/7/2t1t2/7/7/7/7 d 0 1"
            ),
            "c4-c5xd5"
        );
    }

    /// A record in exactly the form cuteataxx's `write_as_pgn` writes (its source,
    /// src/core/pgn.cpp): lower-case colour tags, FEN always, FinalFEN, PlyCount, Material,
    /// every move followed by a space, and with `verbose` a `{ movetime <ms> }` comment per move.
    #[test]
    fn cuteataxx_pgn_reads_back() {
        let games = load_records(include_str!("../../tests/data/cuteataxx.pgn")).unwrap();
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

    /// A record in exactly the form OpenTafl saves a game (GameSerializer with comments): its
    /// default tags, the rules string with `starti:`, turns `N. m m ` and the clock comments.
    #[test]
    fn opentafl_record_loads() {
        let games = load_records(include_str!("../../tests/data/opentafl-brandub.otg")).unwrap();
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

    /// Faults issue, item 4: when the moves do not end the game, the record's result counts:
    /// the PGN termination marker, else its `Result` tag; OpenTafl's `---` (the side to move
    /// resigns), else the `.otg` `result` tag. The rules' result comes first.
    #[test]
    fn results_given_by_the_record() {
        let result = |text: &str| {
            load_records(text)
                .unwrap()
                .remove(0)
                .result
                .map(|r| (r.winner, r.reason))
        };
        let pgn = |tags: &str, moves: &str| format!("[Variant \"brandubh\"]\n{tags}\n\n{moves}\n");
        assert_eq!(
            result(&pgn("[Result \"0-1\"]", "1. d1-c1 c4-c5 *")),
            Some((Some(Side::Second), "the record's result".to_string()))
        );
        assert_eq!(
            result(&pgn(
                "[Result \"1-0\"]\n[Termination \"defenders resign\"]",
                "1. d1-c1 c4-c5 1-0"
            )),
            Some((Some(Side::First), "defenders resign".to_string()))
        );
        assert_eq!(
            result(&pgn("[Result \"0-1\"]", "1. d1-c1 1/2-1/2")),
            Some((None, "the record's result".to_string()))
        );
        assert_eq!(result(&pgn("[Result \"*\"]", "1. d1-c1 *")), None);
        // Ataxx: the moves end the game (o has no stones): the rules' result, whatever the tag.
        let ataxx = "[Result \"0-1\"]\n[FEN \"xo5/7/7/7/7/7/7 x 0 1\"]\n\n1. a6 *\n";
        assert_eq!(
            result(ataxx),
            Some((Some(Side::First), "no pieces left".to_string()))
        );
        let otg = |tags: &str, moves: &str| {
            format!(
                "{tags}[rules:{}]\n\n{moves}",
                otn_rules(Variant::Brandubh).unwrap()
            )
        };
        // The defenders are to move after three plies: they resign.
        assert_eq!(
            result(&otg("", "1. d1-c1 c4-c5 \n2. c1-c3 --- \n")),
            Some((Some(Side::First), "resignation".to_string()))
        );
        assert_eq!(
            result(&otg("", "1. --- \n")),
            Some((Some(Side::Second), "resignation".to_string()))
        );
        assert_eq!(
            result(&otg("[result:-1]\n", "1. d1-c1 c4-c5 \n")),
            Some((Some(Side::Second), "the record's result".to_string()))
        );
        assert_eq!(result(&otg("[result:?]\n", "1. d1-c1 c4-c5 \n")), None);
        let e = load_records(&otg("", "1. d1-c1 --- \n2. c1-c3 \n"))
            .err()
            .unwrap();
        assert!(e.contains("after the resignation"), "{e}");
    }

    /// A game judged by OpenTafl rules (a match of OTEP engines) keeps them in its records, and
    /// reads back by them: such a rules string is not taken for skald's variant of the name.
    #[test]
    fn records_of_games_judged_by_opentafl_rules() {
        let rules = "dim:7 name:brandubh surf:n ks:c cenp:K cenh: tfr:d \
                     start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
        let mut r = record(
            Variant::Brandubh,
            &new_session(Variant::Brandubh).fen(),
            &["d1-c1", "c4-c5"],
        );
        r.rules = Some(rules.to_string());
        let otg = r.to_otg().unwrap();
        assert!(otg.contains(&format!("[rules:{rules}]\n")), "{otg}");
        let back = load_records(&otg).unwrap();
        assert_eq!(back[0].variant, None, "{otg}");
        assert_eq!(back[0].moves, ["d1-c1", "c4-c5"]);
        let pgn = r.to_pgn();
        assert!(pgn.contains(&format!("[Rules \"{rules}\"]\n")), "{pgn}");
        let back = load_records(&pgn).unwrap();
        assert_eq!(back[0].variant, None);
        assert_eq!(back[0].session.variant_name(), "brandubh");
        // skald's own string, any start position: skald's brandubh.
        r.rules = None;
        assert_eq!(
            load_records(&r.to_otg().unwrap()).unwrap()[0].variant,
            Some(Variant::Brandubh)
        );
    }
}
