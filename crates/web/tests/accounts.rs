//! Accounts through the router, and their security: the session cookie and its renewal, names
//! unique without regard to case, the same answer for an unknown name and a wrong password,
//! sign-in attempts limited per account and per client (429 with Retry-After), CSRF tokens and
//! the same-origin rule on cookie requests, password changes that end every session, and deleted
//! accounts. Each test body runs on SQLite (in memory) and on PostgreSQL (a private server).

#[path = "../../live/tests/support/postgres.rs"]
mod postgres;
#[path = "support/router.rs"]
mod router;

use axum::Router;
use axum::http::{Method, StatusCode, header};
use router::{Reply, send};
use serde_json::{Value, json};

impl Reply {
    /// The session cookie it sets, as `name=value`.
    fn cookie(&self) -> Option<String> {
        let set = self.headers.get(header::SET_COOKIE)?.to_str().ok()?;
        Some(set.split(';').next()?.to_owned())
    }

    fn reason(&self) -> &str {
        self.body["reason"].as_str().unwrap_or("")
    }
}

async fn post(app: &Router, uri: &str, body: Value, extra: &[(&str, &str)]) -> Reply {
    send(app, Method::POST, uri, body, extra).await
}

/// Who the cookie signs in, if anyone.
async fn who(app: &Router, cookie: &str) -> Option<String> {
    let reply = send(app, Method::GET, "/api/account", Value::Null, &[("cookie", cookie)]).await;
    assert_eq!(reply.status, StatusCode::OK);
    reply.body["user"]["name"].as_str().map(str::to_owned)
}

/// Signs `name` up: the cookie and the CSRF token.
async fn sign_up(app: &Router, name: &str, password: &str) -> (String, String) {
    let reply =
        post(app, "/api/account/signup", json!({"username": name, "password": password}), &[])
            .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    (reply.cookie().unwrap(), reply.body["csrf"].as_str().unwrap().to_owned())
}

async fn sign_in(app: &Router, name: &str, password: &str, extra: &[(&str, &str)]) -> Reply {
    post(app, "/api/account/signin", json!({"username": name, "password": password}), extra).await
}

async fn sign_up_sets_a_session_cookie_and_names_are_unique(app: Router) {
    let reply = post(
        &app,
        "/api/account/signup",
        json!({"username": "Ann_1", "password": "12345678"}),
        &[],
    )
    .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    assert_eq!(reply.body["user"]["name"], "Ann_1");
    let set = reply.headers.get(header::SET_COOKIE).unwrap().to_str().unwrap();
    for part in ["arbiter_session=", "HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
        assert!(set.contains(part), "{set}");
    }
    assert!(!set.contains("Secure"), "plain http: {set}");
    let cookie = reply.cookie().unwrap();
    // 256 bits of randomness, in hexadecimal.
    assert_eq!(cookie.len(), "arbiter_session=".len() + 64);
    assert_eq!(who(&app, &cookie).await.as_deref(), Some("Ann_1"));
    assert_eq!(who(&app, "arbiter_session=0123").await, None);
    let reply = post(
        &app,
        "/api/account/signup",
        json!({"username": "aNN_1", "password": "abcdefgh"}),
        &[],
    )
    .await;
    assert_eq!((reply.status, reply.reason()), (StatusCode::CONFLICT, "name-taken"));
    for (name, password) in [("an", "12345678"), ("ann bob", "12345678"), ("bob", "1234567")] {
        let reply =
            post(&app, "/api/account/signup", json!({"username": name, "password": password}), &[])
                .await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{name} {password}");
    }
}

async fn an_unknown_name_and_a_wrong_password_get_the_same_answer(app: Router) {
    sign_up(&app, "ann", "right password").await;
    let wrong = sign_in(&app, "ann", "wrong password", &[]).await;
    let unknown = sign_in(&app, "nobody", "wrong password", &[]).await;
    let impossible = sign_in(&app, "not a name!", "wrong password", &[]).await;
    for reply in [&wrong, &unknown, &impossible] {
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
        assert_eq!(reply.body, wrong.body);
        assert!(reply.cookie().is_none());
    }
    assert_eq!(wrong.reason(), "wrong-credentials");
    // Any case of the name signs in.
    assert_eq!(sign_in(&app, "ANN", "right password", &[]).await.status, StatusCode::OK);
}

async fn sign_in_renews_the_session(app: Router) {
    let (first, _) = sign_up(&app, "ann", "right password").await;
    let reply = sign_in(&app, "ann", "right password", &[("cookie", &first)]).await;
    assert_eq!(reply.status, StatusCode::OK);
    let second = reply.cookie().unwrap();
    assert_ne!(second, first);
    // The session the browser held is over; the new one lasts.
    assert_eq!(who(&app, &first).await, None);
    assert_eq!(who(&app, &second).await.as_deref(), Some("ann"));
    // Another browser's session is not touched.
    let elsewhere = sign_in(&app, "ann", "right password", &[]).await.cookie().unwrap();
    assert_eq!(who(&app, &second).await.as_deref(), Some("ann"));
    assert_eq!(who(&app, &elsewhere).await.as_deref(), Some("ann"));
}

async fn sign_in_attempts_are_limited_per_account_and_per_client(app: Router) {
    sign_up(&app, "ann", "right password").await;
    for _ in 0..5 {
        assert_eq!(sign_in(&app, "ann", "guess", &[]).await.status, StatusCode::UNAUTHORIZED);
    }
    // The account's attempts are spent, the right password too is refused for now.
    let refused = sign_in(&app, "ANN", "right password", &[]).await;
    assert_eq!((refused.status, refused.reason()), (StatusCode::TOO_MANY_REQUESTS, "slow-down"));
    let retry: u64 = refused.headers[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
    assert!((55..=60).contains(&retry), "{retry}");
    // Unknown names are limited alike.
    for _ in 0..5 {
        assert_eq!(sign_in(&app, "nobody", "guess", &[]).await.status, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(sign_in(&app, "nobody", "guess", &[]).await.status, StatusCode::TOO_MANY_REQUESTS);
    // The client has spent 12 of its 20: eight more names, then it too is refused.
    for n in 0..8 {
        let reply = sign_in(&app, &format!("name{n}"), "guess", &[]).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    }
    let refused = sign_in(&app, "another", "guess", &[]).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = refused.headers[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
    assert!((1..=15).contains(&retry), "{retry}");
}

async fn cookie_requests_need_the_csrf_token_and_the_same_origin(app: Router) {
    let (cookie, csrf) = sign_up(&app, "ann", "right password").await;
    let signout = |extra: Vec<(&'static str, String)>| {
        let app = app.clone();
        let cookie = cookie.clone();
        async move {
            let mut headers: Vec<(&str, &str)> = vec![("cookie", &cookie)];
            headers.extend(extra.iter().map(|(name, value)| (*name, value.as_str())));
            post(&app, "/api/account/signout", json!({}), &headers).await
        }
    };
    let reply = signout(vec![]).await;
    assert_eq!((reply.status, reply.reason()), (StatusCode::FORBIDDEN, "csrf"));
    let reply = signout(vec![("x-csrf-token", "0".repeat(64))]).await;
    assert_eq!((reply.status, reply.reason()), (StatusCode::FORBIDDEN, "csrf"));
    // Another site's page cannot send it, token or not: the same-origin rule holds for cookie
    // requests.
    for origin in ["http://evil.example", "null", "https://127.0.0.1:8080"] {
        let reply =
            signout(vec![("x-csrf-token", csrf.clone()), ("origin", origin.to_owned())]).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{origin}");
    }
    let reply = post(
        &app,
        "/api/account/password",
        json!({"password": "right password", "new_password": "new password"}),
        &[("cookie", &cookie)],
    )
    .await;
    assert_eq!((reply.status, reply.reason()), (StatusCode::FORBIDDEN, "csrf"));
    let reply = post(
        &app,
        "/api/account/delete",
        json!({"password": "right password"}),
        &[("cookie", &cookie)],
    )
    .await;
    assert_eq!((reply.status, reply.reason()), (StatusCode::FORBIDDEN, "csrf"));
    // Still signed in: nothing above changed anything.
    assert_eq!(who(&app, &cookie).await.as_deref(), Some("ann"));
    let reply =
        signout(vec![("x-csrf-token", csrf.clone()), ("origin", "http://127.0.0.1:8080".into())])
            .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(reply.headers[header::SET_COOKIE].to_str().unwrap().contains("Max-Age=0"));
    assert_eq!(who(&app, &cookie).await, None);
    let reply = signout(vec![("x-csrf-token", csrf)]).await;
    assert_eq!((reply.status, reply.reason()), (StatusCode::UNAUTHORIZED, "signed-out"));
}

async fn a_password_change_ends_every_session(app: Router) {
    let (cookie, csrf) = sign_up(&app, "ann", "old password").await;
    let other = sign_in(&app, "ann", "old password", &[]).await.cookie().unwrap();
    let change = |password: &'static str, new_password: &'static str| {
        let (app, cookie, csrf) = (app.clone(), cookie.clone(), csrf.clone());
        async move {
            post(
                &app,
                "/api/account/password",
                json!({"password": password, "new_password": new_password}),
                &[("cookie", &cookie), ("x-csrf-token", &csrf)],
            )
            .await
        }
    };
    let reply = change("wrong password", "new password").await;
    assert_eq!((reply.status, reply.reason()), (StatusCode::FORBIDDEN, "wrong-password"));
    assert_eq!(change("old password", "short").await.status, StatusCode::BAD_REQUEST);
    let reply = change("old password", "new password").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let renewed = reply.cookie().unwrap();
    assert_eq!(who(&app, &cookie).await, None);
    assert_eq!(who(&app, &other).await, None);
    assert_eq!(who(&app, &renewed).await.as_deref(), Some("ann"));
    assert_eq!(sign_in(&app, "ann", "old password", &[]).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(sign_in(&app, "ann", "new password", &[]).await.status, StatusCode::OK);
}

async fn a_deleted_account_signs_in_no_more(app: Router) {
    let (cookie, csrf) = sign_up(&app, "ann", "right password").await;
    let delete = |password: &'static str| {
        let (app, cookie, csrf) = (app.clone(), cookie.clone(), csrf.clone());
        async move {
            post(
                &app,
                "/api/account/delete",
                json!({"password": password}),
                &[("cookie", &cookie), ("x-csrf-token", &csrf)],
            )
            .await
        }
    };
    assert_eq!(delete("wrong password").await.status, StatusCode::FORBIDDEN);
    let reply = delete("right password").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(who(&app, &cookie).await, None);
    assert_eq!(sign_in(&app, "ann", "right password", &[]).await.status, StatusCode::UNAUTHORIZED);
    let reply = send(&app, Method::GET, "/api/users/ann", Value::Null, &[]).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    // The name is free again.
    sign_up(&app, "ANN", "another password").await;
}

async fn profiles_of_new_players_start_at_1500(app: Router) {
    sign_up(&app, "ann", "right password").await;
    let reply = send(&app, Method::GET, "/api/users/ANN", Value::Null, &[]).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body["name"], "ann");
    for category in ["bullet", "blitz", "rapid", "classical"] {
        let rating = &reply.body["ratings"][category];
        assert_eq!(
            (rating["rating"].as_f64(), rating["deviation"].as_f64()),
            (Some(1500.0), Some(350.0))
        );
        assert_eq!(rating["provisional"], true);
        assert_eq!(reply.body["history"][category], json!([]));
    }
    assert_eq!(reply.body["counts"], json!({"win": 0, "draw": 0, "loss": 0}));
    let reply = send(&app, Method::GET, "/api/users/ann/games?result=win", Value::Null, &[]).await;
    assert_eq!((reply.status, reply.body["total"].as_u64()), (StatusCode::OK, Some(0)));
    let reply = send(&app, Method::GET, "/api/users/ann/games?result=won", Value::Null, &[]).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    let reply = send(&app, Method::GET, "/api/leaderboard/blitz", Value::Null, &[]).await;
    assert_eq!(reply.body, json!({"category": "blitz", "players": []}));
    let reply = send(&app, Method::GET, "/api/leaderboard/hyperbullet", Value::Null, &[]).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    let reply = send(&app, Method::GET, "/api/users/nobody", Value::Null, &[]).await;
    assert_eq!((reply.status, reply.reason()), (StatusCode::NOT_FOUND, "no-user"));
    let reply = send(&app, Method::GET, "/api/users/no%20body", Value::Null, &[]).await;
    assert_eq!((reply.status, reply.reason()), (StatusCode::BAD_REQUEST, "malformed"));
}

async fn hostile_credentials_are_refused_without_harm(app: Router) {
    let long = "x".repeat(100_000);
    let reply = sign_in(&app, &long, "whatever", &[]).await;
    assert_eq!((reply.status, reply.reason()), (StatusCode::UNAUTHORIZED, "wrong-credentials"));
    let reply = sign_in(&app, "ann", &long, &[]).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    for (name, password) in
        [(long.as_str(), "12345678"), ("ann", long.as_str()), ("Ännä", "12345678")]
    {
        let body = json!({"username": name, "password": password});
        let reply = post(&app, "/api/account/signup", body, &[]).await;
        assert_eq!((reply.status, reply.reason()), (StatusCode::BAD_REQUEST, "malformed"));
    }
    let reply = post(&app, "/api/account/signup", json!({"username": "ann"}), &[]).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    let reply =
        post(&app, "/api/account/signin", json!({"username": 5, "password": []}), &[]).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    let reply = post(
        &app,
        "/api/account/signout",
        json!({}),
        &[("cookie", "arbiter_session=zz;;=; =x; arbiter_session")],
    )
    .await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
}

type Test = fn(Router) -> std::pin::Pin<Box<dyn Future<Output = ()>>>;

macro_rules! tests {
    ($($name:ident),* $(,)?) => {
        [$((stringify!($name), (|app| Box::pin($name(app))) as Test)),*]
    };
}

fn all() -> [(&'static str, Test); 9] {
    tests![
        hostile_credentials_are_refused_without_harm,
        sign_up_sets_a_session_cookie_and_names_are_unique,
        an_unknown_name_and_a_wrong_password_get_the_same_answer,
        sign_in_renews_the_session,
        sign_in_attempts_are_limited_per_account_and_per_client,
        cookie_requests_need_the_csrf_token_and_the_same_origin,
        a_password_change_ends_every_session,
        a_deleted_account_signs_in_no_more,
        profiles_of_new_players_start_at_1500,
    ]
}

/// Runs `test` on `app`.
fn run(app: Router, test: Test) {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(test(app));
}

#[test]
fn every_account_test_on_sqlite() {
    for (name, test) in all() {
        eprintln!("sqlite: {name}");
        run(arbiter_web::app_on(&arbiter_web::Storage::Memory).unwrap(), test);
    }
}

#[test]
fn every_account_test_on_postgres() {
    let Some(server) = postgres::Server::start("web-accounts") else { return };
    for (index, (name, test)) in all().into_iter().enumerate() {
        eprintln!("postgres: {name}");
        let url = server.database(&format!("accounts{index}"));
        run(arbiter_web::app_on(&arbiter_web::Storage::Postgres(url)).unwrap(), test);
    }
}
