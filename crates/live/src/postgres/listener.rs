//! The [`Listener`]: a connection of its own that hears every change committed to the games
//! (`LISTEN game_changed`), kept open for the server's life: when the database goes away it
//! connects again by itself, once a second, and then says that changes may have gone unheard.

use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::sync::{mpsc as queue, watch};
use tokio_postgres::{AsyncMessage, Client};

use super::CHANNEL;
use super::address::Address;
use crate::seat::GameId;
use crate::store::StoreError;

/// What a [`Listener`] heard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// The game was committed at this version by some server.
    Game(GameId, u64),
    /// The connection was lost and made again: changes in between may have gone unheard.
    Missed,
}

/// How long the listening thread waits before connecting again after losing its connection.
const RECONNECT: Duration = Duration::from_secs(1);

/// A thread that listens to every committed change of the database's games, until dropped.
pub struct Listener {
    stop: watch::Sender<bool>,
    thread: Option<JoinHandle<()>>,
}

impl Listener {
    /// Listens on the database at `url` and calls `heard` with each change, on a thread of its
    /// own. Fails if the first connection does.
    pub fn start(
        url: &str,
        heard: impl FnMut(Change) + Send + 'static,
    ) -> Result<Listener, StoreError> {
        let address = Address::parse(url)?;
        let (stop, stopped) = watch::channel(false);
        let (first, connected) = mpsc::channel();
        let thread = std::thread::Builder::new().name("game_changed".into()).spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                Ok(runtime) => runtime,
                Err(error) => {
                    let _ = first.send(Err(StoreError::Io(error)));
                    return;
                }
            };
            runtime.block_on(listen(address, heard, stopped, first));
        })?;
        let listener = Listener { stop, thread: Some(thread) };
        // Dropped on failure, the listener stops its thread.
        connected
            .recv()
            .unwrap_or_else(|_| Err(StoreError::Postgres("the listener ended".into())))?;
        Ok(listener)
    }
}

/// Listens until `stopped`, connecting again whenever the connection is lost; the first
/// connection's outcome is sent to `first`.
async fn listen(
    address: Address,
    mut heard: impl FnMut(Change),
    mut stopped: watch::Receiver<bool>,
    first: mpsc::Sender<Result<(), StoreError>>,
) {
    let mut first = Some(first);
    loop {
        match connect(&address).await {
            Ok((_client, mut changes)) => {
                match first.take() {
                    Some(first) => {
                        let _ = first.send(Ok(()));
                    }
                    None => heard(Change::Missed),
                }
                loop {
                    tokio::select! {
                        change = changes.recv() => match change {
                            Some(change) => heard(change),
                            // The connection is lost.
                            None => break,
                        },
                        _ = stopped.changed() => return,
                    }
                }
            }
            Err(error) => {
                if let Some(first) = first.take() {
                    let _ = first.send(Err(error));
                    return;
                }
            }
        }
        tokio::select! {
            () = tokio::time::sleep(RECONNECT) => {}
            _ = stopped.changed() => return,
        }
    }
}

/// A connection listening on [`CHANNEL`], and the changes it hears until it is lost. The
/// client is kept by the caller: the connection lives as long as it does.
async fn connect(
    address: &Address,
) -> Result<(Client, queue::UnboundedReceiver<Change>), StoreError> {
    let (client, mut connection) = address.config.connect(address.tls.clone()).await?;
    let (sender, changes) = queue::unbounded_channel();
    // The connection is read by a task of its own, which carries the client's requests too.
    tokio::spawn(async move {
        while let Some(message) = std::future::poll_fn(|cx| connection.poll_message(cx)).await {
            match message {
                Ok(AsyncMessage::Notification(notification)) => {
                    let change =
                        notification.payload().split_once(':').and_then(|(id, version)| {
                            Some(Change::Game(GameId::parse(id)?, version.parse().ok()?))
                        });
                    if let Some(change) = change
                        && sender.send(change).is_err()
                    {
                        return;
                    }
                }
                Ok(_) => {}
                // Lost: the queue closes with the task.
                Err(_) => return,
            }
        }
    });
    // Listening before the caller is told: a change committed after that is heard.
    client.batch_execute(&format!("LISTEN {CHANNEL}")).await?;
    Ok((client, changes))
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.stop.send_replace(true);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
