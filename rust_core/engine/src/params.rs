//! Game parameters: a sorted map of typed values, validated by each game against its own schema.

use crate::error::{invalid, Result};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamValue {
    Int(i64),
    Bool(bool),
    Str(String),
}

impl std::fmt::Display for ParamValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamValue::Int(i) => write!(f, "{i}"),
            ParamValue::Bool(b) => write!(f, "{b}"),
            ParamValue::Str(s) => write!(f, "{s:?}"),
        }
    }
}

impl ParamValue {
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            ParamValue::Int(i) => serde_json::Value::from(*i),
            ParamValue::Bool(b) => serde_json::Value::from(*b),
            ParamValue::Str(s) => serde_json::Value::from(s.as_str()),
        }
    }
}

pub type Params = BTreeMap<String, ParamValue>;

/// One entry of a game's parameter schema: the name, the default and the accepted range.
pub enum ParamSpec {
    Int {
        name: &'static str,
        default: i64,
        min: i64,
        max: i64,
    },
    Bool {
        name: &'static str,
        default: bool,
    },
}

impl ParamSpec {
    fn name(&self) -> &'static str {
        match self {
            ParamSpec::Int { name, .. } | ParamSpec::Bool { name, .. } => name,
        }
    }
}

/// Fill in defaults and check every given value against the schema. Unknown keys, a bool where an int is
/// expected (or the reverse) and values out of range are errors, so a typo never silently means a default.
pub fn normalise(game: &str, schema: &[ParamSpec], given: &Params) -> Result<Params> {
    for key in given.keys() {
        if !schema.iter().any(|s| s.name() == key) {
            let known: Vec<&str> = schema.iter().map(|s| s.name()).collect();
            return invalid(format!(
                "{game}: unknown parameter {key:?} (known: {})",
                known.join(", ")
            ));
        }
    }
    let mut out = Params::new();
    for spec in schema {
        let value = match (spec, given.get(spec.name())) {
            (ParamSpec::Int { default, .. }, None) => ParamValue::Int(*default),
            (ParamSpec::Bool { default, .. }, None) => ParamValue::Bool(*default),
            (ParamSpec::Int { name, min, max, .. }, Some(ParamValue::Int(v))) => {
                if v < min || v > max {
                    return invalid(format!(
                        "{game}: parameter {name}={v} is out of range {min}..{max}"
                    ));
                }
                ParamValue::Int(*v)
            }
            (ParamSpec::Bool { .. }, Some(ParamValue::Bool(b))) => ParamValue::Bool(*b),
            (ParamSpec::Int { name, .. }, Some(other)) => {
                return invalid(format!(
                    "{game}: parameter {name} must be an int, not {other}"
                ))
            }
            (ParamSpec::Bool { name, .. }, Some(other)) => {
                return invalid(format!(
                    "{game}: parameter {name} must be a bool, not {other}"
                ))
            }
        };
        out.insert(spec.name().to_string(), value);
    }
    Ok(out)
}

pub fn get_int(params: &Params, key: &str) -> i64 {
    match params.get(key) {
        Some(ParamValue::Int(v)) => *v,
        _ => 0,
    }
}

pub fn get_bool(params: &Params, key: &str) -> bool {
    matches!(params.get(key), Some(ParamValue::Bool(true)))
}

pub fn params_to_json(params: &Params) -> serde_json::Value {
    serde_json::Value::Object(
        params
            .iter()
            .map(|(k, v)| (k.clone(), v.to_json()))
            .collect(),
    )
}
