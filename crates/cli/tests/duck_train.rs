//! End-to-end tests of `arbiter duck selfplay` and `arbiter duck train`: the data file they
//! share, a run continued after an interruption, and a network trained from it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).output().unwrap()
}

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("duck-train").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `arbiter duck selfplay` on `out` with small games from seed 11 (or `seed`).
fn selfplay(out: &Path, games: &str, threads: &str, seed: Option<&str>) -> Output {
    let out = out.to_str().unwrap();
    let mut args = vec!["duck", "selfplay", "--out", out, "--games", games, "--threads", threads];
    args.extend_from_slice(&["--nodes", "150", "--random-plies", "10"]);
    args.extend_from_slice(&["--seed", seed.unwrap_or("11")]);
    arbiter(&args)
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_continued_run_writes_the_same_file_as_one_run() {
    let dir = scratch("continue");
    let whole = dir.join("whole.bin");
    let out = selfplay(&whole, "5", "2", None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("positions/s"), "{}", stderr(&out));
    let expected = std::fs::read(&whole).unwrap();
    assert!(expected.len() > 48 + 56, "some positions are kept");

    // Two games, then the rest on another number of threads.
    let parts = dir.join("parts.bin");
    assert_eq!(selfplay(&parts, "2", "1", None).status.code(), Some(0));
    let out = selfplay(&parts, "5", "3", None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("continuing"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&parts).unwrap(), expected);

    // A run stopped in the middle of a game's records: the partial game is played again.
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &expected[..expected.len() - 56 - 20]).unwrap();
    assert_eq!(selfplay(&cut, "5", "1", None).status.code(), Some(0));
    assert_eq!(std::fs::read(&cut).unwrap(), expected);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_is_continued_only_with_its_own_settings() {
    let dir = scratch("settings");
    let file = dir.join("data.bin");
    assert_eq!(selfplay(&file, "1", "1", None).status.code(), Some(0));
    let before = std::fs::read(&file).unwrap();
    let out = selfplay(&file, "2", "1", Some("12"));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("made with other settings (seed 11"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&file).unwrap(), before, "the file is left as it was");

    std::fs::write(&file, b"not a data file at all, longer than a header is: 48 bytes").unwrap();
    let out = selfplay(&file, "2", "1", None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a self-play data file"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn games_searched_by_a_network_name_it_and_continue_only_with_it() {
    let dir = scratch("network");
    let data = dir.join("data.bin");
    let file = data.to_str().unwrap();
    let play = |extra: &[&str]| {
        let mut args = vec!["duck", "selfplay", "--out", file, "--nodes", "150"];
        args.extend_from_slice(extra);
        arbiter(&args)
    };
    let out = play(&["--games", "2", "--eval-file", "<embedded>"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let bytes = std::fs::read(&data).unwrap();
    let embedded = arbiter_duck_engine::nnue::embedded();
    let fingerprint = arbiter_duck_engine::nnue::Network::read(embedded).unwrap().fingerprint();
    assert_eq!(bytes[8..10], 2u16.to_le_bytes(), "version 2 names the network");
    assert_eq!(bytes[48..56], fingerprint.to_le_bytes());
    assert_eq!((bytes.len() - 56) % 56, 0, "whole records after the 56-byte header");

    // The classical evaluation cannot continue a network's games.
    let out = play(&["--games", "3"]);
    assert_eq!(out.status.code(), Some(2));
    let expected = format!("network {fingerprint:016x}");
    assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
    assert_eq!(std::fs::read(&data).unwrap(), bytes, "the file is left as it was");

    let out = play(&["--games", "3", "--eval-file", dir.join("missing.nnue").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("missing.nnue"), "{}", stderr(&out));

    let net = dir.join("net.nnue");
    let args = ["duck", "train", "--data", file, "--out", net.to_str().unwrap(), "--hidden", "4"];
    let out = arbiter(&[&args[..], &["--epochs", "1", "--threads", "1"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let network = arbiter_duck_engine::nnue::Network::read(&std::fs::read(&net).unwrap()).unwrap();
    assert!(network.provenance.contains(&expected), "{}", network.provenance);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn train_writes_a_network_the_engine_reads_with_its_provenance() {
    let dir = scratch("train");
    let data = dir.join("data.bin");
    assert_eq!(selfplay(&data, "6", "2", None).status.code(), Some(0));
    let net = dir.join("net.nnue");
    let args = [
        "duck",
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        net.to_str().unwrap(),
        "--hidden",
        "8",
        "--epochs",
        "2",
        "--batch",
        "64",
        "--threads",
        "2",
        "--seed",
        "4",
        "--note",
        "a test network",
    ];
    let out = arbiter(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let log = stderr(&out);
    assert!(log.contains("epoch 2/2: training loss "), "{log}");
    assert!(log.contains("validation loss"), "{log}");
    let network = arbiter_duck_engine::nnue::Network::read(&std::fs::read(&net).unwrap()).unwrap();
    assert_eq!((network.hidden, network.scale), (8, 400));
    assert!(network.provenance.contains("hidden 8, epochs 2"), "{}", network.provenance);
    assert!(network.provenance.contains("seed 11, 150 nodes, 10 random plies, the classical"));
    let fingerprint = format!("fingerprint {:016x}", network.fingerprint());
    assert!(log.contains(&fingerprint), "{log}");
    assert!(network.provenance.ends_with("a test network\n"));
    let _ = network.evaluate_scratch(&arbiter_duck::Position::new());

    // The same command gives the same network.
    let first = std::fs::read(&net).unwrap();
    assert_eq!(arbiter(&args).status.code(), Some(0));
    assert_eq!(std::fs::read(&net).unwrap(), first);

    // Mirror images double the training positions, not the validation ones.
    let counts = |log: &str| -> (u64, u64) {
        let line = log.lines().find(|line| line.contains(" training positions")).unwrap();
        let numbers: Vec<u64> = line
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|word| word.parse().ok())
            .collect();
        (numbers[0], numbers[1])
    };
    let mirrored = arbiter(&[&args[..], &["--mirror"]].concat());
    assert_eq!(mirrored.status.code(), Some(0), "{}", stderr(&mirrored));
    let (plain, both) = (counts(&log), counts(&stderr(&mirrored)));
    assert_eq!((both.0, both.1), (2 * plain.0, plain.1), "{log}");
    let network = arbiter_duck_engine::nnue::Network::read(&std::fs::read(&net).unwrap()).unwrap();
    assert!(network.provenance.contains("(half of them mirror images)"), "{}", network.provenance);

    // Deduplication merges the positions seen twice (a symmetric position is its own mirror
    // image), and says how many; weight decay is named in the provenance.
    let deduped =
        arbiter(&[&args[..], &["--mirror", "--dedup", "--weight-decay", "0.01"]].concat());
    assert_eq!(deduped.status.code(), Some(0), "{}", stderr(&deduped));
    let log = stderr(&deduped);
    let line = log.lines().find(|line| line.contains(" training positions")).unwrap();
    let numbers: Vec<u64> =
        line.split(|c: char| !c.is_ascii_digit()).filter_map(|word| word.parse().ok()).collect();
    assert!(line.contains("(with mirror images; "), "{line}");
    let (kept, merged, validation) = (numbers[0], numbers[1], numbers[2]);
    assert_eq!((kept + merged, validation), both, "{line}");
    let network = arbiter_duck_engine::nnue::Network::read(&std::fs::read(&net).unwrap()).unwrap();
    assert!(network.provenance.contains("duplicates merged"), "{}", network.provenance);
    assert!(network.provenance.contains(", weight decay 0.01\n"), "{}", network.provenance);
    for bad in ["--weight-decay=-0.5", "--weight-decay=1000"] {
        let out = arbiter(&[&args[..], &[bad]].concat());
        assert_eq!(out.status.code(), Some(2), "--weight-decay {bad}");
        assert!(stderr(&out).contains("--weight-decay"), "{}", stderr(&out));
    }

    let out = arbiter(&["duck", "train", "--data", net.to_str().unwrap(), "--out", "x.nnue"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a self-play data file"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_finishes_the_games_under_way_and_the_run_goes_on_later() {
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let dir = scratch("interrupt");
    let out = dir.join("data.bin");
    let args = ["duck", "selfplay", "--out", out.to_str().unwrap(), "--games", "1000"];
    let child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .args(["--nodes", "150", "--random-plies", "10", "--seed", "11", "--threads", "2"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once the first games are written, Ctrl-C.
    let start = Instant::now();
    while std::fs::metadata(&out).map_or(0, |m| m.len()) < 48 + 56 * 50 {
        assert!(start.elapsed() < Duration::from_secs(60), "no games written");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: a signal to our own child, not yet waited for.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let output = child.wait_with_output().unwrap();
    let said = stderr(&output);
    assert_eq!(output.status.code(), Some(130), "{said}");
    assert!(said.contains("stopping: finishing the 2 game(s) under way"), "{said}");
    let written: u32 = said
        .split("stopped with ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("{said}"));
    assert!(written > 0 && written < 1000, "{said}");

    // The file ends with whole games: the same games as a run of that many without a stop.
    let whole = dir.join("whole.bin");
    let count = written.to_string();
    assert_eq!(selfplay(&whole, &count, "2", None).status.code(), Some(0));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&whole).unwrap());
    // And the run goes on from there.
    let more = (written + 2).to_string();
    let output = selfplay(&out, &more, "2", None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains(&format!("from games before {written}, continuing")));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Makes a FIFO at `path`.
fn fifo(path: &Path) {
    let name = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string; mkfifo only creates the node.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
}

#[test]
fn train_never_writes_over_its_data_and_checks_its_output_first() {
    let dir = scratch("out");
    let data = dir.join("data.bin");
    assert_eq!(selfplay(&data, "2", "1", None).status.code(), Some(0));
    let original = std::fs::read(&data).unwrap();
    let symlink = dir.join("symlink.bin");
    std::os::unix::fs::symlink(&data, &symlink).unwrap();
    let hard = dir.join("hard.bin");
    std::fs::hard_link(&data, &hard).unwrap();
    let other = dir.join("other.bin");
    assert_eq!(selfplay(&other, "1", "1", Some("5")).status.code(), Some(0));
    let train = |data: &[&Path], out: &Path| {
        let mut args = vec!["duck", "train", "--out", out.to_str().unwrap(), "--hidden", "4"];
        args.extend(["--epochs", "1", "--threads", "1", "--data"]);
        args.extend(data.iter().map(|path| path.to_str().unwrap()));
        arbiter(&args)
    };
    for out in [&data, &symlink, &hard] {
        let run = train(&[&other, &data], out);
        let log = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{log}");
        assert!(log.contains("writing it would destroy it"), "{log}");
        assert!(!log.contains("epoch"), "refused before training: {log}");
        assert_eq!(std::fs::read(&data).unwrap(), original);
    }
    // The data named through a link, the output under its own name.
    assert_eq!(train(&[&symlink], &data).status.code(), Some(2));
    assert_eq!(std::fs::read(&data).unwrap(), original);

    // An output in a directory that does not exist, or under a file, fails before training.
    for out in [dir.join("missing/net.nnue"), data.join("net.nnue")] {
        let run = train(&[&data], &out);
        let log = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{log}");
        assert!(log.starts_with("--out ") && log.contains("cannot write a file in"), "{log}");
        assert!(!log.contains("epoch"), "{log}");
    }

    // Data that is not a regular file is refused without being read.
    let pipe = dir.join("pipe.bin");
    fifo(&pipe);
    for (input, what) in [(Path::new("/dev/zero"), "a character device"), (&pipe, "a FIFO")] {
        let run = train(&[input], &dir.join("net.nnue"));
        let log = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{log}");
        assert!(log.contains(&format!("{what}, not a regular file")), "{log}");
    }

    // A good run leaves the network and nothing else: no temporary file.
    let net = dir.join("net.nnue");
    let run = train(&[&data], &net);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["data.bin", "hard.bin", "net.nnue", "other.bin", "pipe.bin", "symlink.bin"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn selfplay_continues_only_a_regular_file() {
    let dir = scratch("hostile-out");
    let pipe = dir.join("pipe.bin");
    fifo(&pipe);
    for (out, what) in [(Path::new("/dev/zero"), "a character device"), (&pipe, "a FIFO")] {
        let run = selfplay(out, "1", "1", None);
        let log = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{log}");
        assert!(log.contains(&format!("{what}, not a regular file")), "{log}");
    }
    // A 2 GiB sparse file that is not a data file is refused from its first bytes.
    let sparse = dir.join("sparse.bin");
    std::fs::File::create(&sparse).unwrap().set_len(2 << 30).unwrap();
    let run = selfplay(&sparse, "1", "1", None);
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("not a self-play data file"), "{}", stderr(&run));
    assert_eq!(std::fs::metadata(&sparse).unwrap().len(), 2 << 30, "left as it was");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn network_upgrade_converts_a_file_of_the_first_format() {
    use arbiter_duck_engine::nnue::Network;

    let dir = scratch("upgrade");
    let network = Network::random(8, 3);
    // The first format: no checksum, the provenance's length after the output bias.
    let mut old = b"ARBNNUE1".to_vec();
    for word in [1260, 8, network.scale, 255, 64] {
        old.extend_from_slice(&word.to_le_bytes());
    }
    for array in [&network.feature_weights, &network.feature_bias, &network.output_weights] {
        old.extend(array.iter().flat_map(|value| value.to_le_bytes()));
    }
    old.extend_from_slice(&network.output_bias[0].to_le_bytes());
    old.extend_from_slice(&(network.provenance.len() as u32).to_le_bytes());
    old.extend_from_slice(network.provenance.as_bytes());
    let path = dir.join("old.nnue");
    std::fs::write(&path, &old).unwrap();
    let upgrade = |from: &Path, to: &Path| {
        let (from, to) = (from.to_str().unwrap(), to.to_str().unwrap());
        arbiter(&["duck", "network", "upgrade", from, "--out", to])
    };

    // The engine refuses it, saying how to convert it.
    let out = arbiter(&["duck", "network", "show", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("arbiter duck network upgrade FILE --out NEW"),
        "{}",
        stderr(&out)
    );
    let new = dir.join("new.nnue");
    let out = upgrade(&path, &new);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let fingerprint = format!("fingerprint {:016x} (unchanged)", network.fingerprint());
    assert!(stderr(&out).contains(&fingerprint), "{}", stderr(&out));
    assert_eq!(Network::read(&std::fs::read(&new).unwrap()), Ok(network.clone()));
    let out = arbiter(&["duck", "network", "show", new.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(shown.contains("hidden 8, scale 400\n"), "{shown}");
    assert!(shown.ends_with("provenance:\nrandom weights, seed 3\n"), "{shown}");
    // Over itself, or on a file already converted: refused.
    let out = upgrade(&path, &path);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&path).unwrap(), old);
    let other = dir.join("other.nnue");
    let out = upgrade(&new, &other);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("already in the current format"), "{}", stderr(&out));
    assert!(!other.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn chunks_of_games_put_together_make_the_file_of_one_run() {
    let dir = scratch("chunks");
    let whole = dir.join("whole.bin");
    assert_eq!(selfplay(&whole, "5", "1", None).status.code(), Some(0));
    let expected = std::fs::read(&whole).unwrap();
    let chunk = |name: &str, first: &str, end: &str| {
        let path = dir.join(name);
        let out = path.to_str().unwrap();
        let mut args =
            vec!["duck", "selfplay", "--out", out, "--games", end, "--first-game", first];
        args.extend_from_slice(&["--nodes", "150", "--random-plies", "10", "--seed", "11"]);
        let run = arbiter(&args);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        std::fs::read(&path).unwrap()
    };
    let (first, second) = (chunk("a.bin", "0", "2"), chunk("b.bin", "2", "5"));
    // The classical evaluation's header: 48 bytes, the same in every chunk.
    assert_eq!(first[..48], second[..48]);
    assert_eq!([&first[..], &second[48..]].concat(), expected);
    // A chunk's file goes on only as a chunk that starts at or before its games.
    let out = dir.join("b.bin");
    let args = ["duck", "selfplay", "--out", out.to_str().unwrap(), "--games", "5"];
    let settings = ["--nodes", "150", "--random-plies", "10", "--seed", "11", "--first-game", "5"];
    let run = arbiter(&[&args[..], &settings].concat());
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("before --first-game 5"), "{}", stderr(&run));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_generation_script_makes_the_same_network_twice() {
    let dir = scratch("generation");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/duck_generation.sh");
    let generation = |name: &str, settings: &[&str]| {
        let out = dir.join(name);
        let run = Command::new("bash")
            .arg(&script)
            .arg(&out)
            .args(["GAMES=4", "NODES=60", "SEED=5", "EPOCHS=1", "BATCH=64"])
            .args(["THREADS=1", "GATE_GAMES=2", "GATE_NODES=60", "TIMED_GAMES=none"])
            .args(settings)
            .env("ARBITER", env!("CARGO_BIN_EXE_arbiter"))
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let record: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("generation.json")).unwrap())
                .unwrap();
        (std::fs::read(out.join("next.nnue")).unwrap(), record)
    };
    let (first, record) = generation("a", &["HIDDEN=8"]);
    let (second, again) = generation("b", &["HIDDEN=8"]);
    assert_eq!(first, second, "the same network, bit for bit");
    assert_eq!(record["settings"], again["settings"]);
    assert_eq!(record["network"], again["network"]);
    assert_eq!(record["settings"]["SEED"], "5");
    assert_eq!(record["settings"]["NET"], "crates/duck-engine/networks/duck-h256-gen5.nnue");
    assert_eq!(record["previous"]["fingerprint"], "0fcab3ba9dbd71ff");
    assert_eq!(record["gate"]["games"], 2, "{record}");
    assert!(record["timed_gate"].is_null());
    assert_eq!(record["commands"].as_array().unwrap().len(), 3, "{record}");
    let network = arbiter_duck_engine::nnue::Network::read(&first).unwrap();
    assert_eq!(format!("{:016x}", network.fingerprint()), record["network"]["fingerprint"]);
    // The network names the commit and the command that made it.
    let provenance = &network.provenance;
    assert!(provenance.contains("arbiter commit "), "{provenance}");
    assert!(provenance.contains("bash bench/duck_generation.sh DIR NET="), "{provenance}");
    assert!(provenance.contains(" GAMES=4 NODES=60 SEED=5 "), "{provenance}");

    // Rescored data, a network started from the default one, the captain's buckets, output
    // layers, deduplication and weight decay: the same bits again.
    let settings = [
        "RESCORE_NODES=100",
        concat!(
            "INIT=",
            env!("CARGO_MANIFEST_DIR"),
            "/../duck-engine/networks/duck-h256-gen3.nnue"
        ),
        "HIDDEN=256",
        "LR=0.0002",
        "FEATURES=captain",
        "OUTPUT_BUCKETS=2",
        "DEDUP=1",
        "WEIGHT_DECAY=0.01",
    ];
    let (first, record) = generation("c", &settings);
    let (second, _) = generation("d", &settings);
    assert_eq!(first, second, "the same network, bit for bit");
    // Training would write the new network over the one it starts from: refused at once.
    let clash = Command::new("bash")
        .arg(&script)
        .arg(dir.join("e"))
        .args(["GAMES=4", "NODES=60", "EPOCHS=1", "GATE_GAMES=none", "TIMED_GAMES=none"])
        .args([settings[1], "OUT_NAME=duck-h256-gen3.nnue"])
        .env("ARBITER", env!("CARGO_BIN_EXE_arbiter"))
        .output()
        .unwrap();
    assert_eq!(clash.status.code(), Some(2));
    assert!(stderr(&clash).contains("set OUT_NAME to another name"), "{}", stderr(&clash));
    assert!(!dir.join("e").exists());
    assert_eq!(record["settings"]["INIT"], "crates/duck-engine/networks/duck-h256-gen3.nnue");
    assert_eq!(record["commands"].as_array().unwrap().len(), 4, "{record}");
    let network = arbiter_duck_engine::nnue::Network::read(&first).unwrap();
    assert_eq!(network.shape_text(), "captain features, 256 hidden units, 2 output layers");
    let provenance = &network.provenance;
    for part in [
        "rescored at 100 nodes by network 0fcab3ba9dbd71ff",
        "duplicates merged",
        ", weight decay 0.01, features captain, 2 output layers, started from ",
        // By its name, not by where this clone is: the same bits in any clone.
        "started from duck-h256-gen3.nnue (network 1201aa1b91763553)",
        " RESCORE_NODES=100 ",
    ] {
        assert!(provenance.contains(part), "{part}: {provenance}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rescore_searches_every_position_again_and_continues_an_interrupted_file() {
    let dir = scratch("rescore");
    let data = dir.join("data.bin");
    assert_eq!(selfplay(&data, "4", "2", None).status.code(), Some(0));
    let games = arbiter_duck_train::record::DataFile::read(&std::fs::read(&data).unwrap()).unwrap();
    let rescore = |out: &Path, extra: &[&str]| {
        let (data, out) = (data.to_str().unwrap(), out.to_str().unwrap());
        let mut args = vec!["duck", "rescore", "--data", data, "--out", out, "--eval-file", ""];
        args.extend_from_slice(extra);
        if !extra.contains(&"--nodes") {
            args.extend_from_slice(&["--nodes", "400"]);
        }
        arbiter(&args)
    };
    let whole = dir.join("whole.bin");
    let out = rescore(&whole, &["--threads", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("scores changed"), "{}", stderr(&out));
    let expected = std::fs::read(&whole).unwrap();
    let rescored = arbiter_duck_train::record::DataFile::read(&expected).unwrap();
    // The same positions, results and games, in the same order; a header saying how.
    assert_eq!(expected[8..10], 3u16.to_le_bytes());
    assert_eq!(expected.len(), 72 + 56 * games.records.len());
    let rescore_header = rescored.header.rescore.unwrap();
    assert_eq!((rescore_header.nodes, rescore_header.network), (400, None));
    assert_eq!(rescored.header.seed, games.header.seed);
    assert_eq!(rescored.records.len(), games.records.len());
    let mut changed = 0;
    for (after, before) in rescored.records.iter().zip(&games.records) {
        let same = arbiter_duck_train::record::Record { score: before.score, ..after.clone() };
        assert_eq!(same, *before);
        changed += usize::from(after.score != before.score);
    }
    assert!(changed * 4 > games.records.len(), "{changed} of {} changed", games.records.len());

    // One thread, or a run cut in the middle of a record and continued: the same bytes.
    let one = dir.join("one.bin");
    assert_eq!(rescore(&one, &[]).status.code(), Some(0));
    assert_eq!(std::fs::read(&one).unwrap(), expected);
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &expected[..72 + 56 * 70 + 13]).unwrap();
    let out = rescore(&cut, &["--threads", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("70 positions rescored before, continuing"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&cut).unwrap(), expected);

    // Continued only with its own settings and data; never over its data.
    std::fs::write(&cut, &expected[..72 + 56 * 3]).unwrap();
    let out = rescore(&cut, &["--nodes", "500"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("rescored at 400 nodes"), "{}", stderr(&out));
    let mut other = expected[..72 + 56 * 3].to_vec();
    other[72 + 56 * 2] ^= 0x01;
    std::fs::write(&cut, &other).unwrap();
    let out = rescore(&cut, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("record 2 is not the position"), "{}", stderr(&out));
    let before = std::fs::read(&data).unwrap();
    let out = rescore(&data, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("the output is the input"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&data).unwrap(), before);

    // Training names how the scores were made.
    let net = dir.join("net.nnue");
    let (whole, net) = (whole.to_str().unwrap(), net.to_str().unwrap());
    let args = ["duck", "train", "--data", whole, "--out", net, "--hidden", "4", "--epochs", "1"];
    let out = arbiter(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let network = arbiter_duck_engine::nnue::Network::read(&std::fs::read(net).unwrap()).unwrap();
    assert!(
        network.provenance.contains("rescored at 400 nodes by the classical evaluation"),
        "{}",
        network.provenance
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn train_makes_networks_of_the_captains_buckets_and_output_layers_and_starts_from_one() {
    let dir = scratch("shapes");
    let data = dir.join("data.bin");
    assert_eq!(selfplay(&data, "4", "2", None).status.code(), Some(0));
    let (data, plain, captain) = (
        data.to_str().unwrap().to_owned(),
        dir.join("plain.nnue").to_str().unwrap().to_owned(),
        dir.join("captain.nnue").to_str().unwrap().to_owned(),
    );
    let train = |out: &str, extra: &[&str]| {
        let mut args = vec!["duck", "train", "--data", &data, "--out", out];
        args.extend_from_slice(&["--epochs", "1", "--threads", "1", "--batch", "64"]);
        args.extend_from_slice(extra);
        if !extra.contains(&"--hidden") {
            args.extend_from_slice(&["--hidden", "8"]);
        }
        arbiter(&args)
    };
    let out = train(&plain, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out =
        train(&captain, &["--features", "captain", "--output-buckets", "8", "--init", &plain]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("captain features, 8 hidden units, 8 output layers, fingerprint"),
        "{}",
        stderr(&out)
    );
    let bytes = std::fs::read(&captain).unwrap();
    assert_eq!(&bytes[..8], b"ARBNNUE3");
    let network = arbiter_duck_engine::nnue::Network::read(&bytes).unwrap();
    let started =
        arbiter_duck_engine::nnue::Network::read(&std::fs::read(&plain).unwrap()).unwrap();
    let expected = format!(
        ", features captain, 8 output layers, started from {plain} (network {:016x})\n",
        started.fingerprint()
    );
    assert!(network.provenance.contains(&expected), "{}", network.provenance);

    let out = arbiter(&["duck", "network", "show", &captain]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(
        shown.contains("format 3\nhidden 8, scale 400, features captain, 8 output layers\n"),
        "{shown}"
    );
    // The engine plays with it.
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["duck", "uci"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    let input = format!("setoption name EvalFile value {captain}\nposition startpos\ngo depth 4\n");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    assert!(output.contains("captain features, 8 hidden units, 8 output layers"), "{output}");
    assert!(output.contains("bestmove "), "{output}");

    // A network to start from must be plain and as wide, and is checked before any work.
    for (init, why) in [
        (&captain, "must be of the plain feature set"),
        (&plain, "has 8 hidden units, more than the training's 4"),
    ] {
        let out = train(&dir.join("x.nnue").to_string_lossy(), &["--init", init, "--hidden", "4"]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains(why), "{}", stderr(&out));
        assert!(!stderr(&out).contains("epoch"), "{}", stderr(&out));
    }
    let out = train(&dir.join("x.nnue").to_string_lossy(), &["--features", "kings"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`pieces` or `captain`"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}
