//! Accounts: the pages `/signup` and `/signin`, profiles at `/@/NAME`, the leaderboard, and the
//! endpoints under `/api/account/`, `/api/users/` and `/api/leaderboard/`. Accounts are
//! optional: every game by link is played without one.
//!
//! A player signs up with a user name and a password ([`password`]: kept only as an Argon2id
//! hash), and is then signed in by a server-side session ([`session`]). Sign-in attempts are
//! limited per account and per client ([`throttle`]); an unknown name and a wrong password get
//! the same answer after the same work. Every state-changing request of a session carries its
//! CSRF token, on top of the same-origin rules every API request obeys ([`crate::guard`]).
//! Profiles and leaderboards are read in [`profile`].

mod password;
mod profile;
mod session;
mod throttle;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use arbiter_live::accounts::{NAME_MAX, Session, User, UserName};
use arbiter_live::{Games, LiveError, StoreError};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::Deserialize;
use tokio::sync::Semaphore;

use crate::api::{Body, Endpoint};
use crate::assets;
use crate::live::{AnyStore, Live, client, now_ms};
use crate::proxy::{Client, ClientKey};

pub(crate) use password::Password;
pub(crate) use session::SessionId;

/// The accounts' state: the store (the games'), the throttles and the hashing slots.
pub(crate) struct Accounts {
    games: Arc<Games<AnyStore>>,
    /// Whether the site is served over https: the cookie is then `Secure`.
    secure: bool,
    /// Password hashes made or checked at once: each takes 19 MiB and a core.
    hashing: Semaphore,
    per_account: throttle::Throttle<String>,
    per_client: throttle::Throttle<ClientKey>,
    sign_ups: throttle::Throttle<ClientKey>,
    /// Passwords checked so far, against a real hash or the dummy one.
    checks: AtomicU64,
}

/// A refused account request: its status, a reason code for programs, a message for people,
/// and for a 429 the seconds to wait.
#[derive(Debug)]
pub(crate) struct Refusal {
    status: StatusCode,
    reason: &'static str,
    message: String,
    retry_after: Option<u64>,
}

impl Refusal {
    pub(crate) fn new(
        status: StatusCode,
        reason: &'static str,
        message: impl Into<String>,
    ) -> Refusal {
        Refusal { status, reason, message: message.into(), retry_after: None }
    }

    fn bad(message: impl Into<String>) -> Refusal {
        Refusal::new(StatusCode::BAD_REQUEST, "malformed", message)
    }

    fn server(error: impl std::fmt::Display) -> Refusal {
        Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, "server", error.to_string())
    }

    fn slow_down(wait: std::time::Duration, what: &str) -> Refusal {
        let seconds = throttle::seconds(wait);
        Refusal {
            status: StatusCode::TOO_MANY_REQUESTS,
            reason: "slow-down",
            message: format!("too many {what}: try again in {seconds} s"),
            retry_after: Some(seconds),
        }
    }

    fn signed_out() -> Refusal {
        Refusal::new(StatusCode::UNAUTHORIZED, "signed-out", "sign in first")
    }

    fn wrong_credentials() -> Refusal {
        Refusal::new(StatusCode::UNAUTHORIZED, "wrong-credentials", "wrong user name or password")
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message, "reason": self.reason });
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

impl From<StoreError> for Refusal {
    fn from(error: StoreError) -> Refusal {
        Refusal::server(error)
    }
}

impl From<LiveError> for Refusal {
    fn from(error: LiveError) -> Refusal {
        Refusal::server(error)
    }
}

impl Accounts {
    /// The accounts kept beside `live`'s games; `secure` when the site is served over https.
    pub(crate) fn new(live: &Live, secure: bool) -> Arc<Accounts> {
        Arc::new(Accounts {
            games: Arc::clone(live.games()),
            secure,
            hashing: Semaphore::new(crate::limits::search_slots()),
            per_account: throttle::Throttle::new(throttle::PER_ACCOUNT),
            per_client: throttle::Throttle::new(throttle::PER_CLIENT),
            sign_ups: throttle::Throttle::new(throttle::SIGN_UPS),
            checks: AtomicU64::new(0),
        })
    }

    /// Runs `job` on the store off the async threads.
    pub(crate) async fn store<T: Send + 'static>(
        &self,
        job: impl FnOnce(&AnyStore) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, Refusal> {
        let games = Arc::clone(&self.games);
        tokio::task::spawn_blocking(move || job(games.store()))
            .await
            .map_err(Refusal::server)?
            .map_err(Refusal::from)
    }

    /// Runs the slow `job` (a hash) off the async threads, a few at a time.
    async fn slow<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refusal> {
        let _slot = self.hashing.acquire().await.map_err(Refusal::server)?;
        tokio::task::spawn_blocking(job).await.map_err(Refusal::server)
    }

    /// Whether `password` is the one of `hash` (`None`: no such account, checked against the
    /// dummy hash all the same).
    async fn check(&self, password: Password, hash: Option<String>) -> Result<bool, Refusal> {
        self.checks.fetch_add(1, Ordering::Relaxed);
        self.slow(move || match hash {
            Some(hash) => password::verify(&password, &hash),
            None => password::verify_nobody(&password),
        })
        .await
    }

    /// The session the request's cookie names, if it is one that lasts.
    pub(crate) async fn session(
        &self,
        headers: &HeaderMap,
    ) -> Result<Option<(SessionId, Session)>, Refusal> {
        let Some(id) = SessionId::from_headers(headers) else { return Ok(None) };
        let key = id.key();
        let session = self.store(move |store| store.session(&key, now_ms())).await?;
        Ok(session.map(|session| (id, session)))
    }

    /// The session the request's cookie names, which must be one, with its CSRF token in the
    /// request: for every request that changes something.
    async fn acting(&self, headers: &HeaderMap) -> Result<(SessionId, Session), Refusal> {
        let (id, session) = self.session(headers).await?.ok_or_else(Refusal::signed_out)?;
        if !session::carries_csrf(headers, &session.csrf) {
            return Err(Refusal::new(
                StatusCode::FORBIDDEN,
                "csrf",
                "this request must carry the session's token in X-CSRF-Token",
            ));
        }
        Ok((id, session))
    }

    /// Starts a session of `user`, ending the one `headers` name: the reply with its cookie.
    async fn start(
        &self,
        user: User,
        headers: &HeaderMap,
        status: StatusCode,
    ) -> Result<Response, Refusal> {
        let id = SessionId::random().map_err(Refusal::server)?;
        let csrf = session::random_hex().map_err(Refusal::server)?;
        let (key, old, token) = (id.key(), SessionId::from_headers(headers), csrf.clone());
        let account = user.id;
        self.store(move |store| {
            if let Some(old) = old {
                store.end_session(&old.key())?;
            }
            let now = now_ms();
            store.add_session(&key, account, &token, now, now + session::LIFETIME_MS)
        })
        .await?;
        let body = serde_json::json!({ "user": { "name": user.name }, "csrf": csrf });
        let mut response = (status, Json(body)).into_response();
        response.headers_mut().insert(header::SET_COOKIE, id.cookie(self.secure));
        Ok(response)
    }

    /// Takes a sign-in attempt for the account `name` from `client`, or refuses with a 429.
    fn attempt(&self, name: &str, client: ClientKey) -> Result<(), Refusal> {
        let now = Instant::now();
        self.per_client
            .take(client, now)
            .map_err(|wait| Refusal::slow_down(wait, "sign-in attempts from here"))?;
        // No name longer than a user name can be one: its bucket is the same for all.
        let key: String = name.chars().take(NAME_MAX + 1).collect::<String>().to_ascii_lowercase();
        self.per_account
            .take(key, now)
            .map_err(|wait| Refusal::slow_down(wait, "sign-in attempts for this account"))
    }

    /// Passwords checked so far.
    #[cfg(test)]
    pub(crate) fn checks(&self) -> u64 {
        self.checks.load(Ordering::Relaxed)
    }
}

/// The pages.
pub(crate) fn pages() -> Router {
    let page = |file: &'static str| {
        get(move |headers: HeaderMap| async move { assets::serve(file, &headers) })
    };
    Router::new()
        .route("/signup", page("signup.html"))
        .route("/signin", page("signin.html"))
        .route("/@/{name}", page("profile.html"))
        .route("/leaderboard", page("leaderboard.html"))
}

/// The endpoints.
pub(crate) fn endpoints() -> Vec<Endpoint> {
    let mut all = vec![
        Endpoint {
            method: "GET",
            path: "/api/account",
            about: "who is signed in: {user: {name} | null, csrf?}",
            route: get(me),
        },
        Endpoint {
            method: "POST",
            path: "/api/account/signup",
            about: "make an account {username, password} and sign in: {user, csrf} and the \
                    session cookie; 409 when the name is taken",
            route: post(sign_up),
        },
        Endpoint {
            method: "POST",
            path: "/api/account/signin",
            about: "sign in {username, password}: {user, csrf} and a new session cookie; 401 \
                    for a wrong name or password, 429 with Retry-After beyond the attempts \
                    allowed",
            route: post(sign_in),
        },
        Endpoint {
            method: "POST",
            path: "/api/account/signout",
            about: "end the session (X-CSRF-Token)",
            route: post(sign_out),
        },
        Endpoint {
            method: "POST",
            path: "/api/account/password",
            about: "change the password {password, new_password} (X-CSRF-Token): ends every \
                    session of the account and starts a new one",
            route: post(change_password),
        },
        Endpoint {
            method: "POST",
            path: "/api/account/delete",
            about: "delete the account {password} (X-CSRF-Token): its games stay, under \
                    \"deleted user\"",
            route: post(delete),
        },
    ];
    all.extend(profile::endpoints());
    all
}

/// The body of sign-up and sign-in.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    username: String,
    password: Password,
}

async fn me(
    Extension(accounts): Extension<Arc<Accounts>>,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, Refusal> {
    Ok(Json(match accounts.session(&headers).await? {
        Some((_, session)) => {
            serde_json::json!({ "user": { "name": session.user.name }, "csrf": session.csrf })
        }
        None => serde_json::json!({ "user": null }),
    }))
}

async fn sign_up(
    Extension(accounts): Extension<Arc<Accounts>>,
    found: Option<Extension<Client>>,
    headers: HeaderMap,
    Body(request): Body<Credentials>,
) -> Result<Response, Refusal> {
    let name =
        UserName::parse(&request.username).map_err(|error| Refusal::bad(error.to_string()))?;
    if let Some(refusal) = request.password.refusal() {
        return Err(Refusal::bad(refusal));
    }
    let taken = || Refusal::new(StatusCode::CONFLICT, "name-taken", "this user name is taken");
    let key = name.key();
    if accounts.store(move |store| store.user(&key)).await?.is_some() {
        return Err(taken());
    }
    accounts
        .sign_ups
        .take(client(found).key, Instant::now())
        .map_err(|wait| Refusal::slow_down(wait, "accounts made from here"))?;
    let password = request.password;
    let hash = accounts.slow(move || password::hash(&password)).await?.map_err(Refusal::server)?;
    let user = accounts
        .store(move |store| store.add_user(&name, &hash, now_ms()))
        .await?
        .ok_or_else(taken)?;
    accounts.start(user, &headers, StatusCode::CREATED).await
}

async fn sign_in(
    Extension(accounts): Extension<Arc<Accounts>>,
    found: Option<Extension<Client>>,
    headers: HeaderMap,
    Body(request): Body<Credentials>,
) -> Result<Response, Refusal> {
    accounts.attempt(&request.username, client(found).key)?;
    let name = request.username;
    // A name that cannot be one is looked up all the same: no answer differs.
    let found = accounts.store(move |store| store.user(&name)).await?;
    let (user, hash) = match found {
        Some((user, hash)) => (Some(user), Some(hash)),
        None => (None, None),
    };
    let right = accounts.check(request.password, hash).await?;
    match user {
        Some(user) if right => accounts.start(user, &headers, StatusCode::OK).await,
        _ => Err(Refusal::wrong_credentials()),
    }
}

async fn sign_out(
    Extension(accounts): Extension<Arc<Accounts>>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let (id, _) = accounts.acting(&headers).await?;
    let key = id.key();
    accounts.store(move |store| store.end_session(&key)).await?;
    let mut response = Json(serde_json::json!({ "user": null })).into_response();
    response.headers_mut().insert(header::SET_COOKIE, session::cleared(accounts.secure));
    Ok(response)
}

/// The body of a password change.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPassword {
    password: Password,
    new_password: Password,
}

/// Checks `password` as a sign-in attempt of the session's account.
async fn confirm(
    accounts: &Accounts,
    session: &Session,
    password: Password,
    client: ClientKey,
) -> Result<(), Refusal> {
    accounts.attempt(&session.user.name, client)?;
    let name = session.user.name.clone();
    let hash = accounts.store(move |store| store.user(&name)).await?.map(|(_, hash)| hash);
    if !accounts.check(password, hash).await? {
        return Err(Refusal::new(StatusCode::FORBIDDEN, "wrong-password", "wrong password"));
    }
    Ok(())
}

async fn change_password(
    Extension(accounts): Extension<Arc<Accounts>>,
    found: Option<Extension<Client>>,
    headers: HeaderMap,
    Body(request): Body<NewPassword>,
) -> Result<Response, Refusal> {
    let (_, session) = accounts.acting(&headers).await?;
    if let Some(refusal) = request.new_password.refusal() {
        return Err(Refusal::bad(refusal));
    }
    confirm(&accounts, &session, request.password, client(found).key).await?;
    let new_password = request.new_password;
    let hash =
        accounts.slow(move || password::hash(&new_password)).await?.map_err(Refusal::server)?;
    let user = session.user.id;
    // Every session ends, this one too; the browser that changed it is signed in anew.
    accounts.store(move |store| store.set_password(user, &hash)).await?;
    accounts.start(session.user, &HeaderMap::new(), StatusCode::OK).await
}

/// The body of an account's deletion.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Deletion {
    password: Password,
}

async fn delete(
    Extension(accounts): Extension<Arc<Accounts>>,
    Extension(live): Extension<Arc<Live>>,
    found: Option<Extension<Client>>,
    headers: HeaderMap,
    Body(request): Body<Deletion>,
) -> Result<Response, Refusal> {
    let (_, session) = accounts.acting(&headers).await?;
    confirm(&accounts, &session, request.password, client(found).key).await?;
    let user = session.user.id;
    let games = Arc::clone(live.games());
    // A game whose clock has run out is ended first; one that goes on keeps the account.
    let ongoing = tokio::task::spawn_blocking(move || -> Result<usize, LiveError> {
        let now = now_ms();
        let ids = games.store().ongoing(user)?;
        let mut going = 0;
        for id in ids {
            if games.view(&id, now)?.status == "ongoing" {
                going += 1;
            }
        }
        Ok(going)
    })
    .await
    .map_err(Refusal::server)??;
    if ongoing > 0 {
        return Err(Refusal::new(
            StatusCode::CONFLICT,
            "ongoing-games",
            format!("{ongoing} of your games go on: finish them (or resign) first"),
        ));
    }
    accounts.store(move |store| store.delete_user(user)).await?;
    let mut response = Json(serde_json::json!({ "user": null })).into_response();
    response.headers_mut().insert(header::SET_COOKIE, session::cleared(accounts.secure));
    Ok(response)
}

#[cfg(test)]
mod tests;
