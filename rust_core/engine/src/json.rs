//! Strict JSON reading for serialized states: like `serde_json::from_str::<Value>`, but an object that gives
//! a key twice is an error (serde_json keeps the last silently, which would make a hand-edited state ambiguous).

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;

struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Strict;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Strict, E> {
        Ok(Strict(Value::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Strict, E> {
        Ok(Strict(Value::from(v)))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Strict, E> {
        Ok(Strict(Value::from(v)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Strict, E> {
        Ok(Strict(Value::from(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Strict, E> {
        Ok(Strict(Value::String(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<Strict, E> {
        Ok(Strict(Value::String(v)))
    }
    fn visit_unit<E>(self) -> Result<Strict, E> {
        Ok(Strict(Value::Null))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Strict, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Strict(Value::Array(items)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Strict, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(de::Error::custom(format!("the key {key:?} is given twice")));
            }
            let Strict(value) = map.next_value()?;
            out.insert(key, value);
        }
        Ok(Strict(Value::Object(out)))
    }
}

/// Parse JSON text, refusing duplicate keys. serde_json's own recursion limit guards against deep nesting.
///
/// The number `-0` (no fraction, no exponent) is read as the int 0, as Python's `json` (and so the oracle)
/// reads it; serde_json alone would make it the float -0.0, which every int field refuses
/// (docs/architecture.md, "Input policy"). `-0.0` and `-0e0` stay floats, in both engines.
pub fn parse(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str::<Strict>(&minus_zero_as_zero(text)).map(|Strict(v)| v)
}

/// `text` with the sign of every integer `-0` outside strings replaced by a space (same length, so error
/// positions do not move). A text without `-0` is returned as it is, with no copy.
fn minus_zero_as_zero(text: &str) -> Cow<'_, str> {
    if !text.contains("-0") {
        return Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let (mut in_string, mut escaped) = (false, false);
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        if b == b'"' {
            in_string = true;
        } else if b == b'-'
            && bytes.get(i + 1) == Some(&b'0')
            && !matches!(bytes.get(i + 2), Some(b'0'..=b'9' | b'.' | b'e' | b'E'))
        {
            out.get_or_insert_with(|| bytes.to_vec())[i] = b' ';
        }
    }
    // An ASCII byte replaced by another keeps the text valid UTF-8.
    match out.map(String::from_utf8) {
        Some(Ok(s)) => Cow::Owned(s),
        _ => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn minus_zero_is_the_int_zero() {
        assert_eq!(super::parse(r#"{"a":-0}"#).unwrap()["a"].as_u64(), Some(0));
        assert_eq!(super::parse(r#"[-0,1,-0]"#).unwrap()[2].as_u64(), Some(0));
        assert_eq!(super::parse(r#"{"-0":"-0"}"#).unwrap()["-0"], "-0");
        assert_eq!(super::parse(r#"["\"",-0]"#).unwrap()[1].as_u64(), Some(0));
        assert!(super::parse("-0.0").unwrap().is_f64());
        assert!(super::parse("-0e0").unwrap().is_f64());
        assert!(super::parse("-01").is_err());
        assert!(super::parse("--0").is_err());
        assert!(super::parse("1-0").is_err());
    }

    #[test]
    fn duplicate_keys_are_refused() {
        assert!(super::parse(r#"{"a":1,"a":2}"#).is_err());
        assert!(super::parse(r#"{"a":{"b":1,"b":1}}"#).is_err());
        assert_eq!(
            super::parse(r#"{"a":[1,true,"x",null]}"#).unwrap()["a"][1],
            true
        );
    }
}
