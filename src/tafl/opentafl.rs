//! OpenTafl notation: rules strings → [`RuleOptions`], position records (rank 1 first) in and
//! out, OpenTafl move notation in. See `opentafl-notation-spec.txt` in OpenTafl's repository.
//!
//! Supported keys: `dim` (5 to 19), `name`, `esc`, `surf`, `atkf`, `tfr`, `ka`, `ks`, `cor`,
//! `cen`, `corh`, `cenh`, `cenhe`, `corp`, `cenp`, `cors`, `cens`, `corre`, `cenre`, `linc`,
//! `start`, `starti`, `sw`, `swf`, `efe`. Keys for pieces or features skald lacks are accepted
//! only with their "off" value (`kj:n`, `ber:n`, empty `afor`/`dfor`); otherwise the rules string
//! is refused with a message naming the key. `spd` (speed limits) is supported for attackers,
//! defenders and the king (the evaluation's king-route terms ignore the limit).
//!
//! Shieldwalls and edge forts play by OpenTafl's meaning (its `BoardImpl` shieldwall detection
//! and `GameState.checkEdgeFortEscape`): `sw:s` is [`Shieldwall::Copenhagen`] (corners close a
//! row), `sw:w` [`Shieldwall::NoCorners`]; with OpenTafl's default `swf:y` the moved piece must
//! be one of the closers on the edge (`swf:n`, captures by any move, is refused); `efe:y` is
//! [`EdgeFort::OpenTafl`] (the king may also stand off the edge if he can reach it; a fort
//! defender fails when three of its neighbours are neither fort squares nor defenders).
//! Not reproduced from OpenTafl: its shortcut that also wins for a king inside a defenders'
//! shieldwall shape (such shapes pass the full test anyway), and its "imperfect shieldwall"
//! lookahead (a closer followed on the edge by another piece of its side with one inward of it
//! makes OpenTafl skip the capture; skald captures). `nj`/`cj`/`mj`/`gj` and the fortress piece
//! lists are accepted, since the pieces and squares they govern cannot appear (knights,
//! commanders, mercenaries and guards in a start position are refused).
//!
//! Repetition (`tfr`) is played as OpenTafl 0.4.8's code judges it, on the third occurrence of a
//! position (placement and side to move): `d` draws, `w` makes the side whose move repeated it
//! lose, `l` makes that side win, `i` ignores repetition (OpenTafl itself reads `i` as `d`).
//! Where OpenTafl cannot say what skald's presets do: there is no 100-ply rule; a side without a
//! legal move loses.

use super::rules::{
    EdgeFort, KingArmed, MAX_SIZE, MIN_SIZE, NoMoveRule, RuleOptions, Shieldwall, centre, corners,
    edge, neighbours,
};
use super::{Square, parse_square};
use crate::board::{self, MoveView};
use crate::game::RepetitionRule;

/// A piece list such as `tcnkTCNK` as "applies to" flags for attacker, defender, king.
fn piece_list(key: &str, value: &str) -> Result<[bool; 3], String> {
    let mut flags = [false; 3];
    for c in value.chars() {
        match c {
            't' => flags[0] = true,
            'T' => flags[1] = true,
            'K' => flags[2] = true,
            // Pieces skald does not have (commander, knight, mercenary, guard, attacker king).
            'c' | 'n' | 'm' | 'g' | 'k' | 'C' | 'N' | 'M' | 'G' => {}
            _ => {
                return Err(format!(
                    "rules key {key}: '{}' is not a piece letter",
                    c.escape_default()
                ));
            }
        }
    }
    Ok(flags)
}

fn square_list(key: &str, value: &str, size: u8) -> Result<Vec<Square>, String> {
    value
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            parse_square(s, size).ok_or_else(|| {
                format!(
                    "rules key {key}: '{}' is not a square of a {size}x{size} board",
                    s.escape_default()
                )
            })
        })
        .collect()
}

/// OpenTafl `spd`: one number for every piece, two for attackers and defenders, or 8, 10 or 12
/// per piece type (`tcnkTCNK`, `tcnkmTCNKM`, `tcnkmgTCNKMG`); -1 means no limit. Returns the
/// limits of attacker, defender and king.
fn speed_limits(value: &str) -> Result<[Option<u8>; 3], String> {
    let bad = || {
        format!(
            "rules key spd: '{}' is not a list of speed limits (-1 or 1 and up)",
            value.escape_default()
        )
    };
    let nums: Vec<i32> = value
        .split(',')
        .map(|t| t.trim().parse::<i32>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    if nums.iter().any(|&n| n == 0 || !(-1..=255).contains(&n)) {
        return Err(bad());
    }
    let limit = |n: i32| (n > 0).then_some(n as u8);
    let (t, d, k) = match nums.len() {
        1 => (nums[0], nums[0], nums[0]),
        2 => (nums[0], nums[1], nums[1]),
        8 => (nums[0], nums[4], nums[7]),
        10 => (nums[0], nums[5], nums[8]),
        12 => (nums[0], nums[6], nums[9]),
        _ => return Err(bad()),
    };
    Ok([limit(t), limit(d), limit(k)])
}

fn yes_no(key: &str, value: &str) -> Result<bool, String> {
    match value {
        "y" => Ok(true),
        "n" => Ok(false),
        _ => Err(format!(
            "rules key {key}: '{}' is not y or n",
            value.escape_default()
        )),
    }
}

/// Converts a position record (`/3t3/…/`, rank 1 first, or top rank first when `top_first`)
/// into the board field of a FEN (top rank first). Checks the row count and the letters;
/// [`crate::tafl::Position::from_fen`] checks the rest.
pub fn record_to_board(record: &str, size: u8, top_first: bool) -> Result<String, String> {
    let r = record.trim();
    let inner = r.strip_prefix('/').unwrap_or(r);
    let inner = inner.strip_suffix('/').unwrap_or(inner);
    let mut rows: Vec<&str> = inner.split('/').collect();
    if rows.len() != size as usize {
        return Err(format!(
            "position record '{}' has {} rows, expected {size}",
            r.escape_default(),
            rows.len()
        ));
    }
    for row in &rows {
        for c in row.chars() {
            match c {
                't' | 'T' | 'K' | '0'..='9' => {}
                'c' | 'n' | 'm' | 'g' | 'k' | 'C' | 'N' | 'M' | 'G' => {
                    return Err(format!(
                        "position record has the piece '{c}' (commander, knight, mercenary or \
                         guard), which skald does not support"
                    ));
                }
                _ => {
                    return Err(format!(
                        "position record has an unknown letter '{}'",
                        c.escape_default()
                    ));
                }
            }
        }
    }
    if !top_first {
        rows.reverse();
    }
    Ok(rows.join("/"))
}

/// The position record (rank 1 first) of a FEN's board field.
pub fn fen_to_record(fen: &str) -> String {
    let board = fen.split_whitespace().next().unwrap_or("");
    let mut rows: Vec<&str> = board.split('/').collect();
    rows.reverse();
    format!("/{}/", rows.join("/"))
}

/// The squares an OpenTafl move names (see [`parse_move`]): from and to.
///
/// # Errors
/// As [`parse_move`].
pub fn move_squares(text: &str) -> Result<(board::Square, board::Square), String> {
    let t = text.trim();
    let bad = || format!("'{}' is not an OpenTafl move", t.escape_default());
    let b = t.as_bytes();
    // A leading piece letter: a letter followed by another letter.
    let start = if b.len() > 1 && b[0].is_ascii_alphabetic() && b[1].is_ascii_alphabetic() {
        1
    } else {
        0
    };
    let square_end = |i: usize| -> Option<usize> {
        if i >= b.len() || !b[i].is_ascii_alphabetic() {
            return None;
        }
        let mut j = i + 1;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        (j > i + 1).then_some(j)
    };
    let from_end = square_end(start).ok_or_else(bad)?;
    let kind = *b.get(from_end).ok_or_else(bad)?;
    match kind {
        b'-' => {}
        b'^' => return Err(format!("jump moves are not supported: '{t}'")),
        b'=' => return Err(format!("berserk moves are not supported: '{t}'")),
        _ => return Err(bad()),
    }
    let to_end = square_end(from_end + 1).ok_or_else(bad)?;
    let rest = &t[to_end..];
    let rest_ok =
        rest.is_empty() || rest.starts_with('x') || rest.chars().all(|c| c == '+' || c == '-');
    if !rest_ok {
        return Err(bad());
    }
    // Squares in either case (`E7-E8`).
    let square = |text: &str| text.parse::<board::Square>().map_err(|_| bad());
    Ok((
        square(&t[start..from_end])?,
        square(&t[from_end + 1..to_end])?,
    ))
}

/// A move in OpenTafl notation (`a4-a1`, `Ke1-a1xa2/b1--`, `e5-e8xe9+`) as skald's `from-to`.
/// Captures and `+ - ++ --` marks are ignored (skald works them out); jumps (`^`) and berserk
/// moves (`=`) are refused.
pub fn parse_move(text: &str) -> Result<String, String> {
    let (from, to) = move_squares(text)?;
    Ok(MoveView::Slide { from, to }.to_string())
}

/// Longest OpenTafl rules string [`parse_rules`] reads, bytes: the longest real one (19×19 with
/// its start position and square lists) is under 1 000; a rule set built from a string keeps it
/// (its name, square lists) for the process's life ([`super::Rules::leak`]), so a longer one is
/// refused rather than kept.
pub const MAX_RULES_LEN: usize = 4096;

/// Parses an OpenTafl rules string (an optional leading `rules` word is skipped). Errors name the
/// key at fault; keys for features skald cannot play are refused by name; a string longer than
/// [`MAX_RULES_LEN`] bytes is refused.
pub fn parse_rules(text: &str) -> Result<RuleOptions, String> {
    if text.len() > MAX_RULES_LEN {
        return Err(format!(
            "the rules string is {} bytes long; at most {MAX_RULES_LEN} are read",
            text.len()
        ));
    }
    let mut entries: Vec<(&str, &str)> = Vec::new();
    for (i, word) in text.split_whitespace().enumerate() {
        if i == 0 && word == "rules" {
            continue;
        }
        let (k, v) = word.split_once(':').unwrap_or((word, ""));
        entries.retain(|(key, _)| *key != k);
        entries.push((k, v));
    }
    let get = |k: &str| entries.iter().find(|(key, _)| *key == k).map(|&(_, v)| v);

    // Refusals first, all named at once.
    let mut refused = Vec::new();
    for &(k, v) in &entries {
        let off = match k {
            "sw" => matches!(v, "n" | "w" | "s"),
            "efe" => matches!(v, "n" | "y"),
            "kj" | "ber" => v == "n",
            "spd" => true,
            "afor" | "dfor" => v.is_empty(),
            "name" | "dim" | "esc" | "surf" | "atkf" | "tfr" | "ka" | "ks" | "cor" | "cen"
            | "corh" | "cenh" | "cenhe" | "corp" | "cenp" | "cors" | "cens" | "corre" | "cenre"
            | "linc" | "start" | "starti" | "swf" | "nj" | "cj" | "mj" | "gj" | "aforh"
            | "dforh" | "aforp" | "dforp" | "afors" | "dfors" | "aforre" | "dforre" => true,
            _ => {
                refused.push(format!("{k} (unknown key)"));
                continue;
            }
        };
        if !off {
            let what = match k {
                "sw" => "shieldwall captures",
                "efe" => "edge fort escapes",
                "kj" => "king jumps",
                "ber" => "berserk moves",
                _ => "fortresses",
            };
            refused.push(format!("{k}:{v} ({what})"));
        }
    }
    if !refused.is_empty() {
        return Err(format!(
            "unsupported rules: {}; skald cannot play these",
            refused.join(", ")
        ));
    }

    let dim_text = get("dim").ok_or("rules string has no dim key")?;
    let dim: u32 = dim_text.parse().map_err(|_| {
        format!(
            "rules key dim: '{}' is not a number",
            dim_text.escape_default()
        )
    })?;
    if dim > MAX_SIZE as u32 {
        return Err(format!(
            "rules key dim:{dim}: boards over {MAX_SIZE}x{MAX_SIZE} are not supported"
        ));
    }
    if dim < MIN_SIZE as u32 {
        return Err(format!(
            "rules key dim:{dim}: boards under {MIN_SIZE}x{MIN_SIZE} are not supported"
        ));
    }
    let size = dim as u8;

    let (record, top_first) = match (get("start"), get("starti")) {
        (Some(s), _) => (s, false),
        (None, Some(s)) => (s, true),
        (None, None) => return Err("rules string has no start key".into()),
    };
    let board = record_to_board(record, size, top_first).map_err(|e| format!("start: {e}"))?;

    let list = |k: &str, default: &str| piece_list(k, get(k).unwrap_or(default));
    let all = "tcnkTCNK";
    let corh = list("corh", all)?;
    let cenh = list("cenh", "tcnk")?;
    let cenhe = list("cenhe", all)?;
    let corp = list("corp", "K")?;
    let cenp = list("cenp", all)?;
    let cors = list("cors", "K")?;
    let cens = list("cens", "K")?;
    let corre = list("corre", all)?;
    let cenre = list("cenre", all)?;

    let cor = match get("cor") {
        Some(v) => square_list("cor", v, size)?,
        None => corners(size),
    };
    let cen = match get("cen") {
        Some(v) => square_list("cen", v, size)?,
        None => vec![centre(size)],
    };

    let escape = match get("esc").unwrap_or("c") {
        "c" => {
            if cor.is_empty() {
                return Err("rules key esc:c, but there are no corners (cor is empty)".into());
            }
            cor.clone()
        }
        "e" => edge(size),
        v => {
            return Err(format!(
                "rules key esc: '{}' is not c or e",
                v.escape_default()
            ));
        }
    };
    let surround = yes_no("surf", get("surf").unwrap_or("y"))?;
    let flanking_only = yes_no("swf", get("swf").unwrap_or("y"))?;
    let shieldwall = match get("sw").unwrap_or("n") {
        "n" => Shieldwall::Off,
        _ if !flanking_only => {
            return Err(
                "rules key swf:n (shieldwalls captured by any move, not only by a flanking \
                 piece) is not supported"
                    .into(),
            );
        }
        "s" => Shieldwall::Copenhagen,
        _ => Shieldwall::NoCorners,
    };
    let speed_limit = speed_limits(get("spd").unwrap_or("-1"))?;
    let edge_fort = if yes_no("efe", get("efe").unwrap_or("n"))? {
        EdgeFort::OpenTafl
    } else {
        EdgeFort::Off
    };
    let attackers_first = yes_no("atkf", get("atkf").unwrap_or("y"))?;
    let linc = yes_no("linc", get("linc").unwrap_or("n"))?;
    let repetition = match get("tfr").unwrap_or("d") {
        // OpenTafl's GameState.checkVictory: on the third occurrence of a position (board and
        // side to move, the start position counted) `w` gives the win to the side to move
        // there, i.e. the side whose move repeated it loses; `l` the reverse.
        "d" => RepetitionRule::Draw(3),
        "w" => RepetitionRule::MoverLoses(3),
        "l" => RepetitionRule::MoverWins(3),
        "i" => RepetitionRule::Ignored,
        v => {
            return Err(format!(
                "rules key tfr: '{}' is not d, w, l or i",
                v.escape_default()
            ));
        }
    };
    let king_armed = match get("ka").unwrap_or("y") {
        "y" => KingArmed::Both,
        "a" => KingArmed::Anvil,
        "h" => KingArmed::Hammer,
        "n" => KingArmed::No,
        v => {
            return Err(format!(
                "rules key ka: '{}' is not y, a, h or n",
                v.escape_default()
            ));
        }
    };
    let all_squares: Vec<Square> = (0..super::rules::square_count(size)).collect();
    let (king_strong, king_edge_hostile) = match get("ks").unwrap_or("s") {
        "s" => (all_squares, false),
        "m" => (all_squares, true),
        "w" => (vec![], false),
        "c" => {
            let mut v = cen.clone();
            for &c in &cen {
                v.extend(neighbours(c, size));
            }
            v.sort_unstable();
            v.dedup();
            (v, false)
        }
        v => {
            return Err(format!(
                "rules key ks: '{}' is not s, c, m or w",
                v.escape_default()
            ));
        }
    };

    let per_kind = |f: &dyn Fn(usize) -> Vec<Square>| [f(0), f(1), f(2)];
    let pick = |squares: &[Square], yes: bool| if yes { squares.to_vec() } else { vec![] };
    let no_stop = per_kind(&|k| {
        let mut v = pick(&cor, !(cors[k] && corre[k]));
        v.extend(pick(&cen, !(cens[k] && cenre[k])));
        v
    });
    let no_pass = per_kind(&|k| {
        let mut v = pick(&cor, !corp[k]);
        v.extend(pick(&cen, !cenp[k]));
        v
    });
    let hostile = per_kind(&|k| pick(&cor, corh[k]));
    let hostile_empty = per_kind(&|k| pick(&cen, cenhe[k]));
    let hostile_occupied = per_kind(&|k| pick(&cen, cenh[k]));

    let name = get("name")
        .filter(|n| !n.is_empty())
        .map(|n| n.replace('_', " "))
        .unwrap_or_else(|| "OpenTafl".into());
    let side = if attackers_first { 'a' } else { 'd' };
    Ok(RuleOptions {
        name,
        size,
        start_fen: format!("{board} {side} 0 1"),
        escape,
        no_stop,
        no_pass,
        hostile,
        hostile_empty,
        hostile_occupied,
        king_armed,
        king_strong,
        king_edge_hostile,
        no_legal_move: NoMoveRule::Loses,
        repetition,
        move_limit: None,
        linnaean: if linc { cen } else { vec![] },
        surround,
        shieldwall,
        edge_fort,
        speed_limit,
        camps: vec![],
        encirclement: false,
        no_attackers_loses: false,
        cannot_escape: false,
        ply_limit: None,
        eval_weights: super::WeightSet::Hand,
        network: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves() {
        assert_eq!(parse_move("a4-a1").unwrap(), "a4-a1");
        assert_eq!(parse_move("Ke1-a1--").unwrap(), "e1-a1");
        assert_eq!(parse_move("e5-e8xe9+").unwrap(), "e5-e8");
        assert_eq!(parse_move("tk11-k10xj10/k9").unwrap(), "k11-k10");
        assert!(parse_move("e5^e7").is_err());
        assert!(parse_move("e5-").is_err());
        assert!(parse_move("hello").is_err());
    }

    #[test]
    fn records() {
        let b = record_to_board("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/4t2/", 7, false).unwrap();
        assert_eq!(b, "4t2/3t3/3T3/ttTKTtt/3T3/3t3/3t3");
        assert_eq!(
            fen_to_record("4t2/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1"),
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/4t2/"
        );
        assert!(record_to_board("/3t3/", 7, false).is_err());
        assert!(record_to_board("/3n3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", 7, false).is_err());
    }
}
