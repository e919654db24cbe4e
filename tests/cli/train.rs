//! `reversi train` over the binary on a tiny data set: generation resumed
//! equals one run, a fit writes a weights file the study commands read,
//! probcut writes its table, and files they did not write are never
//! replaced.

use crate::harness::{
    binary_of, expect_success, expect_usage_error, lab, reversi, scratch_in, train_generate,
};
use std::fs;
use std::path::Path;

/// `reversi train generate` of `games` games (seed 3, solved from 10
/// empties) into `out`.
fn generate(out: &Path, games: u32) {
    train_generate()
        .args(["--games", &games.to_string(), "--out"])
        .arg(out)
        .assert()
        .success();
}

#[test]
fn resumed_generation_fits_weights_that_the_engine_reads() {
    let dir = scratch_in("train", "pipeline");
    let (resumed, once) = (dir.join("resumed.txt"), dir.join("once.txt"));
    generate(&resumed, 12);
    generate(&resumed, 30);
    generate(&once, 30);
    let text = fs::read_to_string(&resumed).expect("games");
    assert_eq!(text, fs::read_to_string(&once).expect("games"));
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 30);

    let weights = dir.join("w.bin");
    let out = lab()
        .args([
            "train", "fit", "-q", "--lambda", "5", "--margin", "4", "--games",
        ])
        .arg(&resumed)
        .arg("--out")
        .arg(&weights)
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("| phase | empties |"), "{report}");
    assert!(fs::read(&weights)
        .expect("weights")
        .starts_with(b"RVPATTRN"));
    reversi()
        .args([
            "match",
            "--size",
            "8",
            "--depth",
            "1",
            "--eval",
            "pattern",
            "--weights",
        ])
        .arg(&weights)
        .assert()
        .success();

    // A file that is not a weights file is left alone.
    let notes = dir.join("notes.txt");
    fs::write(&notes, "mine").expect("write");
    let mut fit = lab();
    fit.args(["train", "fit", "-q", "--games"])
        .arg(&resumed)
        .arg("--out")
        .arg(&notes);
    expect_usage_error(&mut fit, "not replacing");
    let mut probcut = lab();
    probcut
        .args(["train", "probcut", "-q", "--games"])
        .arg(&resumed)
        .arg("--out")
        .arg(&notes);
    expect_usage_error(&mut probcut, "not replacing");
    assert_eq!(fs::read_to_string(&notes).expect("notes"), "mine");

    // A Multi-ProbCut table is written, and replaced by the next one.
    let table = dir.join("probcut.txt");
    for _ in 0..2 {
        lab()
            .args([
                "train",
                "probcut",
                "-q",
                "--positions",
                "2",
                "--depth",
                "3",
                "--games",
            ])
            .arg(&resumed)
            .arg("--out")
            .arg(&table)
            .assert()
            .success();
    }
    let text = fs::read_to_string(&table).expect("table");
    assert!(
        text.starts_with("# Multi-ProbCut table fitted by"),
        "{text}"
    );
    let mut wide = lab();
    wide.args(["train", "fit", "--margin", "31", "--games"])
        .arg(&resumed)
        .arg("--out")
        .arg(&weights);
    expect_usage_error(&mut wide, "margin");
}

#[test]
fn the_defaults_are_the_self_play_recipe() {
    // The lab manual's pipeline (the commands that made the self-play
    // weights, which the shipped weights refit, and data/probcut.txt):
    // every option it gives with a value is that subcommand's default, so
    // `reversi-lab train SUB --games/--out ...` alone reproduces it.
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/LAB.md"))
        .expect("docs/LAB.md");
    for sub in ["generate", "fit", "probcut"] {
        let prefix = format!("reversi-lab train {sub} ");
        let recipe = readme
            .lines()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("docs/LAB.md gives no `{prefix}...` line"));
        let help = lab().args(["train", sub, "--help"]).output().expect("help");
        let help = String::from_utf8_lossy(&help.stdout).to_string();
        let words: Vec<&str> = recipe.split_whitespace().collect();
        for pair in words.windows(2) {
            let Some(name) = pair[0].strip_prefix("--") else {
                continue;
            };
            let line = help
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("--{name} <")))
                .unwrap_or_else(|| panic!("{sub} has no --{name}"));
            match line.split("[default: ").nth(1) {
                Some(default) => assert_eq!(
                    default.trim_end().trim_end_matches(']'),
                    pair[1],
                    "{sub} --{name}"
                ),
                // Only the files have no default.
                None => assert!(["out", "games"].contains(&name), "{sub} --{name}"),
            }
        }
    }
}

#[test]
fn probcut_fits_the_endgame_model_from_the_solved_lines() {
    let dir = scratch_in("train", "endgame-model");
    let games = dir.join("games.txt");
    lab()
        .args([
            "train",
            "generate",
            "-q",
            "--seed",
            "5",
            "--depth",
            "2",
            "--solve-empties",
            "12",
            "--games",
            "8",
            "--out",
        ])
        .arg(&games)
        .assert()
        .success();
    let table = dir.join("probcut.txt");
    let run = |cells: &str| {
        lab()
            .args(["train", "probcut", "-q", "--positions", "2", "--depth", "3"])
            .args(["--cell-positions", cells, "--games"])
            .arg(&games)
            .arg("--out")
            .arg(&table)
            .output()
            .expect("run")
    };
    let out = run("3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = fs::read_to_string(&table).expect("table");
    assert_eq!(String::from_utf8_lossy(&out.stdout), text);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("endgame ")).count(),
        1,
        "{text}"
    );
    let parsed = reversi::engine::probcut::ProbCutTable::parse(&text).expect("parses");
    let model = parsed.endgame().expect("an endgame model");
    // The cells it was fitted on: 8 to 12 empties at depths 0, 2 and 4.
    let cells: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("# endgame cell: ") && !l.contains("empties"))
        .collect();
    assert!(cells.len() >= 6, "{text}");
    for c in &cells {
        let f: Vec<f64> = c[16..]
            .split_whitespace()
            .map(|x| x.parse().expect("number"))
            .collect();
        assert!(
            (8.0..=12.0).contains(&f[0]) && [0.0, 2.0, 4.0].contains(&f[1]),
            "{c}"
        );
        assert!(f[2] >= 3.0 && f[3] > 0.0, "{c}");
    }
    assert!(model.sigma(10, 2) > 0.0);

    // 8 games have no cell of 30 solved positions: no model, a warning,
    // and a table without the endgame line, which still reads.
    let out = run("30");
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("warning: no endgame model"), "{stderr}");
    let text = fs::read_to_string(&table).expect("table");
    assert!(!text.contains("endgame "), "{text}");
    let parsed = reversi::engine::probcut::ProbCutTable::parse(&text).expect("parses");
    assert_eq!(parsed.endgame(), None);

    // Exact labels fit the model where the games have no solved lines:
    // the same 8 games labelled exactly from 12 empties give the cells of
    // their solved lines again (the same positions and scores).
    let labels = dir.join("exact.txt");
    lab()
        .args([
            "train",
            "label",
            "-q",
            "--empties",
            "8-12",
            "--exact-empties",
            "12",
        ])
        .arg("--games")
        .arg(&games)
        .arg("--out")
        .arg(&labels)
        .assert()
        .success();
    let unsolved = dir.join("unsolved.txt");
    let games_text = fs::read_to_string(&games).expect("games");
    let unsolved_text: String = games_text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            if l.starts_with('#') {
                format!("{l}\n")
            } else {
                // Solved at the game's end: no solved line.
                format!("{}\t{}\t{}\t{}\n", f[0], f[1], f[1].len() / 2, f[3])
            }
        })
        .collect();
    fs::write(&unsolved, unsolved_text).expect("written");
    expect_success(
        lab()
            .args(["train", "probcut", "-q", "--positions", "2", "--depth", "3"])
            .args(["--cell-positions", "3", "--off-path", "2", "--games"])
            .arg(&unsolved)
            .arg("--labels")
            .arg(&labels)
            .arg("--out")
            .arg(&table),
    );
    let with_labels = fs::read_to_string(&table).expect("table");
    assert!(
        with_labels
            .lines()
            .next()
            .unwrap()
            .contains("off the games' path (1/2), "),
        "{with_labels}"
    );
    let cells_of = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("# endgame cell: ") && !l.contains("empties"))
            .map(str::to_owned)
            .collect()
    };
    let solved_cells = cells_of(&String::from_utf8_lossy(&run("3").stdout));
    assert_eq!(cells_of(&with_labels), solved_cells);
}

/// Whether GNU parallel runs here; `None` with the reason when it does
/// not. Under CI (`CI` set) a missing parallel fails the test instead:
/// `.ci/run` installs it.
pub(crate) fn gnu_parallel() -> Option<()> {
    let found = std::process::Command::new("parallel")
        .arg("--version")
        .output()
        .map(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains("GNU parallel"));
    match found {
        Ok(true) => Some(()),
        other => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI is set but GNU parallel does not run ({other:?}): install it (apt-get install parallel)"
            );
            crate::harness::skipped(&format!("GNU parallel does not run here ({other:?})"));
            None
        }
    }
}

/// Runs `reversi ARGS --shard {}/3 --out PREFIX.{}` for the three shards
/// under GNU parallel (all at once, one thread each) and returns the
/// shards' files.
fn under_parallel(args: &[&str], prefix: &Path) -> Vec<std::path::PathBuf> {
    let out = std::process::Command::new("parallel")
        .args(["--will-cite", "--halt", "now,fail=1", "-j", "3"])
        .arg(binary_of(args))
        .args(args)
        .args(["--threads", "1", "-q", "--shard", "{}/3", "--out"])
        .arg(format!("{}.{{}}", prefix.display()))
        .args([":::", "0", "1", "2"])
        .output()
        .expect("run parallel");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (0..3)
        .map(|k| std::path::PathBuf::from(format!("{}.{k}", prefix.display())))
        .collect()
}

fn merge(out: &Path, shards: &[std::path::PathBuf]) -> std::process::Output {
    lab()
        .args(["train", "merge", "--out"])
        .arg(out)
        .args(shards.iter().rev())
        .output()
        .expect("run")
}

#[test]
fn a_pipeline_sharded_under_gnu_parallel_merges_to_the_unsharded_files() {
    if gnu_parallel().is_none() {
        return;
    }
    let dir = scratch_in("train", "sharded");
    let play = [
        "train",
        "generate",
        "--games",
        "10",
        "--seed",
        "5",
        "--level",
        "2",
        "--solve-empties",
        "10",
    ];
    let games = dir.join("games.txt");
    lab()
        .args(play)
        .args(["-q", "--out"])
        .arg(&games)
        .assert()
        .success();
    let shards = under_parallel(&play, &dir.join("games"));
    let merged = dir.join("merged-games.txt");
    let out = merge(&merged, &shards);
    assert!(out.status.success(), "{out:?}");
    let text = fs::read_to_string(&games).expect("games");
    assert_eq!(fs::read_to_string(&merged).expect("merged"), text);
    assert_eq!(text.lines().count(), 11);
    assert!(text.starts_with("# reversi-lab train generate: seed 5 random 4-24 level 2 weights "));

    // Labels: searched from 13 to 20 empties, exact from 12 down to 8.
    fn label<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        let mut args = vec!["train", "label", "--empties", "8-20", "--depth", "3"];
        args.extend_from_slice(extra);
        args
    }
    let labels_args = label(&["--exact-empties", "12", "--games", games.to_str().unwrap()]);
    let labels = dir.join("labels.txt");
    lab()
        .args(&labels_args)
        .args(["-q", "--threads", "2", "--out"])
        .arg(&labels)
        .assert()
        .success();
    let shards = under_parallel(&labels_args, &dir.join("labels"));
    let merged = dir.join("merged-labels.txt");
    let out = merge(&merged, &shards);
    assert!(out.status.success(), "{out:?}");
    let text = fs::read_to_string(&labels).expect("labels");
    assert_eq!(fs::read_to_string(&merged).expect("merged"), text);
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert!(lines.len() > 100, "{}", lines.len());
    assert!(
        lines.iter().any(|l| l.ends_with("\texact")) && lines.iter().any(|l| l.ends_with("\td3"))
    );

    // A shard missing, a shard twice, a shard cut short: refused.
    expect_usage_error(
        lab()
            .args(["train", "merge", "--out"])
            .arg(dir.join("x.txt"))
            .args(&shards[..2]),
        "shard 2/3 is missing",
    );
    expect_usage_error(
        lab()
            .args(["train", "merge", "--out"])
            .arg(dir.join("x.txt"))
            .args([&shards[0], &shards[0], &shards[1]]),
        "given twice",
    );
    let cut = fs::read_to_string(&shards[1]).expect("shard");
    fs::write(&shards[1], &cut[..cut.len() - 5]).expect("cut");
    expect_usage_error(
        lab()
            .args(["train", "merge", "--out"])
            .arg(dir.join("x.txt"))
            .args(&shards),
        "cut short",
    );
    assert!(!dir.join("x.txt").exists());
    // Run again, the cut shard is finished, and the merge is whole again.
    under_parallel(&labels_args, &dir.join("labels"));
    let out = merge(&merged, &shards);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(fs::read_to_string(&merged).expect("merged"), text);

    // Exact labels of the same positions measure the searched ones.
    let exact = dir.join("exact.txt");
    lab()
        .args(label(&[
            "--exact-empties",
            "20",
            "--games",
            games.to_str().unwrap(),
        ]))
        .args(["-q", "--out"])
        .arg(&exact)
        .assert()
        .success();
    let out = lab()
        .args(["train", "compare", "--labels"])
        .arg(&labels)
        .arg("--reference")
        .arg(&exact)
        .output()
        .expect("run");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    // Exact labels agree with the exact reference from 12 empties down.
    for empties in 8..=12 {
        assert!(
            report.contains(&format!("| {empties} |"))
                && report
                    .lines()
                    .any(|l| l.starts_with(&format!("| {empties} |"))
                        && l.ends_with("| 0.00 | +0.00 |")),
            "{report}"
        );
    }
    assert!(report.contains("| all | "), "{report}");

    // The weights fit on games and labels together.
    let weights = dir.join("w.bin");
    let out = lab()
        .args(["train", "fit", "-q", "--lambda", "5", "--games"])
        .arg(&games)
        .arg("--labels")
        .arg(&labels)
        .arg("--out")
        .arg(&weights)
        .output()
        .expect("run");
    assert!(out.status.success(), "{out:?}");
    assert!(fs::read(&weights)
        .expect("weights")
        .starts_with(b"RVPATTRN"));

    // Labels of depth 4 on the same positions: `--mean-of-searches` fits
    // on the mean of the two searches' values (the exact labels kept),
    // as a file holding those means does.
    let deeper = dir.join("labels-d4.txt");
    let mut deeper_args = labels_args.clone();
    deeper_args[5] = "4";
    lab()
        .args(&deeper_args)
        .args(["-q", "--out"])
        .arg(&deeper)
        .assert()
        .success();
    let deeper_text = fs::read_to_string(&deeper).expect("labels");
    let mut means = String::new();
    let mut averaged = 0;
    for (line, other) in text.lines().zip(deeper_text.lines()) {
        let (fields, others): (Vec<&str>, Vec<&str>) =
            (line.split('\t').collect(), other.split('\t').collect());
        if line.starts_with('#') || fields[6] == "exact" {
            assert_eq!(line.starts_with('#'), other.starts_with('#'));
            means.push_str(line);
        } else {
            assert_eq!(
                (fields[2], fields[3], others[6]),
                (others[2], others[3], "d4")
            );
            let sum: i64 = fields[5].parse::<i64>().unwrap() + others[5].parse::<i64>().unwrap();
            let mean = (2 * sum + sum.signum() * 2) / 4;
            averaged += usize::from(fields[5] != others[5]);
            let mut fields = fields.clone();
            let mean = mean.to_string();
            fields[5] = &mean;
            means.push_str(&fields.join("\t"));
        }
        means.push('\n');
    }
    assert!(averaged > 20, "{averaged} labels differ between the depths");
    let mean_file = dir.join("labels-mean.txt");
    fs::write(&mean_file, means).expect("write");
    let fit = |labels: &[&Path], extra: &[&str], out: &Path| {
        let mut command = lab();
        command.args(["train", "fit", "-q", "--lambda", "5", "--iterations", "20"]);
        for l in labels {
            command.arg("--labels").arg(l);
        }
        command.args(extra).arg("--out").arg(out).assert().success();
        fs::read(out).expect("weights")
    };
    let from_means = fit(&[&mean_file], &[], &dir.join("w-means.bin"));
    let both: [&Path; 2] = [&labels, &deeper];
    let mean_of_searches = fit(&both, &["--mean-of-searches"], &dir.join("w-mean-of.bin"));
    assert_eq!(mean_of_searches, from_means);
    assert_ne!(fit(&both, &[], &dir.join("w-first.bin")), from_means);

    // Weights against weights: the shipped ones beat those of 10 games at
    // the same level (with the same weights each opening's two games
    // mirror each other: 50%).
    let out = reversi()
        .args([
            "tournament",
            "--size",
            "8",
            "--level",
            "2",
            "--vs-level",
            "2",
            "--plies",
            "2",
            "-q",
            "--json",
            "--vs-weights",
        ])
        .arg(&weights)
        .output()
        .expect("run");
    let json = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    let wins: u32 = json
        .split("\"wins\":")
        .nth(1)
        .and_then(|t| t.split(',').next())
        .and_then(|t| t.parse().ok())
        .expect("wins");
    assert!(wins >= 16, "{json}");

    // hint reads the weights too: the level's values change with them.
    let hint = |weights: Option<&Path>| {
        let mut cmd = reversi();
        cmd.args([
            "hint",
            "--level",
            "3",
            "--exact",
            "0",
            "--moves",
            "1",
            "--no-book",
            "f5d6",
        ]);
        if let Some(w) = weights {
            cmd.arg("--weights").arg(w);
        }
        let out = cmd.output().expect("run");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert_ne!(hint(Some(&weights)), hint(None));
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/pattern-weights.bin");
    assert_eq!(hint(Some(&shipped)), hint(None));
    expect_usage_error(
        reversi().args(["hint", "f5", "--weights", "no-such-weights.bin"]),
        "no-such-weights.bin",
    );
}

/// `train label --off-path N` labels the positions after the moves the
/// games' players did not make: none of them a position the games reach,
/// one in N of all of them (a sample of the whole set), its header says
/// so, and its shards merge to the file of one run.
#[test]
fn off_path_labels_are_the_positions_after_moves_not_played() {
    let dir = scratch_in("train", "off_path");
    let games = dir.join("games.txt");
    generate(&games, 6);
    let run = |extra: &[&str], out: &Path| {
        lab()
            .args(["train", "label", "--empties", "20-30", "--depth", "1", "-q"])
            .args(["--games", games.to_str().unwrap()])
            .args(extra)
            .arg("--out")
            .arg(out)
            .assert()
            .success();
        let text = fs::read_to_string(out).expect("labels");
        let positions: Vec<String> = text
            .lines()
            .skip(1)
            .map(|l| l.split('\t').skip(2).take(2).collect::<Vec<_>>().join(" "))
            .collect();
        (text, positions)
    };
    let (_, on_path) = run(&[], &dir.join("on.txt"));
    let (all_text, all) = run(&["--off-path", "1"], &dir.join("all.txt"));
    let (sample_text, sample) = run(&["--off-path", "4"], &dir.join("sample.txt"));
    assert!(all_text.lines().next().unwrap().ends_with(" off-path 1/1"));
    assert!(sample_text
        .lines()
        .next()
        .unwrap()
        .ends_with(" off-path 1/4"));
    assert!(
        all.len() > 3 * on_path.len(),
        "{} {}",
        all.len(),
        on_path.len()
    );
    assert!(all.iter().all(|p| !on_path.contains(p)));
    assert!(sample.iter().all(|p| all.contains(p)));
    assert!(sample.len() * 6 > all.len() && sample.len() * 3 < all.len());
    let shards: Vec<_> = (0..2)
        .map(|k| {
            let out = dir.join(format!("shard-{k}.txt"));
            run(&["--off-path", "4", "--shard", &format!("{k}/2")], &out);
            out
        })
        .collect();
    let merged = dir.join("merged.txt");
    let out = merge(&merged, &shards);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(fs::read_to_string(&merged).unwrap(), sample_text);
}

#[test]
fn a_packed_label_file_unpacks_byte_for_byte_and_fits_the_same_weights() {
    let dir = scratch_in("train", "pack");
    let games = dir.join("games.txt");
    generate(&games, 8);
    let labels = dir.join("labels.txt");
    lab()
        .args(["train", "label", "--empties", "6-40", "--depth", "1", "-q"])
        .args(["--exact-empties", "8", "--games"])
        .arg(&games)
        .arg("--out")
        .arg(&labels)
        .assert()
        .success();
    let packed = dir.join("labels.rvl");
    let recipe = "reversi-lab train label --empties 6-40 --depth 1 --exact-empties 8";
    lab()
        .args(["train", "pack", "--recipe", recipe, "--input"])
        .arg(&games)
        .arg("--out")
        .arg(&packed)
        .arg(&labels)
        .assert()
        .success()
        .stdout("");
    let text = fs::read(&labels).expect("labels");
    let packed_bytes = fs::read(&packed).expect("packed");
    assert!(
        packed_bytes.len() * 3 < text.len(),
        "{} bytes",
        packed_bytes.len()
    );
    let unpacked = dir.join("unpacked.txt");
    let out = lab()
        .args(["train", "unpack", "--out"])
        .arg(&unpacked)
        .arg(&packed)
        .output()
        .expect("run");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(fs::read(&unpacked).expect("unpacked"), text);
    // The games file's checksum (FNV-1a of its bytes) and the recipe.
    let fnv = fs::read(&games)
        .expect("games")
        .iter()
        .fold(0xCBF2_9CE4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
        });
    let count = text.iter().filter(|&&b| b == b'\n').count() - 1;
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{count} labels\ninput: games.txt {fnv:016x}\nrecipe: {recipe}\n")
    );
    // Every reader takes the packed file as the text: the same fit.
    let fit = |input: &Path, out: &Path| {
        lab()
            .args(["train", "fit", "-q", "--lambda", "5", "--labels"])
            .arg(input)
            .arg("--out")
            .arg(out)
            .assert()
            .success();
        fs::read(out).expect("weights")
    };
    assert_eq!(
        fit(&labels, &dir.join("w-text.bin")),
        fit(&packed, &dir.join("w-packed.bin"))
    );
    // Refusals: packing a packed file, unpacking a text one, a file of
    // another kind, and replacing a file that is not ours.
    let (again_rvl, again_txt) = (dir.join("again.rvl"), dir.join("again.txt"));
    for (command, out, input, message) in [
        ("pack", &again_rvl, &packed, "is packed already"),
        ("unpack", &again_txt, &labels, "is not packed"),
        ("pack", &again_rvl, &games, "is not a label file"),
        ("pack", &games, &labels, "games.txt"),
    ] {
        expect_usage_error(
            lab().args(["train", command, "--out"]).arg(out).arg(input),
            message,
        );
    }
    assert!(!again_rvl.exists() && !again_txt.exists());
    // A packed file cut short is refused by its readers.
    let cut = dir.join("cut.rvl");
    fs::write(&cut, &packed_bytes[..packed_bytes.len() - 10]).expect("written");
    expect_usage_error(
        lab()
            .args(["train", "compare", "--reference"])
            .arg(&labels)
            .arg("--labels")
            .arg(&cut),
        "cut short",
    );
}

#[test]
fn a_label_files_positions_are_labelled_as_the_games_positions_are() {
    let dir = scratch_in("train", "positions");
    let games = dir.join("games.txt");
    generate(&games, 5);
    let label = |source: &[&str], empties: &str, out: &Path| {
        lab()
            .args(["train", "label", "--depth", "2", "-q", "--empties", empties])
            .args(source)
            .arg("--out")
            .arg(out)
            .assert()
            .success();
        fs::read_to_string(out).expect("labels")
    };
    let all = label(
        &["--games", games.to_str().unwrap()],
        "10-40",
        &dir.join("all.txt"),
    );
    let some = label(
        &["--games", games.to_str().unwrap()],
        "20-30",
        &dir.join("some.txt"),
    );
    let again = label(
        &["--positions", dir.join("all.txt").to_str().unwrap()],
        "20-30",
        &dir.join("again.txt"),
    );
    // Same positions, games, values and sources; only the header (its
    // list's checksum) may differ.
    let body = |text: &str| text.lines().skip(1).map(str::to_owned).collect::<Vec<_>>();
    assert!(body(&some).len() > 20, "{some}");
    assert_eq!(body(&again), body(&some));
    assert!(all.lines().count() > some.lines().count());
    expect_usage_error(
        lab()
            .args([
                "train",
                "label",
                "--empties",
                "20-30",
                "--off-path",
                "2",
                "--positions",
            ])
            .arg(dir.join("all.txt"))
            .arg("--out")
            .arg(dir.join("x.txt")),
        "--off-path",
    );
    expect_usage_error(
        lab()
            .args(["train", "label", "--empties", "20-30", "--positions"])
            .arg(&games)
            .arg("--out")
            .arg(dir.join("x.txt")),
        "is not a label file",
    );
}
