//! What keeps other web pages and slow clients out of `skald serve` (docs/serve.md,
//! "Security"):
//!
//! - the `Host` check against DNS rebinding ([`Hosts`]: 421 for a name not answered);
//! - the checks against cross-site requests ([`check_request`]: an `Origin` other than the
//!   server's own is refused with 403; a request with effects needs `Content-Type:
//!   application/json`, which a page of another site cannot send without asking first (415));
//! - the security headers of every answer ([`with_security_headers`]: a content security policy
//!   of the server's own files only, no framing, no sniffing, no referrer);
//! - slow and half-open clients ([`serve`]: hyper's time-out on a request's headers, a cap on
//!   the connections served at once; the time-out on a body is the API's body extractor's).

use super::App;
use super::api::ApiError;
use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;
use tower_http::set_header::SetResponseHeaderLayer;

/// The host names (the `Host` header, less its port) a server answers: those of this computer,
/// the address listened on, and `--allow-host` names.
#[derive(Clone, Debug)]
pub struct Hosts {
    /// Names answered on any port (lowercase; IPv6 addresses in brackets).
    names: Vec<String>,
    /// `name:port` pairs answered on that port only (`--allow-host` with a port).
    with_port: Vec<String>,
    /// Any IP address is answered (the server listens on every address: 0.0.0.0 or ::). A
    /// page reached by an IP address is that address's own, so it cannot be another site's.
    any_ip: bool,
}

impl Hosts {
    /// The names answered by a server listening on `bind`: 127.0.0.1, localhost, [::1], the
    /// `bind` address (any IP address when it is 0.0.0.0 or ::) and `allowed`
    /// ([`parse_allowed_host`]'s: lowercase, `name` or `name:port`).
    pub fn new(bind: IpAddr, allowed: &[String]) -> Hosts {
        let mut names: Vec<String> = ["127.0.0.1", "localhost", "[::1]"]
            .map(String::from)
            .to_vec();
        names.push(match bind {
            IpAddr::V4(a) => a.to_string(),
            IpAddr::V6(a) => format!("[{a}]"),
        });
        let mut with_port = Vec::new();
        for a in allowed {
            match split_port(a) {
                (_, Some(_)) => with_port.push(a.clone()),
                (name, None) => names.push(name.to_string()),
            }
        }
        Hosts {
            names,
            with_port,
            any_ip: bind.is_unspecified(),
        }
    }

    /// Whether a request with this `Host` header is answered.
    pub fn allows(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        let (name, port) = split_port(&host);
        if port.is_some_and(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit())) {
            return false;
        }
        self.names.iter().any(|n| *n == name)
            || self.with_port.contains(&host)
            || (self.any_ip && is_ip(name))
    }

    /// The names answered, for an error message.
    fn describe(&self) -> String {
        let mut all: Vec<&str> = self.names.iter().map(String::as_str).collect();
        all.extend(self.with_port.iter().map(String::as_str));
        all.dedup();
        let mut text = all.join(", ");
        if self.any_ip {
            text += " and any IP address";
        }
        text
    }
}

/// `host` split into its name and its port, if any: `[::1]:8080` → (`[::1]`, `8080`),
/// `localhost` → (`localhost`, none).
fn split_port(host: &str) -> (&str, Option<&str>) {
    if host.starts_with('[') {
        return match host.find(']') {
            Some(end) => match host[end + 1..].strip_prefix(':') {
                Some(port) => (&host[..=end], Some(port)),
                None => (host, None),
            },
            None => (host, None),
        };
    }
    match host.rsplit_once(':') {
        Some((name, port)) => (name, Some(port)),
        None => (host, None),
    }
}

/// Whether a host name is an IP address (IPv6 in brackets).
fn is_ip(name: &str) -> bool {
    match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        Some(v6) => v6.parse::<std::net::Ipv6Addr>().is_ok(),
        None => name.parse::<std::net::Ipv4Addr>().is_ok(),
    }
}

/// Parses an `--allow-host` value: a host name or address, with a port or without (`example.lan`,
/// `example.lan:8080`, `192.168.1.5`, `[fe80::1]`), lowercased.
pub fn parse_allowed_host(value: &str) -> Result<String, String> {
    let host = value.trim().to_ascii_lowercase();
    let (name, port) = split_port(&host);
    let name_ok = !name.is_empty()
        && (is_ip(name)
            || name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || b == b'_'));
    let port_ok = port.is_none_or(|p| p.parse::<u16>().is_ok());
    if name_ok && port_ok {
        Ok(host)
    } else {
        Err(format!(
            "'{value}' is not a host name: give a name or an address, with a port or without \
             (example.lan, example.lan:8080, 192.168.1.5, [fe80::1])"
        ))
    }
}

/// The checks of every request, before its handler: the `Host` (421 unless answered), the
/// `Origin` when there is one (403 unless the server's own: `http://` or `https://` and the
/// `Host`), `Content-Type: application/json` on every request with effects (POST and DELETE,
/// the only such methods served; 415 otherwise), and no body on GET and HEAD (400).
pub async fn check_request(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    match refusal(&app, &request) {
        Some(error) => error.into_response(),
        None => next.run(request).await,
    }
}

/// Why `request` is refused, if it is.
fn refusal(app: &App, request: &Request) -> Option<ApiError> {
    let headers = request.headers();
    let text = |name: HeaderName| {
        headers
            .get(name)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
    };
    let host = text(header::HOST)
        .or_else(|| request.uri().authority().map(|a| a.to_string()))
        .unwrap_or_default();
    let authority_ok = request
        .uri()
        .authority()
        .is_none_or(|a| app.hosts.allows(a.as_str()));
    if !app.hosts.allows(&host) || !authority_ok {
        return Some(ApiError {
            status: StatusCode::MISDIRECTED_REQUEST,
            message: format!(
                "this server does not answer to the host '{}': it answers to {} (skald serve \
                 --allow-host NAME adds a name)",
                super::api::clip(&host),
                app.hosts.describe()
            ),
        });
    }
    if let Some(origin) = text(header::ORIGIN) {
        let own = ["http://", "https://"]
            .iter()
            .any(|scheme| origin.eq_ignore_ascii_case(&format!("{scheme}{}", host.trim())));
        if !own {
            return Some(ApiError {
                status: StatusCode::FORBIDDEN,
                message: format!(
                    "a request from another site's page ('{}') is refused: only this server's \
                     own page may use it",
                    super::api::clip(&origin)
                ),
            });
        }
    }
    let method = request.method();
    if method == Method::GET || method == Method::HEAD {
        let length = text(header::CONTENT_LENGTH).map(|l| l.trim().to_string());
        let body =
            headers.contains_key(header::TRANSFER_ENCODING) || length.is_some_and(|l| l != "0");
        if body {
            return Some(ApiError::bad(format!(
                "a {method} request has no body (see docs/serve.md)"
            )));
        }
    } else if method == Method::POST || method == Method::DELETE {
        let json = text(header::CONTENT_TYPE).is_some_and(|t| {
            t.split(';')
                .next()
                .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
        });
        if !json {
            return Some(ApiError {
                status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
                message: format!(
                    "a {method} request needs the header Content-Type: application/json (its \
                     body may be empty)"
                ),
            });
        }
    }
    None
}

/// The content security policy of every answer: the page's files, its API and its event
/// stream from this server only; no inline script or style; no plug-ins; not framed.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// `router` with the security headers on every answer (errors included): the
/// [`CONTENT_SECURITY_POLICY`], `X-Frame-Options: DENY`, `X-Content-Type-Options: nosniff`,
/// `Referrer-Policy: no-referrer`, and `Cross-Origin-Resource-Policy` and
/// `Cross-Origin-Opener-Policy` `same-origin` (no other site may load the answers or hold the
/// page's window).
pub fn with_security_headers(router: Router) -> Router {
    [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (
            HeaderName::from_static("cross-origin-resource-policy"),
            "same-origin",
        ),
        (
            HeaderName::from_static("cross-origin-opener-policy"),
            "same-origin",
        ),
    ]
    .into_iter()
    .fold(router, |router, (name, value)| {
        router.layer(SetResponseHeaderLayer::overriding(
            name,
            HeaderValue::from_static(value),
        ))
    })
}

/// Serves `router` on `listener` until the process ends: HTTP/1.1 by hyper, at most
/// `max_connections` connections at once (more wait in the listener's queue until one ends),
/// and a connection whose next request's headers do not all arrive within `read_timeout` (from
/// the connection's start, or from the end of the previous answer) is closed: slow and half-open
/// clients cannot hold the connections. (A body that does not arrive in time is the body
/// extractor's: `api::Body`, 408.)
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: Router,
    max_connections: usize,
    read_timeout: Duration,
) {
    let slots = Arc::new(tokio::sync::Semaphore::new(max_connections.max(1)));
    loop {
        let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
            return;
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors and the like: wait a little (as axum::serve does);
                // a connection that failed as it was accepted: the next.
                if !matches!(
                    e.kind(),
                    std::io::ErrorKind::ConnectionRefused
                        | std::io::ErrorKind::ConnectionAborted
                        | std::io::ErrorKind::ConnectionReset
                ) {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(read_timeout);
            let _ = http
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .await;
            drop(slot);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_answered() {
        let local = Hosts::new("127.0.0.1".parse().unwrap(), &[]);
        for ok in [
            "127.0.0.1",
            "127.0.0.1:8080",
            "localhost",
            "LOCALHOST:1",
            "[::1]",
            "[::1]:8080",
        ] {
            assert!(local.allows(ok), "{ok}");
        }
        for refused in [
            "",
            "evil.example",
            "evil.example:8080",
            "localhost.evil.example",
            "127.0.0.1.evil.example",
            "localhost:",
            "localhost:80x",
            "192.168.1.5",
            "[::2]",
        ] {
            assert!(!local.allows(refused), "{refused}");
        }
        let lan = Hosts::new(
            "192.168.1.5".parse().unwrap(),
            &[
                parse_allowed_host("Board.LAN").unwrap(),
                parse_allowed_host("proxy.lan:9000").unwrap(),
            ],
        );
        for ok in [
            "192.168.1.5:8080",
            "board.lan",
            "board.lan:8080",
            "proxy.lan:9000",
        ] {
            assert!(lan.allows(ok), "{ok}");
        }
        for refused in ["proxy.lan", "proxy.lan:9001", "10.0.0.1"] {
            assert!(!lan.allows(refused), "{refused}");
        }
        let every = Hosts::new("0.0.0.0".parse().unwrap(), &[]);
        for ok in ["10.0.0.7:8080", "[fe80::1]:8080", "localhost"] {
            assert!(every.allows(ok), "{ok}");
        }
        assert!(!every.allows("evil.example"));
        for bad in ["", "a b", "x/y", "host:port", "host:99999", "[::1"] {
            assert!(parse_allowed_host(bad).is_err(), "{bad}");
        }
    }
}
