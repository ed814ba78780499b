//! Standard output written by a thread of its own, so that the system calls that copy a large
//! output into a file or a pipe overlap the work that produces it.
//!
//! The judges produce their output in large chunks; writing a chunk costs the kernel about as
//! much time again as producing it took (the copy into the page cache or the pipe). Handed to a
//! second thread, that time runs on the other core while the judge goes on. Memory stays
//! bounded: at most [`CHUNKS`] chunks exist, the producer waits for an empty one when all are
//! in flight, and a write as large as a chunk is not copied but written at once, in order. A write error ends the writer; the producer learns of it at its next chunk or
//! flush, as it would have from a direct write.

use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread::JoinHandle;

/// A chunk is handed over once it holds this many bytes.
const CHUNK: usize = 1 << 18;

/// Chunks in existence at most: one being filled, the others queued or being written.
const CHUNKS: usize = 4;

/// What the writer thread is asked to do, in order.
enum Job {
    /// Write these bytes, then give the buffer back.
    Write(Vec<u8>),
    /// Say, once everything before has been written, whether it all was.
    Flush(SyncSender<()>),
}

/// Standard output, written by a thread of its own.
pub struct Background {
    /// The chunk being filled.
    chunk: Vec<u8>,
    /// Chunks allocated so far (at most [`CHUNKS`]).
    allocated: usize,
    jobs: Option<SyncSender<Job>>,
    /// Written chunks, emptied, for reuse.
    empty: Receiver<Vec<u8>>,
    writer: Option<JoinHandle<io::Result<()>>>,
    /// Standard output, for writes too large to copy: written here once the writer is idle.
    direct: File,
}

impl Background {
    /// Standard output on a thread of its own, or `None` if its descriptor cannot be shared
    /// or no thread can be started (the caller then writes directly).
    pub fn stdout() -> Option<Background> {
        let file = File::from(io::stdout().as_fd().try_clone_to_owned().ok()?);
        let direct = file.try_clone().ok()?;
        let (jobs, queue) = mpsc::sync_channel::<Job>(CHUNKS);
        let (give_back, empty) = mpsc::sync_channel::<Vec<u8>>(CHUNKS);
        let writer = std::thread::Builder::new()
            .name("stdout".to_owned())
            .spawn(move || write_jobs(file, &queue, &give_back))
            .ok()?;
        Some(Background {
            chunk: Vec::with_capacity(CHUNK),
            allocated: 1,
            jobs: Some(jobs),
            empty,
            writer: Some(writer),
            direct,
        })
    }

    /// Hands the chunk being filled to the writer and takes an empty one.
    fn hand_over(&mut self) -> io::Result<()> {
        let next = self.empty_chunk(CHUNK)?;
        let full = std::mem::replace(&mut self.chunk, next);
        self.send(Job::Write(full))
    }

    /// Takes the bytes of `chunk` without copying them: the buffer itself goes to the writer,
    /// and an empty one with room for as many bytes is left in its place.
    pub fn take(&mut self, chunk: &mut Vec<u8>) -> io::Result<()> {
        if !self.chunk.is_empty() {
            self.hand_over()?;
        }
        let next = self.empty_chunk(chunk.capacity())?;
        let full = std::mem::replace(chunk, next);
        self.send(Job::Write(full))
    }

    /// A written chunk back from the writer, or a new one of `capacity` bytes while fewer than
    /// [`CHUNKS`] exist.
    fn empty_chunk(&mut self, capacity: usize) -> io::Result<Vec<u8>> {
        let chunk = match self.allocated < CHUNKS {
            true => self.empty.try_recv().ok(),
            false => match self.empty.recv() {
                Ok(chunk) => Some(chunk),
                Err(_) => return Err(self.failure()),
            },
        };
        Ok(chunk.unwrap_or_else(|| {
            self.allocated += 1;
            Vec::with_capacity(capacity)
        }))
    }

    fn send(&mut self, job: Job) -> io::Result<()> {
        let sent = self.jobs.as_ref().is_some_and(|jobs| jobs.send(job).is_ok());
        if sent { Ok(()) } else { Err(self.failure()) }
    }

    /// The writer has stopped, which it does only on an error: that error.
    fn failure(&mut self) -> io::Error {
        self.jobs = None;
        match self.writer.take().map(JoinHandle::join) {
            Some(Ok(Err(error))) => error,
            Some(Err(_)) => io::Error::other("the output thread panicked"),
            Some(Ok(Ok(()))) | None => io::Error::other("output was already closed"),
        }
    }
}

/// Writes each chunk as it comes, until the producer is gone or a write fails.
fn write_jobs(
    mut file: File,
    queue: &Receiver<Job>,
    give_back: &SyncSender<Vec<u8>>,
) -> io::Result<()> {
    for job in queue {
        match job {
            Job::Write(mut chunk) => {
                file.write_all(&chunk)?;
                chunk.clear();
                // The producer may be gone, or have every chunk it may allocate: either way
                // this one is not needed.
                let _ = give_back.try_send(chunk);
            }
            Job::Flush(done) => {
                let _ = done.send(());
            }
        }
    }
    Ok(())
}

impl Write for Background {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf).map(|()| buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        if buf.len() >= CHUNK {
            // Copying it would only cost memory (a chunk the size of the largest write, and
            // several in flight): it is written here, after everything before it.
            self.flush()?;
            return self.direct.write_all(buf);
        }
        self.chunk.extend_from_slice(buf);
        if self.chunk.len() >= CHUNK {
            self.hand_over()?;
        }
        Ok(())
    }

    /// Returns once everything written so far is written out.
    fn flush(&mut self) -> io::Result<()> {
        if !self.chunk.is_empty() {
            self.hand_over()?;
        }
        let (done, wait) = mpsc::sync_channel(1);
        self.send(Job::Flush(done))?;
        match wait.recv() {
            Ok(()) => Ok(()),
            Err(_) => Err(self.failure()),
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        let _ = self.flush();
        self.jobs = None;
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}
