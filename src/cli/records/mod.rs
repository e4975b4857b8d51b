//! Game records as text: written by `skald match --output` and `play`'s `save`, read back by
//! [`load_records`].
//!
//! The formats: PGN ([`pgn`]) and OpenTafl game records ([`otg`]).
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

mod game;
mod otg;
mod pgn;

pub use game::{GameRecord, LoadedGame, RecordFormat, otg_file};
use otg::{load_otg, parse_otg};
use pgn::{load_pgn, parse_pgn};

use skald::variant::Variant;

/// Reads game `game` (1-based) of the record file `path` ([`load_records_as`]: PGN games
/// without a `Variant` tag are `untagged`, Ataxx if `None`).
///
/// # Errors
/// The file cannot be read or parsed, or has fewer games.
pub fn load_game(
    path: &std::path::Path,
    game: usize,
    untagged: Option<Variant>,
) -> anyhow::Result<LoadedGame> {
    use anyhow::anyhow;
    let text = crate::cli::read_text(path)?;
    let mut games = load_records_as(&text, untagged.unwrap_or(Variant::Ataxx))
        .map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let count = games.len();
    if game == 0 || game > count {
        anyhow::bail!(
            "{}: no game {game} (the record has {count})",
            path.display()
        );
    }
    Ok(games.swap_remove(game - 1))
}

/// Reads the games of a record: an OpenTafl game record (it has a `[rules:…]` tag) or PGN. A
/// PGN game is tafl when it has a `Variant` tag naming one, Ataxx otherwise, and is played by
/// the OpenTafl rules string of its `Rules` tag when it has one; it starts from its `FEN` tag if
/// any. An OpenTafl record is played by skald's rules when its rules string is one that skald
/// writes for its variants ([`skald::variant::Descriptor::opentafl_rules`]: `brandubh`, `tablut`, `tawlbwrdd`; any start
/// position), and by the rules string itself otherwise (`rules` of the OpenTafl engine
/// protocol, [`skald::engine::new_tafl_session`]). Results: see the module docs.
///
/// # Errors
/// Text that is neither, unknown variants, rules skald cannot play, illegal moves (the message
/// names the game and the move).
#[cfg(test)]
pub fn load_records(text: &str) -> Result<Vec<LoadedGame>, String> {
    load_records_as(text, Variant::Ataxx)
}

/// [`load_records`], with PGN games that have no `Variant` tag read as `untagged` (the
/// `--variant` of `skald records`; Ataxx by default, as the Ataxx tools write no such tag).
///
/// # Errors
/// As [`load_records`].
pub fn load_records_as(text: &str, untagged: Variant) -> Result<Vec<LoadedGame>, String> {
    load_records_hinted(text, untagged, "give --variant")
}

/// [`load_records_as`], with `hint` ending the error of a PGN game without a `Variant` tag that
/// does not read as `untagged` (what the reader can do: `give --variant` for the CLI).
///
/// # Errors
/// As [`load_records`].
pub fn load_records_hinted(
    text: &str,
    untagged: Variant,
    hint: &str,
) -> Result<Vec<LoadedGame>, String> {
    // Text from anywhere (a file, the browser's load request) may start with a byte order mark.
    let text = skald::protocol::without_bom(text);
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
        .map(|(i, g)| load_pgn(g, i + 1, untagged, hint))
        .collect()
}

/// Arguments of `skald records`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A record file: PGN (skald's, cuteataxx's, python-ataxx's) or an OpenTafl game record
    /// (the same as --record FILE).
    #[arg(
        value_name = "FILE",
        required_unless_present = "record",
        conflicts_with = "record"
    )]
    pub file: Option<std::path::PathBuf>,
    /// The record file, as `play --record` and `analyze --record` name it (or give it without
    /// the flag).
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,
    /// The variant of PGN games without a Variant tag (ataxx if not given, as the Ataxx tools
    /// write no such tag): brandubh, tablut, tawlbwrdd, copenhagen, copenhagen13, ashton or ataxx; also
    /// accepted: hnefatafl (= copenhagen), brandub (= brandubh).
    #[arg(long, value_parser = super::parse_variant)]
    pub variant: Option<Variant>,
    /// Write the games again to this file: PGN, or OpenTafl game records when it ends in `.otg`
    /// (tafl only; one file a game when there are several, `<name>-<n>.otg`, n zero-padded to the
    /// digits of the number of games, as `match --output` names them).
    #[arg(long)]
    pub output: Option<std::path::PathBuf>,
}

/// The record of a loaded game, for writing it again (skald's variants only).
fn to_record(g: &LoadedGame) -> Result<GameRecord, String> {
    let variant = g.variant.ok_or(
        "the game is played by rules other than skald's variants; it cannot be written again",
    )?;
    let tafl = variant.is_tafl();
    // The players: tafl records (PGN and .otg) name the sides, Ataxx PGN the colours (tags in
    // any case).
    let name = |tag: &str| g.tag(tag).unwrap_or("?").to_string();
    let result = g.result.as_ref().map(|r| r.winner);
    let termination = g.result.as_ref().map(|r| r.reason.clone());
    Ok(GameRecord {
        variant,
        event: g.tag("Event").unwrap_or("?").to_string(),
        round: g.tag("Round").and_then(|r| r.parse().ok()),
        first: name(if tafl { "Attackers" } else { "Black" }),
        second: name(if tafl { "Defenders" } else { "White" }),
        setup_fen: g.setup_fen.clone(),
        start_fen: variant.start_fen().to_string(),
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
    let file = args
        .file
        .as_ref()
        .or(args.record.as_ref())
        .expect("clap requires a file");
    let text = crate::cli::read_text(file)?;
    let games = load_records_as(&text, args.variant.unwrap_or(Variant::Ataxx))
        .map_err(|e| anyhow!("{}: {e}", file.display()))?;
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
            "game {}: {variant}, {}, {state}; final position {}",
            i + 1,
            super::plies(g.moves.len()),
            g.session.fen()
        );
    }
    if let Some(out) = &args.output {
        let records: Vec<GameRecord> = games
            .iter()
            .enumerate()
            .map(|(i, g)| to_record(g).map_err(|e| anyhow!("game {}: {e}", i + 1)))
            .collect::<anyhow::Result<_>>()?;
        // The record's date when it has one (never today's: the games were played then).
        let dates: Vec<Option<&str>> = games
            .iter()
            .map(|g| g.tag("Date").filter(|d| !d.trim().is_empty()))
            .collect();
        match RecordFormat::of_path(out) {
            RecordFormat::Pgn => {
                let text: String = records
                    .iter()
                    .zip(&dates)
                    .map(|(r, date)| r.to_pgn_dated(*date))
                    .collect();
                std::fs::write(out, text)
                    .with_context(|| format!("cannot write {}", out.display()))?;
            }
            RecordFormat::Otg => {
                for (i, r) in records.iter().enumerate() {
                    let path = otg_file(out, i + 1, records.len());
                    let text = r
                        .to_otg_dated(dates[i])
                        .map_err(|e| anyhow!("game {}: {e}", i + 1))?;
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
    use super::game::tests::record;
    use super::*;
    use skald::engine::Side;

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
                Variant::Brandubh.descriptor().opentafl_rules.unwrap()
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

    /// The shared reader (`records`, `play --record`, `analyze --record`, `skald serve`'s
    /// load request) takes a byte order mark at the start of the text, PGN or `.otg`.
    #[test]
    fn a_byte_order_mark_is_no_part_of_the_record() {
        let pgn = "\u{feff}[Variant \"brandubh\"]\n\n1. d1-c1 *\n";
        assert_eq!(load_records(pgn).unwrap()[0].moves, ["d1-c1"]);
        let otg = format!(
            "\u{feff}[rules:{}]\n\n1. d1-c1 \n",
            Variant::Brandubh.descriptor().opentafl_rules.unwrap()
        );
        assert_eq!(load_records(&otg).unwrap()[0].moves, ["d1-c1"]);
    }

    /// `.otg` files of several games are named alike by `match` and `records`: padded to the
    /// number of games; a single game keeps the name given.
    #[test]
    fn otg_file_names() {
        let p = std::path::Path::new("dir/games.otg");
        assert_eq!(otg_file(p, 1, 1), p);
        assert_eq!(otg_file(p, 2, 3), std::path::Path::new("dir/games-2.otg"));
        assert_eq!(otg_file(p, 2, 12), std::path::Path::new("dir/games-02.otg"));
        assert_eq!(
            otg_file(p, 12, 12),
            std::path::Path::new("dir/games-12.otg")
        );
    }

    /// A game judged by OpenTafl rules (a match of OTEP engines) keeps them in its records, and
    /// reads back by them: such a rules string is not taken for skald's variant of the name.
    #[test]
    fn records_of_games_judged_by_opentafl_rules() {
        let rules = "dim:7 name:brandubh surf:n ks:c cenp:K cenh: tfr:d \
                     start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
        let mut r = record(
            Variant::Brandubh,
            Variant::Brandubh.start_fen(),
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
