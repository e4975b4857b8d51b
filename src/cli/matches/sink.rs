//! Where the records of `skald match` go: one PGN file, or one OpenTafl record a game.

use crate::cli::records::{GameRecord, RecordFormat, otg_file};
use anyhow::{Context, Result, anyhow, bail};
use skald::variant::Variant;
use std::io::Write;

/// Where finished games' records go: one PGN file, or one OpenTafl record a game.
pub(super) enum RecordSink {
    /// All games in one PGN file.
    Pgn(std::io::BufWriter<std::fs::File>),
    /// One file a game, named by [`otg_file`] (`<stem>-<round>.otg`, rounds zero-padded to
    /// the digits of the number of games).
    Otg {
        /// The path given.
        path: std::path::PathBuf,
        /// The number of games.
        games: usize,
    },
}

impl RecordSink {
    /// Opens the sink for `path` (by extension: `.otg` for OpenTafl records, tafl only).
    pub(super) fn open(
        path: &std::path::Path,
        variant: Variant,
        games: usize,
    ) -> Result<RecordSink> {
        match RecordFormat::of_path(path) {
            RecordFormat::Otg => {
                if !variant.is_tafl() {
                    bail!(
                        "--output {}: OpenTafl records (.otg) are for tafl games; use .pgn",
                        path.display()
                    );
                }
                let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
                if dir.is_some_and(|d| !d.is_dir()) {
                    bail!("--output {}: no such directory", path.display());
                }
                Ok(RecordSink::Otg {
                    path: path.to_path_buf(),
                    games,
                })
            }
            RecordFormat::Pgn => Ok(RecordSink::Pgn(std::io::BufWriter::new(
                std::fs::File::create(path)
                    .with_context(|| format!("cannot write {}", path.display()))?,
            ))),
        }
    }

    /// Writes one game.
    pub(super) fn write(&mut self, record: &GameRecord) -> Result<()> {
        match self {
            RecordSink::Pgn(w) => {
                w.write_all(record.to_pgn().as_bytes())?;
                w.flush()?;
            }
            RecordSink::Otg { path, games } => {
                let file = otg_file(path, record.round.unwrap_or(0), *games);
                let text = record.to_otg().map_err(|e| anyhow!("record: {e}"))?;
                std::fs::write(&file, text)
                    .with_context(|| format!("cannot write {}", file.display()))?;
            }
        }
        Ok(())
    }
}
