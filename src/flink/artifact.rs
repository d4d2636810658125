//! Where a job jar comes from, by its URI's scheme, and how a person checks that it is there.
//! A `local://` URI (or a bare path) names a file inside the image: Flink reads it from the
//! container's file system, so it is checked there (`kubectl exec ... ls -l`, or the image itself
//! with `docker run`). Any other scheme is fetched before the job starts, by the JobManager (Flink
//! 1.17 and later fetch a remote `jarURI` of an application-mode FlinkDeployment, FLINK-28915) or
//! by the operator (a FlinkSessionJob's jar, which it uploads to the session cluster): an
//! `http(s)` URI is checked with `curl -fsIL`, an object store with its own client, anything else
//! by the fetcher's log. Names a person must fill in stay `<pod>`, `<namespace>`, `<image>`
//! (`signatures::paste` turns them into shell variables); the URI and path are shell-quoted.

use crate::shell::quote;

/// Where the jar is read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A file inside the image: the path (`local:///opt/flink/usrlib/job.jar`, `file:///...`,
    /// or a bare `/opt/...`).
    Image(String),
    /// Fetched over HTTP(S).
    Http(String),
    /// An object store with a command-line client: (client command, URI as it takes it).
    ObjectStore(&'static str, String),
    /// Fetched by a Flink file system (hdfs, abfs, oss, ftp, ...): the URI.
    Other(String),
}

/// The source a jar URI (or path) names.
pub fn source(uri: &str) -> Source {
    let uri = uri.trim();
    let Some((scheme, rest)) = uri.split_once("://") else {
        return Source::Image(uri.to_string());
    };
    match scheme.to_ascii_lowercase().as_str() {
        "local" | "file" => Source::Image(format!("/{}", rest.trim_start_matches('/'))),
        "http" | "https" => Source::Http(uri.to_string()),
        // s3a and s3p are Flink's two S3 file systems; the AWS CLI takes s3://.
        "s3" | "s3a" | "s3p" => Source::ObjectStore("aws s3 ls", format!("s3://{rest}")),
        "gs" => Source::ObjectStore("gcloud storage ls", uri.to_string()),
        _ => Source::Other(uri.to_string()),
    }
}

/// What to do about a jar Flink could not find at `uri`, with the command that checks it.
pub fn fix(uri: &str) -> String {
    match source(uri) {
        Source::Image(path) => format!(
            "the jar must be in the image at {path}: build it in (`COPY <job>.jar {path}` in the Dockerfile, then a new image tag in spec.image), or mount it there from an init container, or point spec.job.jarURI at where it is (`local:///opt/flink/usrlib/<job>.jar`); see what the image holds: `{}`",
            image_ls(&path)
        ),
        _ => format!(
            "the jar is fetched from {uri} before the job starts (by the JobManager for an application-mode FlinkDeployment, Flink 1.17+; by the operator for a FlinkSessionJob), so it must exist there and be reachable from that pod: upload it, fix the URI in spec.job.jarURI, or give the pod the network route and credentials; check it: `{}`",
            remote_check(uri)
        ),
    }
}

/// The command that shows the jar is where `uri` says: for a file in the image, in the running
/// container and in the image; for a remote jar, fetched as Flink would, and the fetcher's log.
pub fn verify(uri: &str) -> String {
    match source(uri) {
        Source::Image(path) => format!(
            "kubectl exec <pod> -n <namespace> -c flink-main-container -- ls -l {}   # expect the jar, not 'No such file'\n{}   # the image itself, when the pod does not stay up",
            quote(&path),
            image_ls(&path)
        ),
        _ => format!(
            "{}\nkubectl logs <pod> -n <namespace> -c flink-main-container | grep -F {}   # the JobManager's fetch: no exception after the new pod starts",
            remote_check(uri),
            quote(uri)
        ),
    }
}

fn image_ls(path: &str) -> String {
    format!("docker run --rm --entrypoint ls <image> -l {}", quote(path))
}

/// The command that fetches a remote jar as Flink would (`curl -fsIL`, the object store's
/// client), or greps the fetcher's log for a scheme no common client reads.
pub fn remote_check(uri: &str) -> String {
    match source(uri) {
        Source::Http(u) => format!("curl -fsIL {}   # expect HTTP 200", quote(&u)),
        Source::ObjectStore(client, u) => format!("{client} {}   # expect the object", quote(&u)),
        Source::Other(u) | Source::Image(u) => format!(
            "kubectl logs <pod> -n <namespace> -c flink-main-container | grep -F {}   # the fetcher's error for it, gone once the jar is there",
            quote(&u)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_check_follows_the_scheme() {
        for uri in [
            "local:///opt/flink/usrlib/orders.jar",
            "file:///opt/flink/usrlib/orders.jar",
            "/opt/flink/usrlib/orders.jar",
        ] {
            assert_eq!(
                source(uri),
                Source::Image("/opt/flink/usrlib/orders.jar".into())
            );
            let v = verify(uri);
            assert!(v.starts_with("kubectl exec <pod> -n <namespace> -c flink-main-container -- ls -l /opt/flink/usrlib/orders.jar"), "{v}");
            assert!(
                v.contains(
                    "docker run --rm --entrypoint ls <image> -l /opt/flink/usrlib/orders.jar"
                ),
                "{v}"
            );
            assert!(!v.contains("curl") && !v.contains("local://"), "{v}");
        }
        let https = "https://repo.example.com/jobs/orders-1.2.jar";
        for text in [fix(https), verify(https)] {
            assert!(
                text.contains("curl -fsIL https://repo.example.com/jobs/orders-1.2.jar"),
                "{text}"
            );
            assert!(
                !text.contains("ls -l") && !text.contains("docker run"),
                "{text}"
            );
        }
        assert!(verify("s3a://bucket/jobs/orders.jar")
            .starts_with("aws s3 ls s3://bucket/jobs/orders.jar"));
        assert!(verify("gs://bucket/orders.jar")
            .starts_with("gcloud storage ls gs://bucket/orders.jar"));
        let ftp = verify("ftp://files.example.com/orders.jar");
        assert!(!ftp.contains("ls -l") && !ftp.contains("curl"), "{ftp}");
        assert!(
            ftp.contains("grep -F ftp://files.example.com/orders.jar"),
            "{ftp}"
        );
    }

    #[test]
    fn a_uri_from_a_log_is_one_shell_word() {
        let hostile = "https://x.example.com/a.jar;touch${IFS}pwned";
        let v = verify(hostile);
        assert!(
            v.contains("curl -fsIL 'https://x.example.com/a.jar;touch${IFS}pwned'"),
            "{v}"
        );
        let path = "local:///opt/flink/usrlib/$(id).jar";
        assert!(
            verify(path).contains("ls -l '/opt/flink/usrlib/$(id).jar'"),
            "{}",
            verify(path)
        );
    }
}
