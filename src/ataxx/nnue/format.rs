//! The network files of the Ataxx NNUE: reading ([`Network::from_bytes`], [`Network::load`]
//! for format 1, [`PatternNetwork::from_bytes`], [`PatternNetwork::load`] for format 2, and
//! [`load_network`], either by the version in the header, for the engine option `EvalFile`) and
//! writing ([`Network::to_bytes`], [`PatternNetwork::to_bytes`]), why a file is refused
//! ([`NetworkError`]), and the network built into the binary ([`embedded`]).
//!
//! The layout is in the docs of the `nnue` module (the public page).

use std::path::Path;
use std::sync::{Arc, LazyLock};

use super::patterns::valid_hidden;
use super::{
    Activation, FEATURE_SET_WINDOWS_2X2, HIDDEN, MAX_BUCKETS, MAX_HIDDEN, NUM_FEATURES,
    NUM_PATTERN_FEATURES, Network, PatternNetwork, QA, QB,
};
pub use crate::nnue::MAGIC;
use crate::nnue::Reader;
/// The file format version of a square-input network ([`Network`]).
pub const VERSION: u16 = 1;
/// Length of a format-1 header, bytes.
pub const HEADER_LEN: usize = 20;
/// Length of a whole format-1 network file, bytes.
pub const FILE_LEN: usize = HEADER_LEN + 2 * (NUM_FEATURES * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;
/// The file format version of a pattern-input network ([`PatternNetwork`]).
pub const PATTERN_VERSION: u16 = 2;
/// Length of a format-2 header, bytes.
pub const PATTERN_HEADER_LEN: usize = 24;

/// Length of a whole format-2 network file with `hidden` neurons per perspective and `buckets`
/// output buckets, bytes.
pub const fn pattern_file_len(hidden: usize, buckets: usize) -> usize {
    PATTERN_HEADER_LEN
        + 2 * (NUM_PATTERN_FEATURES * hidden + hidden + 2 * hidden * buckets)
        + 4 * buckets
}

/// The longest network file of either format, bytes.
const MAX_FILE_LEN: usize = pattern_file_len(MAX_HIDDEN, MAX_BUCKETS);

/// Why a network file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    /// The file cannot be read.
    #[error("cannot read network file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The system's error.
        source: std::io::Error,
    },
    /// Fewer bytes than the header or the sizes call for (a truncated file).
    #[error("network file is truncated: {got} bytes, expected {expected}")]
    Truncated {
        /// Bytes the file should have.
        expected: usize,
        /// Bytes it has.
        got: usize,
    },
    /// More bytes than the sizes call for.
    #[error("network file has {extra} bytes after the network")]
    TrailingBytes {
        /// How many.
        extra: usize,
    },
    /// The first four bytes are not `SKNN`.
    #[error("not a skald network file (it does not start with \"SKNN\")")]
    BadMagic([u8; 4]),
    /// A format version this build does not read (or, from one format's reader, the other's).
    #[error(
        "network file format version {0}, this build reads versions {VERSION} (square inputs) and \
         {PATTERN_VERSION} (pattern inputs)"
    )]
    Version(u16),
    /// A network of another shape than this build's architecture.
    #[error(
        "network has {inputs} inputs and {hidden} hidden neurons, this build needs {NUM_FEATURES} \
         and {HIDDEN}"
    )]
    Shape {
        /// Inputs in the file.
        inputs: u16,
        /// Hidden size in the file.
        hidden: u16,
    },
    /// A format-2 network whose input count or hidden size this build does not have.
    #[error(
        "pattern network has {inputs} inputs and {hidden} hidden neurons, this build needs \
         {NUM_PATTERN_FEATURES} inputs and a multiple of 32 from 32 to {MAX_HIDDEN} hidden neurons"
    )]
    PatternShape {
        /// Inputs in the file.
        inputs: u16,
        /// Hidden size in the file.
        hidden: u16,
    },
    /// A format-2 feature-set id this build does not know.
    #[error("network feature set {0}, this build knows {FEATURE_SET_WINDOWS_2X2} (2x2 windows)")]
    FeatureSet(u16),
    /// A format-2 activation id this build does not know.
    #[error("network activation {0}, this build knows 0 (CReLU) and 1 (SCReLU)")]
    Activation(u16),
    /// Other quantisation factors than [`QA`] and [`QB`].
    #[error("network quantisation QA={qa} QB={qb}, this build needs QA={QA} QB={QB}")]
    Quantisation {
        /// `QA` in the file.
        qa: u16,
        /// `QB` in the file.
        qb: u16,
    },
    /// A format-2 output-bucket count above [`MAX_BUCKETS`].
    #[error("network has {0} output buckets, this build reads 1 to {MAX_BUCKETS}")]
    Buckets(u16),
    /// A scale below 1 centipawn per logit unit.
    #[error("network scale {0} is not a positive number of centipawns")]
    Scale(i32),
}

/// A reader past the magic and the version of a file of `version` whose header is
/// `header_len` bytes: the checks both formats start with.
fn after_magic(bytes: &[u8], header_len: usize, version: u16) -> Result<Reader<'_>, NetworkError> {
    if bytes.len() < header_len {
        return Err(NetworkError::Truncated {
            expected: header_len,
            got: bytes.len(),
        });
    }
    let mut r = Reader::new(bytes);
    let magic: [u8; 4] = r.take();
    if magic != MAGIC {
        return Err(NetworkError::BadMagic(magic));
    }
    let found = r.u16();
    if found != version {
        return Err(NetworkError::Version(found));
    }
    Ok(r)
}

impl Network {
    /// Reads a network from the bytes of a file (format in the module docs).
    ///
    /// # Errors
    /// A [`NetworkError`] for a truncated or overlong file, a wrong magic, version, shape or
    /// quantisation, or a scale below 1. Never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER_LEN {
            return Err(NetworkError::Truncated {
                expected: FILE_LEN,
                got: bytes.len(),
            });
        }
        let mut r = after_magic(bytes, HEADER_LEN, VERSION)?;
        let (inputs, hidden, qa, qb, _reserved) = (r.u16(), r.u16(), r.u16(), r.u16(), r.u16());
        if inputs as usize != NUM_FEATURES || hidden as usize != HIDDEN {
            return Err(NetworkError::Shape { inputs, hidden });
        }
        if qa as i32 != QA || qb as i32 != QB {
            return Err(NetworkError::Quantisation { qa, qb });
        }
        let scale = r.i32();
        if scale < 1 {
            return Err(NetworkError::Scale(scale));
        }
        match bytes.len() {
            n if n < FILE_LEN => {
                return Err(NetworkError::Truncated {
                    expected: FILE_LEN,
                    got: n,
                });
            }
            n if n > FILE_LEN => {
                return Err(NetworkError::TrailingBytes {
                    extra: n - FILE_LEN,
                });
            }
            _ => {}
        }
        let mut net = Network::zeroed(scale);
        for row in net.w1.iter_mut() {
            for w in row.iter_mut() {
                *w = r.i16();
            }
        }
        for b in net.b1.iter_mut() {
            *b = r.i16();
        }
        for half in net.w2.iter_mut() {
            for w in half.iter_mut() {
                *w = r.i16();
            }
        }
        net.b2 = r.i32();
        net.derive_flip_rows();
        Ok(net)
    }

    /// Reads a network file: a regular file, of which at most [`FILE_LEN`] + 1 bytes are read
    /// (enough for [`Network::from_bytes`] to see a wrong length), so that a device, a FIFO or
    /// a huge file is refused at once instead of blocking or filling memory.
    ///
    /// # Errors
    /// [`NetworkError::Io`] if the file cannot be read or is not a regular file, else as
    /// [`Network::from_bytes`].
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        Network::from_bytes(&read_capped(path, FILE_LEN + 1)?)
    }

    /// The network as the bytes of a file (format in the module docs), [`FILE_LEN`] long.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_LEN);
        out.extend_from_slice(&MAGIC);
        for v in [
            VERSION,
            NUM_FEATURES as u16,
            HIDDEN as u16,
            QA as u16,
            QB as u16,
            0,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.scale.to_le_bytes());
        for w in self.w1.iter().flatten().chain(self.b1.iter()) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for w in self.w2.iter().flatten() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }
}

/// At most `cap` bytes of the regular file `path` ([`crate::nnue::read_capped`]), the error
/// naming the file.
fn read_capped(path: &Path, cap: usize) -> Result<Vec<u8>, NetworkError> {
    crate::nnue::read_capped(path, cap).map_err(|source| NetworkError::Io {
        path: path.display().to_string(),
        source,
    })
}

impl PatternNetwork {
    /// Reads a pattern network from the bytes of a format-2 file (layout in the module docs).
    ///
    /// # Errors
    /// A [`NetworkError`] for a truncated or overlong file, a wrong magic or version, a shape,
    /// feature set, activation or quantisation this build does not have, or a scale below 1.
    /// Never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternNetwork, NetworkError> {
        let mut r = after_magic(bytes, PATTERN_HEADER_LEN, PATTERN_VERSION)?;
        let (inputs, hidden, qa, qb, feature_set) = (r.u16(), r.u16(), r.u16(), r.u16(), r.u16());
        let scale = r.i32();
        let (activation, buckets) = (r.u16(), r.u16());
        if inputs as usize != NUM_PATTERN_FEATURES || !valid_hidden(hidden as usize) {
            return Err(NetworkError::PatternShape { inputs, hidden });
        }
        if qa as i32 != QA || qb as i32 != QB {
            return Err(NetworkError::Quantisation { qa, qb });
        }
        if feature_set != FEATURE_SET_WINDOWS_2X2 {
            return Err(NetworkError::FeatureSet(feature_set));
        }
        let activation =
            Activation::from_id(activation).ok_or(NetworkError::Activation(activation))?;
        if scale < 1 {
            return Err(NetworkError::Scale(scale));
        }
        if buckets as usize > MAX_BUCKETS {
            return Err(NetworkError::Buckets(buckets));
        }
        // 0 (the files from before output buckets) and 1 are both one bucket.
        let buckets = (buckets as usize).max(1);
        let hidden = hidden as usize;
        let len = pattern_file_len(hidden, buckets);
        match bytes.len() {
            n if n < len => {
                return Err(NetworkError::Truncated {
                    expected: len,
                    got: n,
                });
            }
            n if n > len => return Err(NetworkError::TrailingBytes { extra: n - len }),
            _ => {}
        }
        Ok(PatternNetwork {
            layers: crate::nnue::Layers::read_weights(
                &mut r,
                NUM_PATTERN_FEATURES,
                hidden,
                2,
                buckets,
                activation,
                scale,
            ),
        })
    }

    /// Reads a format-2 network file (at most the longest file's length + 1 bytes are read).
    ///
    /// # Errors
    /// [`NetworkError::Io`] if the file cannot be read or is not a regular file, else as
    /// [`PatternNetwork::from_bytes`].
    pub fn load(path: &Path) -> Result<PatternNetwork, NetworkError> {
        PatternNetwork::from_bytes(&read_capped(path, MAX_FILE_LEN + 1)?)
    }

    /// The network as the bytes of a format-2 file ([`pattern_file_len`] of its hidden size and
    /// output buckets; one bucket is written as 0, as before buckets, so such files are
    /// unchanged).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(pattern_file_len(self.hidden(), self.buckets()));
        out.extend_from_slice(&MAGIC);
        for v in [
            PATTERN_VERSION,
            NUM_PATTERN_FEATURES as u16,
            self.hidden() as u16,
            QA as u16,
            QB as u16,
            FEATURE_SET_WINDOWS_2X2,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.scale().to_le_bytes());
        let buckets = match self.buckets() {
            1 => 0,
            n => n as u16,
        };
        for v in [self.activation().id(), buckets] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        self.layers.write_weights(&mut out);
        out
    }
}

/// The file name under `nets/` of the network built into the binary (the default evaluation).
/// Changing the network built in is a change of this one line.
macro_rules! embedded_file_name {
    () => {
        "ataxx-p128-g26-e5.nnue"
    };
}

/// The file name under `nets/` of the network built into the binary ([`embedded`]).
pub const EMBEDDED_NAME: &str = embedded_file_name!();

static EMBEDDED_BYTES: &[u8] = include_bytes!(concat!("../../../nets/", embedded_file_name!()));

/// The network built into the binary, of either file format (the header's version says which).
#[derive(Clone, Debug)]
pub enum EmbeddedNetwork {
    /// A square-input network (file format 1).
    Squares(Arc<Network>),
    /// A pattern-input network (file format 2).
    Patterns(Arc<PatternNetwork>),
}

impl EmbeddedNetwork {
    /// The network's score of `pos` from its side to move's view, centipawns (from scratch).
    pub fn evaluate_position(&self, pos: &super::Position) -> i32 {
        match self {
            EmbeddedNetwork::Squares(net) => net.evaluate_position(pos),
            EmbeddedNetwork::Patterns(net) => net.evaluate_position(pos),
        }
    }
}

/// Whether `bytes` start with a format-2 (pattern-input) network's magic and version.
fn is_pattern_file(bytes: &[u8]) -> bool {
    bytes.len() >= 6 && bytes[..4] == MAGIC && bytes[4..6] == PATTERN_VERSION.to_le_bytes()
}

static EMBEDDED: LazyLock<EmbeddedNetwork> = LazyLock::new(|| {
    const VALID: &str = "the network built into the binary is a valid network file (a test checks)";
    if is_pattern_file(EMBEDDED_BYTES) {
        EmbeddedNetwork::Patterns(Arc::new(
            PatternNetwork::from_bytes(EMBEDDED_BYTES).expect(VALID),
        ))
    } else {
        EmbeddedNetwork::Squares(Arc::new(Network::from_bytes(EMBEDDED_BYTES).expect(VALID)))
    }
});

/// The network built into the binary (`nets/` [`EMBEDDED_NAME`]), read on first use.
pub fn embedded() -> &'static EmbeddedNetwork {
    &EMBEDDED
}

/// Ataxx's network reader for the engine option `EvalFile` ([`crate::eval::NetworkLoader`]):
/// a format-1 ([`Network`]) or format-2 ([`PatternNetwork`]) file, by the version in its
/// header, the network held opaque for [`crate::eval::EvalChoice`].
///
/// # Errors
/// As [`Network::load`] or [`PatternNetwork::load`] (the message is the [`NetworkError`]'s).
pub fn load_network(path: &Path) -> Result<crate::eval::AnyNetwork, crate::eval::NetworkLoadError> {
    let bytes = read_capped(path, MAX_FILE_LEN + 1)?;
    if is_pattern_file(&bytes) {
        Ok(Arc::new(PatternNetwork::from_bytes(&bytes)?))
    } else {
        Ok(Arc::new(Network::from_bytes(&bytes)?))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_network;
    use super::super::{AtaxxEval, Position};
    use super::*;

    /// A device or a directory is refused at once (`/dev/zero` used to be read without end).
    #[test]
    fn only_regular_files_are_read_as_networks() {
        for path in ["/dev/zero", "/dev/null", "/"] {
            let p = std::path::Path::new(path);
            if p.exists() {
                assert!(
                    matches!(super::Network::load(p), Err(super::NetworkError::Io { .. })),
                    "{path}"
                );
            }
        }
    }

    #[test]
    fn the_embedded_network_is_read_and_used_by_default() {
        use crate::eval::{EvalChoice, Evaluator};
        let file = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/nets/",
            embedded_file_name!()
        ))
        .unwrap();
        match embedded() {
            EmbeddedNetwork::Squares(net) => assert_eq!(**net, Network::from_bytes(&file).unwrap()),
            EmbeddedNetwork::Patterns(net) => {
                assert_eq!(**net, PatternNetwork::from_bytes(&file).unwrap())
            }
        }
        let eval = AtaxxEval::for_choice(&EvalChoice::Default);
        assert!(eval.describe().contains(EMBEDDED_NAME));
        let pos = Position::from_fen("xx4o/xx5/7/7/7/7/o5x o 0 2").unwrap();
        assert_eq!(
            eval.evaluate_fresh(&pos),
            embedded().evaluate_position(&pos)
        );
        let hand = AtaxxEval::for_choice(&EvalChoice::Hand);
        assert_eq!(
            hand.evaluate_fresh(&pos),
            crate::ataxx::eval::evaluate(&pos)
        );
    }

    #[test]
    fn eval_file_values() {
        use crate::eval::EvalChoice;
        assert!(matches!(
            EvalChoice::from_eval_file("", load_network),
            Ok(EvalChoice::Default)
        ));
        assert!(matches!(
            EvalChoice::from_eval_file("<default>", load_network),
            Ok(EvalChoice::Default)
        ));
        assert!(matches!(
            EvalChoice::from_eval_file(" HAND ", load_network),
            Ok(EvalChoice::Hand)
        ));
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/", embedded_file_name!());
        match EvalChoice::from_eval_file(path, load_network) {
            Ok(choice @ EvalChoice::Network { .. }) => {
                match embedded() {
                    EmbeddedNetwork::Squares(net) => {
                        assert_eq!(*choice.network::<Network>().unwrap(), **net)
                    }
                    EmbeddedNetwork::Patterns(net) => {
                        assert_eq!(*choice.network::<PatternNetwork>().unwrap(), **net)
                    }
                }
                assert_eq!(choice.eval_file(), path);
                assert!(choice.network::<u8>().is_none());
            }
            other => panic!("{other:?}"),
        }
        let err = EvalChoice::from_eval_file("/nonexistent/x.nnue", load_network).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("cannot read network file /nonexistent/x.nnue")
        );
    }

    #[test]
    fn file_round_trip_and_bad_files() {
        let net = random_network(5);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_LEN);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        for cut in [0, 3, HEADER_LEN - 1, HEADER_LEN, FILE_LEN / 2, FILE_LEN - 1] {
            assert!(
                matches!(
                    Network::from_bytes(&bytes[..cut]),
                    Err(NetworkError::Truncated { .. } | NetworkError::BadMagic(_))
                ),
                "a file cut at {cut} bytes"
            );
        }
        let err = Network::from_bytes(&bytes[..FILE_LEN - 1]).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "network file is truncated: {} bytes, expected {FILE_LEN}",
                FILE_LEN - 1
            )
        );
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(
            Network::from_bytes(&long),
            Err(NetworkError::TrailingBytes { extra: 1 })
        ));
        let patched = |at: usize, v: &[u8]| {
            let mut b = bytes.clone();
            b[at..at + v.len()].copy_from_slice(v);
            Network::from_bytes(&b)
        };
        assert!(matches!(
            patched(0, b"NNUE"),
            Err(NetworkError::BadMagic(_))
        ));
        assert!(matches!(patched(4, &[2, 0]), Err(NetworkError::Version(2))));
        assert!(matches!(
            patched(8, &[64, 0]),
            Err(NetworkError::Shape { .. })
        ));
        assert!(matches!(
            patched(10, &[0, 1]),
            Err(NetworkError::Quantisation { .. })
        ));
        assert!(matches!(
            patched(16, &[0, 0, 0, 0]),
            Err(NetworkError::Scale(0))
        ));
        // A format-2 file is not a format-1 network (load_network reads either).
        let patterns =
            super::super::patterns::tests::random_pattern_network(1, 32, Activation::CReLU)
                .to_bytes();
        assert!(matches!(
            Network::from_bytes(&patterns),
            Err(NetworkError::Version(2))
        ));
        assert!(matches!(
            PatternNetwork::from_bytes(&bytes),
            Err(NetworkError::Version(1))
        ));
        let missing = Network::load(Path::new("/nonexistent/net.nnue")).unwrap_err();
        assert!(missing.to_string().starts_with("cannot read network file"));
    }

    #[test]
    fn pattern_file_round_trip_and_bad_files() {
        let net = super::super::patterns::tests::random_pattern_network(8, 64, Activation::SCReLU);
        let bytes = net.to_bytes();
        let len = pattern_file_len(64, 1);
        assert_eq!(bytes.len(), len);
        // One output bucket is written as 0 in the header, as before buckets.
        assert_eq!(&bytes[22..24], &[0, 0]);
        assert_eq!(PatternNetwork::from_bytes(&bytes).unwrap(), net);
        for cut in [
            0,
            5,
            PATTERN_HEADER_LEN - 1,
            PATTERN_HEADER_LEN,
            len / 2,
            len - 1,
        ] {
            assert!(
                matches!(
                    PatternNetwork::from_bytes(&bytes[..cut]),
                    Err(NetworkError::Truncated { .. } | NetworkError::BadMagic(_))
                ),
                "a file cut at {cut} bytes"
            );
        }
        let mut long = bytes.clone();
        long.extend_from_slice(&[0, 0]);
        assert!(matches!(
            PatternNetwork::from_bytes(&long),
            Err(NetworkError::TrailingBytes { extra: 2 })
        ));
        let patched = |at: usize, v: &[u8]| {
            let mut b = bytes.clone();
            b[at..at + v.len()].copy_from_slice(v);
            PatternNetwork::from_bytes(&b)
        };
        for (at, v) in [(6, [147, 0]), (8, [0, 0]), (8, [48, 0]), (8, [0, 4])] {
            assert!(
                matches!(patched(at, &v), Err(NetworkError::PatternShape { .. })),
                "{at} {v:?}"
            );
        }
        assert!(matches!(
            patched(12, &[0, 4]),
            Err(NetworkError::Quantisation { .. })
        ));
        assert!(matches!(
            patched(14, &[2, 0]),
            Err(NetworkError::FeatureSet(2))
        ));
        assert!(matches!(
            patched(16, &[0, 0, 0, 0]),
            Err(NetworkError::Scale(0))
        ));
        assert!(matches!(
            patched(20, &[2, 0]),
            Err(NetworkError::Activation(2))
        ));
        assert!(matches!(
            patched(22, &[9, 0]),
            Err(NetworkError::Buckets(9))
        ));
        // A header that says 8 buckets over one bucket's weights is a truncated file.
        assert!(matches!(
            patched(22, &[8, 0]),
            Err(NetworkError::Truncated { .. })
        ));
        // Bucketed networks round-trip, their count in the header.
        let bucketed =
            super::super::patterns::tests::random_bucketed_network(3, 64, Activation::SCReLU, 8);
        let b = bucketed.to_bytes();
        assert_eq!(
            (b.len(), &b[22..24]),
            (pattern_file_len(64, 8), &[8u8, 0][..])
        );
        assert_eq!(PatternNetwork::from_bytes(&b).unwrap(), bucketed);
        // A 512-wide network of 8 buckets is the longest file; one more byte is refused.
        let big = PatternNetwork::from_parts(
            512,
            Activation::CReLU,
            &vec![1; NUM_PATTERN_FEATURES * 512],
            &[0; 512],
            &[0; 1024 * MAX_BUCKETS],
            &[0; MAX_BUCKETS],
            1,
        )
        .unwrap();
        assert_eq!(big.to_bytes().len(), MAX_FILE_LEN);
        assert_eq!(PatternNetwork::from_bytes(&big.to_bytes()).unwrap(), big);
    }
}
