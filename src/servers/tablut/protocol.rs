//! The Tablut competition's client protocol (University of Bologna, AGalassi/TablutCompetition):
//! what `skald tablut-client` speaks with the competition's `Server.jar`, and what a test
//! server speaks back.
//!
//! - **Messages** are UTF-8 strings, each sent as a 4-byte big-endian byte count and the bytes
//!   (the server's `StreamUtils.writeString`/`readString`), in both directions.
//! - A player connects to TCP port 5800 (white) or 5801 (black), sends its **name** as a JSON
//!   string (`"skald"`; the server keeps at most ten letters and digits), then reads **states**:
//!   `{"board":[[…9 cells…], …9 rows…],"turn":"WHITE"}`. Row `i` of `board` is rank `i + 1`
//!   and cell `j` of a row is file `a + j` (the server's `getBox`), each cell `EMPTY`,
//!   `WHITE`, `BLACK`, `KING` or `THRONE` (the empty throne); `turn` is `WHITE` or `BLACK` (to
//!   move), `WHITEWIN`, `BLACKWIN` or `DRAW` (the game is over). The server sends the state to
//!   both players after every move, the start position first. After a king capture the board
//!   still shows the king (the turn `BLACKWIN` says he is taken).
//! - On its turn a player sends an **action**: `{"from":"e3","to":"b3","turn":"WHITE"}`,
//!   squares named as skald names them (`a1` is row 0, cell 0).
//!
//! White is skald's defenders (the king's side) and moves first; black is the attackers: the
//! `ashton` variant ([`crate::tafl::RuleOptions::ashton`]).

use crate::engine::{Board, Mark, MoveView, Piece, Square};
use serde::{Deserialize, Serialize};
use std::io::{self, Read, Write};

/// The port of the white player on the competition server.
pub const WHITE_PORT: u16 = 5800;
/// The port of the black player on the competition server.
pub const BLACK_PORT: u16 = 5801;
/// The largest message read, bytes: a state is about 800; anything far larger is no state.
pub const MAX_MESSAGE: usize = 1 << 20;

/// Writes `text` as one message: its UTF-8 length as a 4-byte big-endian number, then the
/// bytes; flushes.
pub fn write_message(w: &mut impl Write, text: &str) -> io::Result<()> {
    let bytes = text.as_bytes();
    let len = u32::try_from(bytes.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "message too long"))?;
    w.write_all(&len.to_be_bytes())?;
    w.write_all(bytes)?;
    w.flush()
}

/// Reads one message. `Ok(None)` when the stream ends before a message starts (the peer closed
/// the connection). Errors: the stream ends inside a message, a length over [`MAX_MESSAGE`],
/// bytes that are not UTF-8.
pub fn read_message(r: &mut impl Read) -> io::Result<Option<String>> {
    let mut len = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match r.read(&mut len[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the connection closed inside a message's length",
                ));
            }
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let len = u32::from_be_bytes(len) as usize;
    if len > MAX_MESSAGE {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a message of {len} bytes (at most {MAX_MESSAGE} expected)"),
        ));
    }
    let mut bytes = vec![0u8; len];
    r.read_exact(&mut bytes)?;
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "a message that is not UTF-8"))
}

/// The player's side: white (the king's side, skald's defenders) or black (the attackers).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Role {
    /// White: the king and his eight defenders; moves first; port 5800.
    White,
    /// Black: the sixteen attackers; port 5801.
    Black,
}

impl Role {
    /// The server's port for this role.
    pub const fn port(self) -> u16 {
        match self {
            Role::White => WHITE_PORT,
            Role::Black => BLACK_PORT,
        }
    }

    /// The other role.
    pub const fn opponent(self) -> Role {
        match self {
            Role::White => Role::Black,
            Role::Black => Role::White,
        }
    }

    /// skald's side for this role: white is the defenders ([`crate::game::Side::Second`]),
    /// black the attackers ([`crate::game::Side::First`]).
    pub const fn side(self) -> crate::game::Side {
        match self {
            Role::White => crate::game::Side::Second,
            Role::Black => crate::game::Side::First,
        }
    }

    /// `white` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Role::White => "white",
            Role::Black => "black",
        }
    }
}

impl std::str::FromStr for Role {
    type Err = String;

    /// `white` or `black`, any case.
    fn from_str(s: &str) -> Result<Role, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "white" => Ok(Role::White),
            "black" => Ok(Role::Black),
            _ => Err(format!("'{s}' is not a role (expected white or black)")),
        }
    }
}

/// The `turn` field of a state: who moves, or how the game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Turn {
    /// White to move.
    White,
    /// Black to move.
    Black,
    /// White won (the king escaped, or black lost by an illegal move or on time).
    WhiteWin,
    /// Black won (the king was captured, or white lost by an illegal move or on time).
    BlackWin,
    /// Drawn (a repeated state).
    Draw,
}

impl Turn {
    /// The role to move, `None` once the game is over.
    pub const fn to_move(self) -> Option<Role> {
        match self {
            Turn::White => Some(Role::White),
            Turn::Black => Some(Role::Black),
            _ => None,
        }
    }

    /// The turn of `role` to move.
    pub const fn of(role: Role) -> Turn {
        match role {
            Role::White => Turn::White,
            Role::Black => Turn::Black,
        }
    }
}

/// One square of a state's board.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Cell {
    /// No piece.
    Empty,
    /// A white soldier (defender).
    White,
    /// A black soldier (attacker).
    Black,
    /// The king.
    King,
    /// The empty throne (`e5`).
    Throne,
}

impl Cell {
    /// The piece (white a defender, black an attacker, the king); `None` if empty.
    pub const fn piece(self) -> Option<Piece> {
        match self {
            Cell::White => Some(Piece::Defender),
            Cell::Black => Some(Piece::Attacker),
            Cell::King => Some(Piece::King),
            Cell::Empty | Cell::Throne => None,
        }
    }

    /// The FEN letter of the piece (`T` defender, `t` attacker, `K` king); `None` if empty.
    pub const fn fen_letter(self) -> Option<char> {
        match self.piece() {
            Some(p) => Some(p.letter()),
            None => None,
        }
    }
}

/// The side of the board: 9 squares.
pub const SIZE: usize = 9;

/// A state as the server sends it: the board (`board[rank][file]`, rank 1 first) and the turn.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct State {
    /// Rows by rank, rank 1 (row 0) first; each row by file, `a` first.
    pub board: Vec<Vec<Cell>>,
    /// Who moves, or the result.
    pub turn: Turn,
}

impl State {
    /// Parses a state message. Errors (one line): not JSON of a state, a board that is not
    /// 9×9, a board without exactly one king.
    pub fn parse(text: &str) -> Result<State, String> {
        let state: State = serde_json::from_str(text)
            .map_err(|e| format!("not a state ({e}): {}", crate::text::truncate(text, 120)))?;
        if state.board.len() != SIZE || state.board.iter().any(|r| r.len() != SIZE) {
            return Err(format!(
                "the board is not {SIZE}x{SIZE}: {}",
                crate::text::truncate(text, 120)
            ));
        }
        let kings = state
            .board
            .iter()
            .flatten()
            .filter(|&&c| c == Cell::King)
            .count();
        if kings != 1 && state.turn.to_move().is_some() {
            return Err(format!("the board has {kings} kings"));
        }
        Ok(state)
    }

    /// The state as the server writes it (JSON).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a state serializes")
    }

    /// The FEN placement field: rank 9 first, `t` attackers (black), `T` defenders (white),
    /// `K` the king, digits for empty squares.
    pub fn placement(&self) -> String {
        let mut out = String::new();
        for (i, row) in self.board.iter().rev().enumerate() {
            if i > 0 {
                out.push('/');
            }
            let mut empty = 0;
            for cell in row {
                match cell.fen_letter() {
                    Some(c) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
        }
        out
    }

    /// The piece on `square` ([`Cell::piece`]); `None` for an empty square, the throne or a
    /// square off the board.
    pub fn piece(&self, square: Square) -> Option<Piece> {
        let cell = self
            .board
            .get(usize::from(square.rank))?
            .get(usize::from(square.file))?;
        cell.piece()
    }

    /// Whether `board` (skald's) has the same pieces on the same squares.
    pub fn same_pieces(&self, board: &Board) -> bool {
        board.size() as usize == SIZE && board.squares().all(|sq| board.piece(sq) == self.piece(sq))
    }

    /// The move `role` made from `self` to `next`: the one square its pieces left and the one
    /// they reached (captures only take the other side's pieces); `None` when the boards differ
    /// otherwise.
    pub fn move_to(&self, next: &State, role: Role) -> Option<MoveView> {
        let mine = |c: Cell| match role {
            Role::White => matches!(c, Cell::White | Cell::King),
            Role::Black => c == Cell::Black,
        };
        let (mut from, mut to) = (Vec::new(), Vec::new());
        for rank in 0..SIZE {
            for file in 0..SIZE {
                let (a, b) = (self.board[rank][file], next.board[rank][file]);
                if a == b {
                    continue;
                }
                if mine(a) && !mine(b) {
                    from.push((file, rank, a));
                }
                if mine(b) {
                    to.push((file, rank, b));
                }
            }
        }
        match (from.as_slice(), to.as_slice()) {
            ([(f1, r1, k1)], [(f2, r2, k2)]) if k1 == k2 && (f1 == f2 || r1 == r2) => {
                Some(MoveView::Slide {
                    from: square(*f1, *r1),
                    to: square(*f2, *r2),
                })
            }
            _ => None,
        }
    }
}

/// The square on `file`, `rank` of the server's board (row `rank`, cell `file`, from 0).
fn square(file: usize, rank: usize) -> Square {
    Square::new(file as u8, rank as u8)
}

/// An action message: `{"from":"e3","to":"b3","turn":"WHITE"}` for the move `mv` of `role`,
/// squares named as skald names them. Errors: `mv` is no tafl move (no slide).
pub fn action(mv: MoveView, role: Role) -> Result<String, String> {
    let MoveView::Slide { from, to } = mv else {
        return Err(format!("{mv} is no tafl move"));
    };
    #[derive(Serialize)]
    struct Action {
        from: String,
        to: String,
        turn: Turn,
    }
    Ok(serde_json::to_string(&Action {
        from: from.to_string(),
        to: to.to_string(),
        turn: Turn::of(role),
    })
    .expect("an action serializes"))
}

/// A parsed action (for test servers): `(from, to, turn)`. Errors: not an action's JSON.
pub fn parse_action(text: &str) -> Result<(String, String, Turn), String> {
    #[derive(Deserialize)]
    struct Action {
        from: String,
        to: String,
        turn: Turn,
    }
    let a: Action = serde_json::from_str(text)
        .map_err(|e| format!("not an action ({e}): {}", crate::text::truncate(text, 120)))?;
    Ok((a.from, a.to, a.turn))
}

/// The state of skald's `board` with `turn`: the empty throne (a square marked as one) is
/// [`Cell::Throne`].
pub fn state_of(board: &Board, turn: Turn) -> State {
    let board = (0..board.size())
        .map(|rank| {
            (0..board.size())
                .map(|file| {
                    let sq = Square::new(file, rank);
                    match board.piece(sq) {
                        Some(Piece::Defender) => Cell::White,
                        Some(Piece::Attacker) => Cell::Black,
                        Some(Piece::King) => Cell::King,
                        _ if board.has_mark(sq, Mark::Throne) => Cell::Throne,
                        _ => Cell::Empty,
                    }
                })
                .collect()
        })
        .collect();
    State { board, turn }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_length_prefixed() {
        let mut buf = Vec::new();
        write_message(&mut buf, "\"skåld\"").unwrap();
        assert_eq!(&buf[..4], &[0, 0, 0, 8]);
        let mut r = &buf[..];
        assert_eq!(read_message(&mut r).unwrap().as_deref(), Some("\"skåld\""));
        assert_eq!(read_message(&mut r).unwrap(), None);
        let mut cut = &buf[..6];
        assert!(read_message(&mut cut).is_err());
        let mut huge: &[u8] = &[0x7f, 0, 0, 0];
        assert!(read_message(&mut huge).is_err());
    }

    #[test]
    fn the_start_state_reads_as_the_start_position() {
        let start = crate::engine::new_session(crate::variant::Variant::Ashton).board();
        let state = state_of(&start, Turn::White);
        let text = state.to_json();
        assert!(text.starts_with("{\"board\":[[\"EMPTY\",\"EMPTY\",\"EMPTY\",\"BLACK\""));
        assert!(text.ends_with("\"turn\":\"WHITE\"}"));
        let back = State::parse(&text).unwrap();
        assert_eq!(back, state);
        assert_eq!(
            back.placement(),
            "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3"
        );
        assert!(back.same_pieces(&start));
    }

    #[test]
    fn a_move_is_read_from_two_states() {
        let start = crate::engine::new_session(crate::variant::Variant::Ashton).board();
        let a = state_of(&start, Turn::White);
        let mut b = a.clone();
        b.board[2][4] = Cell::Empty;
        b.board[2][1] = Cell::White;
        let e3b3 = MoveView::Slide {
            from: Square::new(4, 2),
            to: Square::new(1, 2),
        };
        assert_eq!(a.move_to(&b, Role::White), Some(e3b3));
        assert_eq!(a.move_to(&b, Role::Black), None);
        assert_eq!(a.move_to(&a, Role::White), None);
    }

    #[test]
    fn actions_and_bad_states() {
        let e3b3 = MoveView::Slide {
            from: Square::new(4, 2),
            to: Square::new(1, 2),
        };
        assert_eq!(
            action(e3b3, Role::White).unwrap(),
            r#"{"from":"e3","to":"b3","turn":"WHITE"}"#
        );
        assert_eq!(
            parse_action(r#"{"from":"d1","to":"d3","turn":"BLACK"}"#).unwrap(),
            ("d1".into(), "d3".into(), Turn::Black)
        );
        assert!(action(MoveView::Pass, Role::White).is_err());
        assert!(State::parse("{}").is_err());
        assert!(State::parse(r#"{"board":[],"turn":"WHITE"}"#).is_err());
        assert!("Black".parse::<Role>().is_ok() && "grey".parse::<Role>().is_err());
    }
}
