//! Loads an Ataxx network file (`skald::ataxx::nnue`) and prints its evaluation of some
//! positions beside the hand-written evaluation, both in centipawns from the side to move's view.
//!
//! ```sh
//! cargo run --release --example nnue_eval -- <net.nnue> ["<fen>" …]
//! ```
//!
//! Without FENs it evaluates a few fixed positions. Errors (a missing or bad file, a bad FEN)
//! are one line on standard error and exit status 1.

use skald::ataxx::Position;
use skald::ataxx::nnue::{Accumulator, Network};
use skald::game::Game;

const POSITIONS: [&str; 6] = [
    "x5o/7/7/7/7/7/o5x x 0 1",
    "x5o/7/7/7/7/7/o5x o 0 1",
    "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
    "xx4o/xx5/7/7/7/7/o5x o 0 2",
    "xxxxooo/xxxxooo/xxxoooo/xxxoooo/xxxxooo/xxxoooo/xxx3o x 0 30",
    "ooooooo/ooooooo/ooooxoo/ooooooo/ooo1ooo/xx5/xx5 x 0 30",
];

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: nnue_eval <net.nnue> [\"<fen>\" …]")?;
    let net = Network::load(std::path::Path::new(&path)).map_err(|e| e.to_string())?;
    let fens: Vec<String> = args.collect();
    let fens: Vec<&str> = if fens.is_empty() {
        POSITIONS.to_vec()
    } else {
        fens.iter().map(String::as_str).collect()
    };
    println!("{:>6} {:>6}  position", "nnue", "hand");
    for fen in fens {
        let pos = Position::from_fen(fen).map_err(|e| format!("{fen}: {e}"))?;
        let acc = Accumulator::new(&net, &pos);
        let nnue = net.evaluate(&acc, pos.side_to_move());
        println!("{nnue:>6} {:>6}  {fen}", pos.evaluate());
    }
    Ok(())
}
