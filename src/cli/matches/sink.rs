//! Where the records of `skald match` go: one PGN file, or one OpenTafl record a game.

use crate::cli::records::{GameRecord, RecordFormat};
use anyhow::{Context, Result, anyhow, bail};
use skald::variant::Variant;
use std::io::Write;

/// Where finished games' records go: one PGN file, or one OpenTafl record a game.
pub(super) enum RecordSink {
    /// All games in one PGN file.
    Pgn(std::io::BufWriter<std::fs::File>),
    /// `<stem>-<round>.otg` beside the given path, rounds zero-padded to `width` digits.
    Otg {
        /// The path given.
        path: std::path::PathBuf,
        /// Digits of the largest round number.
        width: usize,
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
                    width: games.to_string().len(),
                })
            }
            RecordFormat::Pgn => Ok(RecordSink::Pgn(std::io::BufWriter::new(
                std::fs::File::create(path)
                    .with_context(|| format!("cannot write {}", path.display()))?,
            ))),
        }
    }

    /// The file game `round` (1-based) goes to, for OpenTafl records.
    fn otg_path(path: &std::path::Path, width: usize, round: usize) -> std::path::PathBuf {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "game".into());
        path.with_file_name(format!("{stem}-{round:0width$}.otg"))
    }

    /// Writes one game.
    pub(super) fn write(&mut self, record: &GameRecord) -> Result<()> {
        match self {
            RecordSink::Pgn(w) => {
                w.write_all(record.to_pgn().as_bytes())?;
                w.flush()?;
            }
            RecordSink::Otg { path, width } => {
                let file = Self::otg_path(path, *width, record.round.unwrap_or(0));
                let text = record.to_otg().map_err(|e| anyhow!("record: {e}"))?;
                std::fs::write(&file, text)
                    .with_context(|| format!("cannot write {}", file.display()))?;
            }
        }
        Ok(())
    }
}
