//! rmcp-bench: times what rmcp 3.1.4 costs to decode and encode Diverge channel
//! frames, on thread CPU time, for the benchmark matrix (`python -m benchmarks.matrix`,
//! which builds and drives this program through `benchmarks/rmcp.py`). See README.md.
//!
//! Each frame is decoded as the rmcp oracle (interop/rmcp-oracle) does: `split_first`,
//! then `serde_json::from_slice` into `ServerNotification` / `ReadResourceResult` (tag 0)
//! or `ErrorData` (tag 1); and encoded as `serde_json::to_vec` writes, with the tag byte
//! pushed first into the same `Vec`.

use std::hint::black_box;
use std::io::{self, BufRead, Write};
use std::process::exit;
use std::sync::mpsc;
use std::time::Instant;

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
// LoggingMessageNotification is deprecated in rmcp 3.1 but still on the wire.
#[allow(deprecated)]
use rmcp::model::{
    CancelledNotification, CustomNotification, LoggingMessageNotification, ProgressNotification,
    PromptListChangedNotification, ReadResourceResult, ResourceListChangedNotification,
    ResourceUpdatedNotification, ServerNotification, SubscriptionsAcknowledgedNotification,
    TaskStatusNotification, ToolListChangedNotification,
};
use rmcp::ErrorData;
use serde::{Deserialize, Serialize};

/// The rmcp version this program is built against (must match Cargo.toml).
const RMCP_VERSION: &str = "3.1.4";
const SERDE_JSON_VERSION: &str = "1.0.154";

/// The input file: what to time.
#[derive(Deserialize)]
struct Input {
    /// A measurement lasts at least this many nanoseconds of thread CPU time.
    target_ns: u64,
    /// Every distinct payload (standard base64 of tag byte + JSON).
    payloads: Vec<String>,
    cases: Vec<CaseIn>,
}

/// One case: its frames (indices into `payloads`), all of one channel kind. A fresh
/// case is decoded from a new copy of each payload, made inside the timed call.
#[derive(Deserialize)]
struct CaseIn {
    name: String,
    channel: String,
    frames: Vec<usize>,
    #[serde(default)]
    fresh: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Channel {
    Notifications,
    ReadResource,
}

/// The concrete type of a tag-0 notification, as the untagged union found it.
#[derive(Clone, Copy)]
enum Variant {
    Cancelled,
    Progress,
    LoggingMessage,
    ResourceUpdated,
    ResourceListChanged,
    ToolListChanged,
    PromptListChanged,
    SubscriptionsAcknowledged,
    TaskStatus,
    Custom,
}

/// A decoded frame, kept to be encoded.
enum Decoded {
    Notification(ServerNotification, Variant),
    Result(ReadResourceResult),
    Error(ErrorData),
}

struct Frame<'a> {
    payload: &'a [u8],
    value: Decoded,
}

struct Case<'a> {
    channel: Channel,
    fresh: bool,
    frames: Vec<Frame<'a>>,
}

#[derive(Clone, Copy, PartialEq)]
enum Op {
    /// The channel's decode: into `ServerNotification` / `ReadResourceResult` / `ErrorData`.
    Decode,
    /// A notification straight into its concrete variant (what it would cost without
    /// the untagged union's tries); results and errors as in `Decode`.
    DecodeVariant,
    /// Tag byte + the decoded value's JSON, as `serde_json::to_vec` writes it, in one `Vec`.
    Encode,
}

impl Op {
    fn parse(s: &str) -> Option<Op> {
        match s {
            "decode" => Some(Op::Decode),
            "decode_variant" => Some(Op::DecodeVariant),
            "encode" => Some(Op::Encode),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Op::Decode => "decode",
            Op::DecodeVariant => "decode_variant",
            Op::Encode => "encode",
        }
    }
}

fn variant_of(n: &ServerNotification) -> Variant {
    use ServerNotification as N;
    #[allow(deprecated)]
    match n {
        N::CancelledNotification(_) => Variant::Cancelled,
        N::ProgressNotification(_) => Variant::Progress,
        N::LoggingMessageNotification(_) => Variant::LoggingMessage,
        N::ResourceUpdatedNotification(_) => Variant::ResourceUpdated,
        N::ResourceListChangedNotification(_) => Variant::ResourceListChanged,
        N::ToolListChangedNotification(_) => Variant::ToolListChanged,
        N::PromptListChangedNotification(_) => Variant::PromptListChanged,
        N::SubscriptionsAcknowledgedNotification(_) => Variant::SubscriptionsAcknowledged,
        N::TaskStatusNotification(_) => Variant::TaskStatus,
        // ServerNotification is #[non_exhaustive]; the list above is complete for 3.1.4.
        _ => Variant::Custom,
    }
}

/// The channel's decode of one payload (the oracle's `decode`).
fn decode(channel: Channel, payload: &[u8]) -> Result<Decoded, String> {
    let Some((&tag, body)) = payload.split_first() else {
        return Err("empty payload".into());
    };
    let value = match (tag, channel) {
        (0, Channel::Notifications) => {
            serde_json::from_slice::<ServerNotification>(body).map(|n| {
                let variant = variant_of(&n);
                Decoded::Notification(n, variant)
            })
        }
        (0, Channel::ReadResource) => {
            serde_json::from_slice::<ReadResourceResult>(body).map(Decoded::Result)
        }
        (1, _) => serde_json::from_slice::<ErrorData>(body).map(Decoded::Error),
        (tag, _) => return Err(format!("unknown tag {tag}")),
    };
    value.map_err(|e| e.to_string())
}

/// Decode `body` into `T` and drop it, as a timed operation.
#[inline(always)]
fn decode_as<T: for<'de> Deserialize<'de>>(body: &[u8]) {
    drop(black_box(serde_json::from_slice::<T>(black_box(body))));
}

/// Bytes `serde_json::to_vec` reserves before it writes (serde_json 1.0's `to_vec`).
const TO_VEC_CAPACITY: usize = 128;

/// The tag byte and the value's JSON in one `Vec`: `serde_json::to_vec` as serde_json
/// writes it (a `Vec` of 128 bytes' capacity, then `to_writer` into it), with the tag
/// pushed first. (`vec![tag]` then `to_writer` starts from a capacity of one byte and
/// grows the `Vec` five times or more on a small frame.)
#[inline(always)]
fn encode(tag: u8, value: &impl Serialize) {
    let mut out = Vec::with_capacity(TO_VEC_CAPACITY);
    out.push(tag);
    let written = serde_json::to_writer(&mut out, black_box(value));
    drop(black_box((written, out)));
}

/// One operation on every frame of a case.
#[allow(deprecated)]
fn run_once(case: &Case, op: Op) {
    for frame in &case.frames {
        let copy;
        // A fresh case's decode reads a new copy of the payload; its encode writes the
        // decoded value, which holds nothing an encode leaves behind (a Rust `String`
        // keeps no cache), so a reused value is one fresh from decode.
        let payload = if case.fresh && op != Op::Encode {
            copy = black_box(frame.payload.to_vec());
            &copy[..]
        } else {
            frame.payload
        };
        let (tag, body) = (payload[0], &payload[1..]);
        match (op, &frame.value) {
            (Op::Decode, Decoded::Notification(..)) => decode_as::<ServerNotification>(body),
            (Op::Decode | Op::DecodeVariant, Decoded::Result(_)) => {
                decode_as::<ReadResourceResult>(body)
            }
            (Op::Decode | Op::DecodeVariant, Decoded::Error(_)) => decode_as::<ErrorData>(body),
            (Op::DecodeVariant, Decoded::Notification(_, variant)) => match variant {
                Variant::Cancelled => decode_as::<CancelledNotification>(body),
                Variant::Progress => decode_as::<ProgressNotification>(body),
                Variant::LoggingMessage => decode_as::<LoggingMessageNotification>(body),
                Variant::ResourceUpdated => decode_as::<ResourceUpdatedNotification>(body),
                Variant::ResourceListChanged => decode_as::<ResourceListChangedNotification>(body),
                Variant::ToolListChanged => decode_as::<ToolListChangedNotification>(body),
                Variant::PromptListChanged => decode_as::<PromptListChangedNotification>(body),
                Variant::SubscriptionsAcknowledged => {
                    decode_as::<SubscriptionsAcknowledgedNotification>(body)
                }
                Variant::TaskStatus => decode_as::<TaskStatusNotification>(body),
                Variant::Custom => decode_as::<CustomNotification>(body),
            },
            (Op::Encode, Decoded::Notification(n, _)) => encode(tag, n),
            (Op::Encode, Decoded::Result(r)) => encode(tag, r),
            (Op::Encode, Decoded::Error(e)) => encode(tag, e),
        }
    }
}

/// This thread's CPU time in nanoseconds: `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`.
fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write into; the clock id is a constant.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Minor page faults of this thread so far: `getrusage(RUSAGE_THREAD)`.
#[cfg(target_os = "linux")]
fn thread_faults() -> u64 {
    // SAFETY: an all-zero rusage is valid; getrusage writes into it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid rusage to write into.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut usage) };
    assert_eq!(rc, 0, "getrusage(RUSAGE_THREAD) failed");
    usage.ru_minflt as u64
}

#[cfg(not(target_os = "linux"))]
fn thread_faults() -> u64 {
    0
}

/// glibc's largest dynamic mmap threshold on 64-bit, and its starting one (as the
/// Python side's `benchmarks/timing.py`).
const STEADY_MMAP_THRESHOLD: i32 = 32 << 20;
const FRESH_MMAP_THRESHOLD: i32 = 128 << 10;

/// Blocks of at least `threshold` bytes are mapped new and unmapped when freed; the
/// rest come from the heap, whose free memory is kept (glibc's `mallopt`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn set_mmap_threshold(threshold: i32) {
    // SAFETY: mallopt only changes malloc's settings.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, threshold);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 2 * STEADY_MMAP_THRESHOLD);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn set_mmap_threshold(_threshold: i32) {}

/// Thread CPU and wall nanoseconds and minor page faults of `loops` runs of `op` over
/// the case's frames, on this thread.
fn measure(case: &Case, op: Op, loops: u64) -> (u64, u64, u64) {
    let faults = thread_faults();
    let wall = Instant::now();
    let cpu = thread_cpu_ns();
    for _ in 0..loops {
        run_once(case, op);
    }
    let cpu = thread_cpu_ns() - cpu;
    let wall = wall.elapsed().as_nanos() as u64;
    let faults = thread_faults() - faults;
    (cpu, wall, faults)
}

/// Where measurements run: a steady case on the calling thread; a fresh case on a
/// thread of its own (glibc gives it a malloc arena of its own, in which no block of
/// 128 KiB or more is kept) with every such block mapped new from the kernel and
/// unmapped when freed, so that the payload's copy and the result pay their page
/// faults in every call (as `benchmarks/timing.py` does on the Python side).
struct Runner<'a> {
    cases: &'a [Case<'a>],
    fresh: mpsc::Sender<(usize, Op, u64)>,
    fresh_results: mpsc::Receiver<(u64, u64, u64)>,
}

impl Runner<'_> {
    fn measure(&self, index: usize, op: Op, loops: u64) -> (u64, u64, u64) {
        if !self.cases[index].fresh {
            return measure(&self.cases[index], op, loops);
        }
        self.fresh
            .send((index, op, loops))
            .expect("the fresh thread runs");
        self.fresh_results.recv().expect("the fresh thread answers")
    }

    /// The smallest loop count of 1, 2, 5, 10, 20, 50, ... whose measurement lasts
    /// `target_ns` of thread CPU time, after one warm-up run (as the Python side does).
    fn calibrate(&self, index: usize, op: Op, target_ns: u64) -> u64 {
        self.measure(index, op, 1);
        let mut base = 1;
        loop {
            for factor in [1, 2, 5] {
                if self.measure(index, op, base * factor).0 >= target_ns {
                    return base * factor;
                }
            }
            base *= 10;
        }
    }
}

/// The fresh cases' thread: measures what `requests` asks, under the fresh setting.
fn fresh_thread(
    cases: &[Case],
    requests: mpsc::Receiver<(usize, Op, u64)>,
    results: mpsc::Sender<(u64, u64, u64)>,
) {
    for (index, op, loops) in requests {
        set_mmap_threshold(FRESH_MMAP_THRESHOLD);
        let sample = measure(&cases[index], op, loops);
        set_mmap_threshold(STEADY_MMAP_THRESHOLD);
        if results.send(sample).is_err() {
            return;
        }
    }
}

#[derive(Serialize)]
struct CellOut<'a> {
    case: &'a str,
    op: &'static str,
    loops: u64,
    frames: usize,
}

#[derive(Serialize)]
struct Ready<'a> {
    rmcp: &'static str,
    serde_json: &'static str,
    clock: &'static str,
    cells: Vec<CellOut<'a>>,
}

#[derive(Serialize)]
struct Sample {
    /// Thread CPU nanoseconds per operation on one frame (mean over the case's frames).
    cpu_ns: f64,
    /// Wall-clock nanoseconds per operation, of the same measurement.
    wall_ns: f64,
    /// Minor page faults per operation, of the same measurement.
    faults: f64,
}

fn fail(message: String) -> ! {
    eprintln!("rmcp-bench: {message}");
    exit(1);
}

fn load(path: &str) -> (Input, Vec<Vec<u8>>) {
    let text = std::fs::read(path).unwrap_or_else(|e| fail(format!("{path}: {e}")));
    let input: Input =
        serde_json::from_slice(&text).unwrap_or_else(|e| fail(format!("{path}: {e}")));
    let payloads = input
        .payloads
        .iter()
        .enumerate()
        .map(|(i, b64)| {
            B64.decode(b64)
                .unwrap_or_else(|e| fail(format!("payload {i}: bad base64: {e}")))
        })
        .collect();
    (input, payloads)
}

fn cases<'a>(input: &Input, payloads: &'a [Vec<u8>]) -> Vec<Case<'a>> {
    let mut cases = Vec::with_capacity(input.cases.len());
    for c in &input.cases {
        let channel = match c.channel.as_str() {
            "notifications" => Channel::Notifications,
            "read-resource" => Channel::ReadResource,
            other => fail(format!("case {}: unknown channel {other:?}", c.name)),
        };
        let mut frames = Vec::with_capacity(c.frames.len());
        for &i in &c.frames {
            let Some(payload) = payloads.get(i) else {
                fail(format!("case {}: no payload {i}", c.name));
            };
            let value = decode(channel, payload).unwrap_or_else(|e| {
                fail(format!("case {} payload {i}: rmcp rejects it: {e}", c.name))
            });
            frames.push(Frame { payload, value });
        }
        if frames.is_empty() {
            fail(format!("case {}: no frames", c.name));
        }
        cases.push(Case {
            channel,
            fresh: c.fresh,
            frames,
        });
    }
    cases
}

fn ops_of(case: &Case) -> Vec<Op> {
    if case.fresh {
        return vec![Op::Decode, Op::Encode];
    }
    let notifications = case.channel == Channel::Notifications
        && case
            .frames
            .iter()
            .any(|f| matches!(f.value, Decoded::Notification(..)));
    if notifications {
        vec![Op::Decode, Op::DecodeVariant, Op::Encode]
    } else {
        vec![Op::Decode, Op::Encode]
    }
}

/// Calibrate every cell and print them; then, for each request line `CASE OP` (case
/// index, op name) on stdin, measure that cell once and print its [`Sample`].
fn serve(input: &Input, cases: &[Case]) -> io::Result<()> {
    let (fresh, requests) = mpsc::channel();
    let (results, fresh_results) = mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(|| fresh_thread(cases, requests, results));
        let runner = Runner {
            cases,
            fresh,
            fresh_results,
        };
        serve_with(input, &runner)
        // dropping the runner ends the fresh thread
    })
}

fn serve_with(input: &Input, runner: &Runner) -> io::Result<()> {
    let cases = runner.cases;
    let mut loops = Vec::with_capacity(cases.len());
    let mut cells = Vec::new();
    for (index, (case, case_in)) in cases.iter().zip(&input.cases).enumerate() {
        let mut per_op = Vec::new();
        for op in ops_of(case) {
            let n = runner.calibrate(index, op, input.target_ns);
            per_op.push((op, n));
            cells.push(CellOut {
                case: &case_in.name,
                op: op.name(),
                loops: n,
                frames: case.frames.len(),
            });
        }
        loops.push(per_op);
    }
    let mut out = io::stdout().lock();
    let ready = Ready {
        rmcp: RMCP_VERSION,
        serde_json: SERDE_JSON_VERSION,
        clock: "CLOCK_THREAD_CPUTIME_ID",
        cells,
    };
    serde_json::to_writer(&mut out, &ready)?;
    out.write_all(b"\n")?;
    out.flush()?;
    let mut line = String::new();
    let mut stdin = io::stdin().lock();
    loop {
        line.clear();
        if stdin.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let mut words = line.split_whitespace();
        let (Some(index), Some(op), None) = (words.next(), words.next(), words.next()) else {
            fail(format!("bad request {line:?}: expected CASE OP"));
        };
        let index: usize = index
            .parse()
            .ok()
            .filter(|&i| i < cases.len())
            .unwrap_or_else(|| fail(format!("bad request {line:?}: no such case")));
        let op = Op::parse(op).unwrap_or_else(|| fail(format!("bad request {line:?}: no such op")));
        let Some(&(_, n)) = loops[index].iter().find(|(o, _)| *o == op) else {
            fail(format!("bad request {line:?}: no such cell"));
        };
        let (cpu, wall, faults) = runner.measure(index, op, n);
        let per_op = (n * cases[index].frames.len() as u64) as f64;
        let sample = Sample {
            cpu_ns: cpu as f64 / per_op,
            wall_ns: wall as f64 / per_op,
            faults: faults as f64 / per_op,
        };
        serde_json::to_writer(&mut out, &sample)?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [flag] if flag == "--version" => println!("{RMCP_VERSION}"),
        [path] if !path.starts_with('-') => {
            set_mmap_threshold(STEADY_MMAP_THRESHOLD);
            let (input, payloads) = load(path);
            let cases = cases(&input, &payloads);
            match serve(&input, &cases) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
                Err(e) => fail(format!("I/O error: {e}")),
            }
        }
        _ => {
            eprintln!("usage: rmcp-bench CASES.json (requests on stdin) | rmcp-bench --version");
            exit(2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_match_cargo_toml() {
        let manifest = include_str!("../Cargo.toml");
        assert!(manifest.contains(&format!("rmcp = {{ version = \"={RMCP_VERSION}\"")));
        assert!(manifest.contains(&format!("serde_json = \"={SERDE_JSON_VERSION}\"")));
    }

    #[test]
    fn every_op_runs_on_each_kind_of_frame() {
        let payloads: [(&[u8], Channel); 3] = [
            (
                br#" {"method":"notifications/message","params":{"level":"info","data":"x"}}"#,
                Channel::Notifications,
            ),
            (
                br#" {"contents":[{"uri":"a:b","text":"t"}]}"#,
                Channel::ReadResource,
            ),
            (
                br#" {"code":-32002,"message":"Resource not found"}"#,
                Channel::ReadResource,
            ),
        ];
        for (i, (body, channel)) in payloads.into_iter().enumerate() {
            let mut payload = body.to_vec();
            payload[0] = if i == 2 { 1 } else { 0 };
            for fresh in [false, true] {
                let value = decode(channel, &payload).expect("decodes");
                let case = Case {
                    channel,
                    fresh,
                    frames: vec![Frame {
                        payload: &payload,
                        value,
                    }],
                };
                for op in ops_of(&case) {
                    assert!(measure(&case, op, 3).0 > 0);
                }
            }
        }
        assert!(decode(Channel::Notifications, &[]).is_err());
        assert!(decode(Channel::Notifications, &[2, b'{', b'}']).is_err());
    }
}
