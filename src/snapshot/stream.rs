//! A large `kind: List` (or a typed list such as `PodList`) read one item at a time: each item
//! becomes a typed object before the next is parsed, so the whole list never exists as a JSON
//! tree beside the snapshot (100,000 pods in a 25 MB file took 1.2 GB that way).

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// What one document was: a list whose items went to `item` one by one (with what it said of
/// itself besides its items), or any other document, whole.
pub enum Document {
    /// A list, with the kind of its items when it is a typed list (`PodList` -> `Pod`).
    List(Option<String>),
    Whole(Value),
}

/// Reads one document (from serde_yaml's or serde_json's deserializer), handing the items of a
/// top-level list to `item` as they are parsed. Items that carry no `kind` of their own get the
/// typed list's (`PodList` -> `Pod`) and its `apiVersion`, as the API server leaves them out.
pub fn document<'de, D, F>(d: D, item: &mut F) -> Result<Document, D::Error>
where
    D: de::Deserializer<'de>,
    F: FnMut(Value) -> Result<(), String>,
{
    d.deserialize_any(DocumentVisitor { item })
}

struct DocumentVisitor<'f, F> {
    item: &'f mut F,
}

impl<'de, F> Visitor<'de> for DocumentVisitor<'_, F>
where
    F: FnMut(Value) -> Result<(), String>,
{
    type Value = Document;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a YAML or JSON document")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Document, A::Error> {
        let mut rest = Map::new();
        let mut streamed = false;
        // Items seen before the list said its kind wait for it (kubectl sorts `items` before
        // `kind`; the API puts `kind` first).
        let mut waiting: Vec<Value> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let list_kind = rest.get("kind").and_then(Value::as_str).map(str::to_string);
            let is_list = list_kind.as_deref().is_none_or(|k| k.ends_with("List"));
            if key == "items" && is_list && !streamed {
                let api_version = rest
                    .get("apiVersion")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                map.next_value_seed(ItemsSeed {
                    item: &mut *self.item,
                    kind: list_kind.as_deref().and_then(|k| k.strip_suffix("List")),
                    api_version: api_version.as_deref(),
                    waiting: &mut waiting,
                })?;
                streamed = true;
            } else {
                let v: Value = map.next_value()?;
                rest.insert(key, v);
            }
        }
        if !streamed {
            return Ok(Document::Whole(Value::Object(rest)));
        }
        let kind = rest.get("kind").and_then(Value::as_str).unwrap_or("");
        if !kind.ends_with("List") {
            // Not a list after all: an object with an `items` field, which no kind we read has.
            return Ok(Document::List(None));
        }
        let item_kind = kind.strip_suffix("List").unwrap_or("");
        let api_version = rest.get("apiVersion").cloned();
        for mut v in waiting {
            fill(&mut v, item_kind, api_version.as_ref());
            (self.item)(v).map_err(de::Error::custom)?;
        }
        Ok(Document::List(
            (!item_kind.is_empty()).then(|| item_kind.to_string()),
        ))
    }

    // Anything but a mapping is no Kubernetes object; its value does not matter.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Document, A::Error> {
        while seq.next_element::<de::IgnoredAny>()?.is_some() {}
        Ok(Document::Whole(Value::Null))
    }
    fn visit_str<E>(self, _: &str) -> Result<Document, E> {
        Ok(Document::Whole(Value::Null))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Document, E> {
        Ok(Document::Whole(Value::Null))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Document, E> {
        Ok(Document::Whole(Value::Null))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Document, E> {
        Ok(Document::Whole(Value::Null))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Document, E> {
        Ok(Document::Whole(Value::Null))
    }
    fn visit_unit<E>(self) -> Result<Document, E> {
        Ok(Document::Whole(Value::Null))
    }
    fn visit_none<E>(self) -> Result<Document, E> {
        Ok(Document::Whole(Value::Null))
    }
}

fn fill(v: &mut Value, kind: &str, api_version: Option<&Value>) {
    if kind.is_empty() {
        return;
    }
    if let Some(o) = v.as_object_mut() {
        o.entry("kind")
            .or_insert_with(|| Value::String(kind.to_string()));
        if let Some(a) = api_version {
            o.entry("apiVersion").or_insert_with(|| a.clone());
        }
    }
}

struct ItemsSeed<'a, F> {
    item: &'a mut F,
    /// The typed list's item kind, when the list said it before its items.
    kind: Option<&'a str>,
    api_version: Option<&'a str>,
    waiting: &'a mut Vec<Value>,
}

impl<'de, F> DeserializeSeed<'de> for ItemsSeed<'_, F>
where
    F: FnMut(Value) -> Result<(), String>,
{
    type Value = ();

    // Any, not seq: JSON's deserializer refuses `null` for a sequence, and kubectl writes an
    // empty list as `"items": null` (its `cluster-info dump` does).
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, F> Visitor<'de> for ItemsSeed<'_, F>
where
    F: FnMut(Value) -> Result<(), String>,
{
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of objects")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(mut v) = seq.next_element::<Value>()? {
            let has_kind = v.get("kind").and_then(Value::as_str).is_some();
            match (has_kind, self.kind) {
                (true, _) => (self.item)(v).map_err(de::Error::custom)?,
                (false, Some(kind)) => {
                    fill(
                        &mut v,
                        kind,
                        self.api_version.map(|a| Value::String(a.into())).as_ref(),
                    );
                    (self.item)(v).map_err(de::Error::custom)?
                }
                (false, None) => self.waiting.push(v),
            }
        }
        Ok(())
    }

    // `items: null` is an empty list.
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }
}
