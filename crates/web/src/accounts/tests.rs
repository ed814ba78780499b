//! What only the inside can tell: signing in as an unknown name checks a password (against the
//! dummy hash) just as a wrong password does, so that both take the same time.

use axum::body::Body;
use axum::http::Request;
use tower::ServiceExt;

use super::*;

#[tokio::test]
async fn an_unknown_name_and_a_wrong_password_both_cost_one_password_check() {
    let live = Live::open(
        &crate::Storage::Memory,
        crate::Limits::default(),
        crate::metrics::Metrics::new(),
    )
    .unwrap();
    let accounts = Accounts::new(&live, false);
    let app = crate::routes::router()
        .layer(Extension(Arc::clone(&accounts)))
        .layer(Extension(Arc::clone(&live)));
    let send = |path: &'static str, body: &'static str| {
        let request = Request::post(path)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body))
            .unwrap();
        let app = app.clone();
        async move { app.oneshot(request).await.unwrap().status() }
    };
    let up = send("/api/account/signup", r#"{"username": "ann", "password": "right password"}"#);
    assert_eq!(up.await, StatusCode::CREATED);
    let before = accounts.checks();
    let wrong = send("/api/account/signin", r#"{"username": "ann", "password": "wrong password"}"#);
    assert_eq!(wrong.await, StatusCode::UNAUTHORIZED);
    assert_eq!(accounts.checks(), before + 1);
    let unknown =
        send("/api/account/signin", r#"{"username": "bob", "password": "wrong password"}"#);
    assert_eq!(unknown.await, StatusCode::UNAUTHORIZED);
    assert_eq!(accounts.checks(), before + 2);
    let right = send("/api/account/signin", r#"{"username": "ann", "password": "right password"}"#);
    assert_eq!(right.await, StatusCode::OK);
    assert_eq!(accounts.checks(), before + 3);
}
