//! `skald play`: a game against the engine at a chosen level, or two people at one keyboard
//! (`--hotseat`), in the terminal. Works with piped input too (one move or command a line).

use super::records::GameRecord;
use super::{Whole, outcome_text, side_name};
use anyhow::{Context, Result, anyhow, bail};
use clap::builder::TypedValueParser;
use skald::engine::Side;
use skald::engine::session::Session;
use skald::engine::{Engine, Limits, SearchRequest, named_skill};
use skald::variant::Variant;
use std::io::{BufRead, IsTerminal, Write};
use std::time::Instant;

/// Arguments of `skald play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// brandubh, tablut, tawlbwrdd, copenhagen, copenhagen13, ashton or ataxx (default brandubh); also
    /// accepted: hnefatafl (= copenhagen), brandub (= brandubh). With --record: the variant of a
    /// PGN game without a Variant tag (ataxx if not given, as the Ataxx tools write no such
    /// tag).
    #[arg(long, value_parser = super::parse_variant)]
    pub variant: Option<Variant>,
    /// Your side: attackers or defenders (tafl), x or o (Ataxx). Default: the side to move in
    /// the set-up position (the side that moves first from the start). Not with --hotseat.
    #[arg(long, conflicts_with = "hotseat")]
    pub side: Option<String>,
    /// The engine's strength: easy, medium or hard. Not with --hotseat.
    #[arg(long, default_value = "medium", conflicts_with = "hotseat")]
    pub level: String,
    /// Two people at one keyboard: no engine moves.
    #[arg(long)]
    pub hotseat: bool,
    /// Start from this position (a FEN of --variant's game).
    #[arg(long, conflicts_with_all = ["record", "load"], allow_hyphen_values = true)]
    pub fen: Option<String>,
    /// Go on with a game from a record file (PGN or OpenTafl .otg; see `skald records`): its
    /// variant, set-up position and moves. The record's variant replaces --variant.
    #[arg(long)]
    pub record: Option<std::path::PathBuf>,
    /// The old name of --record.
    #[arg(long, hide = true, conflicts_with = "record")]
    pub load: Option<std::path::PathBuf>,
    /// Which game of the --record file (1 or more).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = Whole::new(1, u32::MAX as u64, "").map(|v| v as u32))]
    pub game: u32,
    /// Longest think per engine move, seconds (more than 0, at most 3600; default 1). Not with
    /// --hotseat.
    #[arg(long, conflicts_with = "hotseat", allow_negative_numbers = true,
          value_parser = super::Seconds::POSITIVE)]
    pub time: Option<f64>,
    /// The old name of --time (seconds).
    #[arg(long, hide = true, conflicts_with_all = ["hotseat", "time"],
          allow_negative_numbers = true)]
    pub movetime: Option<f64>,
    /// Seed of the engine's choices at easy and medium, 0 or more (default: from the clock).
    /// Not with --hotseat.
    #[arg(long, conflicts_with = "hotseat", allow_negative_numbers = true,
          value_parser = Whole::new(0, u64::MAX, ""))]
    pub seed: Option<u64>,
}

const HELP: &str = "\
Type a move in the game's notation (tafl: d1-b1; Ataxx: f2 to clone, a7a5 to jump, 0000 to pass),
or a command:
  undo          take back the last move (against the engine: your move and its reply)
  hint          the engine's suggestion for the side to move
  moves         the legal moves
  fen           the position as FEN
  board         draw the board again
  save <file>   write the game record to a file: PGN, or OpenTafl's .otg (tafl) by extension
  resign        give up the game
  quit          leave
  help          this text
The rules of the game: run 'skald rules <variant>' in a shell.";

/// Parses a side name for this variant.
fn parse_side(variant: Variant, s: &str) -> Result<Side> {
    let s = s.trim().to_ascii_lowercase();
    let side = match (variant.is_tafl(), s.as_str()) {
        (_, "first") | (true, "attackers" | "attacker" | "a") | (false, "x") => Side::First,
        (_, "second") | (true, "defenders" | "defender" | "d") | (false, "o") => Side::Second,
        _ => bail!(
            "--side: '{s}' is not {} or {} (the sides of {variant}); see 'skald play --help'",
            side_name(variant, Side::First),
            side_name(variant, Side::Second)
        ),
    };
    Ok(side)
}

/// The squares named in a move text (`d1-b1` → d1, b1; `f2` → f2; `0000` → none), as
/// (file, rank) from 0.
fn move_squares(mv: &str) -> Vec<(usize, usize)> {
    let b = mv.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_lowercase() {
            let file = (b[i] - b'a') as usize;
            let mut j = i + 1;
            let mut rank = 0usize;
            while j < b.len() && b[j].is_ascii_digit() {
                rank = rank * 10 + (b[j] - b'0') as usize;
                j += 1;
            }
            if j > i + 1 && rank >= 1 {
                out.push((file, rank - 1));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The marked squares (throne, corners) from the library's diagram, where they are empty: `+`.
fn marked_squares(diagram: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for line in diagram.lines() {
        let mut words = line.split_whitespace();
        let Some(Ok(rank)) = words.next().map(str::parse::<usize>) else {
            continue;
        };
        for (file, w) in words.enumerate() {
            if w == "+" && rank >= 1 {
                out.push((file, rank - 1));
            }
        }
    }
    out
}

/// Draws the board: Unicode pieces, marked squares, the last move's squares highlighted (with
/// colour, or in brackets without), coordinates on all edges.
pub fn render(session: &dyn Session, variant: Variant, last: Option<&str>, color: bool) -> String {
    let rows = session.board_rows();
    let size = rows.len();
    // The throne is marked even when the king stands on it; take the marks from the start.
    let mut marks = marked_squares(&session.board());
    if variant.is_tafl() {
        let c = size / 2;
        if !marks.contains(&(c, c)) {
            marks.push((c, c));
        }
    }
    let hi = last.map(move_squares).unwrap_or_default();
    let w = if size >= 10 { 2 } else { 1 };
    let files: String = (0..size)
        .map(|f| format!(" {} ", (b'a' + f as u8) as char))
        .collect();
    let mut s = format!("{:w$} {files}\n", "");
    for (i, row) in rows.iter().enumerate() {
        let rank = size - i - 1;
        s += &format!("{:>w$} ", rank + 1);
        for (file, cell) in row.iter().enumerate() {
            let marked = marks.contains(&(file, rank));
            let glyph = match (variant.is_tafl(), cell) {
                (true, Some('t')) => '●',
                (true, Some('T')) => '○',
                (true, Some('K')) => '♔',
                (false, Some('x')) => '●',
                (false, Some('o')) => '○',
                (false, Some('-')) => '■',
                (_, None) if marked => '×',
                _ => '·',
            };
            let lit = hi.contains(&(file, rank));
            if lit && color {
                s += &format!("\x1b[30;43m {glyph} \x1b[0m");
            } else if lit {
                s += &format!("[{glyph}]");
            } else if color && marked {
                s += &format!("\x1b[2m {glyph} \x1b[0m");
            } else {
                s += &format!(" {glyph} ");
            }
        }
        s += &format!(" {}\n", rank + 1);
    }
    s += &format!("{:w$} {files}\n", "");
    // Corners are marked only where they are special (corner-escape games).
    let centre = (size / 2, size / 2);
    let legend = if variant.is_tafl() && marks.iter().any(|&m| m != centre) {
        "● attackers  ○ defenders  ♔ king  × throne/corner"
    } else if variant.is_tafl() {
        "● attackers  ○ defenders  ♔ king  × throne"
    } else {
        "● x  ○ o  ■ blocked"
    };
    s += legend;
    s.push('\n');
    s
}

struct Game {
    variant: Variant,
    /// The engine, playing the game (its session).
    engine: Engine,
    human: Option<Side>,
    level: String,
    skill: u8,
    movetime_ms: u64,
    seed: u64,
    color: bool,
    resigned: Option<Side>,
}

impl Game {
    fn last_move(&self) -> Option<String> {
        self.session().moves_played().last().cloned()
    }

    fn show(&self) {
        println!();
        print!(
            "{}",
            render(
                self.engine.session(),
                self.variant,
                self.last_move().as_deref(),
                self.color
            )
        );
        let fen = self.session().fen();
        let number = fen.split_whitespace().nth(3).unwrap_or("1");
        let mut status = match self.over() {
            Some(result) => format!("game over: {result} · move {number}"),
            None => format!(
                "{} to move · move {number}",
                side_name(self.variant, self.session().side_to_move())
            ),
        };
        if let Some(m) = self.last_move() {
            status += &format!(" · last move {m}");
        }
        println!("{status}");
    }

    fn over(&self) -> Option<String> {
        if let Some(side) = self.resigned {
            let reason = format!("{} resigned", side_name(self.variant, side));
            return Some(super::result_text(
                self.variant,
                Some(side.opponent()),
                &reason,
            ));
        }
        let o = self.session().outcome();
        o.is_decided().then(|| outcome_text(self.variant, o))
    }

    fn session(&self) -> &dyn Session {
        self.engine.session()
    }

    fn session_mut(&mut self) -> &mut dyn Session {
        self.engine.session_mut()
    }

    fn search(&mut self, skill: u8, movetime_ms: u64) -> Result<Option<String>> {
        let request = SearchRequest {
            limits: Limits {
                movetime: Some(movetime_ms.max(1)),
                ..Limits::default()
            },
            skill_level: Some(skill),
            move_overhead_ms: Some(0),
            ..SearchRequest::default()
        };
        let seed = self.seed ^ self.session().moves_played().len() as u64;
        self.engine.set_seed(seed);
        Ok(self.engine.search(request, &mut |_| {})?.best_move)
    }

    fn engine_move(&mut self) -> Result<()> {
        println!("skald ({}) is thinking…", self.level);
        let _ = std::io::stdout().flush();
        let start = Instant::now();
        let mv = self
            .search(self.skill, self.movetime_ms)?
            .ok_or_else(|| anyhow!("the engine found no move"))?;
        let mv = self
            .session_mut()
            .play(&mv)
            .map_err(|e| anyhow!("engine move {mv}: {e}"))?;
        println!("skald plays {mv} ({:.1} s)", start.elapsed().as_secs_f64());
        Ok(())
    }

    fn record(&self) -> GameRecord {
        let name = |side: Side| match self.human {
            None => format!("player {}", side.index() + 1),
            Some(h) if h == side => "you".to_string(),
            Some(_) => format!("skald ({})", self.level),
        };
        let outcome = self.session().outcome();
        let (result, termination) = if let Some(side) = self.resigned {
            (
                Some(Some(side.opponent())),
                Some(format!("{} resigned", side_name(self.variant, side))),
            )
        } else if let skald::engine::Outcome::Decided { winner, reason } = outcome {
            (Some(winner), Some(reason.to_string()))
        } else {
            (None, None)
        };
        GameRecord {
            variant: self.variant,
            event: "skald play".into(),
            round: None,
            first: name(Side::First),
            second: name(Side::Second),
            setup_fen: self.session().setup_fen(),
            start_fen: self.variant.start_fen().to_string(),
            moves: self.session().moves_played(),
            result,
            termination,
            rules: None,
        }
    }
}

/// Runs `skald play`.
pub fn run(args: Args) -> Result<()> {
    let record = super::renamed(args.record.clone(), args.load.clone(), "--load", "--record");
    if record.is_none() && args.game != 1 {
        bail!("--game picks a game of a --record file; no --record was given");
    }
    let loaded = match &record {
        None => None,
        Some(path) => Some(super::records::load_game(
            path,
            args.game as usize,
            args.variant,
        )?),
    };
    let variant = match &loaded {
        Some(g) => g.variant.ok_or_else(|| {
            anyhow!("play knows skald's variants only; this record has other rules")
        })?,
        None => args.variant.unwrap_or(Variant::Brandubh),
    };
    let skill = named_skill(&args.level).ok_or_else(|| {
        anyhow!(
            "--level: '{}' is not easy, medium or hard; see 'skald play --help'",
            args.level
        )
    })?;
    let chosen_side = args
        .side
        .as_deref()
        .map(|s| parse_side(variant, s))
        .transpose()?;
    let time =
        super::renamed(args.time, args.movetime, "--movetime", "--time (seconds)").unwrap_or(1.0);
    if !(time > 0.0 && time <= 3600.0) {
        bail!(
            "--time {}",
            super::Seconds::POSITIVE
                .check(&time.to_string())
                .unwrap_err()
        );
    }
    let mut engine = Engine::new()?;
    engine.set_variant(variant);
    if let Some(fen) = &args.fen {
        engine
            .session_mut()
            .set_position(Some(fen), &[])
            .map_err(|e| super::fen_error(e, variant))?;
    }
    if let Some(g) = &loaded {
        let moves: Vec<&str> = g.moves.iter().map(String::as_str).collect();
        engine
            .session_mut()
            .set_position(Some(&g.setup_fen), &moves)
            .map_err(|e| anyhow!("{e}"))?;
        println!(
            "loaded game {} of {}: {variant}, {}",
            args.game,
            record
                .as_deref()
                .unwrap_or(std::path::Path::new(""))
                .display(),
            super::plies(g.moves.len())
        );
    }
    // By default you play the side to move in the set-up position (the first side from the
    // start position), so the engine never moves before you have seen the board.
    let human_side = chosen_side.unwrap_or_else(|| engine.session().side_to_move());
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut g = Game {
        variant,
        engine,
        human: (!args.hotseat).then_some(human_side),
        level: args.level.to_ascii_lowercase(),
        skill,
        movetime_ms: (time * 1000.0) as u64,
        seed,
        color,
        resigned: None,
    };
    match g.human {
        Some(h) => println!(
            "{variant}: you play the {}, skald the {} at level {}. Type 'help' for commands.",
            side_name(variant, h),
            side_name(variant, h.opponent()),
            g.level
        ),
        None => println!("{variant}, two players at one keyboard. Type 'help' for commands."),
    }
    g.show();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut raw = Vec::new();
    let mut first_line = true;
    let mut announced = false;
    loop {
        if let Some(result) = g.over() {
            if !announced {
                println!("Game over: {result}.");
                println!("Type 'save <file>' to keep the record, 'undo' to take back, or 'quit'.");
                announced = true;
            }
        } else {
            announced = false;
            if g.human.is_some_and(|h| h != g.session().side_to_move()) {
                g.engine_move()?;
                g.show();
                continue;
            }
        }
        let prompt = if g.over().is_some() {
            "> ".to_string()
        } else {
            format!("{}> ", side_name(variant, g.session().side_to_move()))
        };
        print!("{prompt}");
        let _ = std::io::stdout().flush();
        raw.clear();
        if input
            .read_until(b'\n', &mut raw)
            .context("reading standard input")?
            == 0
        {
            println!();
            break;
        }
        // A line that is not UTF-8 (a stray byte) is refused, and the game goes on, as in the
        // engine's protocols.
        let Ok(line) = std::str::from_utf8(&raw) else {
            println!("error: the line is not valid UTF-8; ignored (type 'help' for commands)");
            continue;
        };
        // Commands piped from a file may start with a byte order mark.
        let line = if std::mem::take(&mut first_line) {
            skald::protocol::without_bom(line)
        } else {
            line
        };
        let line = line.trim();
        let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match cmd.to_ascii_lowercase().as_str() {
            "" => {}
            "help" | "?" => println!("{HELP}"),
            "quit" | "exit" | "q" => break,
            "board" => g.show(),
            "fen" => println!("{}", g.session().fen()),
            "moves" => {
                let moves = g.session().legal_moves();
                if g.over().is_some() {
                    println!("the game is over");
                } else if moves.is_empty() {
                    println!("no legal moves");
                } else {
                    println!("{} legal moves: {}", moves.len(), moves.join(" "));
                }
            }
            "undo" => {
                // After a resignation, undo takes back the resignation only.
                if g.resigned.take().is_some() {
                    println!("resignation taken back");
                    g.show();
                    continue;
                }
                if !g.session_mut().undo() {
                    println!("nothing to take back");
                    continue;
                }
                // Against the engine, take back its reply too (if it moved first from the set-up
                // position, there is nothing more and it moves again).
                if let Some(h) = g.human
                    && g.session().side_to_move() != h
                {
                    g.session_mut().undo();
                }
                g.show();
            }
            "hint" => {
                if g.over().is_some() {
                    println!("the game is over");
                    continue;
                }
                match g.search(skald::engine::MAX_SKILL, 500)? {
                    Some(m) => println!("hint: {m}"),
                    None => println!("no move"),
                }
            }
            "save" => {
                if rest.trim().is_empty() {
                    println!("usage: save <file>");
                    continue;
                }
                let path = std::path::Path::new(rest.trim());
                let text = match super::records::RecordFormat::of_path(path) {
                    super::records::RecordFormat::Pgn => Ok(g.record().to_pgn()),
                    super::records::RecordFormat::Otg => g.record().to_otg(),
                };
                match text.map(|t| std::fs::write(path, t).map_err(|e| e.to_string())) {
                    Ok(Ok(())) => println!("saved to {}", path.display()),
                    Ok(Err(e)) | Err(e) => println!("cannot save to {}: {e}", path.display()),
                }
            }
            "resign" => {
                if g.over().is_some() {
                    println!("the game is over");
                    continue;
                }
                g.resigned = Some(g.human.unwrap_or(g.session().side_to_move()));
            }
            _ => {
                if let Some(result) = g.over() {
                    println!("the game is over ({result}); 'undo', 'save <file>' or 'quit'");
                    continue;
                }
                // Moves in any case: `D2-F2`, `A7A5`.
                match g.session_mut().play(&line.to_ascii_lowercase()) {
                    Ok(_) => g.show(),
                    Err(e) if e.to_string().starts_with("illegal move") => println!("{e}"),
                    Err(e) => println!(
                        "'{line}' is neither a command nor a move ({e}); type 'help' for commands"
                    ),
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_of_moves() {
        assert_eq!(move_squares("d1-b1"), vec![(3, 0), (1, 0)]);
        assert_eq!(move_squares("a7a5"), vec![(0, 6), (0, 4)]);
        assert_eq!(move_squares("k11-k10"), vec![(10, 10), (10, 9)]);
        assert!(move_squares("0000").is_empty());
    }

    #[test]
    fn board_drawing() {
        let mut s = skald::engine::new_session(Variant::Brandubh);
        s.play("d2-f2").unwrap();
        let text = render(&*s, Variant::Brandubh, Some("d2-f2"), false);
        assert!(text.contains("[·]") && text.contains("[●]"), "{text}");
        assert!(text.contains('♔') && text.contains('×'));
        assert!(!text.contains('\x1b'));
    }
}
