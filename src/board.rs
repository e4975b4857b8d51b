//! The typed values a front-end sees of a game: [`Square`]s by file and rank, [`Piece`]s, the
//! [`Board`] as pieces plus marked squares ([`Mark`]: throne, escape squares, restricted squares,
//! camps, blocked squares), [`MoveView`]s (from, to and kind: slide, clone, jump, pass) and the
//! [`Capture`]s a move makes. Every game family gives its positions and moves in these terms
//! ([`crate::game::Game::board`], [`crate::game::Game::move_view`]), so a front-end draws a
//! board, lists targets or names squares without reading the engine's text.
//!
//! Text is written only where a front-end prints: the `Display` implementations give the
//! notation of rules.md (`d4`, `d1-d3`, `f2`, `a7a5`, `0000`, the FEN letters `t T K x o`, the
//! board diagram); a front-end with a notation of its own (HTP's upper-case squares on 13×13,
//! the Tablut server's JSON) formats the fields itself.

use std::fmt;
use std::str::FromStr;

/// One of the two players. `First` moves first in every start position: the attackers in tafl,
/// `x` in Ataxx. (In UCI clock terms the first player is "black": `btime`/`binc`.)
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Side {
    /// The side that moves first: tafl attackers, Ataxx `x`.
    First,
    /// The side that moves second: tafl defenders (with the king), Ataxx `o`.
    Second,
}

impl Side {
    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`; for indexing per-side tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A square: its file (0 = `a`) and rank (0 = `1`), counted from the bottom-left corner as
/// rules.md writes squares (`a1` is `Square { file: 0, rank: 0 }`). Boards are at most 19×19.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Square {
    /// The file, from 0 (`a`).
    pub file: u8,
    /// The rank, from 0 (rank `1`).
    pub rank: u8,
}

impl Square {
    /// The square on `file` and `rank` (from 0).
    pub const fn new(file: u8, rank: u8) -> Square {
        Square { file, rank }
    }

    /// Whether the square lies on a `size`×`size` board.
    pub const fn is_on(self, size: u8) -> bool {
        self.file < size && self.rank < size
    }

    /// The king-move distance (Chebyshev) to `other`: 1 for a neighbour, diagonals included
    /// (an Ataxx clone's reach), 2 for an Ataxx jump's.
    pub const fn distance(self, other: Square) -> u8 {
        let df = self.file.abs_diff(other.file);
        let dr = self.rank.abs_diff(other.rank);
        if df > dr { df } else { dr }
    }
}

impl fmt::Display for Square {
    /// `a1`, `k11`, `s19`: the file's letter and the rank's number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file) as char,
            u32::from(self.rank) + 1
        )
    }
}

/// A square name that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a square (a file letter a to s and a rank 1 to 19, as d4)")]
pub struct BadSquare(pub String);

impl FromStr for Square {
    type Err = BadSquare;

    /// A square's name in either case (`d4`, `K11`): a file letter `a` to `s` and a rank 1 to 19.
    /// Whether it lies on a given board is the caller's question ([`Square::is_on`]).
    fn from_str(text: &str) -> Result<Square, BadSquare> {
        let bad = || BadSquare(text.chars().take(20).collect());
        let mut chars = text.chars();
        let file = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        if !('a'..='s').contains(&file) {
            return Err(bad());
        }
        let rank = chars.as_str();
        if rank.is_empty() || rank.starts_with('0') || !rank.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        match rank.parse::<u8>() {
            Ok(r @ 1..=19) => Ok(Square::new(file as u8 - b'a', r - 1)),
            _ => Err(bad()),
        }
    }
}

/// A piece on the board: a tafl attacker, defender or king, or an Ataxx stone.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// A tafl attacker soldier (`t` in FEN), of the side that moves first.
    Attacker,
    /// A tafl defender soldier (`T`).
    Defender,
    /// The tafl king (`K`), on the defenders' side.
    King,
    /// An Ataxx stone of `x` (the side that moves first).
    X,
    /// An Ataxx stone of `o`.
    O,
}

impl Piece {
    /// The side the piece belongs to.
    pub const fn side(self) -> Side {
        match self {
            Piece::Attacker | Piece::X => Side::First,
            Piece::Defender | Piece::King | Piece::O => Side::Second,
        }
    }

    /// The piece's FEN letter (rules.md "Position strings"): `t`, `T`, `K`, `x`, `o`.
    pub const fn letter(self) -> char {
        match self {
            Piece::Attacker => 't',
            Piece::Defender => 'T',
            Piece::King => 'K',
            Piece::X => 'x',
            Piece::O => 'o',
        }
    }

    /// The piece of a FEN letter, if it is one.
    pub const fn from_letter(letter: char) -> Option<Piece> {
        match letter {
            't' => Some(Piece::Attacker),
            'T' => Some(Piece::Defender),
            'K' => Some(Piece::King),
            'x' => Some(Piece::X),
            'o' => Some(Piece::O),
            _ => None,
        }
    }
}

impl fmt::Display for Piece {
    /// The FEN letter.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// What makes a square special by the rules, whether a piece stands on it or not. A square may
/// have several marks (a Brandubh corner is an escape square and restricted).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Mark {
    /// The tafl throne: the centre square, where the king starts.
    Throne,
    /// A square the king escapes to (the corners of corner-escape games, the edge squares of
    /// edge-escape ones).
    Escape,
    /// A square no soldier may stop on (corners and the throne in most tafl games, Ashton
    /// Tablut's camps to all but their own attackers).
    Restricted,
    /// A camp (Ashton Tablut's citadels): the attackers start on them and may move within their
    /// own camp; no other piece may enter.
    Camp,
    /// An Ataxx square no stone may ever stand on (`-` in FEN).
    Blocked,
}

impl Mark {
    /// The mark in a word, as the page and the logs name it: `throne`, `escape`, `restricted`,
    /// `camp`, `blocked`.
    pub const fn name(self) -> &'static str {
        match self {
            Mark::Throne => "throne",
            Mark::Escape => "escape",
            Mark::Restricted => "restricted",
            Mark::Camp => "camp",
            Mark::Blocked => "blocked",
        }
    }
}

/// A board: its size, the piece on each square and the marked squares.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    size: u8,
    /// The piece on each square, rank by rank from `a1` (index `rank × size + file`).
    pieces: Vec<Option<Piece>>,
    /// Each marked square's marks, in board order (rank by rank from `a1`).
    marks: Vec<(Square, Mark)>,
}

impl Board {
    /// An empty `size`×`size` board without marks.
    pub fn empty(size: u8) -> Board {
        Board {
            size,
            pieces: vec![None; usize::from(size) * usize::from(size)],
            marks: Vec::new(),
        }
    }

    /// Puts `piece` on `square` (a square off the board is ignored).
    pub fn set(&mut self, square: Square, piece: Option<Piece>) {
        if let Some(i) = self.index(square) {
            self.pieces[i] = piece;
        }
    }

    /// Marks `square` with `mark` (kept in board order; a mark given twice counts once).
    pub fn mark(&mut self, square: Square, mark: Mark) {
        if !square.is_on(self.size) || self.has_mark(square, mark) {
            return;
        }
        let at = self
            .marks
            .partition_point(|&(s, _)| (s.rank, s.file) <= (square.rank, square.file));
        self.marks.insert(at, (square, mark));
    }

    fn index(&self, square: Square) -> Option<usize> {
        square
            .is_on(self.size)
            .then(|| usize::from(square.rank) * usize::from(self.size) + usize::from(square.file))
    }

    /// The number of files (and ranks).
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The piece on `square`, `None` when it is empty or off the board.
    pub fn piece(&self, square: Square) -> Option<Piece> {
        self.index(square).and_then(|i| self.pieces[i])
    }

    /// Every square, rank by rank from `a1`.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.size).flat_map(move |rank| (0..self.size).map(move |file| Square::new(file, rank)))
    }

    /// The pieces and their squares, rank by rank from `a1`.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.squares()
            .filter_map(|sq| self.piece(sq).map(|piece| (sq, piece)))
    }

    /// The marked squares with their marks, in board order (a square with two marks is listed
    /// twice).
    pub fn marks(&self) -> &[(Square, Mark)] {
        &self.marks
    }

    /// The marks of `square`.
    pub fn marks_of(&self, square: Square) -> impl Iterator<Item = Mark> + '_ {
        self.marks
            .iter()
            .filter(move |(s, _)| *s == square)
            .map(|&(_, m)| m)
    }

    /// Whether `square` has `mark`.
    pub fn has_mark(&self, square: Square, mark: Mark) -> bool {
        self.marks.contains(&(square, mark))
    }

    /// The squares a drawing of the board marks (a cross under the piece): the throne and the
    /// squares no soldier may stop on, once each, in the order of [`Board::marks`], with what
    /// each is: `throne`, `camp`, `corner` (an escape square) or `restricted`. What the browser
    /// page (`skald serve`'s and the WebAssembly build's) draws.
    pub fn drawn_marks(&self) -> Vec<(Square, &'static str)> {
        let mut marked: Vec<(Square, &'static str)> = Vec::new();
        for &(sq, mark) in &self.marks {
            if !matches!(mark, Mark::Throne | Mark::Restricted)
                || marked.iter().any(|(s, _)| *s == sq)
            {
                continue;
            }
            let kind = if self.has_mark(sq, Mark::Throne) {
                "throne"
            } else if self.has_mark(sq, Mark::Camp) {
                "camp"
            } else if self.has_mark(sq, Mark::Escape) {
                "corner"
            } else {
                "restricted"
            };
            marked.push((sq, kind));
        }
        marked
    }

    /// The pieces rank by rank, the top rank first, each from the `a` file (as a diagram
    /// shows them).
    pub fn rows(&self) -> Vec<Vec<Option<Piece>>> {
        (0..self.size)
            .rev()
            .map(|rank| {
                (0..self.size)
                    .map(|file| self.piece(Square::new(file, rank)))
                    .collect()
            })
            .collect()
    }

    /// How many pieces of `side` stand on the board.
    pub fn count(&self, side: Side) -> usize {
        self.pieces().filter(|(_, p)| p.side() == side).count()
    }
}

impl fmt::Display for Board {
    /// The board diagram: a line per rank, the top rank first, its number and then each square
    /// (the piece's FEN letter, `-` a blocked square, `+` an empty restricted one, `.` any
    /// other empty square), then the files' letters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = if self.size >= 10 { 2 } else { 1 };
        for rank in (0..self.size).rev() {
            write!(f, "{:>width$}", u32::from(rank) + 1)?;
            for file in 0..self.size {
                let sq = Square::new(file, rank);
                let c = match self.piece(sq) {
                    Some(p) => p.letter(),
                    None if self.has_mark(sq, Mark::Blocked) => '-',
                    None if self.has_mark(sq, Mark::Restricted) => '+',
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "{:width$}", "")?;
        for file in 0..self.size {
            write!(f, " {}", (b'a' + file) as char)?;
        }
        writeln!(f)
    }
}

/// A move as a front-end sees it: what kind of move, and the squares it names.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveView {
    /// A tafl move: the piece on `from` slides along a line to `to`.
    Slide {
        /// The square the piece leaves.
        from: Square,
        /// The square it stops on.
        to: Square,
    },
    /// An Ataxx clone: a new stone on `to`, next to a stone of the mover's (which stays).
    Clone {
        /// The square of the new stone.
        to: Square,
    },
    /// An Ataxx jump: the stone on `from` moves to `to`, two squares away.
    Jump {
        /// The square the stone leaves.
        from: Square,
        /// The square it lands on.
        to: Square,
    },
    /// An Ataxx pass: only when the side to move has no other move.
    Pass,
}

/// What kind a [`MoveView`] is, without its squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// [`MoveView::Slide`].
    Slide,
    /// [`MoveView::Clone`].
    Clone,
    /// [`MoveView::Jump`].
    Jump,
    /// [`MoveView::Pass`].
    Pass,
}

impl MoveKind {
    /// `slide`, `clone`, `jump` or `pass`.
    pub const fn name(self) -> &'static str {
        match self {
            MoveKind::Slide => "slide",
            MoveKind::Clone => "clone",
            MoveKind::Jump => "jump",
            MoveKind::Pass => "pass",
        }
    }
}

impl MoveView {
    /// The kind of move.
    pub const fn kind(self) -> MoveKind {
        match self {
            MoveView::Slide { .. } => MoveKind::Slide,
            MoveView::Clone { .. } => MoveKind::Clone,
            MoveView::Jump { .. } => MoveKind::Jump,
            MoveView::Pass => MoveKind::Pass,
        }
    }

    /// The square the moving piece leaves; `None` for a clone (made from any stone of the
    /// mover next to its square) and a pass.
    pub const fn from(self) -> Option<Square> {
        match self {
            MoveView::Slide { from, .. } | MoveView::Jump { from, .. } => Some(from),
            MoveView::Clone { .. } | MoveView::Pass => None,
        }
    }

    /// The square the move reaches; `None` for a pass.
    pub const fn to(self) -> Option<Square> {
        match self {
            MoveView::Slide { to, .. } | MoveView::Jump { to, .. } | MoveView::Clone { to } => {
                Some(to)
            }
            MoveView::Pass => None,
        }
    }

    /// The squares the move names, the one left first: two for a slide or a jump, one for a
    /// clone, none for a pass (what a board highlights).
    pub fn squares(self) -> Vec<Square> {
        self.from().into_iter().chain(self.to()).collect()
    }

    /// Whether a piece of the mover's on `square` can make this move: the slide's or the
    /// jump's piece stands there, or (a clone) it is a stone next to the clone's square. The
    /// caller knows that a piece of the mover's stands on `square`.
    pub fn made_from(self, square: Square) -> bool {
        match self {
            MoveView::Slide { from, .. } | MoveView::Jump { from, .. } => from == square,
            MoveView::Clone { to } => to.distance(square) == 1,
            MoveView::Pass => false,
        }
    }
}

impl fmt::Display for MoveView {
    /// The move in the game's notation (rules.md "Moves"): a slide `d1-d3`, a clone by its
    /// square `f2`, a jump by both squares `a7a5`, a pass `0000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveView::Slide { from, to } => write!(f, "{from}-{to}"),
            MoveView::Clone { to } => write!(f, "{to}"),
            MoveView::Jump { from, to } => write!(f, "{from}{to}"),
            MoveView::Pass => f.write_str("0000"),
        }
    }
}

/// A piece a move takes from the opponent ([`crate::game::Game::captures`]): a captured tafl
/// piece (the king included), or an Ataxx stone the move turns over (`piece` is then the stone
/// as it was before the move).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Capture {
    /// Where it stood.
    pub square: Square,
    /// What stood there before the move.
    pub piece: Piece,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_named_as_rules_md_names_them() {
        assert_eq!(Square::new(0, 0).to_string(), "a1");
        assert_eq!(Square::new(10, 10).to_string(), "k11");
        assert_eq!("k11".parse(), Ok(Square::new(10, 10)));
        assert_eq!("D4".parse(), Ok(Square::new(3, 3)));
        for bad in ["", "a", "a0", "a20", "t1", "4d", "a01", "a+1", "é1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
        assert!(Square::new(6, 6).is_on(7) && !Square::new(7, 0).is_on(7));
        assert_eq!(Square::new(1, 1).distance(Square::new(3, 2)), 2);
    }

    #[test]
    fn moves_are_written_in_each_games_notation() {
        let (a7, a5, f2) = (Square::new(0, 6), Square::new(0, 4), Square::new(5, 1));
        let slide = MoveView::Slide {
            from: Square::new(3, 0),
            to: Square::new(3, 2),
        };
        assert_eq!(slide.to_string(), "d1-d3");
        assert_eq!(MoveView::Clone { to: f2 }.to_string(), "f2");
        assert_eq!(MoveView::Jump { from: a7, to: a5 }.to_string(), "a7a5");
        assert_eq!(MoveView::Pass.to_string(), "0000");
        assert_eq!(MoveView::Jump { from: a7, to: a5 }.squares(), [a7, a5]);
        assert_eq!(MoveView::Pass.squares(), []);
        assert!(MoveView::Clone { to: f2 }.made_from(Square::new(4, 2)));
        assert!(!MoveView::Clone { to: f2 }.made_from(Square::new(3, 3)));
    }

    #[test]
    fn the_diagram_shows_pieces_blocked_and_restricted_squares() {
        let mut board = Board::empty(3);
        board.set(Square::new(0, 0), Some(Piece::Attacker));
        board.set(Square::new(1, 1), Some(Piece::King));
        board.mark(Square::new(1, 1), Mark::Restricted);
        board.mark(Square::new(2, 2), Mark::Restricted);
        board.mark(Square::new(2, 0), Mark::Blocked);
        assert_eq!(board.to_string(), "3 . . +\n2 . K .\n1 t . -\n  a b c\n");
        assert_eq!(board.marks()[0], (Square::new(2, 0), Mark::Blocked));
        assert_eq!(board.count(Side::First), 1);
    }
}
