//! The deploy kit (`deploy/`), checked where a test can: the systemd units by
//! `systemd-analyze verify` and `security` (no running systemd needed), their command lines run
//! for real with the built `arbiter` in scratch directories, and the Caddyfile by
//! `caddy validate`. The Dockerfile and the compose file cannot be run here (no Docker engine);
//! docs/deploy.md says so.
//!
//! Where a program is missing the check is skipped with the reason printed, except under CI
//! (`CI` set), where it fails: CI installs them.

#[path = "common/live_server.rs"]
mod live_server;

#[path = "common/scratch.rs"]
mod scratch;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use scratch::Scratch;

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Whether `program` runs (asked its version with `version_arg`: Caddy has no `--version` flag,
/// only a `version` command); if not, says the check is skipped (a failure under CI).
fn found(program: &str, version_arg: &str, check: &str) -> bool {
    let runs = Command::new(program)
        .arg(version_arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !runs {
        assert!(std::env::var_os("CI").is_none(), "{program} is needed under CI for {check}");
        eprintln!("skipped: {check} needs {program}");
    }
    runs
}

/// The units of `deploy/`, as the named files in `dir`, the program they start the one built.
fn units(dir: &Path) -> Vec<PathBuf> {
    let arbiter = env!("CARGO_BIN_EXE_arbiter");
    ["arbiter.service", "arbiter-backup.service", "arbiter-backup.timer"]
        .iter()
        .map(|name| {
            let text = std::fs::read_to_string(root().join("deploy").join(name)).unwrap();
            let path = dir.join(name);
            std::fs::write(&path, text.replace("/usr/local/bin/arbiter", arbiter)).unwrap();
            path
        })
        .collect()
}

#[test]
fn the_systemd_units_are_valid_and_sandboxed() {
    if !found("systemd-analyze", "--version", "the systemd units' check") {
        return;
    }
    let scratch = Scratch::new("deploy-units");
    let units = units(&scratch.0);
    // Unknown keys, values that do not parse and missing programs are only warned of: no
    // output at all is the pass.
    let verified = Command::new("systemd-analyze").arg("verify").args(&units).output().unwrap();
    let said = String::from_utf8_lossy(&verified.stderr);
    assert!(verified.status.success() && said.trim().is_empty(), "{said}");
    // Both services score "OK" or better (exposure 2.0 at most of 10).
    for service in &units[..2] {
        let security = Command::new("systemd-analyze")
            .args(["security", "--offline=yes", "--threshold=20"])
            .arg(service)
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&security.stdout);
        let verdict = report.lines().last().unwrap_or_default();
        assert!(security.status.success(), "{}: {verdict}", service.display());
    }
}

/// The `ExecStart=` line of `unit` (in `deploy/`), systemd's `$$` and `%%` written as `$`, `%`.
fn exec_start(unit: &str) -> String {
    let text = std::fs::read_to_string(root().join("deploy").join(unit)).unwrap();
    let line = text.lines().find_map(|line| line.strip_prefix("ExecStart=")).unwrap();
    line.replace("$$", "$").replace("%%", "%")
}

#[test]
fn the_backup_units_command_writes_a_dated_backup_of_a_running_server() {
    let scratch = Scratch::new("deploy-backup-unit");
    let (data, backups) = (scratch.0.join("arbiter"), scratch.0.join("arbiter-backups"));
    std::fs::create_dir_all(&backups).unwrap();
    let server = live_server::Server::start(&["--data-dir".as_ref(), data.as_os_str()]);
    let (id, [red, _]) = server.create();
    assert_eq!(server.play(&id, &red, live_server::GAME[0]), Some(200));
    let line = exec_start("arbiter-backup.service");
    let script = line
        .strip_prefix("/bin/sh -c '")
        .and_then(|rest| rest.strip_suffix('\''))
        .expect("the unit runs one sh -c '...' line");
    let script = script
        .replace("/usr/local/bin/arbiter", env!("CARGO_BIN_EXE_arbiter"))
        .replace("/var/lib/arbiter-backups", &backups.display().to_string())
        .replace("/var/lib/arbiter", &data.display().to_string());
    let output = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let written: Vec<String> = std::fs::read_dir(&backups)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(written.len(), 1, "{written:?}");
    let name = &written[0];
    let date = name.strip_prefix("games-").and_then(|rest| rest.strip_suffix(".sqlite3"));
    let date = date.unwrap_or_default();
    assert!(
        date.len() == 10 && date.chars().filter(|c| *c == '-').count() == 2,
        "a dated name: {name}"
    );
}

#[test]
fn the_server_units_command_serves_and_answers_its_health_check() {
    let scratch = Scratch::new("deploy-server-unit");
    let line = exec_start("arbiter.service");
    let mut words = line.split_whitespace();
    assert_eq!(words.next(), Some("/usr/local/bin/arbiter"));
    let data = scratch.0.join("arbiter");
    let args: Vec<String> = words
        .map(|word| match word {
            "8080" => "0".to_owned(),
            "/var/lib/arbiter" => data.display().to_string(),
            other => other.to_owned(),
        })
        .collect();
    // What the unit runs, on a free port and a scratch directory: it serves, and its health
    // check answers on loopback.
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let addr = line
        .split_whitespace()
        .find_map(|word| word.strip_prefix("http://127.0.0.1:"))
        .map(|port| format!("127.0.0.1:{}", port.trim_end_matches('/')));
    let health = addr.as_ref().map(|addr| {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        write!(stream, "GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")
            .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    });
    let _ = child.kill();
    let _ = child.wait();
    assert!(addr.is_some(), "the unit's command did not listen: {line:?} ({args:?})");
    let health = health.unwrap_or_default();
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    assert!(data.join("arbiter.sqlite3").exists());
}

#[test]
fn the_caddyfile_is_valid() {
    if !found("caddy", "version", "the Caddyfile's check") {
        return;
    }
    let validated = Command::new("caddy")
        .args(["validate", "--adapter", "caddyfile", "--config"])
        .arg(root().join("deploy/Caddyfile"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&validated.stderr);
    assert!(validated.status.success(), "{said}");
    // Formatted as Caddy writes it, so that `caddy fmt` changes nothing an operator copies.
    let formatted =
        Command::new("caddy").args(["fmt"]).arg(root().join("deploy/Caddyfile")).output().unwrap();
    let original = std::fs::read(root().join("deploy/Caddyfile")).unwrap();
    assert_eq!(String::from_utf8_lossy(&formatted.stdout), String::from_utf8_lossy(&original));
}
