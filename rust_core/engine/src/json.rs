//! Strict JSON reading for serialized states and sheet files, the engine's one JSON reader: like
//! `serde_json::from_str::<Value>`, but an object that gives a key twice is an error (serde_json keeps the last
//! silently, which would make a hand-edited state ambiguous) and `-0` is the int 0 (as in Python's `json`).
//! [`Fields`] then reads one object strictly, key by key, for every game's serializer.
//!
//! What the reading leaves to serde_json (the same for every game): nesting 128 or more arrays or objects deep
//! is refused; an int beyond 64 bits becomes a float and a number beyond f64's range is refused, so either is
//! refused wherever an int is expected (Python would read an int, out of every range we accept: the same
//! verdict); a string escaping a lone surrogate, `NaN` and `Infinity` are refused.

use crate::error::{invalid, Result as GameResult};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;
use std::ops::{Bound, RangeBounds};

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

/// What kind of JSON value `v` is, for messages: "null", "a bool", "an int", "a float", "a str", "a list",
/// "an object".
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a bool",
        Value::Number(n) if n.is_f64() => "a float",
        Value::Number(_) => "an int",
        Value::String(_) => "a str",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// `v` as an int in `lo..=hi`: a JSON number without fraction or exponent (never a bool, never a float even
/// if whole), in range.
pub fn int_in(v: &Value, lo: i64, hi: i64) -> Option<i64> {
    v.as_i64().filter(|x| (lo..=hi).contains(x))
}

static NULL: Value = Value::Null;

/// One JSON object read strictly: it must have exactly the expected keys (a missing or an unknown key is
/// refused here, a key given twice by [`parse`]), and each value is read by a typed getter. Every refusal is
/// an `InvalidState` error: the caller's `prefix` (say `"flip_city state: "`) and then the key path of what
/// is wrong (`seats[1].deck_known[3] must be an int in 0..=33`).
pub struct Fields<'a> {
    map: &'a Map<String, Value>,
    prefix: &'a str,
    /// The key path of this object from the top ("" for the top itself).
    path: String,
}

impl<'a> Fields<'a> {
    /// `value`, the object at `path` ("" for the top level), with exactly the keys `keys`.
    pub fn new(
        value: &'a Value,
        prefix: &'a str,
        path: impl Into<String>,
        keys: &[&str],
    ) -> GameResult<Self> {
        let path = path.into();
        let at = if path.is_empty() {
            String::new()
        } else {
            format!("{path}: ")
        };
        let Some(map) = value.as_object() else {
            return if path.is_empty() {
                invalid(format!("{prefix}not a JSON object but {}", kind(value)))
            } else {
                invalid(format!(
                    "{prefix}{path} must be an object, not {}",
                    kind(value)
                ))
            };
        };
        if let Some(key) = keys.iter().find(|k| !map.contains_key(**k)) {
            return invalid(format!("{prefix}{at}the key {key:?} is missing"));
        }
        if let Some(key) = map.keys().find(|k| !keys.contains(&k.as_str())) {
            let key: String = key.chars().take(40).collect();
            return invalid(format!("{prefix}{at}unknown key {key:?}"));
        }
        Ok(Fields { map, prefix, path })
    }

    /// The key path of `sub` (a key, or a key with indices: `deck_known[3]`) inside this object.
    pub fn path_of(&self, sub: &str) -> String {
        if self.path.is_empty() {
            sub.to_string()
        } else {
            format!("{}.{sub}", self.path)
        }
    }

    /// The refusal "`<prefix><path>.<sub> <what>`", for a check of the caller's own.
    pub fn fail<T>(&self, sub: &str, what: impl fmt::Display) -> GameResult<T> {
        invalid(format!("{}{} {what}", self.prefix, self.path_of(sub)))
    }

    /// The value of `key` (null for a key this object was not opened with).
    pub fn get(&self, key: &str) -> &'a Value {
        self.map.get(key).unwrap_or(&NULL)
    }

    /// `v`, found at `sub`, as an int in `lo..=hi`.
    pub fn int_at(&self, sub: &str, v: &Value, lo: i64, hi: i64) -> GameResult<i64> {
        int_in(v, lo, hi).map_or_else(
            || self.fail(sub, format!("must be an int in {lo}..={hi}")),
            Ok,
        )
    }

    pub fn int(&self, key: &str, lo: i64, hi: i64) -> GameResult<i64> {
        self.int_at(key, self.get(key), lo, hi)
    }

    pub fn bool(&self, key: &str) -> GameResult<bool> {
        self.get(key)
            .as_bool()
            .map_or_else(|| self.fail(key, "must be a bool"), Ok)
    }

    pub fn str(&self, key: &str) -> GameResult<&'a str> {
        self.get(key)
            .as_str()
            .map_or_else(|| self.fail(key, "must be a str"), Ok)
    }

    /// `v`, found at `sub`, as a list whose length is in `len` (`..` for any length).
    pub fn list_at(
        &self,
        sub: &str,
        v: &'a Value,
        len: impl RangeBounds<usize>,
    ) -> GameResult<&'a [Value]> {
        match v.as_array() {
            Some(items) if len.contains(&items.len()) => Ok(items),
            _ => {
                let lo = match len.start_bound() {
                    Bound::Included(&n) => n,
                    Bound::Excluded(&n) => n + 1,
                    Bound::Unbounded => 0,
                };
                let hi = match len.end_bound() {
                    Bound::Included(&n) => Some(n),
                    Bound::Excluded(&n) => Some(n.saturating_sub(1)),
                    Bound::Unbounded => None,
                };
                match hi {
                    None if lo == 0 => self.fail(sub, "must be a list"),
                    None => self.fail(sub, format!("must be a list of {lo} or more entries")),
                    Some(hi) if hi == lo => {
                        self.fail(sub, format!("must be a list of {lo} entries"))
                    }
                    Some(hi) => self.fail(sub, format!("must be a list of {lo}..={hi} entries")),
                }
            }
        }
    }

    /// The list at `key`, its length in `len` (`..` for any length).
    pub fn list(&self, key: &str, len: impl RangeBounds<usize>) -> GameResult<&'a [Value]> {
        self.list_at(key, self.get(key), len)
    }

    /// The list at `key`, its length in `len`, of ints in `lo..=hi`.
    pub fn ints(
        &self,
        key: &str,
        len: impl RangeBounds<usize>,
        lo: i64,
        hi: i64,
    ) -> GameResult<Vec<i64>> {
        self.list(key, len)?
            .iter()
            .enumerate()
            .map(|(i, v)| self.int_at(&format!("{key}[{i}]"), v, lo, hi))
            .collect()
    }

    /// `v`, found at `sub`, as an object with exactly the keys `keys`.
    pub fn object_at(&self, sub: &str, v: &'a Value, keys: &[&str]) -> GameResult<Fields<'a>> {
        Fields::new(v, self.prefix, self.path_of(sub), keys)
    }

    /// The object at `key`, with exactly the keys `keys`.
    pub fn object(&self, key: &str, keys: &[&str]) -> GameResult<Fields<'a>> {
        self.object_at(key, self.get(key), keys)
    }

    /// The envelope of a serialized state: `game` names `game`, `version` is `version` (an int), `params` equals
    /// `params` (the game's, as `params_to_json` writes them).
    pub fn envelope(&self, game: &str, version: i64, params: &Value) -> GameResult<()> {
        if self.get("game").as_str() != Some(game) {
            return self.fail("game", format!("must be {game:?}"));
        }
        if self.get("version").as_i64() != Some(version) {
            return self.fail("version", format!("must be {version}"));
        }
        if self.get("params") != params {
            return self.fail("params", "differ from this game's");
        }
        Ok(())
    }

    /// The string at `key` as one of the names of `table`.
    pub fn name<T: Copy>(&self, key: &str, table: &[(T, &str)]) -> GameResult<T> {
        let s = self.get(key).as_str();
        match table.iter().find(|(_, n)| Some(*n) == s) {
            Some((t, _)) => Ok(*t),
            None => self.fail(key, format!("must be one of {}", names(table))),
        }
    }
}

fn names<T>(table: &[(T, &str)]) -> String {
    table
        .iter()
        .map(|(_, n)| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message<T>(r: GameResult<T>) -> String {
        match r {
            Err(crate::GameError::InvalidState(m)) => m,
            Err(other) => panic!("not InvalidState: {other:?}"),
            Ok(_) => panic!("accepted"),
        }
    }

    #[test]
    fn fields_refuse_missing_extra_and_mistyped_values() {
        let v = parse(r#"{"a":1,"b":true,"c":"x","d":[1,2],"e":{"f":[0,-0,7]}}"#).unwrap();
        let keys = ["a", "b", "c", "d", "e"];
        let o = Fields::new(&v, "g: ", "", &keys).unwrap();
        assert_eq!(o.int("a", 0, 1).unwrap(), 1);
        assert_eq!(message(o.int("a", 2, 3)), "g: a must be an int in 2..=3");
        assert_eq!(message(o.int("b", 0, 1)), "g: b must be an int in 0..=1");
        assert!(o.bool("b").unwrap());
        assert_eq!(message(o.bool("a")), "g: a must be a bool");
        assert_eq!(o.str("c").unwrap(), "x");
        assert_eq!(message(o.str("d")), "g: d must be a str");
        assert_eq!(o.list("d", 2..=2).unwrap().len(), 2);
        assert_eq!(
            message(o.list("d", 3..=3)),
            "g: d must be a list of 3 entries"
        );
        assert_eq!(message(o.list("c", ..)), "g: c must be a list");
        let e = o.object("e", &["f"]).unwrap();
        assert_eq!(e.ints("f", .., 0, 9).unwrap(), vec![0, 0, 7]);
        assert_eq!(
            message(e.ints("f", .., 0, 6)),
            "g: e.f[2] must be an int in 0..=6"
        );
        assert_eq!(
            message(o.object("e", &["f", "h"])),
            "g: e: the key \"h\" is missing"
        );
        assert_eq!(message(o.object("e", &[])), "g: e: unknown key \"f\"");
        assert_eq!(
            message(o.object("a", &[])),
            "g: a must be an object, not an int"
        );
        assert_eq!(
            message(Fields::new(&v, "g: ", "", &keys[1..])),
            "g: unknown key \"a\""
        );
        assert_eq!(
            message(Fields::new(&v["d"], "g: ", "", &[])),
            "g: not a JSON object but a list"
        );
        #[derive(Clone, Copy, Debug, PartialEq)]
        enum N {
            X,
        }
        assert_eq!(o.name("c", &[(N::X, "x")]).unwrap(), N::X);
        assert_eq!(
            message(o.name("a", &[(N::X, "x")])),
            "g: a must be one of \"x\""
        );
    }

    #[test]
    fn ints_are_exact() {
        for text in [
            "1.0",
            "1e0",
            "true",
            "\"1\"",
            "null",
            "18446744073709551616",
            "1e400",
        ] {
            assert!(
                parse(text).map_or(true, |v| int_in(&v, i64::MIN, i64::MAX).is_none()),
                "{text}"
            );
        }
        assert_eq!(
            int_in(&parse("-9223372036854775808").unwrap(), i64::MIN, 0),
            Some(i64::MIN)
        );
        assert_eq!(
            int_in(&parse("9223372036854775808").unwrap(), 0, i64::MAX),
            None
        );
    }

    #[test]
    fn what_serde_json_refuses() {
        for text in [
            "NaN",
            "Infinity",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"a\u{1}\"",
            "\u{feff}{}",
            "01",
            "1e",
        ] {
            assert!(parse(text).is_err(), "{text:?}");
        }
        assert_eq!(parse("\"\\ud83d\\ude00\"").unwrap(), "\u{1F600}");
        assert!(parse(&format!("{}{}", "[".repeat(128), "]".repeat(128))).is_err());
        assert!(parse(&format!("{}{}", "[".repeat(127), "]".repeat(127))).is_ok());
    }

    #[test]
    fn minus_zero_is_the_int_zero() {
        assert_eq!(parse(r#"{"a":-0}"#).unwrap()["a"].as_u64(), Some(0));
        assert_eq!(parse(r#"[-0,1,-0]"#).unwrap()[2].as_u64(), Some(0));
        assert_eq!(parse(r#"{"-0":"-0"}"#).unwrap()["-0"], "-0");
        assert_eq!(parse(r#"["\"",-0]"#).unwrap()[1].as_u64(), Some(0));
        assert!(parse("-0.0").unwrap().is_f64());
        assert!(parse("-0e0").unwrap().is_f64());
        assert!(parse("-01").is_err());
        assert!(parse("--0").is_err());
        assert!(parse("1-0").is_err());
    }

    #[test]
    fn duplicate_keys_are_refused() {
        assert!(parse(r#"{"a":1,"a":2}"#).is_err());
        assert!(parse(r#"{"a":{"b":1,"b":1}}"#).is_err());
        assert_eq!(
            super::parse(r#"{"a":[1,true,"x",null]}"#).unwrap()["a"][1],
            true
        );
    }
}
