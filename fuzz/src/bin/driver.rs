//! The plain fuzz driver: the checks of the libFuzzer targets, fed by SplitMix64 on a stable toolchain, with no
//! libFuzzer and no C++ compiler. For the CI smoke pass, and wherever `cargo fuzz` is not installed.
//!
//! ```text
//! driver run TARGET SECONDS [--seed N] [--timeout S] [--keep-going]   fuzz for SECONDS (TARGET: deserialize,
//!                                                                     actions); crashes go to artifacts/TARGET/
//! driver replay TARGET FILE...                                        run saved inputs (a crash reproduces)
//! driver corpus TARGET DIR [--count N]                                write seed inputs for libFuzzer
//! driver dict FILE                                                    a libFuzzer dictionary of state keys
//! ```
//!
//! `actions` inputs are random bytes (the target reads them structurally). `deserialize` inputs are mostly
//! mutations of valid serialized states of every registered game and variant, at random points of random games:
//! byte edits (digits flipped, spans dropped or doubled, tokens inserted) and JSON edits (a number moved by one,
//! one unit moved between two counts, values replaced by other types, keys dropped or added, lists cut or
//! doubled, deep nesting, duplicate keys), so that most inputs get past the JSON parser to the rules' checks.

use meeplex_engine::playout::{random_action, Scratch};
use meeplex_engine::{AnyGame, Rng, State};
use meeplex_fuzz::{fnv, variants, ACCEPTED, STEPS};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TARGETS: &[&str] = &["deserialize", "actions"];

fn target_fn(name: &str) -> fn(&[u8]) {
    match name {
        "deserialize" => meeplex_fuzz::deserialize,
        "actions" => meeplex_fuzz::actions,
        _ => {
            eprintln!("unknown target {name:?} (known: {})", TARGETS.join(", "));
            std::process::exit(2)
        }
    }
}

/// Valid serialized states of every registered game and variant, at several points of seeded random games.
fn valid_states(per_game: u64) -> Vec<String> {
    let mut out = Vec::new();
    let mut scratch = Scratch::default();
    for game in variants() {
        for seed in 0..per_game {
            let mut rng = Rng::new(seed);
            let mut state = game.new_initial_state();
            let mut history = Vec::new();
            let mut snapshots = vec![state.serialize(&history)];
            let every = 1 + rng.below(40);
            while let Some(a) = random_action(&state, &mut rng, &mut scratch) {
                state.apply_unchecked(a);
                history.push(a);
                if history.len() as u64 % every == 0 && snapshots.len() < 12 {
                    snapshots.push(state.serialize(&history));
                }
                if history.len() as u64 > game.max_game_length() {
                    break;
                }
            }
            snapshots.push(state.serialize(&history));
            out.extend(snapshots);
        }
    }
    out
}

/// A quick game-independent check that the pool is usable: every text must be accepted by its own game.
fn check_pool(pool: &[String]) {
    assert!(!pool.is_empty(), "no valid state could be made");
    let games: Vec<AnyGame> = variants();
    for text in pool.iter().take(8) {
        assert!(
            games.iter().any(|g| g.deserialize_state(text).is_ok()),
            "a freshly serialized state is refused by every game: {text}"
        );
    }
}

struct Gen {
    rng: Rng,
    pool: Vec<String>,
}

const TOKENS: &[&str] = &[
    "-1",
    "0",
    "1",
    "255",
    "256",
    "65536",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "1e400",
    "0.5",
    "-0",
    "null",
    "true",
    "false",
    "\"\"",
    "\"x\"",
    "[]",
    "{}",
    ",",
    ":",
    "\"",
    "{",
    "}",
    "[",
    "]",
    "\\u0000",
    "\\ud800",
    ",\"x\":0",
];

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.rng.below(n.max(1) as u64) as usize
    }

    fn pick(&mut self) -> String {
        let i = self.below(self.pool.len());
        self.pool[i].clone()
    }

    fn random_bytes(&mut self, max: usize) -> Vec<u8> {
        let len = self.below(max + 1);
        (0..len).map(|_| self.rng.next_u64() as u8).collect()
    }

    fn deserialize_input(&mut self) -> Vec<u8> {
        match self.below(100) {
            0..=4 => self.random_bytes(512),
            5..=9 => self.pick().into_bytes(),
            10..=14 => {
                let (a, b) = (self.pick().into_bytes(), self.pick().into_bytes());
                let (i, j) = (self.below(a.len()), self.below(b.len()));
                [&a[..i], &b[j..]].concat()
            }
            15..=44 => {
                let mut bytes = self.pick().into_bytes();
                for _ in 0..1 + self.below(6) {
                    self.byte_edit(&mut bytes);
                }
                bytes
            }
            _ => {
                let mut value: Value =
                    serde_json::from_str(&self.pick()).expect("a valid state is JSON");
                for _ in 0..1 + self.below(4) {
                    self.json_edit(&mut value);
                }
                let text = serde_json::to_string(&value).expect("JSON");
                match self.below(20) {
                    0 => {
                        let depth = 1 + self.below(200);
                        format!("{}{text}{}", "[".repeat(depth), "]".repeat(depth)).into_bytes()
                    }
                    1 => match text.find('{') {
                        // A key given twice: the strict reader must refuse it.
                        Some(i) => {
                            let key = self.some_key(&value).unwrap_or_else(|| "x".to_string());
                            format!("{}{{\"{key}\":0,{}", &text[..i], &text[i + 1..]).into_bytes()
                        }
                        None => text.into_bytes(),
                    },
                    _ => text.into_bytes(),
                }
            }
        }
    }

    fn some_key(&mut self, value: &Value) -> Option<String> {
        let map = value.as_object()?;
        let i = self.below(map.len());
        map.keys().nth(i).cloned()
    }

    fn byte_edit(&mut self, bytes: &mut Vec<u8>) {
        if bytes.is_empty() {
            bytes.extend_from_slice(b"{}");
        }
        let at = self.below(bytes.len());
        match self.below(8) {
            0 | 1 => {
                // Change one digit.
                let digits: Vec<usize> = (0..bytes.len())
                    .filter(|&i| bytes[i].is_ascii_digit())
                    .collect();
                if !digits.is_empty() {
                    let i = digits[self.below(digits.len())];
                    bytes[i] = b'0' + self.below(10) as u8;
                }
            }
            2 => {
                let len = 1 + self.below(16);
                bytes.drain(at..(at + len).min(bytes.len()));
            }
            3 => {
                let len = 1 + self.below(32);
                let span = bytes[at..(at + len).min(bytes.len())].to_vec();
                bytes.splice(at..at, span);
            }
            4 => {
                let token = TOKENS[self.below(TOKENS.len())].as_bytes().to_vec();
                bytes.splice(at..at, token);
            }
            5 => {
                let token = TOKENS[self.below(TOKENS.len())].as_bytes().to_vec();
                let len = 1 + self.below(4);
                bytes.splice(at..(at + len).min(bytes.len()), token);
            }
            6 => {
                let junk = self.random_bytes(4);
                bytes.splice(at..at, junk);
            }
            _ => {
                let b = self.below(bytes.len());
                bytes.swap(at, b);
            }
        }
    }

    /// Every node of a JSON value, as a path of object keys and list indices.
    fn paths(value: &Value, prefix: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
        out.push(prefix.clone());
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    prefix.push(Step::Key(k.clone()));
                    Self::paths(v, prefix, out);
                    prefix.pop();
                }
            }
            Value::Array(list) => {
                for (i, v) in list.iter().enumerate() {
                    prefix.push(Step::Index(i));
                    Self::paths(v, prefix, out);
                    prefix.pop();
                }
            }
            _ => {}
        }
    }

    fn json_edit(&mut self, root: &mut Value) {
        let mut all = Vec::new();
        Self::paths(root, &mut Vec::new(), &mut all);
        let ints: Vec<Vec<Step>> = all
            .iter()
            .filter(|p| at(root, p).is_some_and(Value::is_u64))
            .cloned()
            .collect();
        if self.below(3) == 0 && ints.len() >= 2 {
            // Move one unit between two counts: conservation laws still hold, the rules' other checks do not.
            let (a, b) = (
                ints[self.below(ints.len())].clone(),
                ints[self.below(ints.len())].clone(),
            );
            let va = at(root, &a).and_then(Value::as_u64).unwrap_or(0);
            let vb = at(root, &b).and_then(Value::as_u64).unwrap_or(0);
            if va > 0 {
                *at_mut(root, &a) = Value::from(va - 1);
                *at_mut(root, &b) = Value::from(vb.saturating_add(1));
            }
            return;
        }
        let path = all[self.below(all.len())].clone();
        let r = self.below(100);
        let node = at_mut(root, &path);
        match node {
            Value::Number(n) if r < 40 => {
                let v = n.as_i64().unwrap_or(0);
                let choices: [Value; 12] = [
                    Value::from(v.saturating_add(1)),
                    Value::from(v.saturating_sub(1)),
                    Value::from(v.saturating_add(2)),
                    Value::from(0),
                    Value::from(-1),
                    Value::from(255),
                    Value::from(256),
                    Value::from(10_000),
                    Value::from(10_001),
                    Value::from(u64::MAX),
                    Value::from(i64::MIN),
                    Value::from(0.5),
                ];
                *node = choices[self.rng.below(12) as usize].clone();
            }
            Value::Object(map) if r < 60 && !map.is_empty() => {
                let i = self.rng.below(map.len() as u64) as usize;
                let key = map.keys().nth(i).cloned().unwrap_or_default();
                if self.rng.below(2) == 0 {
                    map.remove(&key);
                } else {
                    map.insert(format!("{key}_"), Value::from(0));
                }
            }
            Value::Array(list) if r < 60 && !list.is_empty() => {
                let i = self.rng.below(list.len() as u64) as usize;
                match self.rng.below(5) {
                    0 => {
                        list.remove(i);
                    }
                    1 => {
                        let v = list[i].clone();
                        list.insert(i, v);
                    }
                    2 => list.push(Value::from(0)),
                    3 => list.truncate(i),
                    _ => {
                        let j = self.rng.below(list.len() as u64) as usize;
                        list.swap(i, j);
                    }
                }
            }
            Value::Bool(b) if r < 60 => *b = !*b,
            _ => {
                let choices: [Value; 8] = [
                    Value::Null,
                    Value::Bool(true),
                    Value::from(0),
                    Value::from(1),
                    Value::from("x"),
                    Value::from("none"),
                    Value::Array(vec![]),
                    Value::Object(Default::default()),
                ];
                *node = choices[self.rng.below(8) as usize].clone();
            }
        }
    }

    fn actions_input(&mut self) -> Vec<u8> {
        let max = [16, 128, 1024, 4096][self.below(4)];
        self.random_bytes(max)
    }
}

#[derive(Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn at<'a>(value: &'a Value, path: &[Step]) -> Option<&'a Value> {
    path.iter().try_fold(value, |v, step| match step {
        Step::Key(k) => v.get(k),
        Step::Index(i) => v.get(i),
    })
}

fn at_mut<'a>(value: &'a mut Value, path: &[Step]) -> &'a mut Value {
    path.iter().fold(value, |v, step| match step {
        Step::Key(k) => &mut v[k.as_str()],
        Step::Index(i) => &mut v[*i],
    })
}

fn artifacts_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("artifacts")
        .join(target)
}

fn save(target: &str, kind: &str, input: &[u8]) -> PathBuf {
    let dir = artifacts_dir(target);
    std::fs::create_dir_all(&dir).expect("create the artifacts directory");
    let path = dir.join(format!("{kind}-{:016x}", fnv(input)));
    std::fs::write(&path, input).expect("write the artifact");
    path
}

fn replay_hint(target: &str, path: &Path) -> String {
    format!(
        "reproduce: (cd fuzz && cargo run --profile fuzz --no-default-features --bin driver -- replay {target} {})",
        path.display()
    )
}

struct Options {
    seed: u64,
    timeout: u64,
    keep_going: bool,
    count: usize,
}

fn options(args: &[String]) -> Options {
    let mut o = Options {
        seed: 0,
        timeout: 60,
        keep_going: false,
        count: 400,
    };
    let mut i = 0;
    while i < args.len() {
        let value = || args.get(i + 1).and_then(|v| v.parse::<u64>().ok());
        match args[i].as_str() {
            "--seed" => o.seed = value().expect("--seed N"),
            "--timeout" => o.timeout = value().expect("--timeout SECONDS"),
            "--count" => o.count = value().expect("--count N") as usize,
            "--keep-going" => {
                o.keep_going = true;
                i += 1;
                continue;
            }
            other => {
                eprintln!("unknown option {other:?}");
                std::process::exit(2)
            }
        }
        i += 2;
    }
    o
}

fn run(target: &str, seconds: f64, o: &Options) -> ExitCode {
    let f = target_fn(target);
    let mut gen = Gen {
        rng: Rng::new(o.seed),
        pool: if target == "deserialize" {
            valid_states(3)
        } else {
            Vec::new()
        },
    };
    if target == "deserialize" {
        check_pool(&gen.pool);
    }
    // The watchdog: an input that runs longer than the timeout is saved, and the process ends.
    let current: Arc<Mutex<(Instant, Vec<u8>)>> =
        Arc::new(Mutex::new((Instant::now(), Vec::new())));
    {
        let current = Arc::clone(&current);
        let (timeout, target) = (Duration::from_secs(o.timeout), target.to_string());
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(500));
            let guard = current.lock().unwrap_or_else(|e| e.into_inner());
            if guard.0.elapsed() > timeout {
                let path = save(&target, "timeout", &guard.1);
                eprintln!(
                    "driver: {target}: an input ran over {} s: {}",
                    timeout.as_secs(),
                    path.display()
                );
                eprintln!("{}", replay_hint(&target, &path));
                std::process::exit(2);
            }
        });
    }
    let start = Instant::now();
    let deadline = Duration::from_secs_f64(seconds);
    let (mut runs, mut crashes) = (0u64, 0u64);
    while start.elapsed() < deadline {
        let input = if target == "deserialize" {
            gen.deserialize_input()
        } else {
            gen.actions_input()
        };
        {
            let mut guard = current.lock().unwrap_or_else(|e| e.into_inner());
            *guard = (Instant::now(), input.clone());
        }
        runs += 1;
        if std::panic::catch_unwind(|| f(&input)).is_err() {
            crashes += 1;
            let path = save(target, "crash", &input);
            eprintln!("driver: {target}: crash saved to {}", path.display());
            eprintln!("{}", replay_hint(target, &path));
            if !o.keep_going {
                break;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "driver: {target}: {runs} inputs in {secs:.1} s ({:.0}/s), {} states accepted, {} actions applied, \
         {crashes} crashes",
        runs as f64 / secs.max(1e-9),
        ACCEPTED.load(Ordering::Relaxed),
        STEPS.load(Ordering::Relaxed),
    );
    if crashes > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn replay(target: &str, files: &[String]) -> ExitCode {
    let f = target_fn(target);
    let mut failed = false;
    for file in files {
        let input = std::fs::read(file).unwrap_or_else(|e| panic!("read {file}: {e}"));
        let ok = std::panic::catch_unwind(|| f(&input)).is_ok();
        println!("{file}: {}", if ok { "ok" } else { "CRASH" });
        failed |= !ok;
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn corpus(target: &str, dir: &str, o: &Options) -> ExitCode {
    target_fn(target);
    std::fs::create_dir_all(dir).expect("create the corpus directory");
    let inputs: Vec<Vec<u8>> = if target == "deserialize" {
        let mut pool = valid_states(2);
        let step = (pool.len() / o.count.max(1)).max(1);
        pool = pool.into_iter().step_by(step).collect();
        pool.into_iter().map(String::into_bytes).collect()
    } else {
        let mut gen = Gen {
            rng: Rng::new(o.seed),
            pool: Vec::new(),
        };
        (0..o.count).map(|_| gen.actions_input()).collect()
    };
    for input in &inputs {
        std::fs::write(
            Path::new(dir).join(format!("seed-{:016x}", fnv(input))),
            input,
        )
        .expect("write");
    }
    println!("driver: wrote {} seed inputs to {dir}", inputs.len());
    ExitCode::SUCCESS
}

/// A libFuzzer dictionary: every key and string value of the valid states, quoted.
fn dict(file: &str) -> ExitCode {
    fn walk(v: &Value, out: &mut std::collections::BTreeSet<String>) {
        match v {
            Value::Object(map) => {
                for (k, v) in map {
                    out.insert(format!("\"{k}\""));
                    walk(v, out);
                }
            }
            Value::Array(list) => list.iter().for_each(|v| walk(v, out)),
            Value::String(s) => {
                out.insert(format!("\"{s}\""));
            }
            _ => {}
        }
    }
    let mut words = std::collections::BTreeSet::new();
    for text in valid_states(1) {
        walk(&serde_json::from_str(&text).expect("JSON"), &mut words);
    }
    let lines: Vec<String> = words
        .iter()
        .map(|w| format!("\"{}\"", w.replace('\\', "\\\\").replace('"', "\\\"")))
        .collect();
    std::fs::write(file, lines.join("\n") + "\n").expect("write the dictionary");
    println!("driver: wrote {} words to {file}", lines.len());
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: driver run TARGET SECONDS [--seed N] [--timeout S] [--keep-going] | \
                 driver replay TARGET FILE... | driver corpus TARGET DIR [--count N] | driver dict FILE";
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["run", target, seconds, rest @ ..] => {
            let seconds: f64 = seconds.parse().expect("SECONDS must be a number");
            let rest: Vec<String> = rest.iter().map(|s| s.to_string()).collect();
            run(target, seconds, &options(&rest))
        }
        ["replay", target, files @ ..] if !files.is_empty() => replay(
            target,
            &files.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        ),
        ["corpus", target, dir, rest @ ..] => {
            let rest: Vec<String> = rest.iter().map(|s| s.to_string()).collect();
            corpus(target, dir, &options(&rest))
        }
        ["dict", file] => dict(file),
        _ => {
            eprintln!("{usage}");
            ExitCode::from(2)
        }
    }
}
