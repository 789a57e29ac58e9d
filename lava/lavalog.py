"""What an abiwatch job's LAVA log holds: the guest's console lines, and in
them the snapshot the test definition (lava/abiwatch.yaml) prints between
two marker lines, after the line that gives its SHA-256.

A log is LAVA's {dt, lvl, msg} records: a YAML list as `lavacli jobs logs
--raw` reads it back from a server, one record a line as lava-run writes
it when it has no server (lava/run-job keeps it as output.yaml).  The guest's console is the records of lvl
`target`.  The checksum is what makes the log an artefact: a line the
serial console or the log collector lost, split or joined is a damaged
snapshot, reported as such, never a snapshot with different values."""
import hashlib

import yaml

BEGIN, END = "abiwatch-snapshot-begin", "abiwatch-snapshot-end"
SUM = "abiwatch-snapshot-sha256 "


def records(path):
    """The records of the LAVA log at PATH.  A server's log (`lavacli jobs
    logs --raw`) is one YAML list; lava-run alone writes one record a line,
    a flow mapping, which no list holds."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        log = yaml.safe_load(text)
    except yaml.YAMLError:
        log = None
    if isinstance(log, list):
        return log
    try:
        return [yaml.safe_load(line) for line in text.splitlines() if line.strip()]
    except yaml.YAMLError as e:
        raise ValueError(f"not a LAVA log (a YAML list of records, or one record a line): {e}") from None


def target_lines(path):
    """The guest's console lines of the LAVA log at PATH, in order."""
    return [e["msg"] for e in records(path)
            if isinstance(e, dict) and e.get("lvl") == "target" and isinstance(e.get("msg"), str)]


def snapshot_text(path):
    """(text, None) of the snapshot in the log at PATH, byte for byte as the
    guest wrote it; or (None, why) when it is missing or damaged."""
    lines = [line.rstrip("\r") for line in target_lines(path)]
    if BEGIN not in lines:
        return None, "no snapshot between the marker lines in the job's log"
    begin = len(lines) - 1 - lines[::-1].index(BEGIN)
    if END not in lines[begin:]:
        return None, "the snapshot's end marker is missing (the run was cut off)"
    end = lines.index(END, begin)
    # Without the shell's own trace: the test runner's run.sh has set -x.
    body = [line for line in lines[begin + 1:end] if not line.startswith("+ ")]
    if not body or not body[0].startswith("abiwatch-snapshot "):
        return None, "what lies between the markers is not a snapshot"
    text = "".join(line + "\n" for line in body)
    sums = [line[len(SUM):].strip() for line in lines[:begin] if line.startswith(SUM)]
    if not sums:
        return None, "the log gives no checksum of the snapshot (" + SUM.strip() + ")"
    got = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if got != sums[-1]:
        return None, (f"the snapshot was damaged on its way (SHA-256 {got[:12]}..., "
                      f"the guest's {sums[-1][:12]}...)")
    return text, None


def snapshot_values(path):
    """{key: value} of the snapshot in the log at PATH ({} when none)."""
    text, _ = snapshot_text(path)
    if text is None:
        return {}
    return dict(line.split(" = ", 1) for line in text.splitlines()[1:] if " = " in line)
