//! The SQLite store at its start: the data directory held for the store's whole life (a second
//! store on it is refused, naming the first), and a database that cannot be used (a zeroed page,
//! a read-only file) refused before anything is served.

use std::path::{Path, PathBuf};
use std::process::Command;

use arbiter_live::sqlite::{FILE, LOCK};
use arbiter_live::{Action, Games, New, Seat, SqliteStore, StoreError};

/// A scratch directory under the build's target directory, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("arbiter-sqlite-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Fills the store in `dir` with games and moves, spread over several pages, and closes it.
fn fill(dir: &Path) {
    let games = Games::new(SqliteStore::open(dir).unwrap());
    for game in 0..150 {
        let created = games
            .create(New { name: format!("player {game}"), seat: Some(Seat::Red), time: None }, game)
            .unwrap();
        let (red, blue) = (&created.token, &created.invite);
        for (ply, command) in ["3 4 4 4", "9 0 8 0", "4 4 5 4", "8 0 9 0"].iter().enumerate() {
            let token = if ply % 2 == 0 { red } else { blue };
            let action = Action::Move { command: (*command).into() };
            games.act(&created.id, token, action, 100 + ply as u64).unwrap();
        }
    }
}

#[test]
fn a_held_data_directory_is_refused_naming_its_holder_until_it_is_let_go() {
    let scratch = Scratch::new("held");
    let first = SqliteStore::open(&scratch.0).unwrap();
    for _ in 0..2 {
        let refused = SqliteStore::open(&scratch.0).err().expect("a second store is refused");
        assert!(matches!(refused, StoreError::InUse(..)), "{refused}");
        let message = refused.to_string();
        assert!(message.contains(&format!("pid {},", std::process::id())), "{message}");
        assert!(message.contains("started") && message.contains("GMT"), "{message}");
        assert!(message.contains(&scratch.0.display().to_string()), "{message}");
    }
    drop(first);
    let again = SqliteStore::open(&scratch.0).expect("let go, the directory opens");
    assert!(scratch.0.join(LOCK).exists());
    drop(again);
}

/// The page size of the database `file`, from its header.
fn page_size(file: &[u8]) -> usize {
    match u16::from_be_bytes([file[16], file[17]]) {
        1 => 65_536,
        size => usize::from(size),
    }
}

#[test]
fn a_database_with_any_page_zeroed_is_refused_at_the_start() {
    let scratch = Scratch::new("zeroed");
    let original = scratch.0.join("original");
    fill(&original);
    let bytes = std::fs::read(original.join(FILE)).unwrap();
    let size = page_size(&bytes);
    let pages = bytes.len() / size;
    assert!(pages >= 8, "{pages} pages");
    let mut opened = Vec::new();
    for page in 0..pages {
        let dir = scratch.0.join(format!("page-{}", page + 1));
        std::fs::create_dir_all(&dir).unwrap();
        let mut damaged = bytes.clone();
        damaged[page * size..(page + 1) * size].fill(0);
        std::fs::write(dir.join(FILE), &damaged).unwrap();
        match SqliteStore::open(&dir) {
            Ok(_) => opened.push(page + 1),
            Err(error) => {
                let message = error.to_string();
                assert!(matches!(error, StoreError::Unusable(..)), "page {}: {message}", page + 1);
                assert!(message.contains(FILE) && message.contains("backup"), "{message}");
            }
        }
    }
    assert!(opened.is_empty(), "pages zeroed, yet opened: {opened:?} of {pages}");
    // The intact copy still opens, its games whole.
    assert!(SqliteStore::open(&original).is_ok());
}

/// Makes `file` read-only even for root (who writes through permissions): `chattr +i`, taken
/// off again when dropped. `None` where that cannot be done.
struct ReadOnly(PathBuf);

impl ReadOnly {
    fn make(file: &Path) -> Option<ReadOnly> {
        let mut permissions = std::fs::metadata(file).unwrap().permissions();
        permissions.set_readonly(true);
        std::fs::set_permissions(file, permissions).unwrap();
        let guard = ReadOnly(file.to_owned());
        if std::fs::OpenOptions::new().write(true).open(file).is_ok() {
            let immutable = Command::new("chattr").arg("+i").arg(file).status();
            if !immutable.is_ok_and(|status| status.success())
                || std::fs::OpenOptions::new().write(true).open(file).is_ok()
            {
                return None;
            }
        }
        Some(guard)
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        let _ = Command::new("chattr").arg("-i").arg(&self.0).status();
        if let Ok(metadata) = std::fs::metadata(&self.0) {
            let mut permissions = metadata.permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            permissions.set_readonly(false);
            let _ = std::fs::set_permissions(&self.0, permissions);
        }
    }
}

#[test]
fn a_read_only_database_file_is_refused_at_the_start() {
    let scratch = Scratch::new("read-only");
    fill(&scratch.0);
    let Some(_read_only) = ReadOnly::make(&scratch.0.join(FILE)) else {
        assert!(std::env::var_os("CI").is_none(), "no way to make a file read-only for root");
        eprintln!("skipped: the file cannot be made read-only here (root without chattr)");
        return;
    };
    let refused = SqliteStore::open(&scratch.0).err().expect("a read-only database is refused");
    let message = refused.to_string();
    assert!(matches!(refused, StoreError::Unusable(..)), "{message}");
    assert!(message.contains(FILE) && message.contains("cannot be written"), "{message}");
}

#[test]
fn a_file_of_another_program_is_refused_and_left_as_it_was() {
    let scratch = Scratch::new("foreign");
    let file = scratch.0.join(FILE);
    {
        let other = rusqlite::Connection::open(&file).unwrap();
        other.pragma_update(None, "application_id", 1).unwrap();
        other.execute_batch("CREATE TABLE notes (text TEXT)").unwrap();
    }
    let before = std::fs::read(&file).unwrap();
    let refused = SqliteStore::open(&scratch.0).err().expect("another program's file is refused");
    assert!(refused.to_string().contains("another program"), "{refused}");
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

#[test]
fn a_store_a_newer_version_migrated_is_refused_saying_so() {
    let scratch = Scratch::new("newer");
    drop(SqliteStore::open(&scratch.0).unwrap());
    let file = rusqlite::Connection::open(scratch.0.join(FILE)).unwrap();
    file.pragma_update(None, "user_version", 99).unwrap();
    drop(file);
    let refused = SqliteStore::open(&scratch.0).err().expect("a newer schema is refused");
    assert!(matches!(refused, StoreError::Newer), "{refused}");
    assert!(refused.to_string().contains("backup taken before the upgrade"), "{refused}");
}

/// Saves from many threads at once are committed together (one transaction, a savepoint each),
/// yet each is answered its own outcome: the stale ones refused and nothing of theirs written,
/// the others all on disk when the store is opened again.
#[test]
fn saves_at_once_are_committed_together_and_each_answered_its_own_outcome() {
    use arbiter_live::Store;
    let scratch = Scratch::new("group");
    let ids: Vec<_> = {
        let games = Games::new(SqliteStore::open(&scratch.0).unwrap());
        (0..16)
            .map(|n| {
                let new = New { name: format!("p{n}"), seat: Some(Seat::Red), time: None };
                games.create(new, n).unwrap().id
            })
            .collect()
    };
    let store = SqliteStore::open(&scratch.0).unwrap();
    let commands = ["3 4 4 4", "9 0 8 0", "4 4 5 4", "8 0 9 0"];
    std::thread::scope(|scope| {
        for id in &ids {
            let store = &store;
            scope.spawn(move || {
                let mut game = store.load(id, 1000).unwrap().unwrap();
                for (ply, command) in commands.iter().enumerate() {
                    // A copy a version ahead of the stored one is stale, and writes nothing.
                    let mut ahead = game.clone();
                    ahead.version += 2;
                    ahead.names[1] = Some("stale".into());
                    assert!(matches!(store.save(&ahead), Err(StoreError::Stale(_))));
                    let mut next = game.clone();
                    next.moves.push(arbiter_live::game::Played {
                        command: (*command).into(),
                        took_ms: 1,
                        at: 1000 + ply as u64,
                        clocks: None,
                    });
                    next.version += 1;
                    store.save(&next).unwrap();
                    game = next;
                }
            });
        }
    });
    drop(store);
    let store = SqliteStore::open(&scratch.0).unwrap();
    for id in &ids {
        let game = store.load(id, 2000).unwrap().unwrap();
        let stored: Vec<&str> = game.moves.iter().map(|m| m.command.as_str()).collect();
        assert_eq!(stored, commands);
        assert_eq!(game.names[1], None, "nothing of a stale save is written");
    }
}
