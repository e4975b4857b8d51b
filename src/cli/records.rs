//! `skald records`: reads every game of a record file (PGN or OpenTafl `.otg`, as the library's
//! [`skald::records`] reads them), prints a line a game, and writes them again with
//! `--output`; and [`load_game`], how `play --record` and `analyze --record` read one game.

use skald::records::{GameRecord, LoadedGame, RecordFormat, load_records_as, otg_file};
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
    let text = super::read_text(path)?;
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
            || format!("OpenTafl rules '{}'", g.session.rules_name()),
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
