#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Stand-in backends for prof agent's tests, each following its server's own code.

  receiver.py DIR --kind pyroscope|parca|otlp [--port-file F] [--port N]
              [--delay SECONDS] [--status CODE] [--otlp-reject N]
              [--series-limit N]

Listens on 127.0.0.1 (a port of the kernel's choosing, written to F) and
answers as the real server answers, branch for branch, a request it
would refuse refused here too, with its status and message. A stand-in
that took what the real server refuses would prove nothing: that is how
a Pyroscope push that every Pyroscope refused passed our suite. For each
request it writes DIR/NNNNNN.json: the method, path, query, headers, the
status it answered, the error (if any), and what the server would have
stored ("stored": one entry per series, its labels and samples).
DIR/series holds each distinct series once, as the backend counts them.

Pyroscope (--kind pyroscope) follows grafana/pyroscope (v2, 2026-08):
  pkg/api/api.go                          routes: /ingest, /pyroscope/ingest
  pkg/ingester/pyroscope/ingest_handler.go parseInputMetadataFromRequest,
                                          readInputRawDataFromRequest
  api/model/labelset/labelset.go, validate.go   the name=app{k=v} syntax
  pkg/og/convert/pprof/profile.go         ParseToPprof, loadPprofFromForm,
                                          metricName, createLabels, fixTime
  pkg/og/util/form/form.go                ReadField: file parts only
  pkg/pprof/pprof.go                      RawFromBytesWithLimit: gzip or not
  pkg/distributor/distributor.go          pushSeries, visitSampleSeries
  pkg/model/pprofsplit/pprof_split.go     a series per set of sample labels
  pkg/validation/validate.go              ValidateProfile, ValidateLabels
  pkg/validation/limits.go                the default limits
  pkg/util/http/error.go                  the error's JSON body
Parca (--kind parca) follows parca-dev/parca (2026-07):
  pkg/server/server.go, fallback.go       /api/* to grpc-gateway; any
                                          path it does not route gets the
                                          UI: 200 text/html
  proto/parca/profilestore/v1alpha1/profilestore.proto  POST /profiles/writeraw
  pkg/normalizer/normalizer.go            NormalizeWriteRawRequest
  pkg/normalizer/validate.go              ValidatePprofProfile
The OpenTelemetry collector (--kind otlp) follows
open-telemetry/opentelemetry-collector (v0.159, 2026-08):
  receiver/otlpreceiver/otlp.go           the route /v1development/profiles
  receiver/otlpreceiver/otlphttp.go       handleProfiles, readContentType
  receiver/otlpreceiver/internal/profiles/otlp.go  Export
  config/confighttp/compression.go        Content-Encoding gzip
--otlp-reject N answers with a partial success that rejected N profiles,
as backends that take OTLP themselves may (the collector's own receiver
never does). --delay holds each answer back (a slow backend); --status
answers every request with that code (a backend that refuses).
"""
import base64
import binascii
import email.parser
import email.policy
import gzip
import json
import os
import sys
import threading
import time
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

out = sys.argv[1]
args = sys.argv[2:]
opt = {}
while args:
    opt[args[0]] = args[1]
    args = args[2:]
kind = opt.get("--kind")
if kind not in ("pyroscope", "parca", "otlp"):
    sys.exit("receiver.py: --kind pyroscope, parca or otlp")
delay = float(opt.get("--delay", "0"))
forced = int(opt.get("--status", "0"))
lock = threading.Lock()
os.makedirs(out, exist_ok=True)
count = [len([f for f in os.listdir(out) if f.endswith(".json")])]
series_seen = set()
if os.path.exists(os.path.join(out, "series")):
    series_seen = set(open(os.path.join(out, "series")).read().splitlines())


class Refused(Exception):
    def __init__(self, status, msg, ctype="application/json", body=None):
        Exception.__init__(self, msg)
        self.status, self.msg, self.ctype, self.body = status, msg, ctype, body


# --- profile.proto, as vtproto's UnmarshalVT reads it ------------------------------

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pbwire import fields, ints  # noqa: E402


def s64(x):
    return x - (1 << 64) if x >= 1 << 63 else x


def msg(v, names):
    """A message's scalar fields by name (repeated ones as lists)."""
    if not isinstance(v, (bytes, bytearray)):
        raise ValueError("a message field of the wrong wire type")
    m = {}
    for f, wt, x in fields(v):
        n = names.get(f)
        if n is None:
            continue
        if n.endswith("[]"):
            m.setdefault(n[:-2], []).extend(ints(wt, x))
        else:
            m[n] = x
    return m


def pprof_decode(b):
    p = {"sample_type": [], "sample": [], "mapping": [], "location": [], "function": [],
         "string_table": [], "time_nanos": 0, "duration_nanos": 0}
    for f, wt, v in fields(b):
        if f == 1:
            p["sample_type"].append(msg(v, {1: "type", 2: "unit"}))
        elif f == 2:
            s = {"location_id": [], "value": [], "label": []}
            for g, wt2, x in fields(v):
                if g == 1:
                    s["location_id"].extend(ints(wt2, x))
                elif g == 2:
                    s["value"].extend(s64(y) for y in ints(wt2, x))
                elif g == 3:
                    s["label"].append(msg(x, {1: "key", 2: "str", 3: "num", 4: "num_unit"}))
            p["sample"].append(s)
        elif f == 3:
            p["mapping"].append(msg(v, {1: "id", 2: "memory_start", 3: "memory_limit", 4: "file_offset",
                                        5: "filename", 6: "build_id"}))
        elif f == 4:
            loc = {"line": []}
            for g, wt2, x in fields(v):
                if g == 1:
                    loc["id"] = x
                elif g == 2:
                    loc["mapping_id"] = x
                elif g == 3:
                    loc["address"] = x
                elif g == 4:
                    loc["line"].append(msg(x, {1: "function_id", 2: "line", 3: "column"}))
            p["location"].append(loc)
        elif f == 5:
            p["function"].append(msg(v, {1: "id", 2: "name", 3: "system_name", 4: "filename",
                                         5: "start_line"}))
        elif f == 6:
            if wt != 2:
                raise ValueError("string_table: wrong wire type")
            p["string_table"].append(bytes(v))
        elif f == 9:
            p["time_nanos"] = s64(v)
        elif f == 10:
            p["duration_nanos"] = s64(v)
    return p


def utf8(b):
    try:
        return b.decode("utf-8"), True
    except UnicodeDecodeError:
        return b.decode("utf-8", "replace"), False


def save(base, data):
    open(base, "wb").write(data)
    return base


def note_series(labels):
    """A series the backend now holds: 1 when it is new."""
    key = ",".join("%s=%s" % kv for kv in sorted(labels.items()))
    if key in series_seen:
        return 0
    series_seen.add(key)
    with open(os.path.join(out, "series"), "a") as f:
        f.write(key + "\n")
    return 1


# --- Grafana Pyroscope -------------------------------------------------------------

# pkg/validation/limits.go's defaults
PY_MAX_LABEL_NAME = 1024
PY_MAX_LABEL_VALUE = 2048
PY_MAX_LABEL_NAMES = 30
PY_MAX_PROFILE_BYTES = 4 * 1024 * 1024
PY_MAX_SAMPLES = 16000
PY_MAX_SAMPLE_LABELS = 100
PY_REJECT_OLDER = 3600 * 10**9
PY_REJECT_NEWER = 600 * 10**9
PY_SERIES_LIMIT = int(opt.get("--series-limit", "5000"))	# max_global_series_per_tenant


def py_label_rune(r):
    # labelset/validate.go IsLabelNameRuneAllowed
    return r.isascii() and (r.isalnum() or r in "_.")


def py_labelset_parse(name):
    """labelset.Parse: app{k=v,...}; raises Refused(400) as the handler does."""
    labels = {}
    state, key, value = "name", "", ""
    for r in name + "{":
        if state == "name":
            if r == "{":
                state = "tags"
                app = value.strip()
                if not app:
                    raise Refused(400, "name: service name is required")
                for c in app:
                    if not (c in "-./" or py_label_rune(c)):
                        raise Refused(400, "name: invalid service name: %s: character is not allowed: %r"
                                      % (app, c))
                labels["__name__"] = app
            else:
                value += r
        elif state == "tags":
            if r == "}":
                state = "done"
            elif r == "=":
                state = "value"
                value = ""
            else:
                key += r
        elif state == "value":
            if r in ",}":
                state = "tags"
                k = key.strip()
                if k != "__name__":
                    if not k:
                        raise Refused(400, "name: label name is required")
                    for c in k:
                        if not py_label_rune(c):
                            raise Refused(400, "name: invalid label name: %s: character is not allowed: %r"
                                          % (k, c))
                labels[k] = value.strip()
                key = ""
            else:
                value += r
    return labels


def py_metric_name(p, st):
    # profile.go metricName, with tree.DefaultSampleTypeMapping's display names
    names = [st[t.get("type", 0)] for t in p["sample_type"]]
    for n in names:
        if n == "wall":
            return n
    n = ""
    for n in names:
        if "cpu" in n:
            return "process_cpu"
        if "alloc_" in n or "inuse_" in n or n in ("space", "objects"):
            return "memory"
        if "mutex_" in n:
            return "mutex"
        if "block_" in n:
            return "block"
        if "goroutines" in n:
            return "goroutines"
    return n


def py_validate_labels(ls):
    """validation.ValidateLabels, with DisableLabelSanitization (the default)."""
    if not ls:
        raise Refused(422, "error at least one label pair is required per profile")
    if len(ls) > PY_MAX_LABEL_NAMES:
        raise Refused(422, "profile series has %d label names; limit %d" % (len(ls), PY_MAX_LABEL_NAMES))
    if not ls.get("__name__"):
        raise Refused(422, "invalid labels: invalid metric name")
    if not ls.get("service_name"):
        raise Refused(422, "invalid labels: service name is not provided")
    for k in sorted(ls):
        v = ls[k]
        if len(k.encode()) > PY_MAX_LABEL_NAME:
            raise Refused(422, "profile has label name too long: '%s'" % k)
        if len(v.encode()) > PY_MAX_LABEL_VALUE:
            raise Refused(422, "profile has label value too long: '%s'" % v)
        if not k or "\ufffd" in k:
            raise Refused(422, "invalid labels: invalid label name '%s'" % k)
        if "\ufffd" in v:
            raise Refused(422, "invalid labels: invalid label value '%s'" % v)


def py_validate_profile(p, st, now):
    """validation.ValidateProfile (distributor.go pushSeries)."""
    if not p["sample_type"]:
        raise Refused(422, "empty profile")
    t = p["time_nanos"]
    if t > 0 and not (now - PY_REJECT_OLDER < t < now + PY_REJECT_NEWER):
        raise Refused(422, "profile is outside of ingestion window (profile timestamp: %d)" % t)
    if len(p["sample"]) > PY_MAX_SAMPLES:
        raise Refused(422, "the profile exceeds the samples count limit (max_profile_stacktrace_samples, "
                      "actual: %d, limit: %d)" % (len(p["sample"]), PY_MAX_SAMPLES))
    for s in p["sample"]:
        if len(s["label"]) > PY_MAX_SAMPLE_LABELS:
            raise Refused(422, "the profile exceeds the sample labels limit")
    for loc in p["location"]:
        if not loc.get("id"):
            raise Refused(422, "location id is 0")
    for fn in p["function"]:
        if not fn.get("id"):
            raise Refused(422, "function id is 0")
    for s in p["sample"]:
        if len(s["value"]) != len(p["sample_type"]):
            raise Refused(422, "sample value length mismatch")
    n = len(st)
    if not n or st[0] != "":
        raise Refused(422, "string 0 should be empty string")
    for t in p["sample_type"]:
        if t.get("type", 0) >= n:
            raise Refused(422, "sample type type string index out of range")
    for s in p["sample"]:
        for lb in s["label"]:
            if lb.get("str", 0) >= n or lb.get("key", 0) >= n:
                raise Refused(422, "sample label string index out of range")
    for fn in p["function"]:
        if max(fn.get("name", 0), fn.get("system_name", 0), fn.get("filename", 0)) >= n:
            raise Refused(422, "function name string index out of range")
    for m in p["mapping"]:
        if max(m.get("filename", 0), m.get("build_id", 0)) >= n:
            raise Refused(422, "mapping file name string index out of range")
    for t in p["sample_type"]:
        if "-" in st[t.get("type", 0)]:
            raise Refused(422, "sample type contains -")
    for raw in p["string_table"]:
        if not utf8(raw)[1]:
            raise Refused(422, "invalid utf8 string hex: %s" % binascii.hexlify(raw).decode())


def pyroscope(h, u, body, base, rec):
    if u.path not in ("/ingest", "/pyroscope/ingest"):
        raise Refused(404, "404 page not found", "text/plain; charset=utf-8")
    q = urllib.parse.parse_qs(u.query, keep_blank_values=True)
    get = lambda k: q.get(k, [""])[0]
    # parseInputMetadataFromRequest
    ls = py_labelset_parse(get("name"))
    start = get("from")
    if start.isdigit():
        # attime.Parse: Unix time in s, ms, us or ns by its digits
        start = int(start) * {13: 10**6, 16: 10**3, 19: 1}.get(len(start), 10**9)
    else:
        start = time.time_ns()
    spy = get("spyName") or "unknown"
    # readInputRawDataFromRequest: format first, then the content type
    fmt = get("format")
    ctype = h.headers.get("Content-Type", "")
    if fmt in ("trie", "tree", "lines", "jfr", "speedscope") or \
       ctype in ("binary/octet-stream+trie", "binary/octet-stream+tree"):
        raise Refused(422, "this stand-in does not read format '%s'" % (fmt or ctype))
    if fmt == "pprof":
        raw = body			# the whole body is the profile, form or not
    elif "multipart/form-data" in ctype:
        raw = pyroscope_form(ctype, body)
    else:
        raise Refused(422, "this stand-in does not read Pyroscope's 'groups' format")
    if not raw:
        return				# ParseToPprof: no profile, nothing stored, 200
    try:
        if raw[:2] == b"\x1f\x8b":
            try:
                data = gzip.decompress(raw)
            except (OSError, EOFError, zlib.error) as e:
                raise ValueError("gzip reset: %s" % e)
        else:
            data = raw
        if len(data) > PY_MAX_PROFILE_BYTES:
            raise ValueError("decompressed size exceeds maximum allowed size of %d bytes"
                             % PY_MAX_PROFILE_BYTES)
        p = pprof_decode(data)
    except ValueError as e:
        raise Refused(422, "pushing IngestInput-pprof failed: %s" % e)
    st = [utf8(x)[0] for x in p["string_table"]]
    if p["time_nanos"] == 0 or p["time_nanos"] < 365 * 86400 * 10**9:
        p["time_nanos"] = start		# fixTime
    # createLabels
    series = {"__name__": py_metric_name(p, st), "__delta__": "false", "pyroscope_spy": spy}
    if "service_name" not in ls:
        series["service_name"] = ls["__name__"]
    for k, v in ls.items():
        if not k.startswith("__"):
            series[k] = v
    py_validate_profile(p, st, time.time_ns())
    # Normalize drops samples of no value; pprofsplit: a series per sample label set
    groups = {}
    for s in p["sample"]:
        if not any(s["value"]):
            continue
        lab = dict(series)
        for lb in s["label"]:
            if lb.get("str", 0) > 0 and not lab.get(st[lb["key"]]):
                lab[st[lb["key"]]] = st[lb["str"]]
        key = tuple(sorted(lab.items()))
        g = groups.setdefault(key, [0, 0])
        g[0] += s["value"][0]
        g[1] += s["value"][1] if len(s["value"]) > 1 else 0
    for key in groups:
        py_validate_labels(dict(key))
    new = [dict(k) for k in groups
           if ",".join("%s=%s" % kv for kv in k) not in series_seen]
    if len(series_seen) + len(new) > PY_SERIES_LIMIT:
        # the ingester's limiter: connect.CodeResourceExhausted, 429
        raise Refused(429, "Maximum active series limit exceeded (%d/%d), reduce the number of active "
                      "streams (reduce labels or reduce label values), or contact your administrator "
                      "to see if the limit can be increased" % (len(series_seen) + len(new), PY_SERIES_LIMIT))
    path = save(base + ".pprof", raw)
    rec["profiles"].append(path)
    for key, (n, v) in groups.items():
        lab = dict(key)
        note_series(lab)
        rec["stored"].append({"labels": lab, "samples": n, "value": v, "profile": path})


def pyroscope_form(ctype, body):
    """loadPprofFromForm: the 'profile' file part; prev_profile is refused."""
    if "boundary=" not in ctype:
        raise Refused(422, "failed to parse pprof /ingest multipart form malformed multipart "
                      "content type header")
    m = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + body)
    if not m.is_multipart():
        raise Refused(422, "failed to parse pprof /ingest multipart form: multipart: NextPart: EOF")
    files = {}
    for part in m.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if part.get_filename() is not None and name not in files:
            files[name] = part.get_payload(decode=True) or b""
    if files.get("prev_profile"):
        raise Refused(422, "unsupported client version. Please update github.com/grafana/pyroscope-go "
                      "to the latest version")
    if files.get("sample_type_config"):
        try:
            json.loads(files["sample_type_config"])
        except ValueError as e:
            raise Refused(422, "failed to parse pprof /ingest multipart form %s" % e)
    return files.get("profile", b"")


# --- Parca ---------------------------------------------------------------------------

PARCA_UI = b"<!doctype html><html><head><title>Parca</title></head><body><div id=root></div></body></html>"


def prom_label_name(n):
    # model.LabelName.IsValid, the legacy scheme: [a-zA-Z_][a-zA-Z0-9_]*
    return bool(n) and n.isascii() and (n[0].isalpha() or n[0] == "_") and \
        all(c.isalnum() or c == "_" for c in n)


def parca(h, u, body, base, rec):
    # server.go: /api is grpc-gateway's, with the prefix stripped; fallback.go:
    # what it answers 404 goes to the UI, whose mux serves index.html at "/"
    if not u.path.startswith("/api/") or u.path.rstrip("/") not in ("/api/profiles/writeraw",):
        raise Refused(200, "the UI", "text/html; charset=utf-8", PARCA_UI)
    if h.command != "POST":
        raise Refused(405, "Method Not Allowed", "application/json")
    try:
        # grpc-gateway's protojson, DiscardUnknown
        j = json.loads(body)
        if not isinstance(j, dict):
            raise ValueError("not an object")
        series = j.get("series") or []
        norm = j.get("normalized", False)
        if not isinstance(series, list) or not isinstance(norm, bool):
            raise ValueError("series or normalized")
        parsed = []
        for s in series:
            labels = ((s or {}).get("labels") or {}).get("labels") or []
            ls = [(l.get("name", ""), l.get("value", "")) for l in labels]
            raws = []
            for smp in (s or {}).get("samples") or []:
                raw = smp.get("rawProfile", smp.get("raw_profile", ""))
                raw = raw.replace("-", "+").replace("_", "/")
                raws.append(base64.b64decode(raw + "=" * (-len(raw) % 4), validate=True))
            parsed.append((ls, raws))
    except (ValueError, AttributeError, TypeError, binascii.Error) as e:
        raise Refused(400, "proto: syntax error: %s" % e)
    # normalizer.go NormalizeWriteRawRequest
    k = 0
    for ls, raws in parsed:
        lab, name = {}, ""
        for n, v in ls:
            if n == "__name__":
                name = v
                continue
            if not prom_label_name(n):
                raise Refused(400, "invalid label name: %s" % n)
            if n in lab:
                raise Refused(400, "duplicate label name: %s" % n)
            lab[n] = v
        if not name:
            raise Refused(400, "missing __name__ label")
        for sent in raws:
            raw = sent
            if raw[:2] == b"\x1f\x8b":
                try:
                    raw = gzip.decompress(raw)
                except (OSError, EOFError, zlib.error) as e:
                    raise Refused(500, "decompressing profile: %s" % e)
            try:
                p = pprof_decode(raw)
            except ValueError as e:
                raise Refused(400, "failed to parse profile: %s" % e)
            parca_validate(p)
            st = [utf8(x)[0] for x in p["string_table"]]
            path = save("%s-%d.pprof" % (base, k), sent)
            k += 1
            rec["profiles"].append(path)
            groups = {}
            for s in p["sample"]:
                sl = dict(lab)
                for lb in s["label"]:
                    if lb.get("str", 0):
                        sl.setdefault(st[lb["key"]], st[lb["str"]])
                key = tuple(sorted(sl.items()))
                g = groups.setdefault(key, [0, 0])
                g[0] += s["value"][0] if s["value"] else 0
                g[1] += s["value"][1] if len(s["value"]) > 1 else 0
            for key, (n, v) in groups.items():
                sl = dict(key)
                sl["__name__"] = name
                note_series(sl)
                rec["stored"].append({"labels": sl, "samples": n, "value": v, "profile": path})
        rec.setdefault("series_labels", []).append(dict(lab, __name__=name))
    rec["normalized"] = norm


def parca_validate(p):
    """validate.go ValidatePprofProfile."""
    n = len(p["string_table"])
    bad = lambda m: Refused(400, "invalid profile: " + m)
    out_of = lambda i: i != 0 and i >= n	# Go's "x != 0 && x >= stringTableLen"
    if n and p["string_table"][0] != b"":
        raise bad("first item in string table is expected to be empty string")
    for i, m in enumerate(p["mapping"]):
        if m.get("id", 0) != i + 1:
            raise bad("mapping id is not sequential")
        if out_of(m.get("filename", 0)) or out_of(m.get("build_id", 0)):
            raise bad("mapping (id: %d) has invalid filename index" % (i + 1))
    for i, f in enumerate(p["function"]):
        if f.get("id", 0) != i + 1:
            raise bad("function id is not sequential")
        for k in ("name", "system_name", "filename"):
            if out_of(f.get(k, 0)):
                raise bad("function (id: %d) has invalid %s index" % (i + 1, k))
    for i, loc in enumerate(p["location"]):
        if loc.get("id", 0) != i + 1:
            raise bad("location id is not sequential")
        if loc.get("mapping_id", 0) > len(p["mapping"]):
            raise bad("location has invalid mapping id: %d" % loc["mapping_id"])
        for ln in loc["line"]:
            if ln.get("function_id", 0) > len(p["function"]):
                raise bad("location %d has invalid function id" % (i + 1))
    if not p["sample_type"] and p["sample"]:
        raise bad("missing sample type information")
    for t in p["sample_type"]:
        if out_of(t.get("type", 0)) or out_of(t.get("unit", 0)):
            raise bad("sample type has invalid index")
    for i, s in enumerate(p["sample"]):
        if len(s["value"]) != len(p["sample_type"]):
            raise bad("mismatch: sample has %d values vs. %d types" % (len(s["value"]), len(p["sample_type"])))
        for lid in s["location_id"]:
            if lid == 0:
                raise bad("location ids of stacktraces must be non-zero")
            if lid > len(p["location"]):
                raise bad("sample %d location number is out of range" % i)
        for j, lb in enumerate(s["label"]):
            if not lb.get("key"):
                raise bad("sample %d label %d has no key" % (i, j))
            if lb["key"] >= n or lb.get("str", 0) >= n:
                raise bad("sample %d label %d has invalid index" % (i, j))


# --- OpenTelemetry collector ---------------------------------------------------------

def otlp(h, u, body, base, rec):
    if u.path != "/v1development/profiles":
        raise Refused(404, "404 page not found", "text/plain; charset=utf-8")
    if h.command != "POST":
        raise Refused(405, "405 method not allowed, supported: [POST]", "text/plain")
    mt = h.headers.get("Content-Type", "").split(";")[0].strip().lower()
    if mt not in ("application/x-protobuf", "application/json"):
        raise Refused(415, "415 unsupported media type, supported: [application/json, "
                      "application/x-protobuf]", "text/plain")
    enc = h.headers.get("Content-Encoding", "")
    if enc == "gzip":
        try:
            body = gzip.decompress(body)
        except (OSError, EOFError, zlib.error) as e:
            raise Refused(400, "failed to decompress: %s" % e, "text/plain")
    elif enc not in ("", "identity"):
        raise Refused(400, "unsupported Content-Encoding: %s" % enc, "text/plain")
    if mt == "application/json":
        raise Refused(400, "this stand-in reads OTLP's protobuf only")
    try:
        for _ in fields(body):
            pass
    except ValueError as e:
        raise Refused(400, "proto: %s" % e, mt)
    rec["profiles"].append(save(base + ".otlp", body))
    rec["stored"].append({"labels": {}, "profile": rec["profiles"][-1]})


HANDLERS = {"pyroscope": pyroscope, "parca": parca, "otlp": otlp}


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def handle_any(self):
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n)
        time.sleep(delay)
        with lock:
            count[0] += 1
            k = count[0]
            u = urllib.parse.urlsplit(self.path)
            rec = {"method": self.command, "path": u.path,
                   "query": urllib.parse.parse_qs(u.query),
                   "headers": {x.lower(): v for x, v in self.headers.items()},
                   "profiles": [], "stored": []}
            base = os.path.join(out, "%06d" % k)
            status, ctype, reply = 200, None, b""
            try:
                if forced:
                    raise Refused(forced, "refused by --status", "text/plain")
                HANDLERS[kind](self, u, body, base, rec)
                if kind == "parca":
                    ctype, reply = "application/json", b"{}"
                elif kind == "otlp":
                    ctype = "application/x-protobuf"
                    rejected = int(opt.get("--otlp-reject", "0"))
                    if rejected:
                        # ExportProfilesServiceResponse{partial_success{rejected_profiles, error_message}}
                        m = b"too old"
                        inner = bytes([0x08, rejected, 0x12, len(m)]) + m
                        reply = bytes([0x0a, len(inner)]) + inner
            except Refused as e:
                status, ctype = e.status, e.ctype
                reply = e.body if e.body is not None else \
                    json.dumps({"code": "invalid_argument", "message": e.msg}).encode() \
                    if ctype == "application/json" else e.msg.encode()
                if e.body is None:
                    rec["error"] = e.msg
                rec["stored"] = rec["profiles"] = []
            rec["status"] = status
            with open(base + ".json.tmp", "w") as f:
                json.dump(rec, f)
            os.rename(base + ".json.tmp", base + ".json")
        self.send_response(status)
        if ctype:
            self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(reply)

    do_POST = do_GET = do_PUT = do_HEAD = handle_any


srv = ThreadingHTTPServer(("127.0.0.1", int(opt.get("--port", "0"))), H)
if "--port-file" in opt:
    with open(opt["--port-file"] + ".tmp", "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(opt["--port-file"] + ".tmp", opt["--port-file"])
srv.serve_forever()
