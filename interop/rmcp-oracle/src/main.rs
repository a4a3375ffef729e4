//! rmcp-oracle: reports what rmcp decodes a Diverge channel frame to, and the
//! exact bytes it writes back. See README.md for the I/O format.

use std::io::{self, BufRead, BufWriter, Write};
use std::panic::{self, AssertUnwindSafe};

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use rmcp::model::{ConstString, ReadResourceResult, ServerNotification};
use rmcp::ErrorData;
use serde::Serialize;
use serde_json::Value;

/// The rmcp version this oracle is built against (must match Cargo.toml).
const RMCP_VERSION: &str = "3.1.4";
const STACK_SIZE: usize = 256 * 1024 * 1024;

/// One output line. `None` fields are omitted; `method: Some(None)` prints `null`.
#[derive(Serialize, Default)]
struct Report {
    id: Value,
    verdict: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    tag: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    variant: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    method: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reencoded: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Clone, Copy)]
enum Channel {
    Notifications,
    ReadResource,
}

/// Variant name and method string of a decoded notification.
fn describe_notification(n: &ServerNotification) -> (&'static str, Option<String>) {
    use ServerNotification as N;
    fn m<C: ConstString>(c: &C) -> Option<String> {
        Some(c.as_str().to_owned())
    }
    #[allow(deprecated)]
    match n {
        N::CancelledNotification(n) => ("CancelledNotification", m(&n.method)),
        N::ProgressNotification(n) => ("ProgressNotification", m(&n.method)),
        N::LoggingMessageNotification(n) => ("LoggingMessageNotification", m(&n.method)),
        N::ResourceUpdatedNotification(n) => ("ResourceUpdatedNotification", m(&n.method)),
        N::ResourceListChangedNotification(n) => ("ResourceListChangedNotification", m(&n.method)),
        N::ToolListChangedNotification(n) => ("ToolListChangedNotification", m(&n.method)),
        N::PromptListChangedNotification(n) => ("PromptListChangedNotification", m(&n.method)),
        N::SubscriptionsAcknowledgedNotification(n) => {
            ("SubscriptionsAcknowledgedNotification", m(&n.method))
        }
        N::TaskStatusNotification(n) => ("TaskStatusNotification", m(&n.method)),
        N::CustomNotification(n) => ("CustomNotification", Some(n.method.clone())),
        // ServerNotification is #[non_exhaustive]; the list above is complete for 3.1.4.
        _ => ("Unknown", None),
    }
}

/// Re-encode exactly as the spec's encoder does: tag byte, then serde_json::to_writer.
fn accept<T: Serialize>(
    tag: u8,
    value: &T,
    variant: &'static str,
    method: Option<String>,
) -> Report {
    let mut out = vec![tag];
    match serde_json::to_writer(&mut out, value) {
        Ok(()) => Report {
            verdict: "ok",
            tag: Some(tag),
            variant: Some(variant),
            method: Some(method),
            reencoded: Some(B64.encode(&out)),
            ..Report::default()
        },
        Err(e) => Report {
            verdict: "encode_error",
            tag: Some(tag),
            variant: Some(variant),
            error: Some(e.to_string()),
            ..Report::default()
        },
    }
}

/// Mirrors the spec's frame decoder, then re-encodes the decoded value.
fn decode(channel: Channel, bytes: &[u8]) -> Report {
    let Some((&tag, rest)) = bytes.split_first() else {
        return Report {
            verdict: "empty",
            ..Report::default()
        };
    };
    let result = match (tag, channel) {
        (0, Channel::Notifications) => {
            serde_json::from_slice::<ServerNotification>(rest).map(|v| {
                let (variant, method) = describe_notification(&v);
                accept(tag, &v, variant, method)
            })
        }
        (0, Channel::ReadResource) => serde_json::from_slice::<ReadResourceResult>(rest)
            .map(|v| accept(tag, &v, "ReadResourceResult", None)),
        (1, _) => {
            serde_json::from_slice::<ErrorData>(rest).map(|v| accept(tag, &v, "ErrorData", None))
        }
        (tag, _) => {
            return Report {
                verdict: "unknown_tag",
                tag: Some(tag),
                ..Report::default()
            }
        }
    };
    result.unwrap_or_else(|e| Report {
        verdict: "body",
        tag: Some(tag),
        error: Some(e.to_string()),
        ..Report::default()
    })
}

fn bad_input(id: Value, error: impl Into<String>) -> Report {
    Report {
        id,
        verdict: "bad_input",
        error: Some(error.into()),
        ..Report::default()
    }
}

fn handle_line(line: &[u8]) -> Report {
    let input: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => return bad_input(Value::Null, format!("input line is not JSON: {e}")),
    };
    let Value::Object(mut obj) = input else {
        return bad_input(Value::Null, "input line is not a JSON object");
    };
    let id = obj.remove("id").unwrap_or(Value::Null);
    let channel = match obj.get("channel").and_then(Value::as_str) {
        Some("notifications") => Channel::Notifications,
        Some("read-resource") => Channel::ReadResource,
        other => return bad_input(id, format!("unknown channel: {other:?}")),
    };
    let payload = match obj
        .get("payload")
        .and_then(Value::as_str)
        .map(|s| B64.decode(s))
    {
        Some(Ok(p)) => p,
        Some(Err(e)) => return bad_input(id, format!("bad base64 payload: {e}")),
        None => return bad_input(id, "missing or non-string payload"),
    };
    let mut report = match panic::catch_unwind(AssertUnwindSafe(|| decode(channel, &payload))) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned());
            Report {
                verdict: "panic",
                error: msg,
                ..Report::default()
            }
        }
    };
    report.id = id;
    report
}

fn run(line_buffered: bool) -> io::Result<()> {
    let stdin = io::stdin().lock();
    let mut input = io::BufReader::with_capacity(1 << 20, stdin);
    let mut out = BufWriter::with_capacity(1 << 20, io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue; // blank lines are skipped
        }
        let report = handle_line(&line);
        serde_json::to_writer(&mut out, &report)?;
        out.write_all(b"\n")?;
        if line_buffered {
            out.flush()?;
        }
    }
    out.flush()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut line_buffered = false;
    for arg in &args {
        match arg.as_str() {
            "--version" => {
                println!("{RMCP_VERSION}");
                return;
            }
            "--line-buffered" => line_buffered = true,
            other => {
                eprintln!("usage: rmcp-oracle [--line-buffered] [--version] < cases.jsonl (unknown argument {other:?})");
                std::process::exit(2);
            }
        }
    }
    // Panics are reported per case; keep the default hook from spamming stderr.
    panic::set_hook(Box::new(|_| {}));
    let worker = std::thread::Builder::new()
        .name("decode".into())
        .stack_size(STACK_SIZE)
        .spawn(move || run(line_buffered))
        .expect("spawn decode thread");
    match worker.join() {
        Ok(Ok(())) => {}
        Ok(Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Ok(Err(e)) => {
            eprintln!("rmcp-oracle: I/O error: {e}");
            std::process::exit(1);
        }
        Err(_) => {
            eprintln!("rmcp-oracle: worker thread panicked");
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_matches_cargo_toml() {
        let manifest = include_str!("../Cargo.toml");
        let pin = format!("rmcp = {{ version = \"={RMCP_VERSION}\"");
        assert!(
            manifest.contains(&pin),
            "Cargo.toml must pin rmcp ={RMCP_VERSION}"
        );
    }

    #[test]
    fn decodes_and_reencodes() {
        let mut frame = vec![0u8];
        frame.extend_from_slice(br#"{"method":"notifications/tools/list_changed"}"#);
        let r = decode(Channel::Notifications, &frame);
        assert_eq!(r.verdict, "ok");
        assert_eq!(r.variant, Some("ToolListChangedNotification"));
        assert_eq!(r.reencoded, Some(B64.encode(&frame)));
        assert_eq!(decode(Channel::ReadResource, &[]).verdict, "empty");
        assert_eq!(decode(Channel::ReadResource, &[7]).tag, Some(7));
    }
}
