//! How near one name is to another: a person's typo in an option, a field or an object's name
//! (`flink-critial` for the PriorityClass `flink-critical`), so a fix can name the one meant.

/// Levenshtein distance (insertions, deletions, substitutions), over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(above + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The candidate WANTED was most likely meant to be, ignoring case: within two edits, and fewer
/// than half its length (so `ab` never "means" `xy`); the nearest wins, the first on a tie.
pub fn nearest<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = wanted.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|c| (edit_distance(&lower, &c.to_ascii_lowercase()), c))
        .filter(|(d, c)| *d <= 2 && *d < c.chars().count() / 2 + 1)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_each_edit() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("flink-critial", "flink-critical"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn nearest_is_a_typo_never_a_different_name() {
        let known = ["flink-critical", "system-node-critical", "batch"];
        assert_eq!(nearest("flink-critial", known), Some("flink-critical"));
        assert_eq!(nearest("FLINK-CRITICAL", known), Some("flink-critical"));
        assert_eq!(nearest("realtime", known), None);
        assert_eq!(nearest("ab", ["xy"]), None);
    }
}
