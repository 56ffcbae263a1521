//! The WebSocket handshake of `GET /ws`, done here rather than by axum's
//! `WebSocketUpgrade` so that a connection owns its raw socket: the room's
//! frames are written straight from the bytes every receiver shares
//! ([`write_frames`]), with no per-connection copy. tungstenite copies each
//! frame it sends into a buffer of its own and keeps that buffer at the
//! size of the largest batch it ever wrote: 17 KiB of every connection's
//! 59.2–61.6 KiB in a crowd at human pace (heaptrack, docs/PERFORMANCE.md).

use std::{future::Future, io::IoSlice};

use axum::{
    extract::FromRequestParts,
    http::{header, request::Parts, HeaderMap, HeaderValue, Method, StatusCode},
    response::{IntoResponse, Response},
    Json,
};
use hyper::upgrade::{OnUpgrade, Upgraded};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio_tungstenite::{
    tungstenite::{handshake::derive_accept_key, protocol::Role, protocol::WebSocketConfig},
    WebSocketStream,
};

use crate::refusal::{Code, Refusal};

/// An upgraded connection: tungstenite reads the client's frames (and
/// answers its pings); the room's frames are written by [`write_frames`].
pub type Socket = WebSocketStream<TokioIo<Upgraded>>;

/// A valid upgrade request, not yet answered.
pub struct Upgrade {
    key: HeaderValue,
    on_upgrade: OnUpgrade,
}

impl<S: Send + Sync> FromRequestParts<S> for Upgrade {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Response> {
        // `bad_request` answers 400 (`Code::status`).
        let bad = |message: &str| Refusal::new(Code::BadRequest, message).into_response();
        if parts.method != Method::GET {
            return Err(bad("a WebSocket is opened with GET"));
        }
        let h = &parts.headers;
        if !has_token(h, header::CONNECTION, "upgrade") {
            return Err(bad("the Connection header must include upgrade"));
        }
        if !has_token(h, header::UPGRADE, "websocket") {
            return Err(bad("the Upgrade header must be websocket"));
        }
        if h.get(header::SEC_WEBSOCKET_VERSION).is_none_or(|v| v.as_bytes() != b"13") {
            return Err(bad("Sec-WebSocket-Version must be 13"));
        }
        let Some(key) = h.get(header::SEC_WEBSOCKET_KEY).cloned() else {
            return Err(bad("the Sec-WebSocket-Key header is missing"));
        };
        let Some(on_upgrade) = parts.extensions.remove::<OnUpgrade>() else {
            // A request hyper cannot hand over (not HTTP/1.1).
            return Err((
                StatusCode::UPGRADE_REQUIRED,
                Json(Refusal::new(Code::BadRequest, "this connection cannot be upgraded").body()),
            )
                .into_response());
        };
        Ok(Upgrade { key, on_upgrade })
    }
}

/// Whether header `name` lists `token` (comma-separated, any case).
fn has_token(headers: &HeaderMap, name: header::HeaderName, token: &str) -> bool {
    headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim().eq_ignore_ascii_case(token))
}

impl Upgrade {
    /// Answer `101 Switching Protocols`, and once hyper hands the socket
    /// over, run `serve` on it in a task of its own.
    pub fn on_upgrade<F, Fut>(self, config: WebSocketConfig, serve: F) -> Response
    where
        F: FnOnce(Socket) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let accept = derive_accept_key(self.key.as_bytes());
        let on_upgrade = self.on_upgrade;
        tokio::spawn(async move {
            match on_upgrade.await {
                Ok(upgraded) => {
                    let socket =
                        WebSocketStream::from_raw_socket(TokioIo::new(upgraded), Role::Server, Some(config)).await;
                    serve(socket).await;
                }
                Err(e) => tracing::debug!(error = %e, "the upgrade failed"),
            }
        });
        (
            StatusCode::SWITCHING_PROTOCOLS,
            [
                (header::CONNECTION, HeaderValue::from_static("upgrade")),
                (header::UPGRADE, HeaderValue::from_static("websocket")),
                (header::SEC_WEBSOCKET_ACCEPT, HeaderValue::from_str(&accept).expect("base64 is a header value")),
            ],
        )
            .into_response()
    }
}

/// The most frames a batch holds: a connection writes what its queue holds
/// in one system call, up to this many.
pub const MAX_BATCH: usize = 64;

/// Write `frames` as WebSocket text frames (a server's are unmasked) in
/// one vectored write where the socket takes it: a header of 2 to 10 bytes
/// before each frame's shared bytes, nothing copied.
pub async fn write_frames<W: AsyncWrite + Unpin>(out: &mut W, frames: &[&str]) -> std::io::Result<()> {
    debug_assert!(frames.len() <= MAX_BATCH);
    let mut heads = [[0u8; 10]; MAX_BATCH];
    let mut lens = [0usize; MAX_BATCH];
    for (i, f) in frames.iter().enumerate() {
        lens[i] = header(&mut heads[i], f.len());
    }
    let mut slices: Vec<IoSlice<'_>> = Vec::with_capacity(frames.len() * 2);
    for (i, f) in frames.iter().enumerate() {
        slices.push(IoSlice::new(&heads[i][..lens[i]]));
        if !f.is_empty() {
            slices.push(IoSlice::new(f.as_bytes()));
        }
    }
    let mut rest = &mut slices[..];
    while !rest.is_empty() {
        let n = out.write_vectored(rest).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::WriteZero.into());
        }
        IoSlice::advance_slices(&mut rest, n);
    }
    out.flush().await
}

/// A final text frame's header for a payload of `len` bytes (RFC 6455,
/// 5.2): its length in `head`.
fn header(head: &mut [u8; 10], len: usize) -> usize {
    head[0] = 0x81; // FIN, text
    if len < 126 {
        head[1] = len as u8;
        2
    } else if len <= u16::MAX as usize {
        head[1] = 126;
        head[2..4].copy_from_slice(&(len as u16).to_be_bytes());
        4
    } else {
        head[1] = 127;
        head[2..10].copy_from_slice(&(len as u64).to_be_bytes());
        10
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio_tungstenite::tungstenite::{protocol::frame::coding::OpCode, protocol::frame::FrameSocket};

    /// Frames of every length class written by hand read back, with their
    /// bytes, through tungstenite's own frame reader.
    #[tokio::test]
    async fn hand_written_frames_read_back_as_text_frames() {
        let long = "x".repeat(70_000);
        let mid = "é".repeat(100);
        let texts = ["", "hi", mid.as_str(), long.as_str()];
        let mut wire = Vec::new();
        write_frames(&mut wire, &texts).await.unwrap();
        let mut socket = FrameSocket::new(std::io::Cursor::new(wire));
        for text in texts {
            let frame = socket.read(None).unwrap().expect("a frame");
            assert!(frame.header().is_final);
            assert!(frame.header().mask.is_none());
            assert_eq!(
                frame.header().opcode,
                OpCode::Data(tokio_tungstenite::tungstenite::protocol::frame::coding::Data::Text)
            );
            assert_eq!(frame.payload(), text.as_bytes());
        }
        assert!(socket.read(None).unwrap().is_none());
    }

    /// A writer that takes a few bytes at a time still gets every byte once.
    #[tokio::test]
    async fn short_writes_are_resumed() {
        struct Trickle(Vec<u8>);
        impl AsyncWrite for Trickle {
            fn poll_write(
                mut self: std::pin::Pin<&mut Self>,
                _: &mut std::task::Context<'_>,
                buf: &[u8],
            ) -> std::task::Poll<std::io::Result<usize>> {
                let n = buf.len().min(3);
                self.0.extend_from_slice(&buf[..n]);
                std::task::Poll::Ready(Ok(n))
            }
            fn poll_flush(
                self: std::pin::Pin<&mut Self>,
                _: &mut std::task::Context<'_>,
            ) -> std::task::Poll<std::io::Result<()>> {
                std::task::Poll::Ready(Ok(()))
            }
            fn poll_shutdown(
                self: std::pin::Pin<&mut Self>,
                _: &mut std::task::Context<'_>,
            ) -> std::task::Poll<std::io::Result<()>> {
                std::task::Poll::Ready(Ok(()))
            }
        }
        let mut whole = Vec::new();
        let texts = ["one", "two frames", &"y".repeat(300)];
        write_frames(&mut whole, &texts).await.unwrap();
        let mut trickle = Trickle(Vec::new());
        write_frames(&mut trickle, &texts).await.unwrap();
        assert_eq!(trickle.0, whole);
    }
}
