//! `watch`'s HTTP endpoints, on hyper's HTTP/1 server (hyper is already built for kube's client;
//! four GET routes need no web framework).

use super::metrics::Metrics;
use super::Shared;
use bytes::Bytes;
use http::{Method, Request, Response, StatusCode};
use http_body_util::Full;
use std::convert::Infallible;
use std::sync::Arc;

/// Serves until the process ends; a connection that fails ends alone.
pub async fn serve(listener: tokio::net::TcpListener, shared: Shared, metrics: Arc<Metrics>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let io = hyper_util::rt::TokioIo::new(stream);
        let (shared, metrics) = (Arc::clone(&shared), Arc::clone(&metrics));
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let answer = answer(&req, &shared, &metrics);
                async move { Ok::<_, Infallible>(answer) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .await;
        });
    }
}

fn reply(status: StatusCode, content_type: &str, body: impl Into<Bytes>) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(body.into()));
    *r.status_mut() = status;
    if let Ok(v) = http::HeaderValue::from_str(content_type) {
        r.headers_mut().insert(http::header::CONTENT_TYPE, v);
    }
    r
}

/// The answer to one request.
pub fn answer<B>(req: &Request<B>, shared: &Shared, metrics: &Metrics) -> Response<Full<Bytes>> {
    const TEXT: &str = "text/plain; charset=utf-8";
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return reply(StatusCode::METHOD_NOT_ALLOWED, TEXT, "GET only\n");
    }
    match req.uri().path() {
        "/metrics" => reply(
            StatusCode::OK,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
            metrics.encode(),
        ),
        "/api/v1/findings" => {
            let state = shared.read().unwrap_or_else(|p| p.into_inner());
            if state.diagnosed.is_none() {
                return reply(
                    StatusCode::SERVICE_UNAVAILABLE,
                    TEXT,
                    "no diagnosis yet: the watches are still listing\n",
                );
            }
            let mut out = Vec::new();
            // doctor -A -o json's renderer: the same contract.
            match crate::render::clusters::write_json(&state.report, &state.lines, &mut out) {
                Ok(()) => reply(StatusCode::OK, "application/json", out),
                Err(e) => reply(StatusCode::INTERNAL_SERVER_ERROR, TEXT, e.to_string()),
            }
        }
        "/healthz" => reply(StatusCode::OK, TEXT, "ok\n"),
        "/readyz" => {
            let state = shared.read().unwrap_or_else(|p| p.into_inner());
            match state.diagnosed {
                Some(_) => reply(StatusCode::OK, TEXT, "ok\n"),
                None => reply(
                    StatusCode::SERVICE_UNAVAILABLE,
                    TEXT,
                    "not ready: the watches are still listing\n",
                ),
            }
        }
        _ => reply(
            StatusCode::NOT_FOUND,
            TEXT,
            "not found: /metrics, /api/v1/findings, /healthz, /readyz\n",
        ),
    }
}
