//! A buffered connection with an idle timeout on every read and a deadline over its whole
//! life, so a client that trickles or stalls cannot hold a connection slot for long.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::time::{timeout_at, Instant};

const CHUNK: usize = 8 << 10;

pub(crate) struct Conn<S> {
    io: S,
    buf: Vec<u8>,
    idle: Duration,
    deadline: Instant,
}

fn timed_out() -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, "idle or too long")
}

impl<S: AsyncRead + AsyncWrite + Unpin> Conn<S> {
    pub(crate) fn new(io: S, idle: Duration, lifetime: Duration) -> Self {
        Conn { io, buf: Vec::new(), idle, deadline: Instant::now() + lifetime }
    }

    /// Bytes received and not yet consumed.
    pub(crate) fn buffered(&self) -> &[u8] {
        &self.buf
    }

    pub(crate) fn consume(&mut self, n: usize) {
        self.buf.drain(..n.min(self.buf.len()));
    }

    /// Reads once more into the buffer; `Ok(0)` at end of stream.
    pub(crate) async fn fill(&mut self) -> io::Result<usize> {
        let mut chunk = [0u8; CHUNK];
        let until = self.deadline.min(Instant::now() + self.idle);
        let n = timeout_at(until, self.io.read(&mut chunk)).await.map_err(|_| timed_out())??;
        self.buf.extend_from_slice(&chunk[..n]);
        Ok(n)
    }

    /// Fills until at least `n` bytes are buffered; false if the stream ended first.
    pub(crate) async fn fill_to(&mut self, n: usize) -> io::Result<bool> {
        while self.buf.len() < n {
            if self.fill().await? == 0 {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// One line (through `\n`, without the line ending), at most `cap` bytes; `None` if the
    /// stream ended first. A longer line is an error.
    pub(crate) async fn line(&mut self, cap: usize) -> io::Result<Option<Vec<u8>>> {
        loop {
            if let Some(end) = self.buf.iter().position(|&b| b == b'\n') {
                let mut line: Vec<u8> = self.buf.drain(..=end).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(Some(line));
            }
            if self.buf.len() > cap {
                return Err(io::Error::new(io::ErrorKind::InvalidData, "line too long"));
            }
            if self.fill().await? == 0 {
                return Ok(None);
            }
        }
    }

    /// Its idle time and deadline, for a layer on it ([`Conn::layered`]).
    pub(crate) fn limits(&self) -> (Duration, Instant) {
        (self.idle, self.deadline)
    }

    /// A connection over `io` (a layer on another, like TLS) with that one's [`Conn::limits`].
    pub(crate) fn layered(io: S, (idle, deadline): (Duration, Instant)) -> Self {
        Conn { io, buf: Vec::new(), idle, deadline }
    }

    pub(crate) async fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        timeout_at(self.deadline, self.io.write_all(bytes)).await.map_err(|_| timed_out())??;
        timeout_at(self.deadline, self.io.flush()).await.map_err(|_| timed_out())?
    }
}

/// The buffered bytes first, then the stream: what a TLS layer reads after the sink has looked
/// at the ClientHello.
impl<S: AsyncRead + Unpin> AsyncRead for Conn<S> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, out: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.buf.is_empty() {
            let n = this.buf.len().min(out.remaining());
            out.put_slice(&this.buf[..n]);
            this.buf.drain(..n);
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.io).poll_read(cx, out)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Conn<S> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, bytes: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, bytes)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}
