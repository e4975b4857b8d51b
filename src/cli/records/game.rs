//! One game of a record: a [`GameRecord`] to write, and a [`LoadedGame`] read back and
//! replayed by the rules (its result the rules' or the record's), with what the PGN and
//! OpenTafl readers and writers share.

use skald::engine::Side;
use skald::engine::session::Session;
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

/// The file that game `n` (1-based) of `count` goes to when games are written as OpenTafl
/// records, one a file, by `skald match --output` and `skald records --output`: `path` itself
/// for a single game, else `<stem>-<n>.otg` beside it, `n` zero-padded to the digits of `count`
/// (`games.otg` → `games-01.otg` … `games-12.otg`).
pub fn otg_file(path: &std::path::Path, n: usize, count: usize) -> std::path::PathBuf {
    if count <= 1 {
        return path.to_path_buf();
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".into());
    let width = count.to_string().len();
    path.with_file_name(format!("{stem}-{n:0width$}.otg"))
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

/// The value of tag `key` (any case).
pub(super) fn tag_of<'a>(tags: &'a [(String, String)], key: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(key))
        .map(|(_, v)| v.as_str())
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
pub(super) fn game_result(
    session: &dyn Session,
    resigned: bool,
    marker: Option<&str>,
    termination: Option<&str>,
) -> Option<GameResult> {
    if let skald::engine::Outcome::Decided { winner, reason } = session.outcome() {
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

/// What a record says of a game's end beside its moves ([`game_result`]).
pub(super) struct RecordEnd<'a> {
    /// The side to move resigned (OpenTafl's `---`).
    pub(super) resigned: bool,
    /// PGN result text or `.otg` result tag value.
    pub(super) marker: Option<&'a str>,
    /// The reason the record gives.
    pub(super) termination: Option<&'a str>,
}

impl LoadedGame {
    /// The value of tag `key` (any case).
    pub fn tag(&self, key: &str) -> Option<&str> {
        tag_of(&self.tags, key)
    }

    /// Game `index` (1-based) of a record with `tags`, of `variant` (`None`: OpenTafl rules),
    /// from `session` at its set-up position: `moves` (skald's notation) replayed, the result
    /// the rules' or else the one the record gives (`end`).
    pub(super) fn replayed(
        tags: &[(String, String)],
        variant: Option<Variant>,
        mut session: Box<dyn Session>,
        moves: &[String],
        index: usize,
        end: RecordEnd<'_>,
    ) -> Result<LoadedGame, String> {
        let setup_fen = session.fen();
        let moves = replay(session.as_mut(), moves, index)?;
        let result = game_result(session.as_ref(), end.resigned, end.marker, end.termination);
        Ok(LoadedGame {
            tags: tags.to_vec(),
            variant,
            setup_fen,
            moves,
            session,
            result,
        })
    }
}

/// Replays `moves` (already in skald's notation) from `session`'s current position.
pub(super) fn replay(
    session: &mut dyn Session,
    moves: &[String],
    game: usize,
) -> Result<Vec<String>, String> {
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

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A record of `moves` from `setup` with test tags, won by the first side.
    pub(in crate::cli::records) fn record(
        variant: Variant,
        setup: &str,
        moves: &[&str],
    ) -> GameRecord {
        GameRecord {
            variant,
            event: "test".into(),
            round: Some(3),
            first: "A".into(),
            second: "B".into(),
            setup_fen: setup.into(),
            start_fen: variant.start_fen().to_string(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            result: Some(Some(Side::First)),
            termination: None,
            rules: None,
        }
    }
}
