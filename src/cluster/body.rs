//! Every answer of the API server is read with a byte cap, chosen by what was asked:
//! - a watch (`watch=true`) is read event by event: no event (one line) may pass the cap, however
//!   long the watch lasts;
//! - a followed log (`/log?follow=true`) is not capped as a whole (it lasts as long as the person
//!   watches); `logs::LineReader` cuts its lines at `logs::MAX_LINE`;
//! - anything else (lists, gets, access reviews, logs without `-f`, error bodies) is capped as a
//!   whole.
//!
//! Past its cap, a body ends with [`TooLarge`], which the request's caller reports as any
//! broken answer.

use bytes::Bytes;
use http::{Request, Response};
use http_body::{Body, Frame, SizeHint};
use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use tower::{BoxError, Layer, Service};

/// An answer (or one event of a watch) went past its cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the API server's answer went past {} MiB{}, the most read", .limit >> 20, if *.per_event { " in one watch event" } else { "" })]
pub struct TooLarge {
    pub limit: usize,
    pub per_event: bool,
}

/// How one answer is capped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cap {
    /// At most this many bytes in all.
    Whole(usize),
    /// At most this many bytes between two newlines.
    PerLine(usize),
    None,
}

impl Cap {
    /// The cap of the answer to `uri`, `max` bytes either in all or per watch event.
    pub fn of(uri: &http::Uri, max: usize) -> Cap {
        let query = uri.query().unwrap_or("");
        let flag = |name: &str| {
            query.split('&').any(|kv| {
                kv.split_once('=')
                    .is_some_and(|(k, v)| k == name && matches!(v, "true" | "1"))
            })
        };
        if flag("watch") {
            Cap::PerLine(max)
        } else if uri.path().ends_with("/log") && flag("follow") {
            Cap::None
        } else {
            Cap::Whole(max)
        }
    }
}

/// A response body read under its [`Cap`].
pub struct Capped<B> {
    inner: B,
    cap: Cap,
    /// Bytes counted against the cap so far (in all, or since the last newline).
    seen: usize,
}

impl<B> Capped<B> {
    pub fn new(inner: B, cap: Cap) -> Self {
        Capped {
            inner,
            cap,
            seen: 0,
        }
    }
}

impl<B> Body for Capped<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        let frame = match ready!(Pin::new(&mut this.inner).poll_frame(cx)) {
            Some(Ok(frame)) => frame,
            Some(Err(e)) => return Poll::Ready(Some(Err(e.into()))),
            None => return Poll::Ready(None),
        };
        if let Some(data) = frame.data_ref() {
            let over = match this.cap {
                Cap::None => None,
                Cap::Whole(max) => {
                    this.seen = this.seen.saturating_add(data.len());
                    (this.seen > max).then_some(TooLarge {
                        limit: max,
                        per_event: false,
                    })
                }
                Cap::PerLine(max) => {
                    this.seen = match memchr::memrchr(b'\n', data) {
                        Some(i) => data.len() - i - 1,
                        None => this.seen.saturating_add(data.len()),
                    };
                    (this.seen > max).then_some(TooLarge {
                        limit: max,
                        per_event: true,
                    })
                }
            };
            if let Some(e) = over {
                // Nothing more is read: the connection is dropped with the body.
                this.cap = Cap::Whole(0);
                return Poll::Ready(Some(Err(Box::new(e))));
            }
        }
        Poll::Ready(Some(Ok(frame)))
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The layer that puts every answer under its cap.
#[derive(Debug, Clone, Copy)]
pub struct CapLayer {
    pub max: usize,
}

impl<S> Layer<S> for CapLayer {
    type Service = CapService<S>;
    fn layer(&self, inner: S) -> Self::Service {
        CapService {
            inner,
            max: self.max,
        }
    }
}

#[derive(Debug, Clone)]
pub struct CapService<S> {
    inner: S,
    max: usize,
}

impl<S, ReqBody, B> Service<Request<ReqBody>> for CapService<S>
where
    S: Service<Request<ReqBody>, Response = Response<B>>,
    S::Future: Send + 'static,
{
    type Response = Response<Capped<B>>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request<ReqBody>) -> Self::Future {
        let cap = Cap::of(req.uri(), self.max);
        let fut = self.inner.call(req);
        Box::pin(async move { Ok(fut.await?.map(|b| Capped::new(b, cap))) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    fn cap(uri: &str) -> Cap {
        Cap::of(&uri.parse().unwrap(), 100)
    }

    #[test]
    fn each_kind_of_request_has_its_cap() {
        assert_eq!(cap("/api/v1/namespaces/a/pods?limit=500"), Cap::Whole(100));
        assert_eq!(
            cap("/api/v1/namespaces/a/pods?labelSelector=x&watch=true&resourceVersion=5"),
            Cap::PerLine(100)
        );
        assert_eq!(
            cap("/api/v1/namespaces/a/pods/p/log?container=c&follow=true"),
            Cap::None
        );
        assert_eq!(
            cap("/api/v1/namespaces/a/pods/p/log?container=c&tailLines=5"),
            Cap::Whole(100)
        );
        // A pod named like a flag is not one.
        assert_eq!(
            cap("/api/v1/namespaces/a/pods/follow=true/log"),
            Cap::Whole(100)
        );
    }

    fn read(cap: Cap, chunks: &[&'static [u8]]) -> Result<usize, String> {
        let frames: Vec<Result<Frame<Bytes>, std::convert::Infallible>> = chunks
            .iter()
            .map(|c| Ok(Frame::data(Bytes::from_static(c))))
            .collect();
        let body = http_body_util::StreamBody::new(futures::stream::iter(frames));
        futures::executor::block_on(Capped::new(body, cap).collect())
            .map(|c| c.to_bytes().len())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_body_past_its_cap_ends_with_an_error() {
        assert_eq!(read(Cap::Whole(10), &[b"12345", b"12345"]), Ok(10));
        let e = read(Cap::Whole(10), &[b"12345", b"123456"]).unwrap_err();
        assert!(e.contains("the most read"), "{e}");
        // Per line: many short events pass, one long one does not.
        let events: Vec<&'static [u8]> = vec![b"{\"a\":1}\n{\"b\""; 100];
        assert!(read(Cap::PerLine(16), &events).is_ok());
        assert!(read(Cap::PerLine(16), &[b"{\"a\":1}\n12345", b"6789012345678"]).is_err());
        assert_eq!(read(Cap::None, &[&b"1234567890"[..]; 50]), Ok(500));
    }
}
