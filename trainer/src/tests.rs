//! The trainer's tests: data reading, the networks' symmetries and quantisation, training runs
//! on small files.

use super::*;
use data::TaflPos;
use net::{ATAXX_SYMS, Quantised, permute};
use skald::ataxx::{Bitboard, Position};
use skald::game::{Game, Side, Wdl};
use skald::tafl::packed::{TaflHeader, TaflRecord, TaflWriter};

fn args(extra: &[&str]) -> Args {
    let mut argv = vec!["skald-trainer", "--data", "d.txt", "--output", "n.nnue"];
    argv.extend_from_slice(extra);
    Args::parse_from(argv)
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("skald-trainer-{}-{name}", std::process::id()))
}

#[test]
fn arguments_the_files_cannot_hold_are_refused() {
    assert!(check_args(&args(&[])).is_ok());
    assert!(check_args(&args(&["--arch", "patterns", "--hidden", "512"])).is_ok());
    assert!(check_args(&args(&["--variant", "copenhagen", "--hidden", "1024"])).is_ok());
    assert!(check_args(&args(&["--variant", "brandubh", "--side-heads", "1"])).is_ok());
    for bad in [
        &["--hidden", "256"][..],
        &["--activation", "screlu"],
        &["--arch", "patterns", "--hidden", "100"],
        &["--arch", "patterns", "--hidden", "544"],
        &["--validation", "0"],
        &["--val-fraction", "1.5"],
        &["--buckets", "2"],
        &["--arch", "patterns", "--buckets", "0"],
        &["--arch", "patterns", "--buckets", "9"],
        &["--arch", "pieces"],
        &["--variant", "copenhagen", "--arch", "patterns"],
        &["--variant", "copenhagen", "--hidden", "1056"],
        &["--variant", "copenhagen", "--side-heads", "3"],
        &["--side-heads", "1"],
        &["--loaders", "0"],
    ] {
        assert!(check_args(&args(bad)).is_err(), "{bad:?}");
    }
}

/// The float model's output for `samples` (in the side to move's view) against the
/// quantised network's evaluation.
fn assert_quantised_matches<P: TrainPos>(model: &Model, samples: &[Sample<P>], what: &str) {
    let spec = &model.spec;
    let net = model.quantise().unwrap();
    let order: Vec<u32> = (0..samples.len() as u32).collect();
    let b = make_batch(spec, samples, &order, None);
    let t = Tensors::new(&b, spec.perspectives(), &Device::Cpu).unwrap();
    let float: Vec<f32> = model
        .forward(&t)
        .unwrap()
        .flatten_all()
        .unwrap()
        .to_vec1()
        .unwrap();
    for ((s, y), sign) in samples.iter().zip(float).zip(&b.signs) {
        let q = s.pos.quantised_eval(&net);
        let f = sign * y * spec.k as f32;
        assert!(
            (q as f32 - f).abs() < 10.0,
            "{what} {}: {q} vs {f}",
            s.pos.describe()
        );
    }
}

/// The quantised network evaluates as the float one, within a few centipawns, for every
/// architecture, activation, heads and buckets (so the file's arithmetic is the trainer's).
#[test]
fn quantised_networks_match_the_float_ones() {
    let samples: Vec<Sample<Position>> = [
        "x5o/7/7/7/7/7/o5x x 0 1",
        "x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1",
        "xx4o/xxo4/2-1-2/3x3/2-1-2/7/o4ox x 0 5",
        "ooo4/oxxo3/1xx4/7/3-3/5xx/o4xx o 3 9",
    ]
    .iter()
    .map(|f| Sample {
        pos: Position::start().with_fen(f).unwrap(),
        target: 0.5,
    })
    .collect();
    for extra in [
        &["--arch", "v1"][..],
        &["--arch", "patterns", "--hidden", "64"],
        &["--arch", "patterns", "--hidden", "64", "--buckets", "8"],
        &[
            "--arch",
            "patterns",
            "--hidden",
            "96",
            "--activation",
            "screlu",
        ],
    ] {
        let a = args(extra);
        let spec = spec_of(&a).unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let model = Model::new(&spec, &mut rng, &Device::Cpu).unwrap();
        model.clip().unwrap();
        assert_quantised_matches(&model, &samples, &format!("{extra:?}"));
    }
    let tafl = tafl_samples();
    for extra in [
        &["--hidden", "64"][..],
        &["--hidden", "64", "--side-heads", "1"],
        &["--hidden", "96", "--activation", "screlu", "--buckets", "4"],
        &["--hidden", "32", "--side-heads", "1", "--buckets", "2"],
        &["--hidden", "64", "--king-reach"],
        &[
            "--hidden",
            "32",
            "--king-reach",
            "--activation",
            "screlu",
            "--side-heads",
            "1",
        ],
    ] {
        let mut argv = vec!["--variant", "copenhagen"];
        argv.extend_from_slice(extra);
        let a = args(&argv);
        let spec = spec_of(&a).unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(4);
        let model = Model::new(&spec, &mut rng, &Device::Cpu).unwrap();
        model.clip().unwrap();
        assert_quantised_matches(&model, &tafl, &format!("{extra:?}"));
    }
}

/// A few Copenhagen positions, either side to move.
fn tafl_samples() -> Vec<Sample<TaflPos>> {
    [
        "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0 1",
        "4ttt2t1/1t9/1t9/t2t1T1t2t/t3T1T1T1t/t2TTKTT2t/tT3T4t/t5T3t/11/4t1T4/3ttttt3 a 14 8",
        "3ttttt3/1t8t/6T4/t5T4/t3TT1T2t/tt1TTK1T1tt/t3TTT1T1t/5t4t/5tt4/11/3ttt1t3 d 14 8",
        "3tt6/1t9/6T4/t9t/t4T4t/t1K3T3t/t7t2/5t4t/5tt4/11/3ttt1t3 d 3 30",
    ]
    .iter()
    .map(|fen| {
        let (board, side, reach) = skald::tafl::packed::reach_of_fen("copenhagen", fen).unwrap();
        Sample {
            pos: TaflPos { board, side, reach },
            target: 0.5,
        }
    })
    .collect()
}

/// `--init` reads a written network back as the same weights: quantising the model built
/// from the file gives the file's bytes again (Ataxx patterns with one and four buckets,
/// tafl with one and two side-to-move heads). A mismatched activation or head count is
/// refused; a one-bucket network starts a bucketed model, a one-head tafl network a two-head
/// one, and a network a model of more hidden neurons (not fewer), that evaluate as it does.
#[test]
fn a_network_read_back_quantises_to_the_same_file() {
    let dev = Device::Cpu;
    let path = temp("init.nnue");
    for buckets in ["1", "4"] {
        let with = |activation: &str, buckets: &str| {
            args(&[
                "--arch",
                "patterns",
                "--hidden",
                "64",
                "--activation",
                activation,
                "--buckets",
                buckets,
            ])
        };
        let spec = spec_of(&with("screlu", buckets)).unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let model = Model::new(&spec, &mut rng, &dev).unwrap();
        model.clip().unwrap();
        let bytes = model.quantise().unwrap().to_bytes();
        std::fs::write(&path, &bytes).unwrap();
        let back = Model::from_network(&spec, &path, &mut rng, &dev).unwrap();
        assert_eq!(back.quantise().unwrap().to_bytes(), bytes);
        let crelu = spec_of(&with("crelu", buckets)).unwrap();
        assert!(Model::from_network(&crelu, &path, &mut rng, &dev).is_err());
        if buckets == "1" {
            let eight = spec_of(&with("screlu", "8")).unwrap();
            let wide = Model::from_network(&eight, &path, &mut rng, &dev).unwrap();
            let (one, eight) = (back.quantise().unwrap(), wide.quantise().unwrap());
            for fen in [
                "x5o/7/7/7/7/7/o5x x 0 1",
                "xxxxxxx/ooooooo/xxxxxxx/7/7/7/o5x o 0 9",
            ] {
                let pos = Position::start().with_fen(fen).unwrap();
                assert_eq!(pos.quantised_eval(&one), pos.quantised_eval(&eight));
            }
            // A wider model (128 hidden from 64) evaluates as the file; a narrower is refused.
            let hidden = |h: &str| {
                let mut a = with("screlu", "1");
                a.hidden = h.parse().unwrap();
                spec_of(&a).unwrap()
            };
            let widened = Model::from_network(&hidden("128"), &path, &mut rng, &dev).unwrap();
            let widened = widened.quantise().unwrap();
            for fen in [
                "x5o/7/7/7/7/7/o5x x 0 1",
                "xxxxxxx/ooooooo/xxxxxxx/7/7/7/o5x o 0 9",
                "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
            ] {
                let pos = Position::start().with_fen(fen).unwrap();
                assert_eq!(pos.quantised_eval(&one), pos.quantised_eval(&widened));
            }
            assert!(Model::from_network(&hidden("32"), &path, &mut rng, &dev).is_err());
        } else {
            let two = spec_of(&with("screlu", "2")).unwrap();
            assert!(Model::from_network(&two, &path, &mut rng, &dev).is_err());
        }
    }
    let tafl = |heads: &str, buckets: &str| {
        spec_of(&args(&[
            "--variant",
            "copenhagen",
            "--hidden",
            "32",
            "--side-heads",
            heads,
            "--buckets",
            buckets,
        ]))
        .unwrap()
    };
    for heads in ["1", "2"] {
        let spec = tafl(heads, "1");
        let mut rng = rand::rngs::StdRng::seed_from_u64(6);
        let model = Model::new(&spec, &mut rng, &dev).unwrap();
        model.clip().unwrap();
        let bytes = model.quantise().unwrap().to_bytes();
        std::fs::write(&path, &bytes).unwrap();
        let back = Model::from_network(&spec, &path, &mut rng, &dev).unwrap();
        assert_eq!(back.quantise().unwrap().to_bytes(), bytes);
        // More heads and buckets from fewer evaluate as the file.
        let wider = Model::from_network(&tafl("2", "4"), &path, &mut rng, &dev).unwrap();
        let (a, b) = (back.quantise().unwrap(), wider.quantise().unwrap());
        for s in tafl_samples() {
            assert_eq!(s.pos.quantised_eval(&a), s.pos.quantised_eval(&b));
        }
        // A wider model (64 hidden from 32) evaluates as the file.
        let mut wide = tafl(heads, "1");
        wide.hidden = 64;
        let widened = Model::from_network(&wide, &path, &mut rng, &dev).unwrap();
        let c = widened.quantise().unwrap();
        for s in tafl_samples() {
            assert_eq!(s.pos.quantised_eval(&a), s.pos.quantised_eval(&c));
        }
        // Another board.
        let brandubh = spec_of(&args(&["--variant", "brandubh", "--hidden", "32"])).unwrap();
        let err = Model::from_network(&brandubh, &path, &mut rng, &dev)
            .err()
            .unwrap();
        assert!(format!("{err:#}").contains("not 7x7"), "{err:#}");
    }
    let two_heads_file = tafl("2", "1");
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let model = Model::new(&two_heads_file, &mut rng, &dev).unwrap();
    std::fs::write(&path, model.quantise().unwrap().to_bytes()).unwrap();
    assert!(Model::from_network(&tafl("1", "1"), &path, &mut rng, &dev).is_err());
    std::fs::remove_file(&path).unwrap();
}

/// A symmetry of the board maps the pattern features of a position to those of its image
/// (computed from the image's FEN, not from permuted bitboards).
#[test]
fn pattern_features_follow_the_symmetries() {
    let pos = Position::start()
        .with_fen("xx4o/xxo4/2-1-2/3x3/2-1-2/7/o4ox x 0 5")
        .unwrap();
    let side = pos.side_to_move();
    for perm in ATAXX_SYMS.iter() {
        let image = |bb: Bitboard| permute(bb, perm);
        let mut board = [['1'; 7]; 7];
        for (bb, c) in [
            (image(pos.stones(side)), 'x'),
            (image(pos.stones(side.opponent())), 'o'),
            (image(pos.blocked()), '-'),
        ] {
            for sq in skald::ataxx::bitboard::Squares(bb) {
                board[sq.index() / 7][sq.index() % 7] = c;
            }
        }
        let placement: Vec<String> = (0..7)
            .rev()
            .map(|r| board[r].iter().collect::<String>())
            .collect();
        let fen = format!("{} x 0 1", placement.join("/"));
        let fen = fen
            .replace("1111111", "7")
            .replace("111111", "6")
            .replace("11111", "5")
            .replace("1111", "4")
            .replace("111", "3")
            .replace("11", "2");
        let img = Position::start().with_fen(&fen).unwrap();
        let from_bits: Vec<usize> = nnue::pattern_features(
            image(pos.stones(side)),
            image(pos.stones(side.opponent())),
            image(pos.blocked()),
        )
        .collect();
        let from_fen: Vec<usize> = nnue::patterns_of(&img, img.side_to_move()).collect();
        assert_eq!(from_bits, from_fen, "{fen}");
    }
}

fn targets() -> Targets {
    Targets {
        lambda: 0.3,
        k: 1000,
    }
}

/// A binary datagen file and a text one with the same positions read to the same samples;
/// a damaged binary file is an error naming the record.
#[test]
fn binary_and_text_data_read_alike() {
    use skald::ataxx::packed::{PackedPosition, PackedWriter};
    let rows = [
        ("x5o/7/7/7/7/7/o5x x 0 1", 12, Wdl::Draw),
        ("x5o/7/2-1-2/7/2-1-2/7/o5x o 3 7", -250, Wdl::Loss),
        ("xx4o/xxo4/2-1-2/3x3/2-1-2/7/o4ox x 0 5", 400, Wdl::Win),
    ];
    let (bin, txt) = (temp("a.bin"), temp("a.txt"));
    let mut w = PackedWriter::new(Vec::new()).unwrap();
    let mut text = String::new();
    for (fen, score, result) in rows {
        let position = Position::start().with_fen(fen).unwrap();
        w.write(&PackedPosition {
            position,
            score,
            result,
        })
        .unwrap();
        text += &format!("{fen} | {score} | {:.1}\n", result.value());
    }
    let bytes = w.into_inner().unwrap();
    std::fs::write(&bin, &bytes).unwrap();
    std::fs::write(&txt, text).unwrap();
    let from_bin = data::read_ataxx(std::slice::from_ref(&bin), targets()).unwrap();
    let from_txt = data::read_ataxx(std::slice::from_ref(&txt), targets()).unwrap();
    assert_eq!(from_bin.len(), 3);
    for ((b, t), (fen, _, _)) in from_bin.iter().zip(&from_txt).zip(rows) {
        assert_eq!(b.pos.fen(), fen);
        assert_eq!(b.pos, t.pos);
        assert_eq!(b.target, t.target);
    }
    std::fs::write(&bin, &bytes[..bytes.len() - 3]).unwrap();
    let err = format!(
        "{:#}",
        data::read_ataxx(std::slice::from_ref(&bin), targets())
            .err()
            .unwrap()
    );
    let _ = std::fs::remove_file(&bin);
    let _ = std::fs::remove_file(&txt);
    assert!(err.contains("record 3"), "{err}");
}

/// Tafl data: a binary file and a text file of the same positions read alike; a file of
/// another variant, and Ataxx data, are refused; with one side-to-move head the targets are
/// the defenders' view.
#[test]
fn tafl_binary_and_text_data_read_alike() {
    let rows = [
        (
            "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0 1",
            -40,
            Wdl::Draw,
        ),
        (
            "3ttttt3/1t8t/6T4/t5T4/t3TT1T2t/tt1TTK1T1tt/t3TTT1T1t/5t4t/5tt4/11/3ttt1t3 d 14 8",
            250,
            Wdl::Win,
        ),
    ];
    let (bin, txt) = (temp("t.bin"), temp("t.txt"));
    let header = TaflHeader {
        size: 11,
        variant: "copenhagen".into(),
    };
    let mut w = TaflWriter::new(Vec::new(), &header).unwrap();
    let mut text = String::new();
    for (fen, score, result) in rows {
        let rec = skald::tafl::packed::record_of_fen("copenhagen", fen, score, result).unwrap();
        w.write(&rec).unwrap();
        text += &format!("{fen} | {score} | {:.1}\n", result.value());
    }
    std::fs::write(&bin, w.into_inner().unwrap()).unwrap();
    std::fs::write(&txt, text).unwrap();
    // Both files read for the network `spec`.
    let read = |path: &std::path::PathBuf, spec: &net::Spec| {
        data::read_tafl(
            std::slice::from_ref(path),
            targets(),
            spec.tafl_inputs().unwrap(),
        )
        .unwrap()
    };
    for heads in ["2", "1"] {
        let spec = spec_of(&args(&["--variant", "copenhagen", "--side-heads", heads])).unwrap();
        // With the king's reach, both files give it, and it is the library's.
        let reach_spec = spec_of(&args(&["--variant", "copenhagen", "--king-reach"])).unwrap();
        let rb = read(&bin, &reach_spec);
        let rt = read(&txt, &reach_spec);
        for ((b, t), (fen, _, _)) in rb.iter().zip(&rt).zip(rows) {
            assert_eq!(b.pos, t.pos);
            let (_, _, reach) = skald::tafl::packed::reach_of_fen("copenhagen", fen).unwrap();
            assert_eq!(b.pos.reach, reach);
        }
        // The king of the start position cannot move; the other one can.
        assert_eq!(rb[0].pos.reach, [0; 3]);
        assert_ne!(rb[1].pos.reach, [0; 3]);
        let from_bin = read(&bin, &spec);
        let from_txt = read(&txt, &spec);
        assert_eq!(from_bin.len(), 2);
        for (b, t) in from_bin.iter().zip(&from_txt) {
            assert_eq!(b.pos, t.pos);
            assert_eq!(b.target, t.target);
        }
        let stm = targets().target(-40, 0.5, false);
        let first = if heads == "1" { 1.0 - stm } else { stm };
        assert!((from_bin[0].target - first).abs() < 1e-6);
        assert_eq!(from_bin[1].pos.side, Side::Second);
        assert_eq!(from_bin[1].target, targets().target(250, 1.0, false));
    }
    // Files of Copenhagen read for a Tablut network: refused, naming the file.
    let tablut = spec_of(&args(&["--variant", "tablut"])).unwrap();
    let refused = |path: &std::path::PathBuf| {
        let inputs = tablut.tafl_inputs().unwrap();
        let err = data::read_tafl(std::slice::from_ref(path), targets(), inputs);
        format!("{:#}", err.err().unwrap())
    };
    let err = refused(&bin);
    assert!(err.contains("positions of copenhagen"), "{err}");
    let err = refused(&txt);
    assert!(err.contains(":1:"), "{err}");
    let err = data::read_ataxx(std::slice::from_ref(&bin), targets())
        .err()
        .unwrap();
    assert!(format!("{err:#}").contains("tafl data file"), "{err:#}");
    let _ = std::fs::remove_file(&bin);
    let _ = std::fs::remove_file(&txt);
}

/// Duplicates, also under a symmetry or with the colours swapped, merge into the first with
/// the mean target; other positions stay in order.
#[test]
fn duplicates_merge_with_the_mean_target() {
    let spec = spec_of(&args(&[])).unwrap();
    let s = |fen: &str, target: f32| Sample {
        pos: Position::start().with_fen(fen).unwrap(),
        target,
    };
    let samples = vec![
        s("x5o/7/7/7/7/7/o5x x 0 1", 0.2),
        s("xx4o/7/7/7/7/7/o5x o 1 3", 0.5),
        // The start position with other clocks: a duplicate.
        s("x5o/7/7/7/7/7/o5x x 4 9", 0.4),
        // The second position mirrored left to right: a duplicate.
        s("o4xx/7/7/7/7/7/x5o o 0 1", 0.7),
        // The start position with the colours swapped and o to move: a duplicate.
        s("o5x/7/7/7/7/7/x5o o 0 1", 0.6),
        // x to move instead of o: the side to move's view differs, not a duplicate.
        s("xx4o/7/7/7/7/7/o5x x 1 3", 0.9),
    ];
    let (out, merged) = data::dedup(samples, |p| p.key(&spec));
    assert_eq!(merged, 3);
    assert_eq!(out.len(), 3);
    assert_eq!(out[0].pos.fen(), "x5o/7/7/7/7/7/o5x x 0 1");
    assert!((out[0].target - 0.4).abs() < 1e-6, "{}", out[0].target);
    assert_eq!(out[1].pos.fen(), "xx4o/7/7/7/7/7/o5x o 1 3");
    assert!((out[1].target - 0.6).abs() < 1e-6, "{}", out[1].target);
    assert_eq!(out[2].target, 0.9);
}

/// Tafl duplicates up to the board's symmetries (a position and its mirror image), with
/// the same side to move, merge; the other side to move does not.
#[test]
fn tafl_duplicates_merge_up_to_symmetry() {
    let spec = spec_of(&args(&["--variant", "copenhagen"])).unwrap();
    let base = tafl_samples()[1];
    let perms = &spec.tafl.as_ref().unwrap().perms;
    assert_eq!(perms.len(), 8);
    let mirrored = Sample {
        pos: TaflPos {
            board: base.pos.board.permuted(&perms[5]),
            ..base.pos
        },
        target: 0.9,
    };
    let other_side = Sample {
        pos: TaflPos {
            side: Side::Second,
            ..base.pos
        },
        target: 0.1,
    };
    let start = Sample {
        target: 0.2,
        ..tafl_samples()[0]
    };
    let (out, merged) = data::dedup(vec![start, base, mirrored, other_side], |p| p.key(&spec));
    assert_eq!(merged, 1);
    assert_eq!(out.len(), 3);
    assert!((out[1].target - 0.7).abs() < 1e-6);
    assert_eq!(out[2].target, 0.1);
}

/// Each Ataxx symmetry is a permutation that keeps Chebyshev distances (so clones stay
/// clones and jumps stay jumps), and the 8 are distinct.
#[test]
fn symmetries_are_distinct_isometries() {
    let syms = net::ataxx_symmetries();
    let dist = |a: usize, b: usize| {
        let (ra, fa, rb, fb) = (a / 7, a % 7, b / 7, b % 7);
        ra.abs_diff(rb).max(fa.abs_diff(fb))
    };
    for (i, p) in syms.iter().enumerate() {
        let mut seen = [false; 49];
        for &img in p {
            seen[img] = true;
        }
        assert!(seen.iter().all(|&s| s));
        for a in 0..49 {
            for b in 0..49 {
                assert_eq!(dist(a, b), dist(p[a], p[b]));
            }
        }
        for q in &syms[..i] {
            assert_ne!(p, q);
        }
    }
}

/// The loader hands over the same batches, in the same order, for any number of threads.
#[test]
fn batches_do_not_depend_on_the_loader_threads() {
    let spec = Arc::new(spec_of(&args(&["--variant", "copenhagen"])).unwrap());
    let samples: Vec<Sample<TaflPos>> = (0..10).flat_map(|_| tafl_samples()).collect();
    let samples = Arc::new(samples);
    let order = Arc::new((0..samples.len() as u32).rev().collect::<Vec<_>>());
    let collect = |threads| {
        Loader::start(&spec, &samples, order.clone(), 7, true, 9, 2, threads)
            .map(|b| (b.n, b.slots, b.idx[0].clone(), b.heads, b.targets))
            .collect::<Vec<_>>()
    };
    let one = collect(1);
    assert_eq!(one.len(), 6);
    assert_eq!(one, collect(3));
    // Augmented batches differ from the plain ones somewhere.
    let plain = make_batch(&spec, &samples, &order[..7], None);
    assert_ne!(plain.idx[0], one[0].2);
}

/// A whole run on a few hundred tafl positions of a binary file: it trains and writes a
/// network the engine reads for Copenhagen 11×11.
#[test]
fn a_small_tafl_run_writes_a_network_the_engine_reads() {
    let (data, out) = (temp("run.bin"), temp("run.nnue"));
    let header = TaflHeader {
        size: 11,
        variant: "copenhagen".into(),
    };
    let mut w = TaflWriter::new(Vec::new(), &header).unwrap();
    // Random games from the start: the defenders "win" the games where they have more
    // pieces left, so that there is something to learn.
    let mut rng = skald::rng::SeededRng::new(3);
    let mut moves = Vec::new();
    let mut count = 0;
    for _ in 0..12 {
        let mut pos = skald::tafl::copenhagen();
        let mut seen = Vec::new();
        for _ in 0..40 {
            if pos.outcome().is_decided() {
                break;
            }
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.below(moves.len() as u64) as usize]);
            if !pos.outcome().is_decided() {
                seen.push(pos);
            }
        }
        for p in seen {
            let defenders =
                p.defenders().count_ones() as i32 * 2 - p.attackers().count_ones() as i32;
            let score = if p.side_to_move() == Side::Second {
                defenders * 30
            } else {
                -defenders * 30
            };
            let result = if score > 0 { Wdl::Win } else { Wdl::Loss };
            w.write(&TaflRecord::from_position(&p, score as i16, result).unwrap())
                .unwrap();
            count += 1;
        }
    }
    assert!(count > 300, "{count}");
    std::fs::write(&data, w.into_inner().unwrap()).unwrap();
    let a = Args::parse_from([
        "t",
        "--variant",
        "copenhagen",
        "--data",
        data.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
        "--hidden",
        "32",
        "--epochs",
        "3",
        "--batch",
        "64",
        "--lr",
        "0.01",
        "--validation",
        "0.2",
        "--loaders",
        "2",
    ]);
    run(a).unwrap();
    let net = skald::tafl::nnue::TaflNetwork::load(&out).unwrap();
    assert_eq!((net.board(), net.variant()), (11, "copenhagen"));
    let choice = skald::eval::EvalChoice::from_eval_file(
        out.to_str().unwrap(),
        skald::variant::network_loader(),
    )
    .unwrap();
    let start = skald::tafl::copenhagen();
    let eval = start.evaluator(&choice);
    assert!(eval.unfit().is_none());
    let _ = Quantised::Tafl(net);
    let _ = std::fs::remove_file(&data);
    let _ = std::fs::remove_file(&out);
}
