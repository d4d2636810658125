//! Go's `time.Duration.String()`, which the kubelet's messages print (`10s`, `1m20s`, `5m0s`).

use std::time::Duration;

pub fn duration(d: Duration) -> String {
    let ns = d.as_nanos();
    if ns == 0 {
        return "0s".into();
    }
    if ns < 1_000_000_000 {
        let (unit, div) = if ns < 1_000 {
            ("ns", 1)
        } else if ns < 1_000_000 {
            ("µs", 1_000)
        } else {
            ("ms", 1_000_000)
        };
        return format!("{}{unit}", frac(ns / div, ns % div, div));
    }
    let secs = ns / 1_000_000_000;
    let (h, m, s) = (secs / 3600, (secs / 60) % 60, secs % 60);
    let s = frac(s, ns % 1_000_000_000, 1_000_000_000);
    if h > 0 {
        format!("{h}h{m}m{s}s")
    } else if m > 0 {
        format!("{m}m{s}s")
    } else {
        format!("{s}s")
    }
}

fn frac(whole: u128, rest: u128, div: u128) -> String {
    if rest == 0 {
        return whole.to_string();
    }
    let width = div.to_string().len() - 1;
    let digits = format!("{rest:0width$}");
    format!("{whole}.{}", digits.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::duration;
    use std::time::Duration;

    #[test]
    fn like_go() {
        let ms = Duration::from_millis;
        assert_eq!(duration(ms(0)), "0s");
        assert_eq!(duration(ms(2000)), "2s");
        assert_eq!(duration(ms(80_000)), "1m20s");
        assert_eq!(duration(ms(300_000)), "5m0s");
        assert_eq!(duration(ms(3_600_000)), "1h0m0s");
        assert_eq!(duration(ms(1500)), "1.5s");
        assert_eq!(duration(ms(500)), "500ms");
        assert_eq!(duration(ms(62_250)), "1m2.25s");
        assert_eq!(duration(Duration::from_micros(1500)), "1.5ms");
    }
}
