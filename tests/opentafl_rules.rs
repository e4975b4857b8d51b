//! OpenTafl rules strings: the built-in variants parse, unsupported keys are refused by name,
//! and skald's presets written as rules strings give the presets' perft.

use skald::game::Game;
use skald::tafl::opentafl::parse_rules;
use skald::tafl::{Bitboard, KingArmed, Position, RuleOptions, Rules};

pub const BRANDUB: &str =
    "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
pub const TABLUT: &str = "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
pub const TAWLBWRDD: &str = "dim:11 name:Tawlbwrdd esc:e atkf:y ks:w nj:n cj:n cor: cen: start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/";
pub const FETLAR: &str = "dim:11 name:Fetlar atkf:y nj:n cj:n start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
pub const COPENHAGEN: &str = "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
pub const SEA_BATTLE: &str = "dim:9 name:Sea_Battle esc:e atkf:y ka:n nj:n cj:n cor: cen: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

/// skald's brandubh: only the king stops on or passes the throne; the occupied throne is not
/// hostile; no repetition rule. (OpenTafl's `ks:c` makes the king strong beside the throne
/// too, where skald's brandubh king is captured by one attacker against the empty throne.)
pub const SKALD_BRANDUBH: &str =
    "dim:7 name:brandubh surf:n tfr:i ks:c cenp:K cenh: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
pub const SKALD_TABLUT: &str = "dim:9 name:tablut esc:e surf:n ks:c cor: cens: cenh: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
pub const SKALD_TAWLBWRDD: &str = "dim:11 name:tawlbwrdd esc:e surf:n ks:c cor: cens: cenh: start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

fn start<B: Bitboard>(o: RuleOptions) -> Position<B> {
    Position::start(Rules::<B>::leak(o).expect("rules build"))
}

#[test]
fn built_in_variants_parse() {
    for s in [BRANDUB, TABLUT, TAWLBWRDD, FETLAR, SEA_BATTLE] {
        let o = parse_rules(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        if o.size <= 8 {
            start::<u64>(o);
        } else {
            start::<u128>(o);
        }
    }
    let b = parse_rules(BRANDUB).unwrap();
    assert_eq!(b.name, "Brandub");
    assert!(b.king_strong.is_empty());
    assert!(!b.surround);
    let t = parse_rules(TABLUT).unwrap();
    assert_eq!(t.linnaean, vec![40]);
    assert_eq!(t.king_strong.len(), 5);
    assert_eq!(t.escape.len(), 32);
    let f = parse_rules(FETLAR).unwrap();
    assert!(f.surround);
    assert_eq!(f.king_strong.len(), 121);
    assert_eq!(f.escape.len(), 4);
    let s = parse_rules(SEA_BATTLE).unwrap();
    assert_eq!(s.name, "Sea Battle");
    assert_eq!(s.king_armed, KingArmed::No);
    assert!(s.no_stop.iter().all(|v| v.is_empty()));
    // The start position with defenders first and the rank-1-first record.
    let d = parse_rules(&BRANDUB.replace("atkf:y", "atkf:n")).unwrap();
    assert!(d.start_fen.ends_with(" d 0 1"));
    let i = parse_rules("rules dim:7 starti:/4t2/3t3/3T3/ttTKTtt/3T3/3t3/3t3/").unwrap();
    assert!(i.start_fen.starts_with("4t2/"));
}

#[test]
fn unsupported_keys_are_refused_by_name() {
    let e = parse_rules(&COPENHAGEN.replace("efe:y", "efe:y swf:n kj:y")).unwrap_err();
    assert!(e.contains("kj:y"), "{e}");
    let e = parse_rules(&COPENHAGEN.replace("efe:y", "swf:n")).unwrap_err();
    assert!(e.contains("swf:n"), "{e}");
    for (extra, key) in [
        ("kj:y", "kj"),
        ("ber:y", "ber"),
        ("spd:3,0", "spd"),
        ("afor:a1,b1", "afor"),
        ("dfor:c1", "dfor"),
        ("zz:1", "zz"),
    ] {
        let s = BRANDUB.replace("surf:n", &format!("surf:n {extra}"));
        let e = parse_rules(&s).unwrap_err();
        assert!(e.contains(key), "{extra}: {e}");
    }
    let e = parse_rules(&FETLAR.replace("dim:11", "dim:21")).unwrap_err();
    assert!(e.contains("dim"), "{e}");
    let e = parse_rules("dim:7 start:/3t3/3n3/3T3/ttTKTtt/3T3/3t3/3t3/").unwrap_err();
    assert!(e.contains("start"), "{e}");
    let e = parse_rules("dim:7 ks:q start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/").unwrap_err();
    assert!(e.contains("ks"), "{e}");
    assert!(parse_rules("dim:7 name:x").unwrap_err().contains("start"));
    // Off values of unsupported features are fine.
    parse_rules(&BRANDUB.replace("surf:n", "surf:n sw:n efe:n kj:n ber:n spd:-1 afor: dfor:"))
        .unwrap();
}

fn perft_file<B: Bitboard>(rules: &'static Rules<B>, file: &str) -> usize {
    let path = format!("{}/tests/data/perft/{file}", env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for line in std::fs::read_to_string(path).unwrap().lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let parts: Vec<&str> = line.split(';').collect();
        let pos = Position::from_fen(rules, parts[1]).unwrap();
        for (i, c) in parts[2].split_whitespace().enumerate() {
            let expected: u64 = c.parse().unwrap();
            if expected > 200_000 {
                break;
            }
            assert_eq!(pos.perft(i as u32 + 1), expected, "{file} {}", parts[1]);
            n += 1;
        }
    }
    n
}

/// The options of a preset and of its rules string agree on everything perft sees (movement,
/// hostility, captures, escape, start) once the differences OpenTafl cannot express are set
/// aside: the name and the evaluation's weights (no rules), the end-of-game rules perft
/// ignores, and (brandubh only) the king's strong squares, since OpenTafl's `ks:c` also makes
/// him strong beside the throne.
fn same_board_rules(mut ot: RuleOptions, preset: &RuleOptions, strong_too: bool) -> RuleOptions {
    ot.name = preset.name.clone();
    ot.eval_weights = preset.eval_weights;
    ot.repetition = preset.repetition;
    ot.no_legal_move = preset.no_legal_move;
    ot.move_limit = preset.move_limit;
    if strong_too {
        ot.king_strong = preset.king_strong.clone();
    }
    let sorted = |mut v: Vec<skald::tafl::Square>| {
        v.sort_unstable();
        v
    };
    ot.escape = sorted(ot.escape);
    ot.king_strong = sorted(ot.king_strong);
    for i in 0..3 {
        ot.no_stop[i] = sorted(ot.no_stop[i].clone());
        ot.no_pass[i] = sorted(ot.no_pass[i].clone());
    }
    let mut p = preset.clone();
    p.escape = sorted(p.escape);
    p.king_strong = sorted(p.king_strong);
    for i in 0..3 {
        p.no_stop[i] = sorted(p.no_stop[i].clone());
        p.no_pass[i] = sorted(p.no_pass[i].clone());
    }
    assert_eq!(ot, p);
    ot
}

#[test]
fn presets_as_rules_strings_match_preset_perft() {
    // Tablut and tawlbwrdd: the rules strings themselves give the reference perft.
    let t = Rules::<u128>::leak(parse_rules(SKALD_TABLUT).unwrap()).unwrap();
    same_board_rules(t.options.clone(), &RuleOptions::tablut(), false);
    assert!(perft_file(t, "tablut.txt") > 10);
    let w = Rules::<u128>::leak(parse_rules(SKALD_TAWLBWRDD).unwrap()).unwrap();
    same_board_rules(w.options.clone(), &RuleOptions::tawlbwrdd(), false);
    assert!(perft_file(w, "tawlbwrdd.txt") > 10);
    // Brandubh: the rules string differs from the preset only in the strong squares; with
    // those set to the throne the reference perft holds.
    let b = parse_rules(SKALD_BRANDUBH).unwrap();
    let b = same_board_rules(b, &RuleOptions::brandubh(), true);
    let b = Rules::<u64>::leak(b).unwrap();
    assert!(perft_file(b, "brandubh.txt") > 10);
    // The rules string as written (ks:c) at the start position.
    let b = Rules::<u64>::leak(parse_rules(SKALD_BRANDUBH).unwrap()).unwrap();
    assert_eq!(Position::start(b).perft(4), 1_007_392);
}

#[test]
fn linnaean_capture_and_surrounding() {
    use skald::game::{Outcome, Reason, Side};
    let o = parse_rules(TABLUT).unwrap();
    let r = Rules::<u128>::leak(o).unwrap();
    // King on the castle e5, attackers d5, e6, e4; defender f5; an attacker moving to g5
    // captures f5 against the king (Linnaean capture).
    let p = Position::from_fen(r, "9/9/9/4t4/3tKT3/4t4/9/9/6t2 a 0 1").unwrap();
    let mut q = p;
    q.make_move(q.parse_move("g1-g5").unwrap());
    assert!(q.defenders() == 0, "{}", q.fen());
    // Without linc the defender stays.
    let r2 =
        Rules::<u128>::leak(parse_rules(&TABLUT.replace("linc:y", "linc:n")).unwrap()).unwrap();
    let mut q = Position::from_fen(r2, "9/9/9/4t4/3tKT3/4t4/9/9/6t2 a 0 1").unwrap();
    q.make_move(q.parse_move("g1-g5").unwrap());
    assert!(q.defenders() != 0);
    // Fetlar (surf:y): defenders walled in by attackers lose.
    let f = Rules::<u128>::leak(parse_rules(FETLAR).unwrap()).unwrap();
    let p = Position::from_fen(f, "11/11/11/11/4ttt4/3tTKTt3/4ttt4/11/11/11/11 d 0 1").unwrap();
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::Surrounded));
    let p = Position::from_fen(f, "11/11/11/11/4ttt4/3tTKT4/4ttt4/11/11/11/11 d 0 1").unwrap();
    assert_eq!(p.outcome(), Outcome::Ongoing);
}

// ---------------------------------------------------------------------------------------------
// Repetition rules (`tfr`) as OpenTafl 0.4.8 judges them (GameState.checkVictory): on the third
// occurrence of a position (placement and side to move, the game's first position counted),
// `tfr:w` gives the win to the side to move there (the side whose move repeated it loses),
// `tfr:l` to the side that moved, `tfr:d` draws, `tfr:i` ignores it.

/// 7×7, corners, strong king; nine attackers round the edge, the king on the throne and one
/// defender: the attackers are well ahead on material, nobody can win soon.
const REP_FEN: &str = "1t3t1/t3t1t/7/3K3/7/t1T3t/1t3t1";

fn rep_rules(tfr: &str) -> &'static Rules<u64> {
    let text = format!("dim:7 name:rep tfr:{tfr} start:/7/7/7/3K3/7/7/7/");
    Rules::<u64>::leak(parse_rules(&text).unwrap()).unwrap()
}

/// Plays `moves` from `fen` (side `side`); returns the position reached and the hashes of the
/// positions before it, oldest first.
fn play_line(tfr: &str, side: char, moves: &[&str]) -> (Position<u64>, Vec<u64>) {
    let start = Position::start(rep_rules(tfr));
    let mut pos = start.with_fen(&format!("{REP_FEN} {side} 0 1")).unwrap();
    let mut history = Vec::new();
    for m in moves {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        history.push(pos.hash());
        pos.make_move(mv);
    }
    (pos, history)
}

/// The attackers shuttle e6-e5-e6, the defender c2-c3-c2.
const CYCLE: [&str; 4] = ["e6-e5", "c2-c3", "e5-e6", "c3-c2"];
/// The same with the defenders moving first.
const CYCLE_D: [&str; 4] = ["c2-c3", "e6-e5", "c3-c2", "e5-e6"];

#[test]
fn repetition_outcomes_follow_opentafl() {
    use skald::game::{Outcome, Reason, RepetitionRule, Side, outcome_with_history};
    assert_eq!(rep_rules("w").repetition, RepetitionRule::MoverLoses(3));
    assert_eq!(rep_rules("l").repetition, RepetitionRule::MoverWins(3));
    assert_eq!(rep_rules("d").repetition, RepetitionRule::Draw(3));
    assert_eq!(rep_rules("i").repetition, RepetitionRule::Ignored);
    assert_eq!(
        parse_rules(COPENHAGEN.replace(" sw:s efe:y", "").as_str())
            .unwrap()
            .repetition,
        RepetitionRule::MoverLoses(3)
    );
    // Two cycles from the start: the defenders' c3-c2 brings the first position (attackers to
    // move) back for the third time.
    let line: Vec<&str> = CYCLE.iter().chain(CYCLE.iter()).copied().collect();
    for (tfr, want) in [
        ("w", Outcome::win(Side::First, Reason::Repetition)),
        ("l", Outcome::win(Side::Second, Reason::Repetition)),
        ("d", Outcome::draw(Reason::Repetition)),
        ("i", Outcome::Ongoing),
    ] {
        let (pos, history) = play_line(tfr, 'a', &line);
        assert_eq!(outcome_with_history(&pos, &history), want, "tfr:{tfr}");
        // One move earlier nothing is decided: the positions there occurred twice at most.
        let (pos, history) = play_line(tfr, 'a', &line[..7]);
        assert_eq!(
            outcome_with_history(&pos, &history),
            Outcome::Ongoing,
            "tfr:{tfr}"
        );
    }
    // Started with the defenders to move, the attackers' e5-e6 makes the third occurrence.
    let line: Vec<&str> = CYCLE_D.iter().chain(CYCLE_D.iter()).copied().collect();
    let (pos, history) = play_line("w", 'd', &line);
    assert_eq!(
        outcome_with_history(&pos, &history),
        Outcome::win(Side::Second, Reason::Repetition)
    );
    let (pos, history) = play_line("l", 'd', &line);
    assert_eq!(
        outcome_with_history(&pos, &history),
        Outcome::win(Side::First, Reason::Repetition)
    );
}

fn best_move(pos: &Position<u64>, history: &[u64]) -> (String, i32) {
    use skald::search::{Control, Limits, SearchOptions, ThreadData, TranspositionTable, search};
    use std::sync::Arc;
    let tt = Arc::new(TranspositionTable::new(4).unwrap());
    let limits = Limits {
        depth: Some(5),
        ..Limits::default()
    };
    let r = search(
        pos,
        history,
        &limits,
        &SearchOptions::default(),
        &tt,
        &Control::new(false),
        &mut ThreadData::default(),
        None,
        &mut |_| {},
    );
    (pos.move_to_string(r.best_move.unwrap()), r.score)
}

/// Issue 9, fault 4: under `tfr:w` (OpenTafl's Copenhagen, "Computer Fetlar") skald as the
/// defenders made the third repetition and lost, because the search scored it as a draw. Behind
/// on material, the defenders must now avoid the repeating move; under `tfr:d` it is still the
/// draw they want.
#[test]
fn search_avoids_a_losing_repetition() {
    let line: Vec<&str> = CYCLE.iter().chain(CYCLE[..3].iter()).copied().collect();
    let (pos, history) = play_line("d", 'a', &line);
    let (mv, score) = best_move(&pos, &history);
    assert_eq!((mv.as_str(), score), ("c3-c2", 0), "tfr:d takes the draw");
    let (pos, history) = play_line("w", 'a', &line);
    let (mv, score) = best_move(&pos, &history);
    assert_ne!(
        mv, "c3-c2",
        "tfr:w: c3-c2 repeats the position a third time and loses"
    );
    assert!(
        score < 0 && score > -skald::search::MATE_BOUND,
        "score {score}"
    );
}

/// `tfr:l`: the attackers, well ahead, win at once by making the third occurrence, and the
/// search finds it (as a draw it would have been avoided).
#[test]
fn search_seeks_a_winning_repetition() {
    let line: Vec<&str> = CYCLE_D.iter().chain(CYCLE_D[..3].iter()).copied().collect();
    let (pos, history) = play_line("l", 'd', &line);
    let (mv, score) = best_move(&pos, &history);
    assert_eq!(mv, "e5-e6");
    assert_eq!(score, skald::search::MATE - 1);
    let (pos, history) = play_line("d", 'd', &line);
    let (mv, _) = best_move(&pos, &history);
    assert_ne!(mv, "e5-e6", "ahead, the attackers avoid a draw");
}

/// OpenTafl's Copenhagen string maps onto the same rule entries as skald's preset, with
/// OpenTafl's edge fort and repetition rule and without hnefatafl.org's extra end rules.
#[test]
fn opentafl_copenhagen_maps_onto_rule_options() {
    use skald::game::RepetitionRule;
    use skald::tafl::{EdgeFort, Shieldwall};
    let ot = parse_rules(COPENHAGEN).unwrap();
    let cph = RuleOptions::copenhagen();
    assert_eq!(ot.shieldwall, Shieldwall::Copenhagen);
    assert_eq!(ot.edge_fort, EdgeFort::OpenTafl);
    assert_eq!(ot.repetition, RepetitionRule::MoverLoses(3));
    assert_eq!(ot.size, cph.size);
    assert_eq!(ot.escape, cph.escape);
    assert_eq!(ot.king_armed, cph.king_armed);
    let weak = parse_rules(&COPENHAGEN.replace("sw:s", "sw:w")).unwrap();
    assert_eq!(weak.shieldwall, Shieldwall::NoCorners);
    // Same start; the same first moves.
    let rules = Rules::<u128>::leak(ot).unwrap();
    let p = Position::start(rules);
    assert_eq!(p.perft(2), 6788);
}

/// OpenTafl's Magpie: brandub with a king that moves one square (`spd`, ten entries in
/// `tcnkmTCNKM` order) and may be captured against the edge (`ks:m`).
#[test]
fn magpie_speed_limit() {
    let magpie = "dim:7 name:Magpie surf:n atkf:y ks:m cenh: cenhe: spd:-1,-1,-1,-1,-1,-1,-1,-1,1,-1 start:/3t3/1t3t1/3T3/t1TKT1t/3T3/1t3t1/3t3/";
    let options = parse_rules(magpie).unwrap();
    assert_eq!(options.speed_limit, [None, None, Some(1)]);
    let rules = Rules::<u64>::leak(options).unwrap();
    // The king alone in the open, defenders to move: four one-square moves.
    let p = Position::from_fen(rules, "1t5/7/7/3K3/7/7/7 d").unwrap();
    assert_eq!(p.perft(1), 4);
    assert!(p.parse_move("d4-d6").is_err());
    assert!(p.parse_move("d4-d5").is_ok());
    // Two-number form: attackers 2, defenders and king 3.
    let two = parse_rules(&magpie.replace("-1,-1,-1,-1,-1,-1,-1,-1,1,-1", "2,3")).unwrap();
    assert_eq!(two.speed_limit, [Some(2), Some(3), Some(3)]);
}
