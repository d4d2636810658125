//! Quantities and durations as Kubernetes and Flink write them, and the memory thresholds the
//! diagnosis applies to them.

use chrono::Duration;

pub const MIB: f64 = 1024.0 * 1024.0;

/// Below this share of the container's memory limit, the headroom over Flink's process memory is
/// called too small (the JVM's native memory, glibc arenas and RocksDB overshoot the budget).
pub const MIN_HEADROOM: f64 = 0.10;

/// A Kubernetes quantity in base units (bytes for memory, cores for cpu): `2Gi`, `512Mi`, `1G`,
/// `1500m` (milli), `1e9`, `129M`, plain numbers.
pub fn parse_quantity(s: &str) -> Option<f64> {
    let s = s.trim();
    let split = s
        .char_indices()
        .find(|(i, ch)| {
            !(ch.is_ascii_digit() || *ch == '.' || ((*ch == '+' || *ch == '-') && *i == 0))
        })
        .map(|(i, _)| i)
        .unwrap_or(s.len());
    let (num, suffix) = s.split_at(split);
    let value: f64 = num.parse().ok()?;
    if !value.is_finite() {
        return None;
    }
    let multiplier = match suffix {
        "" => 1.0,
        "Ki" => 1024f64,
        "Mi" => 1024f64.powi(2),
        "Gi" => 1024f64.powi(3),
        "Ti" => 1024f64.powi(4),
        "Pi" => 1024f64.powi(5),
        "Ei" => 1024f64.powi(6),
        "n" => 1e-9,
        "u" => 1e-6,
        "m" => 1e-3,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "E" => 1e18,
        e if e.starts_with(['e', 'E']) => 10f64.powi(e[1..].parse::<i32>().ok()?),
        _ => return None,
    };
    Some(value * multiplier)
}

/// A Flink memory size (`MemorySize.parse`): an integer and an optional unit, all 1024-based and
/// case-insensitive: b/bytes, k/kb/kibibytes, m/mb/mebibytes, g/gb/gibibytes, t/tb/tebibytes.
pub fn parse_flink_memory(s: &str) -> Option<f64> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let value: f64 = num.parse::<u64>().ok()? as f64;
    let multiplier = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" | "bytes" => 1.0,
        "k" | "kb" | "kibibytes" => 1024f64,
        "m" | "mb" | "mebibytes" => 1024f64.powi(2),
        "g" | "gb" | "gibibytes" => 1024f64.powi(3),
        "t" | "tb" | "tebibytes" => 1024f64.powi(4),
        _ => return None,
    };
    Some(value * multiplier)
}

/// `spec.*.resource.memory` as the operator reads it (`FlinkConfigBuilder.parseResourceMemoryString`):
/// Flink's syntax first (`2048m` = 2048 MiB, `2g`), else a Kubernetes quantity after upper-casing,
/// dropping a trailing `B` and writing a trailing `I` as `i` (`2Gi`, `1.5gi`, `2000MB`).
pub fn parse_resource_memory(s: &str) -> Option<f64> {
    if let Some(b) = parse_flink_memory(s) {
        return Some(b);
    }
    let mut q: String = s.split_whitespace().collect::<String>().to_uppercase();
    if q.ends_with('B') {
        q.pop();
    }
    if q.ends_with('I') {
        q.pop();
        q.push('i');
    }
    parse_quantity(&q)
}

/// A byte count as a short Kubernetes quantity (`10Gi`, `1536Mi`, or bytes).
pub fn format_bytes(bytes: f64) -> String {
    let b = bytes.ceil();
    for (unit, size) in [
        ("Gi", 1024f64.powi(3)),
        ("Mi", 1024f64.powi(2)),
        ("Ki", 1024f64),
    ] {
        if b >= size && (b / size).fract() == 0.0 {
            return format!("{}{unit}", b / size);
        }
    }
    if b >= MIB {
        return format!("{}Mi", (b / MIB).ceil());
    }
    format!("{b}")
}

/// A duration the way `kubectl get` prints an AGE (apimachinery's `duration.HumanDuration`):
/// `45s`, `3m20s`, `42m`, `5h12m`, `30h`, `3d4h`, `120d`, `2y30d`, `9y`.
pub fn human_duration(d: Duration) -> String {
    let seconds = d.num_seconds();
    if seconds < 0 {
        return "0s".into();
    }
    if seconds < 60 * 2 {
        return format!("{seconds}s");
    }
    let minutes = seconds / 60;
    if minutes < 10 {
        let s = seconds % 60;
        return if s == 0 {
            format!("{minutes}m")
        } else {
            format!("{minutes}m{s}s")
        };
    }
    if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = minutes / 60;
    if hours < 8 {
        let m = minutes % 60;
        return if m == 0 {
            format!("{hours}h")
        } else {
            format!("{hours}h{m}m")
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        let h = hours % 24;
        return if h == 0 {
            format!("{}d", hours / 24)
        } else {
            format!("{}d{h}h", hours / 24)
        };
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        let days = (hours / 24) % 365;
        return if days == 0 {
            format!("{}y", hours / 24 / 365)
        } else {
            format!("{}y{days}d", hours / 24 / 365)
        };
    }
    format!("{}y", hours / 24 / 365)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_like_kubectl_get() {
        for (secs, want) in [
            (45, "45s"),
            (200, "3m20s"),
            (42 * 60, "42m"),
            (5 * 3600 + 12 * 60, "5h12m"),
            (30 * 3600, "30h"),
            (3 * 86_400 + 4 * 3600, "3d4h"),
            (120 * 86_400, "120d"),
            (-5, "0s"),
        ] {
            assert_eq!(human_duration(Duration::seconds(secs)), want, "{secs}s");
        }
    }

    #[test]
    fn quantities_in_both_syntaxes() {
        assert_eq!(parse_quantity("2Gi"), Some(2.0 * 1024.0 * MIB));
        assert_eq!(parse_quantity("1500m"), Some(1.5));
        assert_eq!(parse_flink_memory("2048m"), Some(2048.0 * MIB));
        assert_eq!(parse_resource_memory("2Gi"), Some(2048.0 * MIB));
        assert_eq!(parse_resource_memory("2000MB"), Some(2000.0 * MIB)); // Flink syntax first
        assert_eq!(format_bytes(1536.0 * MIB), "1536Mi");
    }

    #[test]
    fn kubernetes_quantities() {
        let cases = [
            ("2Gi", 2147483648.0),
            ("512Mi", 536870912.0),
            ("1G", 1e9),
            ("129M", 129e6),
            ("128974848", 128974848.0),
            ("123Ki", 125952.0),
            ("1.5Gi", 1610612736.0),
            ("1e3", 1000.0),
            ("500m", 0.5),
            ("128974848000m", 128974848.0),
            ("1Ti", 1099511627776.0),
            ("2k", 2000.0),
        ];
        for (q, want) in cases {
            assert_eq!(parse_quantity(q), Some(want), "{q}");
        }
        assert_eq!(parse_quantity("2GB"), None);
        assert_eq!(parse_quantity("lots"), None);
    }

    #[test]
    fn flink_memory_sizes() {
        assert_eq!(parse_resource_memory("2048m"), Some(2048.0 * MIB));
        assert_eq!(parse_resource_memory("2g"), Some(2048.0 * MIB));
        assert_eq!(parse_resource_memory("2gb"), Some(2048.0 * MIB));
        assert_eq!(parse_resource_memory("1024mb"), Some(1024.0 * MIB));
        assert_eq!(parse_resource_memory("2G"), Some(2048.0 * MIB)); // Flink reads G as GiB
        assert_eq!(parse_resource_memory("2Gi"), Some(2048.0 * MIB));
        assert_eq!(parse_resource_memory("1.5gi"), Some(1536.0 * MIB));
        assert_eq!(parse_flink_memory("1728 mb"), Some(1728.0 * MIB));
        assert_eq!(parse_flink_memory("1.5g"), None);
        assert_eq!(format_bytes(10.0 * 1024.0 * MIB), "10Gi");
        assert_eq!(format_bytes(1536.0 * MIB), "1536Mi");
    }
}
