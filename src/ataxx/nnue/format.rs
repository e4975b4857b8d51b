//! The network file of the Ataxx NNUE: reading ([`Network::from_bytes`],
//! [`Network::load`], [`load_network`] for the engine option `EvalFile`) and writing
//! ([`Network::to_bytes`]), why a file is refused ([`NetworkError`]), and the network built
//! into the binary ([`embedded`]).
//!
//! The layout is in the docs of the `nnue` module (the public page).

use std::path::Path;
use std::sync::{Arc, LazyLock};

use super::{HIDDEN, NUM_FEATURES, Network, QA, QB};

/// The file's first four bytes.
pub const MAGIC: [u8; 4] = *b"SKNN";
/// The file format version this module reads and writes.
pub const VERSION: u16 = 1;
/// Length of the header, bytes.
pub const HEADER_LEN: usize = 20;
/// Length of a whole network file, bytes.
pub const FILE_LEN: usize = HEADER_LEN + 2 * (NUM_FEATURES * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

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
    /// A format version this build does not read.
    #[error("network file format version {0}, this build reads version {VERSION}")]
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
    /// Other quantisation factors than [`QA`] and [`QB`].
    #[error("network quantisation QA={qa} QB={qb}, this build needs QA={QA} QB={QB}")]
    Quantisation {
        /// `QA` in the file.
        qa: u16,
        /// `QB` in the file.
        qb: u16,
    },
    /// A scale below 1 centipawn per logit unit.
    #[error("network scale {0} is not a positive number of centipawns")]
    Scale(i32),
}

/// A little-endian reader over a byte slice that has been checked to be long enough.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0; N];
        out.copy_from_slice(&self.bytes[self.pos..self.pos + N]);
        self.pos += N;
        out
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
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
        let mut r = Reader { bytes, pos: 0 };
        let magic: [u8; 4] = r.take();
        if magic != MAGIC {
            return Err(NetworkError::BadMagic(magic));
        }
        let version = r.u16();
        if version != VERSION {
            return Err(NetworkError::Version(version));
        }
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
        use std::io::Read;
        let io = |source| NetworkError::Io {
            path: path.display().to_string(),
            source,
        };
        // Looked at before opening: opening a FIFO for reading waits for a writer.
        if !std::fs::metadata(path).map_err(io)?.is_file() {
            return Err(io(std::io::Error::other("not a regular file")));
        }
        let file = std::fs::File::open(path).map_err(io)?;
        let mut bytes = Vec::with_capacity(FILE_LEN + 1);
        file.take(FILE_LEN as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        Network::from_bytes(&bytes)
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

/// The file name under `nets/` of the network built into the binary (the default evaluation).
/// Changing the network built in is a change of this one line.
macro_rules! embedded_file_name {
    () => {
        "ataxx-v2.nnue"
    };
}

/// The file name under `nets/` of the network built into the binary ([`embedded`]).
pub const EMBEDDED_NAME: &str = embedded_file_name!();

static EMBEDDED_BYTES: &[u8] = include_bytes!(concat!("../../../nets/", embedded_file_name!()));

static EMBEDDED: LazyLock<Arc<Network>> = LazyLock::new(|| {
    Arc::new(
        Network::from_bytes(EMBEDDED_BYTES)
            .expect("the network built into the binary is a valid network file (a test checks)"),
    )
});

/// The network built into the binary (`nets/` [`EMBEDDED_NAME`]), read on first use.
pub fn embedded() -> &'static Arc<Network> {
    &EMBEDDED
}

/// Ataxx's network reader for the engine option `EvalFile` ([`crate::eval::NetworkLoader`]):
/// [`Network::load`], the network held opaque for [`crate::eval::EvalChoice`].
///
/// # Errors
/// As [`Network::load`] (the message is the [`NetworkError`]'s).
pub fn load_network(path: &Path) -> Result<crate::eval::AnyNetwork, crate::eval::NetworkLoadError> {
    Ok(Arc::new(Network::load(path)?))
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
        assert_eq!(**embedded(), Network::from_bytes(&file).unwrap());
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
                assert_eq!(*choice.network::<Network>().unwrap(), **embedded());
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
        let missing = Network::load(Path::new("/nonexistent/net.nnue")).unwrap_err();
        assert!(missing.to_string().starts_with("cannot read network file"));
    }
}
