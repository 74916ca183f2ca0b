//! The language of royal conditions (docs/rules/flip_pick_towers.md §3.2): parsing with the validity rules
//! (forms, literal ranges, depth at most 10, at most 100 nodes) and evaluation for one royal.

use super::state::cell;
use serde_json::Value as J;

pub const MAX_DEPTH: usize = 10;
pub const MAX_NODES: usize = 100;
pub const LIMIT: i64 = 1_000_000_000;

#[inline]
pub fn clamp(v: i64) -> i64 {
    v.clamp(-LIMIT, LIMIT)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    Self_,
    Above,
    Below,
    Left,
    Right,
    Beside,
    Adjacent,
    Around,
    Column,
    Row,
    Higher,
    Lower,
    Castle,
}

const REGIONS: [(&str, Region); 13] = [
    ("self", Region::Self_),
    ("above", Region::Above),
    ("below", Region::Below),
    ("left", Region::Left),
    ("right", Region::Right),
    ("beside", Region::Beside),
    ("adjacent", Region::Adjacent),
    ("around", Region::Around),
    ("column", Region::Column),
    ("row", Region::Row),
    ("higher", Region::Higher),
    ("lower", Region::Lower),
    ("castle", Region::Castle),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Empty,
    Any,
    Floor,
    BareFloor,
    Bridge,
    Roof,
    Dragon,
    Banner,
    Beanstalk,
    Royal,
    Queen,
    King,
    Princess,
    Window,
    Gold,
    CrossedGold,
    Flag,
}

const KINDS: [(&str, Kind); 17] = [
    ("empty", Kind::Empty),
    ("any", Kind::Any),
    ("floor", Kind::Floor),
    ("bare_floor", Kind::BareFloor),
    ("bridge", Kind::Bridge),
    ("roof", Kind::Roof),
    ("dragon", Kind::Dragon),
    ("banner", Kind::Banner),
    ("beanstalk", Kind::Beanstalk),
    ("royal", Kind::Royal),
    ("queen", Kind::Queen),
    ("king", Kind::King),
    ("princess", Kind::Princess),
    ("window", Kind::Window),
    ("gold", Kind::Gold),
    ("crossed_gold", Kind::CrossedGold),
    ("flag", Kind::Flag),
];

impl Kind {
    /// How much an existing cell holding `v` counts for this kind (0/1, or a roof's flags for `flag`).
    #[inline]
    pub fn weight(self, v: u8) -> i64 {
        let floor = cell::is_floor(v);
        let content = if floor { cell::content(v) } else { 255 };
        let hit = match self {
            Kind::Empty => v == cell::EMPTY,
            Kind::Any => v != cell::EMPTY,
            Kind::Floor => floor,
            Kind::BareFloor => floor && content == cell::NONE,
            Kind::Bridge => v == cell::BRIDGE,
            Kind::Roof => cell::is_roof(v),
            Kind::Dragon => v == cell::DRAGON,
            Kind::Banner => v == cell::BANNER_TOP || v == cell::BANNER_BOTTOM,
            Kind::Beanstalk => v == cell::BEANSTALK,
            Kind::Royal => floor && matches!(content, cell::QUEEN | cell::KING | cell::PRINCESS),
            Kind::Queen => floor && content == cell::QUEEN,
            Kind::King => floor && content == cell::KING,
            Kind::Princess => floor && content == cell::PRINCESS,
            Kind::Window => floor && content == cell::WINDOW,
            Kind::Gold => floor && content == cell::GOLD,
            Kind::CrossedGold => floor && content == cell::CROSSED,
            Kind::Flag => {
                return if cell::is_roof(v) {
                    cell::flags(v) as i64
                } else {
                    0
                }
            }
        };
        hit as i64
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    Sum,
    Mul,
    Min,
    Max,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Ge,
    Le,
    Eq,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Lit(i64),
    Count(Region, Kind),
    Stability,
    Height,
    Tower,
    Fold(Fold, Vec<Expr>),
    If(Box<Cond>, Box<Expr>, Box<Expr>),
    Lookup(Box<Expr>, Vec<i64>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cond {
    Cmp(Cmp, Expr, Expr),
    And(Vec<Cond>),
    Or(Vec<Cond>),
    Not(Box<Cond>),
}

/// What the evaluator needs to know about the royal's seat and the sheet.
pub struct Castle<'a> {
    pub grid: &'a [u8],
    pub rows: usize,
    pub cols: usize,
    pub tower: &'a [bool],
}

impl Castle<'_> {
    #[inline]
    fn at(&self, r: i64, c: i64) -> Option<u8> {
        if r < 0 || c < 0 || r >= self.rows as i64 || c >= self.cols as i64 {
            return None;
        }
        let v = self.grid[r as usize * self.cols + c as usize];
        (v != cell::NONE_CELL).then_some(v)
    }

    fn count(&self, region: Region, kind: Kind, r: usize, c: usize) -> i64 {
        let (r, c) = (r as i64, c as i64);
        let one = |dr: i64, dc: i64| self.at(r + dr, c + dc).map_or(0, |v| kind.weight(v));
        match region {
            Region::Self_ => one(0, 0),
            Region::Above => one(1, 0),
            Region::Below => one(-1, 0),
            Region::Left => one(0, -1),
            Region::Right => one(0, 1),
            Region::Beside => one(0, -1) + one(0, 1),
            Region::Adjacent => one(1, 0) + one(-1, 0) + one(0, -1) + one(0, 1),
            Region::Around => {
                let mut n = 0;
                for dr in -1..=1 {
                    for dc in -1..=1 {
                        if dr != 0 || dc != 0 {
                            n += one(dr, dc);
                        }
                    }
                }
                n
            }
            Region::Column => (0..self.rows as i64).map(|rr| one(rr - r, 0)).sum(),
            Region::Row => (0..self.cols as i64).map(|cc| one(0, cc - c)).sum(),
            Region::Higher => (r + 1..self.rows as i64).map(|rr| one(rr - r, 0)).sum(),
            Region::Lower => (0..r).map(|rr| one(rr - r, 0)).sum(),
            Region::Castle => self
                .grid
                .iter()
                .take(self.rows * self.cols)
                .filter(|&&v| v != cell::NONE_CELL)
                .map(|&v| kind.weight(v))
                .sum(),
        }
    }
}

/// The royal being scored: its cell and its floor's stability.
pub struct Royal {
    pub r: usize,
    pub c: usize,
    pub stability: i64,
}

impl Expr {
    pub fn eval(&self, castle: &Castle, royal: &Royal) -> i64 {
        match self {
            Expr::Lit(v) => clamp(*v),
            Expr::Count(region, kind) => clamp(castle.count(*region, *kind, royal.r, royal.c)),
            Expr::Stability => clamp(royal.stability),
            Expr::Height => clamp(royal.r as i64 + 1),
            Expr::Tower => castle.tower.get(royal.c).copied().unwrap_or(false) as i64,
            Expr::Fold(op, args) => {
                let mut acc = args.first().map_or(0, |a| a.eval(castle, royal));
                for a in &args[1.min(args.len())..] {
                    let v = a.eval(castle, royal);
                    acc = clamp(match op {
                        Fold::Sum => acc + v,
                        Fold::Mul => acc * v,
                        Fold::Min => acc.min(v),
                        Fold::Max => acc.max(v),
                    });
                }
                clamp(acc)
            }
            Expr::If(cond, a, b) => {
                if cond.holds(castle, royal) {
                    a.eval(castle, royal)
                } else {
                    b.eval(castle, royal)
                }
            }
            Expr::Lookup(index, table) => {
                let i = index.eval(castle, royal).clamp(0, table.len() as i64 - 1);
                clamp(table.get(i.max(0) as usize).copied().unwrap_or(0))
            }
        }
    }
}

impl Cond {
    pub fn holds(&self, castle: &Castle, royal: &Royal) -> bool {
        match self {
            Cond::Cmp(op, a, b) => {
                let (a, b) = (a.eval(castle, royal), b.eval(castle, royal));
                match op {
                    Cmp::Ge => a >= b,
                    Cmp::Le => a <= b,
                    Cmp::Eq => a == b,
                }
            }
            Cond::And(cs) => cs.iter().all(|c| c.holds(castle, royal)),
            Cond::Or(cs) => cs.iter().any(|c| c.holds(castle, royal)),
            Cond::Not(c) => !c.holds(castle, royal),
        }
    }
}

/// A parsed expression with its depth and node count (§3.2).
struct Parsed<T> {
    value: T,
    depth: usize,
    nodes: usize,
}

fn literal(j: &J) -> Option<i64> {
    crate::json::int_in(j, -1000, 1000)
}

fn head(j: &J) -> Option<(&str, &[J])> {
    let items = j.as_array()?;
    let name = items.first()?.as_str()?;
    Some((name, &items[1..]))
}

/// Parse a score expression; `Err` names what is wrong.
pub fn parse_expr(j: &J) -> Result<Expr, String> {
    let p = expr(j, 1)?;
    if p.depth > MAX_DEPTH {
        return Err(format!(
            "the expression is {} levels deep (at most {MAX_DEPTH})",
            p.depth
        ));
    }
    if p.nodes > MAX_NODES {
        return Err(format!(
            "the expression has {} nodes (at most {MAX_NODES})",
            p.nodes
        ));
    }
    Ok(p.value)
}

/// `level` is the nesting level of `j` from the top: parsing stops as soon as it passes the depth limit, so a
/// hostile expression costs little.
fn expr(j: &J, level: usize) -> Result<Parsed<Expr>, String> {
    if level > MAX_DEPTH {
        return Err(format!("the expression is deeper than {MAX_DEPTH} levels"));
    }
    if j.is_i64() || j.is_u64() {
        return match literal(j) {
            Some(v) => Ok(Parsed {
                value: Expr::Lit(v),
                depth: 1,
                nodes: 1,
            }),
            None => Err("a literal must be an int in -1000..1000".into()),
        };
    }
    let Some((name, args)) = head(j) else {
        return Err(format!(
            "an expression must be an int or a list naming its form, not {}",
            short(j)
        ));
    };
    let leaf = |value: Expr| {
        Ok(Parsed {
            value,
            depth: 1,
            nodes: 1,
        })
    };
    match name {
        "count" => {
            let [region, kind] = args else {
                return Err("count takes a region and a kind".into());
            };
            let region = region
                .as_str()
                .and_then(|s| REGIONS.iter().find(|(n, _)| *n == s))
                .map(|(_, r)| *r)
                .ok_or_else(|| format!("unknown region {}", short(region)))?;
            let kind = kind
                .as_str()
                .and_then(|s| KINDS.iter().find(|(n, _)| *n == s))
                .map(|(_, k)| *k)
                .ok_or_else(|| format!("unknown kind {}", short(kind)))?;
            leaf(Expr::Count(region, kind))
        }
        "stability" | "height" | "tower" => {
            if !args.is_empty() {
                return Err(format!("{name} takes no argument"));
            }
            leaf(match name {
                "stability" => Expr::Stability,
                "height" => Expr::Height,
                _ => Expr::Tower,
            })
        }
        "sum" | "mul" | "min" | "max" => {
            if args.is_empty() {
                return Err(format!("{name} takes 1 or more expressions"));
            }
            let op = match name {
                "sum" => Fold::Sum,
                "mul" => Fold::Mul,
                "min" => Fold::Min,
                _ => Fold::Max,
            };
            let mut items = Vec::with_capacity(args.len());
            let (mut depth, mut nodes) = (0, 1);
            for a in args {
                let p = expr(a, level + 1)?;
                depth = depth.max(p.depth);
                nodes += p.nodes;
                if nodes > MAX_NODES {
                    return Err(format!("the expression has more than {MAX_NODES} nodes"));
                }
                items.push(p.value);
            }
            Ok(Parsed {
                value: Expr::Fold(op, items),
                depth: depth + 1,
                nodes,
            })
        }
        "if" => {
            let [c, a, b] = args else {
                return Err("if takes a condition and two expressions".into());
            };
            let c = cond(c, level + 1)?;
            let a = expr(a, level + 1)?;
            let b = expr(b, level + 1)?;
            Ok(Parsed {
                depth: 1 + c.depth.max(a.depth).max(b.depth),
                nodes: 1 + c.nodes + a.nodes + b.nodes,
                value: Expr::If(Box::new(c.value), Box::new(a.value), Box::new(b.value)),
            })
        }
        "lookup" => {
            let [e, table] = args else {
                return Err("lookup takes an expression and a list of ints".into());
            };
            let e = expr(e, level + 1)?;
            let Some(items) = table.as_array() else {
                return Err("a lookup table must be a list of ints".into());
            };
            if items.is_empty() || items.len() > 32 {
                return Err("a lookup table holds 1..32 ints".into());
            }
            let mut values = Vec::with_capacity(items.len());
            for it in items {
                values
                    .push(literal(it).ok_or("a lookup table entry must be an int in -1000..1000")?);
            }
            Ok(Parsed {
                depth: 1 + e.depth,
                nodes: 2 + e.nodes,
                value: Expr::Lookup(Box::new(e.value), values),
            })
        }
        other => Err(format!("unknown expression form {other:?}")),
    }
}

fn cond(j: &J, level: usize) -> Result<Parsed<Cond>, String> {
    if level > MAX_DEPTH {
        return Err(format!("the expression is deeper than {MAX_DEPTH} levels"));
    }
    let Some((name, args)) = head(j) else {
        return Err(format!(
            "a condition must be a list naming its form, not {}",
            short(j)
        ));
    };
    match name {
        "ge" | "le" | "eq" => {
            let [a, b] = args else {
                return Err(format!("{name} takes two expressions"));
            };
            let op = match name {
                "ge" => Cmp::Ge,
                "le" => Cmp::Le,
                _ => Cmp::Eq,
            };
            let a = expr(a, level + 1)?;
            let b = expr(b, level + 1)?;
            Ok(Parsed {
                depth: 1 + a.depth.max(b.depth),
                nodes: 1 + a.nodes + b.nodes,
                value: Cond::Cmp(op, a.value, b.value),
            })
        }
        "and" | "or" => {
            if args.is_empty() {
                return Err(format!("{name} takes 1 or more conditions"));
            }
            let mut items = Vec::with_capacity(args.len());
            let (mut depth, mut nodes) = (0, 1);
            for a in args {
                let p = cond(a, level + 1)?;
                depth = depth.max(p.depth);
                nodes += p.nodes;
                if nodes > MAX_NODES {
                    return Err(format!("the expression has more than {MAX_NODES} nodes"));
                }
                items.push(p.value);
            }
            Ok(Parsed {
                value: if name == "and" {
                    Cond::And(items)
                } else {
                    Cond::Or(items)
                },
                depth: depth + 1,
                nodes,
            })
        }
        "not" => {
            let [c] = args else {
                return Err("not takes one condition".into());
            };
            let c = cond(c, level + 1)?;
            Ok(Parsed {
                depth: 1 + c.depth,
                nodes: 1 + c.nodes,
                value: Cond::Not(Box::new(c.value)),
            })
        }
        other => Err(format!("unknown condition form {other:?}")),
    }
}

fn short(j: &J) -> String {
    match j {
        J::String(s) => format!("{:?}", s.chars().take(40).collect::<String>()),
        other => crate::json::kind(other).to_string(),
    }
}
