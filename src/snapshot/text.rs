//! Text a snapshot's pods repeat: their namespace, node, image, owner, label values, condition
//! and container words. [`Text`] is a shared, immutable string (16 bytes in its field, against 24
//! for a `String`), read as `&str`. The same text read twice is one allocation when it is one of
//! the words every Flink pod repeats ([`words`], the same for the whole process: a fixed list
//! from the code, never from input), or when it is read while an [`Interning`] is in force: a
//! bundle (`bundle::load_with`) or a live gather's pages. The interning table lives as long as
//! its guard, never longer: what it held then lives exactly as long as the pods that hold it
//! (`watch` runs for months and must not keep every namespace it ever saw).

use serde::{Deserialize, Deserializer, Serialize};
use std::borrow::Borrow;
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, LazyLock};

/// A shared, immutable string. Reads as `&str` (`Deref`), compares with `str` and `String`,
/// writes as a JSON string, and is written to as a `String` is read (`From<&str>`, `From<String>`).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Text(Arc<str>);

impl Text {
    /// `s` as the text already shared when there is one ([`words`], the interning in force), a
    /// new one otherwise.
    pub fn new(s: &str) -> Text {
        if let Some(w) = WORDS.get(s) {
            return Text(w.clone());
        }
        TABLE.with(|t| match t.borrow_mut().as_mut() {
            Some(table) => match table.get(s) {
                Some(shared) => Text(shared.clone()),
                None => {
                    let shared: Arc<str> = Arc::from(s);
                    table.insert(shared.clone());
                    Text(shared)
                }
            },
            None => Text(Arc::from(s)),
        })
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
    /// Whether both are the one allocation (the same word, or text interned together).
    pub fn shares(&self, other: &Text) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// The words every Flink pod repeats, shared by every pod the process reads: Flink's labels
/// (`flink::names::LABEL_WORDS`) and the API's own words the pod module names (phases, restart
/// policies, condition types, statuses and reasons, container reasons, resource names, owners'
/// apiVersion and kind, Flink's container names). Built once from these constants; bounded.
static WORDS: LazyLock<HashSet<Arc<str>>> = LazyLock::new(|| {
    super::pod::WORD_LISTS
        .iter()
        .flat_map(|l| l.iter())
        .chain(crate::flink::names::LABEL_WORDS)
        .map(|w| Arc::from(*w))
        .collect()
});

/// Whether `s` is one of the words every Flink pod shares.
pub fn is_word(s: &str) -> bool {
    WORDS.contains(s)
}

thread_local! {
    static TABLE: RefCell<Option<HashSet<Arc<str>>>> = const { RefCell::new(None) };
}

/// While it lives, text read on this thread is shared with the same text read before it (a
/// bundle's 100,000 pods hold their namespace, node names and image once). Dropped, its table
/// goes with it; an interning begun inside another ends with the inner one's table only.
#[must_use]
pub struct Interning {
    outer: Option<HashSet<Arc<str>>>,
}

pub fn interning() -> Interning {
    let outer = TABLE.with(|t| t.borrow_mut().replace(HashSet::new()));
    Interning { outer }
}

impl Drop for Interning {
    fn drop(&mut self) {
        let outer = self.outer.take();
        TABLE.with(|t| *t.borrow_mut() = outer);
    }
}

impl Default for Text {
    fn default() -> Self {
        Text::new("")
    }
}

impl Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Self {
        Text::new(s)
    }
}

impl From<String> for Text {
    fn from(s: String) -> Self {
        Text::new(&s)
    }
}

impl From<&String> for Text {
    fn from(s: &String) -> Self {
        Text::new(s)
    }
}

impl From<Text> for String {
    fn from(t: Text) -> Self {
        t.0.to_string()
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, o: &str) -> bool {
        &*self.0 == o
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, o: &&str) -> bool {
        &*self.0 == *o
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, o: &String) -> bool {
        &*self.0 == o.as_str()
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, o: &Text) -> bool {
        self == &*o.0
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, o: &Text) -> bool {
        *self == &*o.0
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, o: &Text) -> bool {
        self.as_str() == &*o.0
    }
}

impl Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Text;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Text, E> {
                Ok(Text::new(s))
            }
        }
        d.deserialize_str(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_shared_always_and_other_text_while_interning() {
        let (a, b) = (Text::new("Running"), Text::new("Running"));
        assert!(a.shares(&b) && is_word("Running"));
        let (a, b) = (Text::new("ns-1"), Text::new("ns-1"));
        assert!(!a.shares(&b), "no interning in force: two allocations");
        let kept = {
            let _interning = interning();
            let (a, b) = (Text::new("ns-1"), Text::new("ns-1"));
            assert!(a.shares(&b));
            assert!(!a.shares(&Text::new("ns-2")));
            a
        };
        // The table went with its guard: the text lives on in what holds it, alone.
        assert!(!kept.shares(&Text::new("ns-1")));
        assert_eq!(kept, "ns-1");
        assert_eq!(Arc::strong_count(&kept.0), 1);
    }

    #[test]
    fn an_inner_interning_ends_alone() {
        let _outer = interning();
        let a = Text::new("x");
        {
            let _inner = interning();
            assert!(!Text::new("x").shares(&a));
        }
        assert!(Text::new("x").shares(&a));
    }

    #[test]
    fn reads_writes_and_compares_as_a_string() {
        let t: Text = serde_json::from_str(r#""flink:1.20""#).unwrap();
        assert_eq!(t, "flink:1.20");
        assert_eq!("flink:1.20", t);
        assert_eq!(t, String::from("flink:1.20"));
        assert_eq!(serde_json::to_string(&t).unwrap(), r#""flink:1.20""#);
        assert_eq!(format!("{t} {t:?}"), r#"flink:1.20 "flink:1.20""#);
        let from_value: Text = serde_json::from_value(serde_json::json!("a")).unwrap();
        assert_eq!(from_value.as_str(), "a");
        assert!(serde_json::from_str::<Text>("1").is_err());
        assert_eq!(std::mem::size_of::<Option<Text>>(), 16);
    }
}
