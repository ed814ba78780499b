//! The lobby's rules of who meets whom, on its state alone: seeks and who sees them, accepting,
//! challenges, quick pairings rated or casual, and what goes when a player leaves.

use super::*;

/// A lobby state and the messages each member was sent.
struct Fixture {
    state: State,
    inboxes: HashMap<MemberId, mpsc::Receiver<Utf8Bytes>>,
}

impl Fixture {
    fn new() -> Fixture {
        Fixture { state: State::default(), inboxes: HashMap::new() }
    }

    /// Lets in a player: anonymous, or signed in as `name` (account `id`) rated `rating` in
    /// blitz.
    fn join(&mut self, account: Option<(&str, i64, f64)>) -> MemberId {
        let player = match account {
            None => Player::anonymous(),
            Some((name, id, rating)) => Player {
                name: name.to_owned(),
                user: Some(UserId(id)),
                ratings: vec![(Category::Blitz, Rating { rating, ..Rating::START })],
            },
        };
        let (outbox, inbox) = mpsc::channel(64);
        self.state.next += 1;
        let id = self.state.next;
        self.state.members.insert(id, Member { player, outbox });
        self.inboxes.insert(id, inbox);
        id
    }

    fn ask(
        &mut self,
        member: MemberId,
        request: serde_json::Value,
    ) -> Result<Option<Match>, String> {
        let request: Request = serde_json::from_value(request).expect("a request");
        self.state.handle(member, request)
    }

    fn seek(&mut self, member: MemberId, time: &str, rated: bool, color: &str) -> String {
        let request =
            serde_json::json!({"type": "seek", "time": time, "rated": rated, "color": color});
        self.ask(member, request).unwrap();
        self.state.seeks(Some(member)).last().unwrap().id.clone()
    }

    fn visible(&self, member: MemberId) -> Vec<String> {
        self.state.seeks(Some(member)).into_iter().map(|s| s.id).collect()
    }

    /// The messages `member` was sent, as JSON.
    fn sent(&mut self, member: MemberId) -> Vec<serde_json::Value> {
        let inbox = self.inboxes.get_mut(&member).unwrap();
        std::iter::from_fn(|| inbox.try_recv().ok())
            .map(|text| serde_json::from_str(text.as_str()).unwrap())
            .collect()
    }
}

#[test]
fn seeks_are_seen_by_everyone_and_accepted_by_another() {
    let mut lobby = Fixture::new();
    let ann = lobby.join(Some(("ann", 1, 1500.0)));
    let guest = lobby.join(None);
    let seek = lobby.seek(ann, "3+2", false, "blue");
    assert_eq!(lobby.visible(guest), std::slice::from_ref(&seek));
    let seen = &lobby.state.seeks(Some(guest))[0];
    assert_eq!((seen.name.as_str(), seen.rating, seen.rated), ("ann", Some(1500.0), false));
    assert_eq!((seen.color, seen.mine, seen.category), ("blue", false, Category::Blitz));
    assert!(lobby.state.seeks(Some(ann))[0].mine);
    assert!(lobby.ask(ann, serde_json::json!({"type": "accept", "seek": seek})).is_err());
    let game =
        lobby.ask(guest, serde_json::json!({"type": "accept", "seek": seek})).unwrap().unwrap();
    // The owner asked for blue.
    assert_eq!((game.red.0, game.blue.0), (guest, ann));
    assert_eq!(game.red.1.name, ANONYMOUS);
    assert_eq!(game.time.to_string(), "3+2");
    assert!(!game.rated);
    assert!(lobby.visible(guest).is_empty());
    let again = lobby.ask(guest, serde_json::json!({"type": "accept", "seek": seek}));
    assert_eq!(again.unwrap_err(), "this seek is gone");
}

#[test]
fn rated_games_need_two_accounts() {
    let mut lobby = Fixture::new();
    let ann = lobby.join(Some(("ann", 1, 1500.0)));
    let ann_again = lobby.join(Some(("ann", 1, 1500.0)));
    let guest = lobby.join(None);
    let refused =
        lobby.ask(guest, serde_json::json!({"type": "seek", "time": "5+3", "rated": true}));
    assert_eq!(refused.unwrap_err(), "sign in to play rated games");
    let seek = lobby.seek(ann, "5+3", true, "random");
    let accept = serde_json::json!({"type": "accept", "seek": seek});
    assert_eq!(lobby.ask(guest, accept.clone()).unwrap_err(), "sign in to play rated games");
    assert_eq!(lobby.ask(ann_again, accept.clone()).unwrap_err(), "you cannot play yourself");
    let bob = lobby.join(Some(("bob", 2, 1700.0)));
    let game = lobby.ask(bob, accept).unwrap().unwrap();
    assert!(game.rated);
    let mut seats = [game.red.1.name, game.blue.1.name];
    seats.sort();
    assert_eq!(seats, ["ann", "bob"]);
}

#[test]
fn a_players_seeks_go_when_they_leave_or_start_a_game() {
    let mut lobby = Fixture::new();
    let ann = lobby.join(Some(("ann", 1, 1500.0)));
    let bob = lobby.join(Some(("bob", 2, 1500.0)));
    let cat = lobby.join(None);
    lobby.seek(ann, "1+0", false, "random");
    let second = lobby.seek(ann, "3+0", false, "red");
    lobby.seek(bob, "10+0", false, "red");
    lobby.seek(bob, "10+0", false, "red");
    lobby.seek(bob, "10+0", false, "red");
    let fourth = lobby.ask(bob, serde_json::json!({"type": "seek", "time": "10+0"}));
    assert_eq!(fourth.unwrap_err(), format!("at most {SEEKS_PER_PLAYER} seeks at once"));
    assert_eq!(lobby.visible(cat).len(), 5);
    // Bob leaves: his seeks go.
    lobby.state.clear(bob);
    lobby.state.members.remove(&bob);
    assert_eq!(lobby.visible(cat).len(), 2);
    // Ann starts a game with Cat: her other seek goes too.
    lobby.ask(ann, serde_json::json!({"type": "pair", "time": "3+2"})).unwrap();
    lobby.ask(cat, serde_json::json!({"type": "accept", "seek": second})).unwrap().unwrap();
    assert!(lobby.visible(cat).is_empty());
    assert!(lobby.state.waiting.is_empty(), "her quick pairing went too");
    let cancel = lobby.ask(ann, serde_json::json!({"type": "cancel", "seek": second}));
    assert!(cancel.is_err());
}

#[test]
fn quick_pairings_are_rated_between_close_signed_in_players() {
    let pair = |time: &str| serde_json::json!({"type": "pair", "time": time});
    let mut lobby = Fixture::new();
    let ann = lobby.join(Some(("ann", 1, 1500.0)));
    let bob = lobby.join(Some(("bob", 2, 1790.0)));
    assert!(lobby.ask(ann, pair("3+2")).unwrap().is_none());
    // Another time control does not meet her.
    assert!(lobby.ask(bob, pair("5+3")).unwrap().is_none());
    let game = lobby.ask(bob, pair("3+2")).unwrap().unwrap();
    assert!(game.rated, "290 apart");
    assert!(lobby.state.waiting.is_empty());

    let cat = lobby.join(Some(("cat", 3, 1500.0)));
    let dan = lobby.join(Some(("dan", 4, 1900.0)));
    lobby.ask(cat, pair("3+2")).unwrap();
    assert!(!lobby.ask(dan, pair("3+2")).unwrap().unwrap().rated, "400 apart: casual");

    let guest = lobby.join(None);
    let eve = lobby.join(Some(("eve", 5, 1500.0)));
    lobby.ask(guest, pair("1+0")).unwrap();
    assert!(!lobby.ask(eve, pair("1+0")).unwrap().unwrap().rated, "one anonymous: casual");

    // One account in two tabs does not meet itself.
    let fay = lobby.join(Some(("fay", 6, 1500.0)));
    let fay_again = lobby.join(Some(("fay", 6, 1500.0)));
    lobby.ask(fay, pair("10+0")).unwrap();
    assert!(lobby.ask(fay_again, pair("10+0")).unwrap().is_none());
    assert_eq!(lobby.state.waiting.len(), 2);
    lobby.ask(fay, serde_json::json!({"type": "unpair"})).unwrap();
    assert_eq!(lobby.state.waiting.len(), 1);
    let refused = lobby.ask(fay, pair("7+7"));
    assert!(refused.unwrap_err().starts_with("quick pairing is at 1+0, 3+0, 3+2"));
}

#[test]
fn a_challenge_is_seen_by_the_challenged_player_alone() {
    let mut lobby = Fixture::new();
    let ann = lobby.join(Some(("ann", 1, 1500.0)));
    let bob = lobby.join(Some(("Bob", 2, 1500.0)));
    let cat = lobby.join(Some(("cat", 3, 1500.0)));
    let guest = lobby.join(None);
    let challenge = |name: &str| serde_json::json!({"type": "challenge", "name": name, "time": "5+3", "rated": true});
    assert_eq!(lobby.ask(guest, challenge("bob")).unwrap_err(), "sign in to challenge a player");
    assert_eq!(lobby.ask(ann, challenge("dan")).unwrap_err(), "dan is not in the lobby");
    assert_eq!(lobby.ask(ann, challenge("ANN")).unwrap_err(), "you cannot challenge yourself");
    lobby.ask(ann, challenge("bob")).unwrap();
    let id = lobby.visible(ann)[0].clone();
    assert_eq!(lobby.visible(bob), std::slice::from_ref(&id));
    assert_eq!(lobby.state.seeks(Some(bob))[0].to.as_deref(), Some("Bob"));
    assert!(lobby.visible(cat).is_empty());
    assert!(lobby.visible(guest).is_empty());
    let accept = serde_json::json!({"type": "accept", "seek": id});
    assert_eq!(lobby.ask(cat, accept.clone()).unwrap_err(), "this challenge is for another player");
    // Declined: gone, and Ann is told.
    lobby.sent(ann);
    lobby.ask(bob, serde_json::json!({"type": "decline", "seek": id})).unwrap();
    assert!(lobby.visible(ann).is_empty());
    let told = lobby.sent(ann);
    assert_eq!((told[0]["type"].as_str(), told[0]["by"].as_str()), (Some("declined"), Some("Bob")));
    // Accepted: a rated game.
    lobby.ask(ann, challenge("bob")).unwrap();
    let id = lobby.visible(bob)[0].clone();
    let game = lobby.ask(bob, serde_json::json!({"type": "accept", "seek": id})).unwrap().unwrap();
    assert!(game.rated);
}

#[test]
fn every_player_is_sent_the_lobby_as_they_see_it() {
    let mut lobby = Fixture::new();
    let ann = lobby.join(Some(("ann", 1, 1500.0)));
    let guest = lobby.join(None);
    lobby.seek(ann, "3+2", false, "random");
    lobby.ask(guest, serde_json::json!({"type": "pair", "time": "1+0"})).unwrap();
    lobby.state.broadcast();
    let to_ann = lobby.sent(ann).pop().unwrap();
    let to_guest = lobby.sent(guest).pop().unwrap();
    assert_eq!(to_ann["type"], "lobby");
    assert_eq!(to_ann["seeks"][0]["mine"], true);
    assert_eq!(to_guest["seeks"][0]["mine"], false);
    assert_eq!(to_guest["pairing"], "1+0");
    assert_eq!(to_ann["pairing"], serde_json::Value::Null);
    assert_eq!(to_ann["players"], 2);
}
