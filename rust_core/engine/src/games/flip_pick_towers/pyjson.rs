//! A small strict JSON reader with the value model of Python's `json` module, for sheet files (§3) and
//! serialized states (§10).
//!
//! It exists beside `crate::json` because the contract speaks in Python's terms and a few texts read
//! differently through serde_json: `-0` is the int 0 in Python (serde_json makes it the float -0.0), and ints
//! of any size are ints (serde_json turns those beyond 64 bits into floats). Beyond Python's reading it
//! refuses what §3 refuses: `NaN` / `Infinity`, a key given twice, a string escaping a lone surrogate, and (a
//! guard Python lacks) nesting deeper than [`MAX_DEPTH`].

use std::fmt;

/// Arrays and objects nested deeper than this are refused (no valid sheet or state comes near it).
pub const MAX_DEPTH: usize = 256;

#[derive(Clone, Debug, PartialEq)]
pub enum J {
    Null,
    Bool(bool),
    /// A number without fraction or exponent. Values beyond ±10^30 are kept as ±10^30 (out of every range).
    Int(i128),
    /// A number with a fraction or an exponent: never an int, whatever its value.
    Float,
    Str(String),
    Arr(Vec<J>),
    /// Keys in the order given (each at most once).
    Obj(Vec<(String, J)>),
}

const BIG: i128 = 1_000_000_000_000_000_000_000_000_000_000;

impl J {
    pub fn type_name(&self) -> &'static str {
        match self {
            J::Null => "null",
            J::Bool(_) => "a bool",
            J::Int(_) => "an int",
            J::Float => "a float",
            J::Str(_) => "a str",
            J::Arr(_) => "a list",
            J::Obj(_) => "an object",
        }
    }

    pub fn as_int(&self) -> Option<i128> {
        match self {
            J::Int(v) => Some(*v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            J::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_arr(&self) -> Option<&[J]> {
        match self {
            J::Arr(v) => Some(v),
            _ => None,
        }
    }

    pub fn as_obj(&self) -> Option<&[(String, J)]> {
        match self {
            J::Obj(v) => Some(v),
            _ => None,
        }
    }

    pub fn get(&self, key: &str) -> Option<&J> {
        self.as_obj()?
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }
}

#[derive(Debug)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

/// Parse exactly one JSON value, with JSON white space (space, tab, LF, CR) allowed around it.
pub fn parse(text: &str) -> Result<J, ParseError> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i != p.s.len() {
        return Err(p.err("extra data after the JSON value"));
    }
    Ok(v)
}

impl<'a> Parser<'a> {
    fn err(&self, what: &str) -> ParseError {
        ParseError(format!("{what} (at byte {})", self.i))
    }

    fn ws(&mut self) {
        while let Some(&b) = self.s.get(self.i) {
            if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                self.i += 1;
            } else {
                break;
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn literal(&mut self, word: &[u8], v: J) -> Result<J, ParseError> {
        if self.s[self.i..].starts_with(word) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(self.err("unexpected character"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<J, ParseError> {
        match self.peek() {
            None => Err(self.err("unexpected end of text")),
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => self.string().map(J::Str),
            Some(b't') => self.literal(b"true", J::Bool(true)),
            Some(b'f') => self.literal(b"false", J::Bool(false)),
            Some(b'n') => self.literal(b"null", J::Null),
            Some(b'-') | Some(b'0'..=b'9') => self.number(),
            Some(_) => Err(self.err("unexpected character")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<J, ParseError> {
        if depth > MAX_DEPTH {
            return Err(self.err("nesting too deep"));
        }
        self.i += 1;
        let mut out: Vec<(String, J)> = Vec::new();
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(J::Obj(out));
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return Err(self.err("expected a key"));
            }
            let key = self.string()?;
            if out.iter().any(|(k, _)| *k == key) {
                return Err(self.err(&format!("the key {key:?} is given twice")));
            }
            self.ws();
            if self.peek() != Some(b':') {
                return Err(self.err("expected ':'"));
            }
            self.i += 1;
            self.ws();
            let v = self.value(depth)?;
            out.push((key, v));
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(J::Obj(out));
                }
                _ => return Err(self.err("expected ',' or '}'")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<J, ParseError> {
        if depth > MAX_DEPTH {
            return Err(self.err("nesting too deep"));
        }
        self.i += 1;
        let mut out = Vec::new();
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(J::Arr(out));
        }
        loop {
            self.ws();
            out.push(self.value(depth)?);
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(J::Arr(out));
                }
                _ => return Err(self.err("expected ',' or ']'")),
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        self.i - start
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, as Python's scanner reads it.
    fn number(&mut self) -> Result<J, ParseError> {
        let negative = self.peek() == Some(b'-');
        if negative {
            self.i += 1;
        }
        let int_start = self.i;
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.err("bad number")),
        }
        let int_end = self.i;
        let mut float = false;
        if self.peek() == Some(b'.') && matches!(self.s.get(self.i + 1), Some(b'0'..=b'9')) {
            self.i += 1;
            self.digits();
            float = true;
        }
        if matches!(self.peek(), Some(b'e') | Some(b'E')) {
            let save = self.i;
            self.i += 1;
            if matches!(self.peek(), Some(b'+') | Some(b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                // Python's pattern does not take a bare `e`: the number ends before it (and the `e` is then
                // extra data, refused by the caller).
                self.i = save;
            } else {
                float = true;
            }
        }
        if float {
            return Ok(J::Float);
        }
        let mut v: i128 = 0;
        for &b in &self.s[int_start..int_end] {
            v = (v * 10 + (b - b'0') as i128).min(BIG);
        }
        Ok(J::Int(if negative { -v } else { v }))
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(b @ b'0'..=b'9') => (b - b'0') as u32,
                Some(b @ b'a'..=b'f') => (b - b'a' + 10) as u32,
                Some(b @ b'A'..=b'F') => (b - b'A' + 10) as u32,
                _ => return Err(self.err("invalid \\uXXXX escape")),
            };
            v = v * 16 + d;
            self.i += 1;
        }
        Ok(v)
    }

    fn string(&mut self) -> Result<String, ParseError> {
        self.i += 1; // the opening quote
        let mut out = String::new();
        loop {
            let start = self.i;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.i += 1;
            }
            // The input is a &str and the run stops only at ASCII bytes, so it is whole UTF-8.
            out.push_str(std::str::from_utf8(&self.s[start..self.i]).unwrap_or(""));
            match self.peek() {
                None => return Err(self.err("unterminated string")),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let c = self.peek().ok_or_else(|| self.err("unterminated string"))?;
                    self.i += 1;
                    match c {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if self.s[self.i..].starts_with(b"\\u") {
                                    self.i += 2;
                                    let lo = self.hex4()?;
                                    if !(0xDC00..0xE000).contains(&lo) {
                                        return Err(self.err("a lone surrogate in a \\u escape"));
                                    }
                                    0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                                } else {
                                    return Err(self.err("a lone surrogate in a \\u escape"));
                                }
                            } else if (0xDC00..0xE000).contains(&hi) {
                                return Err(self.err("a lone surrogate in a \\u escape"));
                            } else {
                                hi
                            };
                            match char::from_u32(code) {
                                Some(ch) => out.push(ch),
                                None => return Err(self.err("invalid \\u escape")),
                            }
                        }
                        _ => return Err(self.err("invalid escape")),
                    }
                }
                Some(_) => return Err(self.err("a control character in a string")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_reading() {
        assert_eq!(parse("-0").unwrap(), J::Int(0));
        assert_eq!(
            parse(" [1, -2] ").unwrap(),
            J::Arr(vec![J::Int(1), J::Int(-2)])
        );
        assert_eq!(parse("1.0").unwrap(), J::Float);
        assert_eq!(parse("1e3").unwrap(), J::Float);
        assert!(parse("1e").is_err());
        assert!(parse("01").is_err());
        assert!(parse("NaN").is_err());
        assert!(parse("Infinity").is_err());
        assert!(parse("{\"a\":1,\"a\":2}").is_err());
        assert!(parse("\"\\ud800\"").is_err());
        assert!(parse("\"\\udc00\"").is_err());
        assert!(parse("\"\\ud800\\u0041\"").is_err());
        assert_eq!(
            parse("\"\\ud83d\\ude00\"").unwrap(),
            J::Str("\u{1F600}".into())
        );
        assert!(parse("\u{feff}{}").is_err());
        assert!(parse("\"a\u{1}\"").is_err());
        assert_eq!(
            parse("123456789012345678901234567890123456789").unwrap(),
            J::Int(BIG)
        );
        let deep = "[".repeat(10_000);
        assert!(parse(&deep).is_err());
    }
}
