//! Training positions of either family: reading `skald datagen` files (text lines
//! `FEN | score | result`, or the binary formats of [`skald::ataxx::packed`] and
//! [`skald::tafl::packed`], recognised by their headers), the targets, and the merging of
//! duplicates up to the board's symmetries.

use anyhow::{Context, Result, bail};
use skald::ataxx::Position;
use skald::ataxx::packed::{self, PackedReader};
use skald::game::{Game, Side};
use skald::tafl::packed::{self as tpacked, TaflBoard, TaflReader};
use std::collections::hash_map::{Entry, HashMap};
use std::hash::Hash;
use std::io::BufRead;
use std::path::PathBuf;

/// What reading tafl files needs to know of the network trained on them ([`crate::net::Spec`]
/// gives it): the variant whose files it reads, whether its inputs include the king's reach,
/// and whether its output is the defenders' view (one side-to-move head) rather than the side
/// to move's.
#[derive(Clone, Copy, Debug)]
pub struct TaflInputs {
    /// The variant (a tafl preset): text FENs are read under its rules, binary headers must
    /// name it.
    pub variant: skald::variant::Variant,
    /// The king's reach is read ([`skald::tafl::nnue::FeatureSet::KingReach`]).
    pub king_reach: bool,
    /// The targets are in the defenders' view (`--side-heads 1`).
    pub defenders_view: bool,
}

impl TaflInputs {
    /// Whether a position with `side` to move has its targets negated: the defenders' view
    /// with the attackers (the first side) to move. The one statement of that rule, for the
    /// reader's targets and the trainer's output sign ([`crate::net::TrainPos::view_sign`]).
    pub fn flips(&self, side: Side) -> bool {
        self.defenders_view && side == Side::First
    }
}

/// A tafl training position: the board, the side to move and, for networks that read it, the
/// squares the king can move to.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct TaflPos {
    /// The pieces.
    pub board: TaflBoard,
    /// The side to move.
    pub side: Side,
    /// The king's reach ([`skald::tafl::nnue::king_reach`]) in [`TaflBoard`]'s bit layout;
    /// empty unless the network reads it.
    pub reach: [u64; 3],
}

impl TaflPos {
    /// The squares of the king's reach, lowest first.
    pub fn reach_squares(&self) -> impl Iterator<Item = u16> + '_ {
        let mut b = TaflBoard::empty(self.board.size);
        b.pieces[0] = self.reach;
        b.squares(0).collect::<Vec<_>>().into_iter()
    }
}

/// One training position and its target in `[0, 1]`, in the view the network's output has
/// ([`crate::net::TrainPos::view_sign`]: the side to move's, or the defenders' for a tafl
/// network with one side-to-move head).
#[derive(Clone, Copy, Debug)]
pub struct Sample<P> {
    /// The position.
    pub pos: P,
    /// The target.
    pub target: f32,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// What turns scores and results into targets: `t = λ × result + (1 − λ) × sigmoid(score / K)`.
#[derive(Clone, Copy, Debug)]
pub struct Targets {
    /// `λ`, the result's weight.
    pub lambda: f32,
    /// `K`, centipawns per unit of logit.
    pub k: i32,
}

impl Targets {
    /// The target of a position with search score `score` (centipawns) and result `result`
    /// (1.0, 0.5, 0.0), both from the side to move's view; flipped (`1 − t`) when the network
    /// reads the other side's view (`flip`).
    pub fn target(&self, score: i32, result: f32, flip: bool) -> f32 {
        let from_score = sigmoid(score as f64 / self.k as f64) as f32;
        let t = self.lambda * result + (1.0 - self.lambda) * from_score;
        if flip { 1.0 - t } else { t }
    }
}

/// The fields of a text line `FEN | score | result`.
fn text_fields<'a>(line: &'a str, at: &dyn Fn() -> String) -> Result<(&'a str, i32, f32)> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [fen, score, result] = fields[..] else {
        bail!("{}: expected 'FEN | score | result', got '{line}'", at());
    };
    let score: i32 = score
        .parse()
        .with_context(|| format!("{}: score '{score}' is not an integer", at()))?;
    let result: f32 = match result {
        "1.0" | "1" => 1.0,
        "0.5" => 0.5,
        "0.0" | "0" => 0.0,
        _ => bail!("{}: result '{result}' is not 1.0, 0.5 or 0.0", at()),
    };
    Ok((fen, score, result))
}

/// Opens a data file with a buffer of 64 KiB; the first bytes are left in the buffer for the
/// header test.
fn open(path: &PathBuf) -> Result<std::io::BufReader<std::fs::File>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(std::io::BufReader::with_capacity(1 << 16, file))
}

/// Reads Ataxx datagen files, text or binary (by the packed header); errors name the file and
/// the line or record.
pub fn read_ataxx(paths: &[PathBuf], targets: Targets) -> Result<Vec<Sample<Position>>> {
    let mut out = Vec::new();
    let start = Position::start();
    for path in paths {
        let mut reader = open(path)?;
        let head = reader
            .fill_buf()
            .with_context(|| format!("cannot read {}", path.display()))?;
        if tpacked::has_magic(head) {
            bail!(
                "{}: a tafl data file, and the variant is ataxx",
                path.display()
            );
        }
        if packed::has_magic(head) {
            let records =
                PackedReader::new(reader).with_context(|| format!("{}", path.display()))?;
            for (i, rec) in records.enumerate() {
                let rec = rec.with_context(|| format!("{}: record {}", path.display(), i + 1))?;
                out.push(Sample {
                    pos: rec.position,
                    target: targets.target(rec.score.into(), rec.result.value(), false),
                });
            }
            continue;
        }
        for (i, line) in reader.lines().enumerate() {
            let line = line.with_context(|| format!("cannot read {}", path.display()))?;
            if line.trim().is_empty() {
                continue;
            }
            let at = || format!("{}:{}", path.display(), i + 1);
            let (fen, score, result) = text_fields(&line, &at)?;
            let pos = start
                .with_fen(fen)
                .map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
            out.push(Sample {
                pos,
                target: targets.target(score, result, false),
            });
        }
    }
    Ok(out)
}

/// Reads tafl datagen files of the variant `inputs` names, text (each FEN read under the
/// variant's rules) or binary (whose header must name the variant); errors name the file and
/// the line or record.
pub fn read_tafl(
    paths: &[PathBuf],
    targets: Targets,
    inputs: TaflInputs,
) -> Result<Vec<Sample<TaflPos>>> {
    let variant = inputs.variant.name();
    let reach = inputs.king_reach;
    // The position of a FEN, with the king's reach when the network reads it.
    let read = |fen: &str| -> Result<TaflPos, skald::game::ParseError> {
        if reach {
            let (board, side, reach) = tpacked::reach_of_fen(variant, fen)?;
            Ok(TaflPos { board, side, reach })
        } else {
            let (board, side) = tpacked::board_of_fen(variant, fen)?;
            Ok(TaflPos {
                board,
                side,
                reach: [0; 3],
            })
        }
    };
    let mut out = Vec::new();
    for path in paths {
        let mut reader = open(path)?;
        let head = reader
            .fill_buf()
            .with_context(|| format!("cannot read {}", path.display()))?;
        if packed::has_magic(head) {
            bail!(
                "{}: an Ataxx data file, and the variant is {variant}",
                path.display()
            );
        }
        if tpacked::has_magic(head) {
            let records = TaflReader::new(reader).with_context(|| format!("{}", path.display()))?;
            if records.header().variant != variant {
                bail!(
                    "{}: positions of {}, and the variant is {variant}",
                    path.display(),
                    records.header().variant
                );
            }
            for (i, rec) in records.enumerate() {
                let rec = rec.with_context(|| format!("{}: record {}", path.display(), i + 1))?;
                let pos = if reach {
                    read(&rec.fen())
                        .with_context(|| format!("{}: record {}", path.display(), i + 1))?
                } else {
                    TaflPos {
                        board: rec.board,
                        side: rec.side,
                        reach: [0; 3],
                    }
                };
                out.push(Sample {
                    pos,
                    target: targets.target(
                        rec.score.into(),
                        rec.result.value(),
                        inputs.flips(rec.side),
                    ),
                });
            }
            continue;
        }
        for (i, line) in reader.lines().enumerate() {
            let line = line.with_context(|| format!("cannot read {}", path.display()))?;
            if line.trim().is_empty() {
                continue;
            }
            let at = || format!("{}:{}", path.display(), i + 1);
            let (fen, score, result) = text_fields(&line, &at)?;
            let pos = read(fen).map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
            out.push(Sample {
                pos,
                target: targets.target(score, result, inputs.flips(pos.side)),
            });
        }
    }
    Ok(out)
}

/// Merges duplicates (the same `key`): the first one stays, in its place, with the mean target
/// of all of them. Returns the samples left and the number merged away.
pub fn dedup<P, K: Hash + Eq>(
    samples: Vec<Sample<P>>,
    key: impl Fn(&P) -> K,
) -> (Vec<Sample<P>>, usize) {
    let total = samples.len();
    let mut index: HashMap<K, usize> = HashMap::with_capacity(total);
    let mut out: Vec<Sample<P>> = Vec::with_capacity(total);
    let mut counts: Vec<u32> = Vec::with_capacity(total);
    for s in samples {
        match index.entry(key(&s.pos)) {
            Entry::Occupied(e) => {
                out[*e.get()].target += s.target;
                counts[*e.get()] += 1;
            }
            Entry::Vacant(e) => {
                e.insert(out.len());
                out.push(s);
                counts.push(1);
            }
        }
    }
    for (s, &c) in out.iter_mut().zip(&counts) {
        s.target /= c as f32;
    }
    let merged = total - out.len();
    (out, merged)
}
