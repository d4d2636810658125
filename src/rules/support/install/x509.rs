//! The webhook's certificates, read with x509-parser (no shelling out to openssl): who issued the
//! serving certificate, whether a CA bundle verifies it, its names and validity.

use chrono::{DateTime, Utc};
use x509_parser::prelude::{FromDer, GeneralName, X509Certificate};

/// Whether a DNS name of a certificate (or a Certificate's `dnsNames`) is valid for `host`: equal
/// but for case, or a `*.` wildcard standing for exactly the first label.
pub fn name_covers(name: &str, host: &str) -> bool {
    let (name, host) = (name.to_ascii_lowercase(), host.to_ascii_lowercase());
    if let Some(rest) = name.strip_prefix("*.") {
        host.split_once('.')
            .is_some_and(|(first, tail)| !first.is_empty() && tail == rest)
    } else {
        name == host
    }
}

/// One parsed certificate, owned (the DER is kept to verify signatures later).
#[derive(Debug, Clone)]
pub struct Cert {
    der: Vec<u8>,
    pub subject: String,
    pub issuer: String,
    pub serial: String,
    pub not_before: DateTime<Utc>,
    pub not_after: DateTime<Utc>,
    /// DNS names of the subjectAltName extension.
    pub dns_names: Vec<String>,
    /// Whether the certificate has a subjectAltName extension at all.
    pub has_san: bool,
    pub common_name: Option<String>,
}

/// Why bytes did not give certificates.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CertError {
    #[error("not PEM: {0}")]
    NotPem(String),
    #[error("not an X.509 certificate: {0}")]
    NotX509(String),
    #[error("no PEM certificate in it")]
    NoCertificate,
    /// A named field (`tls.crt`) holds nothing.
    #[error("{0} is empty")]
    Empty(&'static str),
}

/// Certificates in a PEM bundle (`tls.crt`, `ca.crt`, a webhook's `caBundle`), in order.
/// An empty or blank input is `Ok(vec![])`; anything that is not PEM certificates is an error.
pub fn parse_pem(bytes: &[u8]) -> Result<Vec<Cert>, CertError> {
    if is_blank(bytes) {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for pem in x509_parser::pem::Pem::iter_from_buffer(bytes) {
        let pem = pem.map_err(|e| CertError::NotPem(e.to_string()))?;
        if pem.label != "CERTIFICATE" {
            continue;
        }
        out.push(parse_der(&pem.contents)?);
    }
    if out.is_empty() {
        return Err(CertError::NoCertificate);
    }
    Ok(out)
}

/// True for nothing but whitespace (a `caBundle` of `Cg==` decodes to a single newline).
pub fn is_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(u8::is_ascii_whitespace)
}

fn parse_der(der: &[u8]) -> Result<Cert, CertError> {
    let (_, c) = X509Certificate::from_der(der).map_err(|e| CertError::NotX509(e.to_string()))?;
    let time = |t: i64| DateTime::from_timestamp(t, 0).unwrap_or_default();
    let (has_san, dns_names) = match c.subject_alternative_name() {
        Ok(Some(ext)) => (
            true,
            ext.value
                .general_names
                .iter()
                .filter_map(|n| match n {
                    GeneralName::DNSName(d) => Some(d.to_string()),
                    _ => None,
                })
                .collect(),
        ),
        _ => (false, Vec::new()),
    };
    let common_name = c
        .subject()
        .iter_common_name()
        .next()
        .and_then(|cn| cn.as_str().ok())
        .map(str::to_string);
    Ok(Cert {
        der: der.to_vec(),
        subject: c.subject().to_string(),
        issuer: c.issuer().to_string(),
        serial: c.raw_serial_as_string(),
        not_before: time(c.validity().not_before.timestamp()),
        not_after: time(c.validity().not_after.timestamp()),
        dns_names,
        has_san,
        common_name,
    })
}

impl Cert {
    /// Whether `issuer`'s key made this certificate's signature.
    pub fn signed_by(&self, issuer: &Cert) -> bool {
        let (Ok((_, me)), Ok((_, them))) = (
            X509Certificate::from_der(&self.der),
            X509Certificate::from_der(&issuer.der),
        ) else {
            return false;
        };
        me.verify_signature(Some(them.public_key())).is_ok()
    }

    /// Whether a TLS client dialing `host` accepts this certificate's names (subjectAltName DNS
    /// names only, as Go's TLS stack does since 1.15; a wildcard covers one leftmost label).
    pub fn covers(&self, host: &str) -> bool {
        self.dns_names.iter().any(|n| name_covers(n, host))
    }

    /// `CN=..., issued by CN=..., serial ..., valid A to B` for evidence lines.
    pub fn describe(&self) -> String {
        format!(
            "subject `{}`, issuer `{}`, valid {} to {}",
            self.subject,
            self.issuer,
            self.not_before.format("%Y-%m-%d %H:%M UTC"),
            self.not_after.format("%Y-%m-%d %H:%M UTC")
        )
    }

    pub fn names(&self) -> String {
        if self.has_san {
            if self.dns_names.is_empty() {
                "a subjectAltName without DNS names".into()
            } else {
                format!("DNS names {}", self.dns_names.join(", "))
            }
        } else {
            format!(
                "no subjectAltName (only CN={})",
                self.common_name.as_deref().unwrap_or("<none>")
            )
        }
    }
}

/// Whether the served chain (`tls.crt`: leaf first, then any intermediates) leads to one of the
/// `roots` (a webhook's `caBundle`): the API server's verification, minus time.
pub fn chain_verifies(chain: &[Cert], roots: &[Cert]) -> bool {
    let Some(leaf) = chain.first() else {
        return false;
    };
    let mut current = leaf;
    // Walk up through the intermediates the server sends; a cycle cannot be longer than them.
    for _ in 0..=chain.len() {
        if roots.iter().any(|r| current.signed_by(r)) {
            return true;
        }
        match chain
            .iter()
            .skip(1)
            .find(|c| !std::ptr::eq(*c, current) && current.signed_by(c))
        {
            Some(next) => current = next,
            None => return false,
        }
    }
    false
}

#[cfg(test)]
pub mod testing {
    //! Test certificates made with rcgen at test time (never committed, keys never leave memory).

    use rcgen::date_time_ymd as at;
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};

    pub struct Ca {
        pub pem: String,
        issuer: Issuer<'static, KeyPair>,
    }

    pub fn ca(cn: &str) -> Ca {
        let mut p = CertificateParams::new(Vec::<String>::new()).unwrap();
        p.distinguished_name.push(DnType::CommonName, cn);
        p.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        p.not_before = at(2025, 1, 1);
        p.not_after = at(2035, 1, 1);
        let key = KeyPair::generate().unwrap();
        let cert = p.self_signed(&key).unwrap();
        Ca {
            pem: cert.pem(),
            issuer: Issuer::new(p, key),
        }
    }

    /// A serving certificate signed by `ca`, with these DNS SANs (none: no SAN extension).
    pub fn leaf(
        ca: &Ca,
        sans: &[&str],
        not_before: (i32, u8, u8),
        not_after: (i32, u8, u8),
    ) -> String {
        let mut p =
            CertificateParams::new(sans.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
        p.distinguished_name
            .push(DnType::CommonName, "FlinkDeployment Validator");
        p.not_before = at(not_before.0, not_before.1, not_before.2);
        p.not_after = at(not_after.0, not_after.1, not_after.2);
        let key = KeyPair::generate().unwrap();
        p.signed_by(&key, &ca.issuer).unwrap().pem()
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{ca, leaf};
    use super::*;

    const HOST: &str = "flink-operator-webhook-service.flink-operator.svc";

    #[test]
    fn a_leaf_verifies_against_its_ca_and_not_another() {
        let ca1 = ca("ca-one");
        let ca2 = ca("ca-two");
        let served = parse_pem(leaf(&ca1, &[HOST], (2025, 1, 1), (2030, 1, 1)).as_bytes()).unwrap();
        let roots1 = parse_pem(ca1.pem.as_bytes()).unwrap();
        let roots2 = parse_pem(ca2.pem.as_bytes()).unwrap();
        assert!(chain_verifies(&served, &roots1));
        assert!(!chain_verifies(&served, &roots2));
        // A bundle holding both CAs trusts it.
        let both = parse_pem(format!("{}{}", ca2.pem, ca1.pem).as_bytes()).unwrap();
        assert_eq!(both.len(), 2);
        assert!(chain_verifies(&served, &both));
    }

    #[test]
    fn names_and_dates_are_read() {
        let ca1 = ca("ca-one");
        let c =
            &parse_pem(leaf(&ca1, &[HOST, "*.example.svc"], (2025, 1, 1), (2026, 1, 1)).as_bytes())
                .unwrap()[0];
        assert!(c.covers(HOST));
        assert!(c.covers("x.example.svc"));
        assert!(!c.covers("a.b.example.svc"));
        assert!(!c.covers("other.flink-operator.svc"));
        assert_eq!(c.not_after.format("%Y-%m-%d").to_string(), "2026-01-01");
        assert_eq!(c.common_name.as_deref(), Some("FlinkDeployment Validator"));
        let no_san = &parse_pem(leaf(&ca1, &[], (2025, 1, 1), (2026, 1, 1)).as_bytes()).unwrap()[0];
        assert!(!no_san.has_san && !no_san.covers(HOST));
        assert!(no_san.names().contains("only CN=FlinkDeployment Validator"));
    }

    #[test]
    fn blank_and_garbage_bundles() {
        assert!(parse_pem(b"\n").unwrap().is_empty());
        assert!(parse_pem(b"").unwrap().is_empty());
        assert_eq!(parse_pem(b"hello").unwrap_err(), CertError::NoCertificate);
    }
}
